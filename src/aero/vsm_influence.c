/* vsm_influence.c: the inflow and the influence matrices of the VSM (vsm.c).
 *
 * Inflow. Panel i sees va_i = va - omega x cp_i; its wake legs leave the trailing edge along
 * u_i = va_i/|va_i| and their viscous cores use V_inf = |va_i| (VortexStepMethod.jl, per panel).
 *
 * Influence matrix. AIC_ij = velocity at the evaluation point of panel i induced by the unit
 * horseshoe j (bound b2->b1, trailing b1->TE1 and TE2->b2, semi-infinite legs from TE1 (sign -1)
 * and TE2 (sign +1) along u_j), see vsm_filament.h.
 *   VSM: evaluation at the 3/4-chord control point, all five filaments (bound core
 *        eps = core_radius_fraction |b1 - b2|), minus for i == j the 2D induction of the own bound
 *        vortex U2D = (r0 x r3)/|r0 x r3|^2 |r0|/(2 pi), r0 = b1 - b2, r3 = cp - (b1 + b2)/2.
 *   LLT: evaluation at the 1/4-chord aerodynamic centre, bound filaments skipped.
 * The wake-independent part (bound, chordwise trailing, 2D term) is cached per geometry; a pair
 * whose evaluation point falls inside a chordwise trailing core at the current speed is
 * recomputed exactly. The cache is built per evaluation point from the refined sections: the
 * chordwise filament qc_r -> TE_r is trailing leg 1 of panel r and, reversed, leg 2 of panel
 * r - 1, so it is evaluated once (core-free, one division for it and its two core onset speeds)
 * and the vectors from qc_r to the point serve the bound filaments too. After a geometry change
 * (twist, linearization steps, moved sections) only the rows whose evaluation point moved and,
 * in the other rows, the columns whose horseshoe moved are rebuilt (bitwise equal to a full
 * build; awe_vsm_geometric_reference keeps the pair-by-pair build for the tests). Wake legs
 * leaving one trailing-edge point share the vector to the evaluation point.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aero/vsm_filament.h"
#include "aero/vsm_internal.h"
#include "util/vec3.h"


/* Quarter-chord point of refined section r (b1 of panel r, b2 of panel r - 1: the same value). */
static const double *node_qc(const awe_vsm_wing *w, int r) {
  return r < w->n ? w->b1 + 3*r : w->b2 + 3*(r - 1);
}


/* Subtract the 2D induction of the bound vortex of panel j at p (VSM, i == j). */
static void sub_self_2d(const awe_vsm_wing *w, int j, const double p[3], double out[3]) {
  const double *b1 = w->b1 + 3*j, *b2 = w->b2 + 3*j;
  const double r0[3] = {b1[0] - b2[0], b1[1] - b2[1], b1[2] - b2[2]};
  const double r3[3] = {p[0] - 0.5*(b1[0] + b2[0]), p[1] - 0.5*(b1[1] + b2[1]),
                        p[2] - 0.5*(b1[2] + b2[2])};
  double c[3];
  awe_v3_cross(c, r0, r3);
  const double c2 = awe_v3_dot(c, c);
  if (c2 > 0.0) {
    const double k = awe_v3_norm(r0)/(2.0*AWE_PI*c2);
    out[0] -= k*c[0];
    out[1] -= k*c[1];
    out[2] -= k*c[2];
  }
}


/* Bound filament b2 -> b1 of panel j at p, core eps = core_radius_fraction |b1 - b2|. */
static void bound_filament(const awe_vsm_wing *w, int j, const double p[3], double v[3]) {
  const double *b1 = w->b1 + 3*j, *b2 = w->b2 + 3*j;
  const double r0[3] = {b1[0] - b2[0], b1[1] - b2[1], b1[2] - b2[2]};
  awe_vsm_vel_segment(b2, b1, p, w->s.core_radius_fraction*awe_v3_norm(r0), v);
}


/* Wake-independent velocity at p of horseshoe j: optional bound filament, the two chordwise
 * trailing filaments with cores for wind speed vinf, optionally minus the 2D bound term. */
