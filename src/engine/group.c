/* group.c: twist of the chordwise groups of rigid wings.
 *
 * Equations and sources: see group.h (physics.md §7).
 */
#include "engine/group.h"

#include <string.h>

#include "engine/aero_coupling.h"
#include "engine/point.h"
#include "engine/segment.h"

#define MAX_TWIST (0.5 * AWE_PI)


static int group_active(const awe_model *m, int g) {
  int wi = m->group_wing[g];
  return wi >= 0 && m->wing_type[wi] == AWE_WING_RIGID && m->group_point_num[g] >= 2 &&
         m->group_type[g] != AWE_DYN_STATIC;
}


awe_status awe_group_setup(const awe_model *m, awe_work *w, awe_err *err) {
  for (int g = 0; g < m->ngroup; g++) {
    awe_group_geom *G = &w->gg[g];
    memset(G, 0, sizeof(*G));
    int wi = m->group_wing[g];
    if (wi < 0 || m->wing_type[wi] != AWE_WING_RIGID || m->group_point_num[g] < 1) continue;
    int adr = m->group_point_adr[g], n = m->group_point_num[g];
    const int *pts = m->group_points + adr;
    memcpy(G->le_b, w->point_pos_b + 3 * pts[0], sizeof(G->le_b));
    double best = -1.0, mass = 0.0;
    for (int k = 0; k < n; k++) {
      double d[3];
      awe_v3_sub(d, w->point_pos_b + 3 * pts[k], G->le_b);
      if (awe_v3_norm(d) > best) {
        best = awe_v3_norm(d);
        memcpy(G->chord_b, d, sizeof(d));
      }
      mass += m->point_extra_mass[pts[k]];
    }
    double c = awe_v3_norm(G->chord_b);
    if (n >= 2 && m->group_type[g] != AWE_DYN_STATIC && !(c > 0.0))
      return awe_err_set(err, AWE_EINVAL, "group '%s': its points coincide (no chord)",
                         m->group_name[g]);
    if (c > 0.0) {
      for (int i = 0; i < 3; i++) G->x_airf[i] = G->chord_b[i] / c;
    } else {
      G->x_airf[0] = 1.0;
    }
    /* span direction: body y made orthogonal to the chord */
    double y[3] = {0.0, 1.0, 0.0};
    awe_v3_addto(y, -G->x_airf[1], G->x_airf);
    double yn = awe_v3_norm(y);
    if (!(yn > 1e-9))
      return awe_err_set(err, AWE_EINVAL, "group '%s': the chord is along the body y axis",
                         m->group_name[g]);
    for (int i = 0; i < 3; i++) G->y_airf[i] = y[i] / yn;
    awe_v3_cross(G->z_airf, G->x_airf, G->y_airf);
    G->inertia = mass * c * c / 3.0;
    if (m->group_type[g] == AWE_DYN_DYNAMIC && n >= 2 && !(G->inertia > 0.0))
      return awe_err_set(err, AWE_EINVAL,
                         "group '%s': a DYNAMIC twist surface needs mass on its points (extra_mass)",
                         m->group_name[g]);
    double axis[3];
    for (int i = 0; i < 3; i++) axis[i] = G->le_b[i] + m->group_moment_frac[g] * G->chord_b[i];
    for (int k = 0; k < n; k++) {
      int p = pts[k];
      if (w->point_group[p] >= 0) continue; /* a point twists with its first group */
      w->point_group[p] = g;
      double d[3];
      awe_v3_sub(d, w->point_pos_b + 3 * p, axis);
      w->point_twist_r[p] = awe_v3_dot(d, G->x_airf);
    }
  }
  return AWE_OK;
}


void awe_group_state_init(const awe_model *m, awe_work *w, double *y) {
  for (int g = 0; g < m->ngroup; g++) {
    w->twist[g] = w->twist_free[g] = w->twist_vel[g] = w->twist_acc[g] = 0.0;
    int o = w->group_x[g];
    if (o >= 0) y[o] = y[o + 1] = 0.0;
  }
}