static void ring_geometric(const awe_vsm_wing *w, int j, const double p[3], double vinf,
                           int with_bound, int sub2d, double out[3]) {
  const double *b1 = w->b1 + 3*j, *b2 = w->b2 + 3*j;
  const double *te1 = w->ref_te + 3*j, *te2 = w->ref_te + 3*(j + 1);
  double v[3];
  out[0] = out[1] = out[2] = 0.0;
  if (with_bound) {
    bound_filament(w, j, p, v);
    out[0] += v[0];
    out[1] += v[1];
    out[2] += v[2];
  }
  awe_vsm_vel_segment(b1, te1, p, awe_vsm_trailing_core(b1, te1, p, vinf), v);
  out[0] += v[0];
  out[1] += v[1];
  out[2] += v[2];
  awe_vsm_vel_segment(te2, b2, p, awe_vsm_trailing_core(te2, b2, p, vinf), v);
  out[0] += v[0];
  out[1] += v[1];
  out[2] += v[2];
  if (sub2d) sub_self_2d(w, j, p, out);
}


void awe_vsm_ring_geometric(const awe_vsm_wing *w, int j, const double p[3], double vinf,
                            int with_bound, int sub2d, double out[3]) {
  ring_geometric(w, j, p, vinf, with_bound, sub2d, out);
}


/* Node values of one evaluation point p for the refined sections flagged in need (NULL: all):
 * the vectors from qc_r and te_r to p with their lengths (shared with the bound filaments), the
 * core-free filament qc_r -> te_r (panel r's leg 1; panel r-1's leg 2 is its negative) and the
 * core onset speeds of the filament as leg 1 and as leg 2 (the core grows from the start).
 * Same equations as awe_vsm_vel_segment/awe_vsm_trailing_vcrit with the shared terms computed
 * once and one division instead of 14; equal to roundoff. */
static void row_nodes(awe_vsm_wing *w, const double p[3], const int *need) {
  const double cv = 4.0*AWE_VSM_ALPHA0*AWE_VSM_NU;
  // the square roots first, in a loop of their own (independent: they overlap)
  for (int r = 0; r <= w->n; r++) {
    if (need && !need[r]) continue;
    w->row_nq[r] = awe_vsm_leg_vector(node_qc(w, r), p, w->row_rq + 3*r);
    w->row_nt[r] = awe_vsm_leg_vector(w->ref_te + 3*r, p, w->row_rt + 3*r);
  }
  for (int r = 0; r <= w->n; r++) {
    if (need && !need[r]) continue;
    const double *rq = w->row_rq + 3*r, *rt = w->row_rt + 3*r;
    const double *r0 = w->node_r0 + 3*r, l2 = w->node_l2[r];
    const double nq = w->row_nq[r], nt = w->row_nt[r];
    double *v = w->node_v + 3*r;
    const double c[3] = {rq[1]*r0[2] - rq[2]*r0[1], rq[2]*r0[0] - rq[0]*r0[2],
                         rq[0]*r0[1] - rq[1]*r0[0]};
    const double c2 = c[0]*c[0] + c[1]*c[1] + c[2]*c[2];
    const double a1 = rq[0]*r0[0] + rq[1]*r0[1] + rq[2]*r0[2];
    const double a2 = rt[0]*r0[0] + rt[1]*r0[1] + rt[2]*r0[2];
    const double rounding = 1e-12*nq;
    if (l2 <= 0.0) {
      v[0] = v[1] = v[2] = 0.0;
      w->node_v1[r] = w->node_v2[r] = 0.0;
      continue;
    }
    // one division: 1/(|r1| |r2| |r1 x r0|^2)
    const double inv = 1.0/(nq*nt*c2);
    if (c2 <= 0.0) {
      w->node_v1[r] = w->node_v2[r] = INFINITY;
    } else {
      const double f = cv*w->node_sl[r]*nq*nt*inv;  // 4 alpha0 nu / (d^2 |r0|)
      w->node_v1[r] = f*fabs(a1);
      w->node_v2[r] = f*fabs(a2);
    }
    if (c2 <= rounding*rounding*l2) {
      v[0] = v[1] = v[2] = 0.0;
      continue;
    }
    const double k = -AWE_VSM_INV4PI*(a1*nt - a2*nq)*inv;  // r0.(r1/|r1| - r2/|r2|)/c2
    v[0] = k*c[0];
    v[1] = k*c[1];
    v[2] = k*c[2];
  }
}


/* Bound filament b2 -> b1 of panel j at the point of the row (node vectors j + 1 and j). */
static void row_bound(const awe_vsm_wing *w, int j, double v[3]) {
  const double *r0 = w->bnd_r0 + 3*j, *r1 = w->row_rq + 3*(j + 1), *r2 = w->row_rq + 3*j;
  const double l2 = w->bnd_l2[j], eps = w->bnd_eps[j];
  const double n1 = w->row_nq[j + 1], n2 = w->row_nq[j];
  const double c[3] = {r1[1]*r0[2] - r1[2]*r0[1], r1[2]*r0[0] - r1[0]*r0[2],
                       r1[0]*r0[1] - r1[1]*r0[0]};
  const double c2 = c[0]*c[0] + c[1]*c[1] + c[2]*c[2];
  const double rounding = 1e-12*n1;
  const double a1 = r1[0]*r0[0] + r1[1]*r0[1] + r1[2]*r0[2];
  const double a2 = r2[0]*r0[0] + r2[1]*r0[1] + r2[2]*r0[2];
  double k;
  if (l2 <= 0.0 || (eps <= rounding && c2 <= rounding*rounding*l2)) {
    k = 0.0;
  } else if (c2 > eps*eps*l2) {
    k = -AWE_VSM_INV4PI*(a1*n2 - a2*n1)/(n1*n2*c2);
  } else {
    // inside the core: linear velocity profile (awe_vsm_vel_segment)
    const double e2 = eps*eps;
    const double dsum = a1/sqrt(a1*a1/l2 + e2) - a2/sqrt(a2*a2/l2 + e2);
    k = -AWE_VSM_INV4PI*dsum/(e2*l2);
  }
  v[0] = k*c[0];
  v[1] = k*c[1];
  v[2] = k*c[2];
}


/* Row i of a geometric matrix at the point p from the node values, for the panels flagged in
 * pan (NULL: all): bound (with_bound) + leg 1 - filament of node j+1 (- 2D term, sub2d). */
static void row_entries(awe_vsm_wing *w, int i, const double p[3], const int *pan,
                        int with_bound, int sub2d, double *g, double *vc) {
  const int n = w->n;
  const size_t nn = (size_t)n*(size_t)n;
  for (int j = 0; j < n; j++) {
    if (pan && !pan[j]) continue;
    const size_t ij = (size_t)i*n + j;
    const double *t1 = w->node_v + 3*j, *t2 = w->node_v + 3*(j + 1);
    double v[3] = {0.0, 0.0, 0.0};
    if (with_bound) row_bound(w, j, v);
    for (int c = 0; c < 3; c++) v[c] += t1[c] - t2[c];
    if (sub2d && i == j) sub_self_2d(w, j, p, v);
    for (int c = 0; c < 3; c++) g[c*nn + ij] = v[c];
    vc[ij] = fmax(w->node_v1[j], w->node_v2[j + 1]);
  }
}


/* Bring one geometric matrix at the points ep up to date: in full, or (full == 0) the rows whose
 * point differs from the one it was built at (old) and elsewhere the columns of moved horseshoes
 * (w->pan_moved). The filament shared by neighbouring horseshoes is evaluated once per row. */
static void update_geometric(awe_vsm_wing *w, const double *ep, double *old, int full,
                             int with_bound, int sub2d, double *g, double *vc) {
  const int n = w->n;
  int any = 0;
  for (int j = 0; j < n; j++) any |= w->pan_moved[j];
  for (int r = 0; r <= n; r++) {
    w->node_need[r] = (r > 0 && w->pan_moved[r - 1]) || (r < n && w->pan_moved[r]);
  }
  for (int i = 0; i < n; i++) {
    const double *p = ep + 3*i;
    const int row = full || memcmp(p, old + 3*i, 3*sizeof(double)) != 0;
    if (row) {
      row_nodes(w, p, NULL);
      row_entries(w, i, p, NULL, with_bound, sub2d, g, vc);
      memcpy(old + 3*i, p, 3*sizeof(double));
    } else if (any) {
      row_nodes(w, p, w->node_need);
      row_entries(w, i, p, w->pan_moved, with_bound, sub2d, g, vc);
    }
  }
}


/* Cache the wake-independent matrices for the current geometry and model; after a geometry
 * change (twist of some sections, linearization steps) only what moved is recomputed, and the
 * entries come out bitwise equal to a full build. */