void awe_group_unpack(const awe_model *m, awe_work *w, const double *y) {
  for (int g = 0; g < m->ngroup; g++) {
    int o = w->group_x[g];
    if (o >= 0) {
      w->twist_free[g] = y[o];
      w->twist_vel[g] = y[o + 1];
    } else {
      w->twist_vel[g] = 0.0;
      if (!group_active(m, g)) w->twist_free[g] = 0.0;
      /* quasi-static groups keep their last solution as the warm start */
    }
    double t = w->twist_free[g];
    w->twist[g] = t > MAX_TWIST ? MAX_TWIST : t < -MAX_TWIST ? -MAX_TWIST : t;
  }
}


/* v rotated about the unit axis k by angle th (Rodrigues) */
static void rotate(const double k[3], double th, const double v[3], double r[3]) {
  double c = cos(th), s = sin(th), kxv[3];
  awe_v3_cross(kxv, k, v);
  double kv = awe_v3_dot(k, v);
  for (int i = 0; i < 3; i++) r[i] = v[i] * c + kxv[i] * s + k[i] * kv * (1.0 - c);
}


void awe_group_point_b(const awe_model *m, const awe_work *w, int p, double pb[3], double vb[3]) {
  (void)m;
  const double *p0 = w->point_pos_b + 3 * p;
  int g = w->point_group[p];
  if (g < 0 || (w->twist[g] == 0.0 && w->twist_vel[g] == 0.0)) {
    memcpy(pb, p0, 3 * sizeof(double));
    vb[0] = vb[1] = vb[2] = 0.0;
    return;
  }
  const awe_group_geom *G = &w->gg[g];
  double d[3], r[3];
  awe_v3_sub(d, p0, G->le_b);
  rotate(G->y_airf, w->twist[g], d, r);
  for (int i = 0; i < 3; i++) pb[i] = G->le_b[i] + r[i];
  /* the clamp holds the plate at +-90 deg: no motion beyond it */
  double om = fabs(w->twist_free[g]) > MAX_TWIST ? 0.0 : w->twist_vel[g];
  awe_v3_cross(vb, G->y_airf, r);
  for (int i = 0; i < 3; i++) vb[i] *= om;
}


/* tether moment of group g about its twist axis at the current point forces */
static double tether_moment(const awe_model *m, const awe_work *w, int g) {
  const awe_group_geom *G = &w->gg[g];
  const double *R = w->wing_R + 9 * m->group_wing[g];
  double th = w->twist[g], zb[3], n[3];
  for (int i = 0; i < 3; i++) zb[i] = -(sin(th) * G->x_airf[i] + cos(th) * G->z_airf[i]);
  for (int i = 0; i < 3; i++) n[i] = R[3 * i] * zb[0] + R[3 * i + 1] * zb[1] + R[3 * i + 2] * zb[2];
  double M = 0.0;
  int adr = m->group_point_adr[g], np = m->group_point_num[g];
  for (int k = 0; k < np; k++) {
    int p = m->group_points[adr + k];
    if (w->point_group[p] != g) continue;
    M += w->point_twist_r[p] * awe_v3_dot(w->force + 3 * p, n);
  }
  return M;
}


void awe_group_dynamics(const awe_model *m, awe_work *w, unsigned flags) {
  for (int g = 0; g < m->ngroup; g++) {
    w->twist_acc[g] = 0.0;
    if (!group_active(m, g)) {
      w->group_moment_tether[g] = 0.0;
      continue;
    }
    double Mt = tether_moment(m, w, g);
    w->group_moment_tether[g] = Mt;
    if (w->group_x[g] < 0 || (flags & AWE_CTX_FIX_WING)) continue;
    double alpha = (w->group_moment_aero[g] + Mt) / w->gg[g].inertia;
    w->twist_acc[g] = alpha - m->group_damping[g] * w->twist_vel[g];
  }
}