void awe_vsm_build_geometric(awe_vsm_wing *w) {
  const int n = w->n;
  const int full = !w->geom_valid;
  const int vsm = w->s.model == AWE_VSM_MODEL_VSM;
  if (w->geom_reference) {
    awe_vsm_geometric_reference(w, w->g_main, w->g_ac, w->vc_main, w->vc_ac);
    return;
  }
  if (!full && w->geom_rev == w->geom_rev_built) return;  // no geometry change since
  w->geom_rev_built = w->geom_rev;
  for (int r = 0; r <= n; r++) {
    const double *qc = node_qc(w, r), *te = w->ref_te + 3*r;
    w->node_moved[r] = full || memcmp(qc, w->gc_qc + 3*r, 3*sizeof(double)) != 0 ||
                       memcmp(te, w->gc_te + 3*r, 3*sizeof(double)) != 0;
    memcpy(w->gc_qc + 3*r, qc, 3*sizeof(double));
    memcpy(w->gc_te + 3*r, te, 3*sizeof(double));
  }
  int any = 0;
  for (int j = 0; j < n; j++) {
    w->pan_moved[j] = w->node_moved[j] || w->node_moved[j + 1];
    any |= w->pan_moved[j];
  }
  // filament vectors (the trailing filaments qc_r -> te_r, the bound filaments b2 -> b1)
  for (int r = 0; r <= n && (full || any); r++) {
    double *r0 = w->node_r0 + 3*r;
    const double *qc = node_qc(w, r), *te = w->ref_te + 3*r;
    for (int c = 0; c < 3; c++) r0[c] = te[c] - qc[c];
    w->node_l2[r] = awe_v3_dot(r0, r0);
    w->node_sl[r] = sqrt(w->node_l2[r]);
  }
  for (int j = 0; j < n && (full || any); j++) {
    double *r0 = w->bnd_r0 + 3*j;
    for (int c = 0; c < 3; c++) r0[c] = w->b1[3*j + c] - w->b2[3*j + c];
    w->bnd_l2[j] = awe_v3_dot(r0, r0);
    w->bnd_eps[j] = w->s.core_radius_fraction*awe_v3_norm(r0);
  }
  update_geometric(w, vsm ? w->cp : w->ac, w->gc_main, full, vsm, vsm, w->g_main, w->vc_main);
  if (vsm) update_geometric(w, w->ac, w->gc_ac, full, 0, 0, w->g_ac, w->vc_ac);
  w->geom_valid = 1;
}


void awe_vsm_geometric_reference(const awe_vsm_wing *w, double *g_main, double *g_ac,
                                 double *vc_main, double *vc_ac) {
  const int n = w->n;
  const size_t nn = (size_t)n*(size_t)n;
  const int vsm = w->s.model == AWE_VSM_MODEL_VSM;
  for (int pass = 0; pass < (vsm ? 2 : 1); pass++) {
    const double *ep = pass == 0 && vsm ? w->cp : w->ac;
    double *g = pass == 0 ? g_main : g_ac, *vc = pass == 0 ? vc_main : vc_ac;
    const int at_cp = pass == 0 && vsm;
    for (int i = 0; i < n; i++) {
      const double *p = ep + 3*i;
      for (int j = 0; j < n; j++) {
        double v[3];
        ring_geometric(w, j, p, INFINITY, at_cp, at_cp && i == j, v);
        for (int c = 0; c < 3; c++) g[c*nn + (size_t)i*n + j] = v[c];
        vc[(size_t)i*n + j] =
            fmax(awe_vsm_trailing_vcrit(w->b1 + 3*j, w->ref_te + 3*j, p),
                 awe_vsm_trailing_vcrit(w->ref_te + 3*(j + 1), w->b2 + 3*j, p));
      }
    }
  }
}


/* Full AIC at the points ep: cached part (or exact where a core is touched) + wake legs. */
void awe_vsm_build_aic(awe_vsm_wing *w, const double *ep, const double *g, const double *vc,
                       int with_bound, int sub2d, double *a) {
  const int n = w->n;
  const size_t nn = (size_t)n*(size_t)n;
  double *semi = w->semi;
  const double e0 = 4.0*AWE_VSM_ALPHA0*AWE_VSM_NU/w->va_norm[0];
  for (int i = 0; i < n; i++) {
    const double *p = ep + 3*i;
    // wake legs from every trailing-edge point (shared by neighbours when the wake is uniform;
    // else the neighbours share the vector from the point)
    for (int k = 0; k <= n; k++) {
      if (w->uniform) {
        awe_vsm_vel_semiinf_e(w->ref_te + 3*k, w->va_unit, p, e0, semi + 3*k);
      } else {
        w->leg_n[k] = awe_vsm_leg_vector(w->ref_te + 3*k, p, semi + 3*k);
      }
    }
    for (int j = 0; j < n; j++) {
      const size_t ij = (size_t)i*n + j;
      double base[3], legs[3];
      if (w->va_norm[j] <= vc[ij]) {
        ring_geometric(w, j, p, w->va_norm[j], with_bound, sub2d && i == j, base);
      } else {
        base[0] = g[ij];
        base[1] = g[nn + ij];
        base[2] = g[2*nn + ij];
      }
      if (w->uniform) {
        for (int c = 0; c < 3; c++) legs[c] = semi[3*(j + 1) + c] - semi[3*j + c];
      } else {
        double s1[3], s2[3];
        const double *u = w->va_unit + 3*j;
        awe_vsm_vel_semiinf_r(semi + 3*j, w->leg_n[j], u, w->ecoef[j], s1);
        awe_vsm_vel_semiinf_r(semi + 3*(j + 1), w->leg_n[j + 1], u, w->ecoef[j], s2);
        for (int c = 0; c < 3; c++) legs[c] = s2[c] - s1[c];
      }
      a[ij] = base[0] + legs[0];
      a[nn + ij] = base[1] + legs[1];
      a[2*nn + ij] = base[2] + legs[2];
    }
  }
}


/* Velocity at the aerodynamic centres for the circulation g, out = va_i + sum_j AIC_ac,ij g_j,
 * summed directly (the LLT matrix at the 1/4 chord is not stored). With a uniform wake the legs
 * sharing a trailing-edge point are merged: sum_j g_j (S_j+1 - S_j) = sum_k S_k (g_k-1 - g_k). */
void awe_vsm_velocity_ac(awe_vsm_wing *w, const double *g, double *out) {
  const int n = w->n;
  const size_t nn = (size_t)n*(size_t)n;
  const double e0 = 4.0*AWE_VSM_ALPHA0*AWE_VSM_NU/w->va_norm[0];
  for (int i = 0; i < n; i++) {
    const double *p = w->ac + 3*i;
    double v[3] = {w->va[3*i], w->va[3*i + 1], w->va[3*i + 2]};
    for (int j = 0; j < n; j++) {
      const size_t ij = (size_t)i*n + j;
      double base[3];
      if (w->va_norm[j] <= w->vc_ac[ij]) {
        ring_geometric(w, j, p, w->va_norm[j], 0, 0, base);
      } else {
        base[0] = w->g_ac[ij];
        base[1] = w->g_ac[nn + ij];
        base[2] = w->g_ac[2*nn + ij];
      }
      for (int c = 0; c < 3; c++) v[c] += base[c]*g[j];
    }
    if (w->uniform) {
      for (int k = 0; k <= n; k++) {
        double s[3];
        const double dg = (k > 0 ? g[k - 1] : 0.0) - (k < n ? g[k] : 0.0);
        if (dg == 0.0) continue;
        awe_vsm_vel_semiinf_e(w->ref_te + 3*k, w->va_unit, p, e0, s);
        for (int c = 0; c < 3; c++) v[c] += s[c]*dg;
      }
    } else {
      // leg 2 of panel k-1 (+g) and leg 1 of panel k (-g), each along its own wake; all legs
      // first (independent divisions overlap), then the sum
      for (int k = 0; k <= n; k++) {
        w->leg_n[k] = awe_vsm_leg_vector(w->ref_te + 3*k, p, w->semi + 3*k);
      }
      for (int k = 0; k <= n; k++) {
        const double *r1 = w->semi + 3*k, n1 = w->leg_n[k];
        if (k > 0) {
          awe_vsm_vel_semiinf_r(r1, n1, w->va_unit + 3*(k - 1), w->ecoef[k - 1], w->leg2 + 3*k);
        }
        if (k < n) awe_vsm_vel_semiinf_r(r1, n1, w->va_unit + 3*k, w->ecoef[k], w->leg1 + 3*k);
      }
      for (int k = 0; k <= n; k++) {
        if (k > 0) {
          for (int c = 0; c < 3; c++) v[c] += w->leg2[3*k + c]*g[k - 1];
        }
        if (k < n) {
          for (int c = 0; c < 3; c++) v[c] -= w->leg1[3*k + c]*g[k];
        }
      }
    }
    out[3*i] = v[0];
    out[3*i + 1] = v[1];
    out[3*i + 2] = v[2];
  }
}


/* Induced velocity at the rows of a for the circulation g, added to va: out = va_i + A_i g. */
void awe_vsm_induced(const awe_vsm_wing *w, const double *a, const double *g, double *out) {
  const int n = w->n;
  const size_t nn = (size_t)n*(size_t)n;
  for (int i = 0; i < n; i++) {
    const double *ax = a + (size_t)i*n, *ay = ax + nn, *az = ay + nn;
    double sx = 0.0, sy = 0.0, sz = 0.0;
    for (int j = 0; j < n; j++) {
      sx += ax[j]*g[j];
      sy += ay[j]*g[j];
      sz += az[j]*g[j];
    }
    out[3*i] = w->va[3*i] + sx;
    out[3*i + 1] = w->va[3*i + 1] + sy;
    out[3*i + 2] = w->va[3*i + 2] + sz;
  }
}