void awe_group_assemble(const awe_model *m, const awe_work *w, double *dydt) {
  for (int g = 0; g < m->ngroup; g++) {
    int o = w->group_x[g];
    if (o < 0) continue;
    dydt[o] = w->flags & AWE_CTX_FIX_WING ? 0.0 : w->twist_vel[g];
    dydt[o + 1] = w->twist_acc[g];
  }
}


/* ---- quasi-static groups ---- */

/* re-place the points of group g at twist th and evaluate their forces; returns the moment
 * balance M_aero + M_tether */
static double qs_residual(const awe_model *m, awe_work *w, int g, double th) {
  w->twist_free[g] = th;
  w->twist[g] = th > MAX_TWIST ? MAX_TWIST : th < -MAX_TWIST ? -MAX_TWIST : th;
  int wi = m->group_wing[g];
  const awe_wing_geom *G = &w->wg[wi];
  const double *R = w->wing_R + 9 * wi, *com = w->wing_com + 3 * wi;
  const double *ww = w->wing_omega_w + 3 * wi, *cv = w->wing_com_vel + 3 * wi;
  int adr = m->group_point_adr[g], np = m->group_point_num[g];
  for (int k = 0; k < np; k++) {
    int p = m->group_points[adr + k];
    if (w->point_group[p] != g) continue;
    double pb[3], vb[3], rb[3], rw[3];
    awe_group_point_b(m, w, p, pb, vb);
    awe_v3_sub(rb, pb, G->com_b);
    for (int i = 0; i < 3; i++) rw[i] = R[3 * i] * rb[0] + R[3 * i + 1] * rb[1] + R[3 * i + 2] * rb[2];
    for (int i = 0; i < 3; i++) w->pos[3 * p + i] = com[i] + rw[i];
    awe_v3_cross(w->vel + 3 * p, ww, rw);
    awe_v3_addto(w->vel + 3 * p, 1.0, cv);
  }
  for (int k = 0; k < np; k++) {
    int p = m->group_points[adr + k];
    for (int e = 0; e < w->point_seg_num[p]; e++) awe_segment_eval(m, w, w->point_segs[w->point_seg_adr[p] + e]);
  }
  for (int k = 0; k < np; k++) awe_point_force(m, w, m->group_points[adr + k]);
  awe_aero_eval(m, w);
  return w->group_moment_aero[g] + tether_moment(m, w, g);
}


int awe_group_quasi_static(const awe_model *m, awe_work *w) {
  int rc = 0;
  for (int g = 0; g < m->ngroup; g++) {
    if (w->group_x[g] >= 0 || !group_active(m, g) || m->group_type[g] != AWE_DYN_QUASI_STATIC)
      continue;
    double t0 = w->twist_free[g], r0 = qs_residual(m, w, g, t0);
    double t1 = t0 + 1e-4, r1 = qs_residual(m, w, g, t1);
    int ok = 0;
    for (int it = 0; it < 60; it++) {
      if (fabs(r1) == 0.0) {
        ok = 1;
        break;
      }
      double den = r1 - r0;
      double t2 = den != 0.0 ? t1 - r1 * (t1 - t0) / den : t1 + 1e-3;
      /* safeguard: at most 0.2 rad per iteration, inside the clamp */
      if (t2 - t1 > 0.2) t2 = t1 + 0.2;
      if (t2 - t1 < -0.2) t2 = t1 - 0.2;
      if (t2 > MAX_TWIST) t2 = MAX_TWIST;
      if (t2 < -MAX_TWIST) t2 = -MAX_TWIST;
      t0 = t1;
      r0 = r1;
      t1 = t2;
      r1 = qs_residual(m, w, g, t1);
      if (fabs(t1 - t0) < 1e-10) {
        ok = 1;
        break;
      }
    }
    if (!ok && !isfinite(r1)) rc = -1;
  }
  return rc;
}
