/* vsm.c: Vortex Step Method / lifting-line solver (allocation, influence matrices, circulation
 * solve, loads).
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
 *
 * Circulation. With v_i = va_i + sum_j AIC_ij Gamma_j, alpha_i = atan2(v_i.n_i, v_i.c_i),
 * W_i = |v_i x s_i|^2, V_ref,i = |va_i x s_i| the fixed-point map is
 *   G_i(Gamma) = 1/2 W_i/V_ref,i c_i cl_i(alpha_i)                       (vsm.md §7)
 * optionally regularised post-stall by the Li/Gaunaa implicit spanwise viscosity
 *   (I - diag(mu) L) G~ = G,  mu_i = max(0, -k S cl'_i / w_i^2),  S = sum c_i w_i,
 *   L = tridiag(1, -2, 1) with tip rows (-4, 4/3) and (4/3, -4)          (Li et al., TORQUE 2026)
 * Convergence: max|G~ - Gamma| / max(max|G~|, tol_reference_error) < rtol, i.e. on the UNRELAXED
 * update (the VortexStepMethod.jl #284 fix).
 *   LOOP:   Gamma_i <- Gamma_i + w_i (G~_i - Gamma_i), w_i = min(w, 1/(1 - dG_i/dGamma_i)) with
 *           w = relaxation_factor (the cap only bites on stiff panels, e.g. tiny cosine tip
 *           panels, where w would exceed the stability limit 2/(1 - dG_i/dGamma_i)); if it
 *           fails, once more from the start with w/2 (when w > 1e-3); an unconverged loop
 *           returns its best iterate.
 *   NEWTON: on R(Gamma) = G(Gamma) - (I - diag(mu) L) Gamma with the analytic Jacobian
 *           dG_i/dGamma_j = g_i . AIC_ij,
 *             g_i = c_i/(2 V_ref,i) [2 cl_i (v_i - (v_i.s_i) s_i)
 *                                    + W_i cl'_i (v_c n_i - v_n c_i)/(v_n^2 + v_c^2)],
 *           dense LU with partial pivoting (factors reused while they contract, also across
 *           solves), backtracking line search on |G~ - Gamma|^2; on failure the LOOP
 *           finishes from the best iterate.
 *
 * Loads (vsm.md §9-10). With q_i = 1/2 rho V_eff,i^2, V_eff,i = sqrt(W_i) at the solve's
 * evaluation point: L'_i = q_i c_i cl_i, D'_i = q_i c_i cd_i, m'_i = q_i c_i^2 cm_i. Directions use,
 * with correct_aoa (default, VSM), alpha at the 1/4 chord, recomputed with the LLT matrix at the
 * aerodynamic centres: the Kutta-Joukowski force on the bound vortex is normal to the flow there
 * (Gaunaa, Li, Pirrung, TORQUE 2026; VortexStepMethod.jl's default); induced drag of an elliptic
 * wing AR 20 within -2.5 % of Prandtl's CL^2/(pi AR). Without it, the alpha of the solve (3/4
 * chord), as the Python Vortex-Step-Method (is_aoa_corrected = False): +10.8 % on that wing, and
 * CD +23 % on the V3 kite:
 *   e_f = normalize(cos a c + sin a n), e_L = normalize(e_f x s), e_D = normalize(y_s x e_L)
 *   (y_s = spanwise_direction), f_i = (L'_i e_L + D'_i e_D) w_i acting at the aerodynamic centre,
 *   M = sum m'_i w_i s_i + (ac_i - ref) x f_i,
 *   panel_moment_i = ((f_i/w_i . n_i)(moment_frac - 0.25) c_i + m'_i) w_i.
 * Coefficients on q_inf = 1/2 rho |va|^2 and the projected area S:
 *   CF = F/(q S), CM = M/(q S c_ref),
 * CL/CD/CS from F along e_L = normalize(va x y_s), e_D = va/|va|, e_S = e_L x e_D.
 *
 * Sources: Cayon, Gaunaa, Schmehl, "Fast aero-structural model of a leading-edge inflatable kite",
 * Energies 16:3061 (2023); VortexStepMethod.jl (solver.jl, body_aerodynamics.jl, panel.jl) and
 * awegroup/Vortex-Step-Method (Solver.py); the method in docs/vsm.md.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aero/vsm_filament.h"
#include "util/vec3.h"
#include "aero/vsm_internal.h"

static const double PI = 3.14159265358979323846;
static const double CL_SLOPE_STEP = 1e-6;           /* [rad], Newton Jacobian */
static const double AV_SLOPE_STEP = 0.5*3.14159265358979323846/180.0;  /* [rad], viscosity */
static const int NEWTON_MAX_STEPS = 50;
static const double NEWTON_REFRESH = 0.1;  /* refactor when |R| shrinks by less per step */


/* ---- small vector helpers ------------------------------------------------------------------ */









static int finite3(const double a[3]) {
  return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}


__attribute__((format(printf, 3, 4)))
static void seterr(char *err, size_t errsz, const char *fmt, ...) {
  if (!err || !errsz) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errsz, fmt, ap);
  va_end(ap);
}


/* ---- allocation ---------------------------------------------------------------------------- */

/* Point the workspace arrays into one block; with base == NULL only count. Returns bytes. */
static size_t carve(awe_vsm_wing *w, char *base) {
  const size_t n = (size_t)w->n, m = (size_t)w->nsec, q = n + 1, nn = n*n;
  size_t off = 0;
#define TAKE(ptr, type, count)                                  \
  do {                                                          \
    off = (off + 15u) & ~(size_t)15u;                           \
    if (base) ptr = (type *)(void *)(base + off);               \
    off += sizeof(type)*(size_t)(count);                        \
  } while (0)
  TAKE(w->pa, awe_vsm_panel_aero, n);
  TAKE(w->sec_le, double, 3*m);
  TAKE(w->sec_te, double, 3*m);
  TAKE(w->sec_theta, double, m);
  TAKE(w->theta_user, double, m);
  TAKE(w->ref_w, double, q);
  TAKE(w->ref_le, double, 3*q);
  TAKE(w->ref_te, double, 3*q);
  TAKE(w->ref_te0, double, 3*q);
  TAKE(w->ref_y, double, 3*q);
  TAKE(w->b1, double, 3*n);
  TAKE(w->b2, double, 3*n);
  TAKE(w->ac, double, 3*n);
  TAKE(w->cp, double, 3*n);
  TAKE(w->ec, double, 3*n);
  TAKE(w->en, double, 3*n);
  TAKE(w->es, double, 3*n);
  TAKE(w->chord, double, n);
  TAKE(w->width, double, n);
  TAKE(w->g_main, double, 3*nn);
  TAKE(w->g_ac, double, 3*nn);
  TAKE(w->vc_main, double, nn);
  TAKE(w->vc_ac, double, nn);
  TAKE(w->gc_qc, double, 3*q);
  TAKE(w->gc_te, double, 3*q);
  TAKE(w->gc_main, double, 3*n);
  TAKE(w->gc_ac, double, 3*n);
  TAKE(w->node_v, double, 3*q);
  TAKE(w->node_r0, double, 3*q);
  TAKE(w->node_l2, double, q);
  TAKE(w->node_sl, double, q);
  TAKE(w->bnd_r0, double, 3*n);
  TAKE(w->bnd_l2, double, n);
  TAKE(w->bnd_eps, double, n);
  TAKE(w->row_rq, double, 3*q);
  TAKE(w->row_rt, double, 3*q);
  TAKE(w->row_nq, double, q);
  TAKE(w->row_nt, double, q);
  TAKE(w->node_v1, double, q);
  TAKE(w->node_v2, double, q);
  TAKE(w->aic, double, 3*nn);
  TAKE(w->semi, double, 3*q);
  TAKE(w->leg_n, double, q);
  TAKE(w->leg1, double, 3*q);
  TAKE(w->leg2, double, 3*q);
  TAKE(w->va, double, 3*n);
  TAKE(w->va_norm, double, n);
  TAKE(w->ecoef, double, n);
  TAKE(w->kfac, double, n);
  TAKE(w->va_unit, double, 3*n);
  TAKE(w->v_ref, double, n);
  TAKE(w->gam, double, n);
  TAKE(w->gam_start, double, n);
  TAKE(w->gam_prev, double, n);
  TAKE(w->gtry, double, n);
  TAKE(w->graw, double, n);
  TAKE(w->gtarget, double, n);
  TAKE(w->gtarget_try, double, n);
  TAKE(w->step, double, n);
  TAKE(w->rhs, double, n);
  TAKE(w->vel, double, 3*n);
  TAKE(w->alpha, double, n);
  TAKE(w->v_eff, double, n);
  TAKE(w->clv, double, n);
  TAKE(w->gvec, double, 3*n);
  TAKE(w->mu, double, n);
  TAKE(w->relax, double, n);
  TAKE(w->tri, double, 4*n);
  TAKE(w->jac, double, nn);
  TAKE(w->alpha_ac, double, n);
  TAKE(w->cdv, double, n);
  TAKE(w->cmv, double, n);
  TAKE(w->pforce, double, 3*n);
  TAKE(w->pmom, double, n);
  TAKE(w->smom, double, m);
  TAKE(w->lin_gam, double, n);
  TAKE(w->lin_theta, double, m);
  TAKE(w->lin_xp, double, 6 + m);
  TAKE(w->lin_xm, double, 6 + m);
  TAKE(w->sec_af, int, m);
  TAKE(w->ref_l, int, q);
  TAKE(w->pan_sec, int, n);
  TAKE(w->pan_sec_user, int, n);
  TAKE(w->piv, int, n);
  TAKE(w->node_moved, int, q);
  TAKE(w->node_need, int, q);
  TAKE(w->pan_moved, int, n);
#undef TAKE
  return off;
}


/* Deep copy of the airfoils; polar rows with NaN are dropped when remove_nan. */
static int copy_airfoils(awe_vsm_wing *w, const awe_airfoil *af, int naf, char *err,
                         size_t errsz) {
  w->naf = naf;
  if (naf <= 0) return 0;
  w->af = calloc((size_t)naf, sizeof(awe_airfoil));
  if (!w->af) {
    seterr(err, errsz, "vsm: out of memory");
    return -1;
  }
  size_t rows = 0;
  for (int k = 0; k < naf; k++) {
    if (af[k].type == AWE_AIRFOIL_POLARS) {
      if (af[k].n < 1 || !af[k].alpha) {
        seterr(err, errsz, "vsm: airfoil %d (id %d): empty polar table", k, af[k].id);
        return -1;
      }
      rows += (size_t)af[k].n;
    }
  }
  if (rows) {
    w->af_rows = malloc(4*rows*sizeof(double));
    if (!w->af_rows) {
      seterr(err, errsz, "vsm: out of memory");
      return -1;
    }
  }

  double *p = w->af_rows;
  for (int k = 0; k < naf; k++) {
    w->af[k] = af[k];
    if (af[k].type == AWE_AIRFOIL_BREUKELS) {
      if (!isfinite(af[k].t) || !isfinite(af[k].kappa)) {
        seterr(err, errsz, "vsm: airfoil %d (id %d): non-finite Breukels parameters", k,
               af[k].id);
        return -1;
      }
      continue;
    }
    if (af[k].type != AWE_AIRFOIL_POLARS) {
      w->af[k].type = AWE_AIRFOIL_INVISCID;
      continue;
    }

    // copy the rows, dropping NaN rows when remove_nan
    const int n0 = af[k].n;
    double *a = p, *cl = p + n0, *cd = p + 2*n0, *cm = p + 3*n0;
    int nk = 0;
    for (int j = 0; j < n0; j++) {
      double va = af[k].alpha[j];
      double vl = af[k].cl ? af[k].cl[j] : 0.0;
      double vd = af[k].cd ? af[k].cd[j] : 0.0;
      double vm = af[k].cm ? af[k].cm[j] : 0.0;
      int bad = !isfinite(va) || !isfinite(vl) || !isfinite(vd) || !isfinite(vm);
      if (bad && w->s.remove_nan) continue;
      if (!isfinite(va)) {
        seterr(err, errsz, "vsm: airfoil %d (id %d): non-finite alpha in polar", k, af[k].id);
        return -1;
      }
      a[nk] = va;
      cl[nk] = vl;
      cd[nk] = vd;
      cm[nk] = vm;
      nk++;
    }
    if (nk < 1) {
      seterr(err, errsz, "vsm: airfoil %d (id %d): no finite polar rows", k, af[k].id);
      return -1;
    }
    for (int j = 1; j < nk; j++) {
      if (!(a[j] > a[j - 1])) {
        seterr(err, errsz, "vsm: airfoil %d (id %d): polar alpha not strictly increasing", k,
               af[k].id);
        return -1;
      }
    }
    w->af[k].n = nk;
    w->af[k].alpha = a;
    w->af[k].cl = cl;
    w->af[k].cd = cd;
    w->af[k].cm = cm;
    p += 4*n0;
  }
  return 0;
}


/* Airfoil blend of every panel from the refinement weights of its two refined sections. */
static void setup_panel_aero(awe_vsm_wing *w) {
  for (int i = 0; i < w->n; i++) {
    awe_vsm_panel_aero *pa = &w->pa[i];
    memset(pa, 0, sizeof(*pa));
    int idx[4];
    double wt[4];
    int nt = 0;
    for (int e = 0; e < 2; e++) {
      const int r = i + e, l = w->ref_l[r];
      const int cand[2] = {w->sec_af[l], w->sec_af[l + 1]};
      const double cw[2] = {0.5*w->ref_w[r], 0.5*(1.0 - w->ref_w[r])};
      for (int c = 0; c < 2; c++) {
        if (cw[c] <= 0.0) continue;
        int found = -1;
        for (int t = 0; t < nt; t++) {
          if (idx[t] == cand[c]) found = t;
        }
        if (found >= 0) {
          wt[found] += cw[c];
        } else {
          idx[nt] = cand[c];
          wt[nt] = cw[c];
          nt++;
        }
      }
    }

    // all Breukels: blend the parameters (the regression is nonlinear in t and kappa)
    int all_breukels = nt > 0;
    for (int t = 0; t < nt; t++) {
      if (idx[t] < 0 || w->af[idx[t]].type != AWE_AIRFOIL_BREUKELS) all_breukels = 0;
    }
    if (all_breukels) {
      pa->nterm = 0;
      pa->own.type = AWE_AIRFOIL_BREUKELS;
      for (int t = 0; t < nt; t++) {
        pa->own.t += wt[t]*w->af[idx[t]].t;
        pa->own.kappa += wt[t]*w->af[idx[t]].kappa;
      }
      continue;
    }

    pa->nterm = nt;
    pa->amin = -INFINITY;
    pa->amax = INFINITY;
    for (int t = 0; t < nt; t++) {
      pa->idx[t] = idx[t];
      pa->wt[t] = wt[t];
      if (idx[t] >= 0 && w->af[idx[t]].type == AWE_AIRFOIL_POLARS) {
        const awe_airfoil *a = &w->af[idx[t]];
        pa->has_polar = 1;
        pa->amin = fmax(pa->amin, a->alpha[0]);
        pa->amax = fmin(pa->amax, a->alpha[a->n - 1]);
      }
    }
  }
}


/* Section coefficients of panel i at alpha. */
static void panel_coeffs(const awe_vsm_wing *w, int i, double alpha, double *cl, double *cd,
                         double *cm) {
  const awe_vsm_panel_aero *pa = &w->pa[i];
  if (pa->nterm == 0) {
    awe_airfoil_eval(&pa->own, alpha, cl, cd, cm);
    return;
  }
  double sl = 0.0, sd = 0.0, sm = 0.0;
  for (int t = 0; t < pa->nterm; t++) {
    double l = 0.0, d = 0.0, m = 0.0;
    const awe_airfoil *a = pa->idx[t] >= 0 ? &w->af[pa->idx[t]] : NULL;
    awe_airfoil_eval(a, alpha, cl ? &l : NULL, cd ? &d : NULL, cm ? &m : NULL);
    sl += pa->wt[t]*l;
    sd += pa->wt[t]*d;
    sm += pa->wt[t]*m;
  }
  // VortexStepMethod.jl with remove_nan = false: NaN outside the tables
  if (pa->has_polar && !w->s.remove_nan && (alpha < pa->amin || alpha > pa->amax)) {
    sl = sd = sm = NAN;
  }
  if (cl) *cl = sl;
  if (cd) *cd = sd;
  if (cm) *cm = sm;
}


/* Angle of each panel's largest cl on a 0.1 deg grid over -20..40 deg (INFINITY when cl still
 * rises at 40 deg): beyond it a panel is post-stall (awe_vsm_result.n_stalled). */
static void find_clmax(awe_vsm_wing *w) {
  const double a0 = -20.0*PI/180.0, da = 0.1*PI/180.0;
  const int na = 600;
  for (int i = 0; i < w->n; i++) {
    double best = -INFINITY;
    int kbest = na;
    for (int k = 0; k <= na; k++) {
      double cl;
      panel_coeffs(w, i, a0 + k*da, &cl, NULL, NULL);
      if (cl > best) {
        best = cl;
        kbest = k;
      }
    }
    w->pa[i].a_clmax = kbest >= na ? INFINITY : a0 + kbest*da;
  }
}


static double panel_cl(const awe_vsm_wing *w, int i, double alpha) {
  double cl;
  panel_coeffs(w, i, alpha, &cl, NULL, NULL);
  return cl;
}


awe_vsm_wing *awe_vsm_wing_alloc(const awe_vsm_section *sec, int nsec, const awe_airfoil *af,
                                 int naf, const awe_vsm_settings *s, char *err, size_t errsz) {
  if (err && errsz) err[0] = '\0';
  if (!sec || !s) {
    seterr(err, errsz, "vsm: NULL sections or settings");
    return NULL;
  }
  if (nsec < 2) {
    seterr(err, errsz, "vsm: need at least 2 sections, got %d", nsec);
    return NULL;
  }
  if (naf > 0 && !af) {
    seterr(err, errsz, "vsm: NULL airfoil array with %d airfoils", naf);
    return NULL;
  }

  // settings
  if (!(s->relaxation_factor > 0.0 && s->relaxation_factor <= 1.0)) {
    seterr(err, errsz, "vsm: relaxation_factor must be in (0, 1]");
    return NULL;
  }
  if (!(s->rtol > 0.0) || s->max_iterations < 1 || !(s->density > 0.0) ||
      !(s->tol_reference_error >= 0.0) || !(s->core_radius_fraction >= 0.0)) {
    seterr(err, errsz,
           "vsm: invalid solver settings (need rtol > 0, max_iterations >= 1, density > 0, "
           "tol_reference_error >= 0, core_radius_fraction >= 0)");
    return NULL;
  }
  double sdir[3] = {s->spanwise_direction[0], s->spanwise_direction[1],
                    s->spanwise_direction[2]};
  if (!finite3(sdir) || awe_v3_norm(sdir) <= 0.0) {
    seterr(err, errsz, "vsm: spanwise_direction must be a non-zero vector");
    return NULL;
  }
  awe_v3_normalize(sdir);

  // panel count from the distribution
  int n;
  if (s->distribution == AWE_DIST_UNCHANGED) {
    n = nsec - 1;
  } else {
    n = s->n_panels;
    if (n < 1) {
      seterr(err, errsz, "vsm: n_panels must be >= 1, got %d", n);
      return NULL;
    }
    if (s->distribution == AWE_DIST_SPLIT_PROVIDED && n % (nsec - 1) != 0) {
      seterr(err, errsz, "vsm: SPLIT_PROVIDED needs n_panels (%d) to be a multiple of the "
             "number of provided panels (%d)", n, nsec - 1);
      return NULL;
    }
    if (s->distribution == AWE_DIST_COSINE_VAN_GARREL && n != nsec - 1) {
      seterr(err, errsz, "vsm: COSINE_VAN_GARREL is not supported (broken upstream); use "
             "COSINE");
      return NULL;
    }
    if (s->distribution < AWE_DIST_LINEAR || s->distribution > AWE_DIST_UNCHANGED) {
      seterr(err, errsz, "vsm: unknown spanwise distribution %d", (int)s->distribution);
      return NULL;
    }
  }

  // sections: finite points, non-zero chords, valid airfoil indices
  for (int k = 0; k < nsec; k++) {
    double c[3] = {sec[k].te[0] - sec[k].le[0], sec[k].te[1] - sec[k].le[1],
                   sec[k].te[2] - sec[k].le[2]};
    if (!finite3(sec[k].le) || !finite3(sec[k].te)) {
      seterr(err, errsz, "vsm: section %d: non-finite LE/TE", k);
      return NULL;
    }
    if (!(awe_v3_norm(c) > 0.0)) {
      seterr(err, errsz, "vsm: section %d: zero chord", k);
      return NULL;
    }
    if (sec[k].airfoil >= naf) {
      seterr(err, errsz, "vsm: section %d: airfoil index %d out of range", k, sec[k].airfoil);
      return NULL;
    }
  }

  awe_vsm_wing *w = calloc(1, sizeof(*w));
  if (!w) {
    seterr(err, errsz, "vsm: out of memory");
    return NULL;
  }
  w->s = *s;
  w->nsec = nsec;
  w->n = n;
  w->moment_frac = 0.25;
  memcpy(w->sdir, sdir, sizeof(sdir));
  w->s.spanwise_direction[0] = sdir[0];
  w->s.spanwise_direction[1] = sdir[1];
  w->s.spanwise_direction[2] = sdir[2];

  // one block for all arrays
  size_t bytes = carve(w, NULL);
  char *block = calloc(1, bytes);
  if (!block) {
    free(block);
    awe_vsm_wing_free(w);
    seterr(err, errsz, "vsm: out of memory (%d panels)", n);
    return NULL;
  }
  carve(w, block);

  if (copy_airfoils(w, af, naf, err, errsz) != 0) {
    awe_vsm_wing_free(w);
    return NULL;
  }

  // internal order runs from +y (along spanwise_direction) to -y
  double qa[3], qb[3];
  for (int c = 0; c < 3; c++) {
    qa[c] = sec[0].le[c] + 0.25*(sec[0].te[c] - sec[0].le[c]);
    qb[c] = sec[nsec - 1].le[c] + 0.25*(sec[nsec - 1].te[c] - sec[nsec - 1].le[c]);
  }
  w->reversed = awe_v3_dot(qa, sdir) < awe_v3_dot(qb, sdir);
  for (int k = 0; k < nsec; k++) {
    const awe_vsm_section *sk = &sec[w->reversed ? nsec - 1 - k : k];
    memcpy(w->sec_le + 3*k, sk->le, 3*sizeof(double));
    memcpy(w->sec_te + 3*k, sk->te, 3*sizeof(double));
    w->sec_af[k] = sk->airfoil < 0 ? -1 : sk->airfoil;
  }

  if (awe_vsm_geom_setup(w, err, errsz) != 0) {
    awe_vsm_wing_free(w);
    return NULL;
  }
  awe_vsm_geom_update(w);
  awe_vsm_geom_map_panels(w);
  setup_panel_aero(w);
  find_clmax(w);
  for (int i = 0; i < n; i++) {
    if (!(w->width[i] > 0.0) || !(w->chord[i] > 0.0)) {
      seterr(err, errsz, "vsm: panel %d has zero width or chord (coincident sections?)", i);
      awe_vsm_wing_free(w);
      return NULL;
    }
  }
  return w;
}


void awe_vsm_wing_free(awe_vsm_wing *w) {
  if (!w) return;
  free(w->af_rows);
  free(w->af);
  free(w->pa);  // the block starts with the panel aero array
  free(w);
}


/* ---- wing updates -------------------------------------------------------------------------- */

int awe_vsm_wing_set_sections(awe_vsm_wing *w, const awe_vsm_section *sec, int nsec) {
  if (!w || !sec || nsec != w->nsec) return AWE_VSM_EINVAL;
  for (int k = 0; k < nsec; k++) {
    double c[3] = {sec[k].te[0] - sec[k].le[0], sec[k].te[1] - sec[k].le[1],
                   sec[k].te[2] - sec[k].le[2]};
    if (!finite3(sec[k].le) || !finite3(sec[k].te) || !(awe_v3_norm(c) > 0.0)) return AWE_VSM_EINVAL;
  }
  for (int k = 0; k < nsec; k++) {
    const awe_vsm_section *sk = &sec[w->reversed ? nsec - 1 - k : k];
    memcpy(w->sec_le + 3*k, sk->le, 3*sizeof(double));
    memcpy(w->sec_te + 3*k, sk->te, 3*sizeof(double));
  }
  awe_vsm_geom_update(w);
  return AWE_VSM_OK;
}


int awe_vsm_wing_set_twist(awe_vsm_wing *w, const double *theta) {
  if (!w) return AWE_VSM_EINVAL;
  if (theta) {
    for (int k = 0; k < w->nsec; k++) {
      if (!isfinite(theta[k])) return AWE_VSM_EINVAL;
    }
  }
  for (int k = 0; k < w->nsec; k++) {
    const double t = theta ? theta[k] : 0.0;
    w->theta_user[k] = t;
    w->sec_theta[w->reversed ? w->nsec - 1 - k : k] = t;
  }
  awe_vsm_geom_update_twist(w);
  return AWE_VSM_OK;
}


const double *awe_vsm_wing_twist(const awe_vsm_wing *w) {
  return w ? w->theta_user : NULL;
}


void awe_vsm_wing_set_moment_frac(awe_vsm_wing *w, double frac) {
  if (w && isfinite(frac)) w->moment_frac = frac;
}


void awe_vsm_wing_set_stop(awe_vsm_wing *w, const volatile sig_atomic_t *stop) {
  if (w) w->stop = stop;
}


void awe_vsm_wing_reset_gamma(awe_vsm_wing *w) {
  if (w) w->gam_prev_valid = 0;
}


void awe_vsm_wing_reset(awe_vsm_wing *w) {
  if (!w) return;
  w->gam_prev_valid = 0;
  w->lu_valid = 0;
}


void awe_vsm_wing_set_settings(awe_vsm_wing *w, const awe_vsm_settings *s) {
  if (!w || !s) return;
  awe_vsm_settings keep = w->s;
  w->s = *s;
  w->s.n_panels = keep.n_panels;
  w->s.distribution = keep.distribution;
  memcpy(w->s.spanwise_direction, keep.spanwise_direction, sizeof(keep.spanwise_direction));
  if (!(w->s.relaxation_factor > 0.0 && w->s.relaxation_factor <= 1.0)) {
    w->s.relaxation_factor = keep.relaxation_factor;
  }
  if (!(w->s.rtol > 0.0)) w->s.rtol = keep.rtol;
  if (w->s.max_iterations < 1) w->s.max_iterations = keep.max_iterations;
  w->geom_valid = 0;  // the model and the bound core enter the cached matrices
  w->lu_valid = 0;
}


const awe_vsm_settings *awe_vsm_wing_settings(const awe_vsm_wing *w) {
  return w ? &w->s : NULL;
}


void awe_vsm_wing_geometry(const awe_vsm_wing *w, awe_vsm_geometry *g) {
  if (!w || !g) return;
  g->n_panels = w->n;
  g->n_sections = w->nsec;
  g->area = w->area;
  g->span = w->span;
  g->c_ref = w->c_ref;
  g->moment_frac = w->moment_frac;
  g->aero_center = w->ac;
  g->control_point = w->cp;
  g->chord = w->chord;
  g->width = w->width;
  g->e_chord = w->ec;
  g->e_normal = w->en;
  g->e_span = w->es;
  g->panel_section = w->pan_sec_user;
}


/* ---- influence matrices -------------------------------------------------------------------- */

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
    const double k = awe_v3_norm(r0)/(2.0*PI*c2);
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
static void build_geometric(awe_vsm_wing *w) {
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
static void build_aic(awe_vsm_wing *w, const double *ep, const double *g, const double *vc,
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
static void velocity_ac(awe_vsm_wing *w, const double *g, double *out) {
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
static void induced(const awe_vsm_wing *w, const double *a, const double *g, double *out) {
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


/* ---- circulation solve --------------------------------------------------------------------- */

/* Per-panel inflow va_i = va - omega x cp_i. */
static void set_inflow(awe_vsm_wing *w, const double va[3], const double om[3]) {
  w->uniform = !om || (om[0] == 0.0 && om[1] == 0.0 && om[2] == 0.0);
  for (int i = 0; i < w->n; i++) {
    double *v = w->va + 3*i;
    if (w->uniform) {
      v[0] = va[0];
      v[1] = va[1];
      v[2] = va[2];
    } else {
      double oxr[3];
      awe_v3_cross(oxr, om, w->cp + 3*i);
      v[0] = va[0] - oxr[0];
      v[1] = va[1] - oxr[1];
      v[2] = va[2] - oxr[2];
    }
    const double vn = awe_v3_norm(v);
    w->va_norm[i] = vn;
    w->ecoef[i] = 4.0*AWE_VSM_ALPHA0*AWE_VSM_NU/vn;
    for (int c = 0; c < 3; c++) w->va_unit[3*i + c] = vn > 0.0 ? v[c]/vn : 0.0;
    const double vs = awe_v3_dot(v, w->es + 3*i);
    w->v_ref[i] = sqrt(fmax(awe_v3_dot(v, v) - vs*vs, 0.0));
    w->kfac[i] = w->v_ref[i] > 1e-12 ? 0.5*w->chord[i]/w->v_ref[i] : 0.0;
  }
}


/* Tridiagonal (I - diag(mu) L) of the Li/Gaunaa viscosity into w->tri (sub, diag, super). */
static void viscosity_matrix(awe_vsm_wing *w) {
  const int n = w->n;
  double *lo = w->tri, *di = w->tri + n, *up = w->tri + 2*n;
  for (int i = 0; i < n; i++) {
    double ll = 0.0, ld = 0.0, lu = 0.0;
    if (n >= 3) {
      if (i == 0) {
        ld = -4.0;
        lu = 4.0/3.0;
      } else if (i == n - 1) {
        ll = 4.0/3.0;
        ld = -4.0;
      } else {
        ll = 1.0;
        ld = -2.0;
        lu = 1.0;
      }
    }
    lo[i] = -w->mu[i]*ll;
    di[i] = 1.0 - w->mu[i]*ld;
    up[i] = -w->mu[i]*lu;
  }
}


/* Solve the tridiagonal system of w->tri in place on x (Thomas algorithm). */
static void viscosity_solve(awe_vsm_wing *w, double *x) {
  const int n = w->n;
  const double *lo = w->tri, *di = w->tri + n, *up = w->tri + 2*n;
  double *cp = w->tri + 3*n;
  cp[0] = up[0]/di[0];
  x[0] = x[0]/di[0];
  for (int i = 1; i < n; i++) {
    const double m = di[i] - lo[i]*cp[i - 1];
    cp[i] = up[i]/m;
    x[i] = (x[i] - lo[i]*x[i - 1])/m;
  }
  for (int i = n - 2; i >= 0; i--) x[i] -= cp[i]*x[i + 1];
}


static int lu_decomp(double *a, int n, int *piv);
static void lu_solve(const double *a, int n, const int *piv, double *b);


/* Fixed-point map at g: target (regularised G) into gt, raw G into w->graw, and the state of the
 * evaluation (w->vel = v_i, alpha, v_eff, clv, viscosity matrix). Returns the normalised unrelaxed
 * error max|gt - g|/max(max|gt|, tol_reference_error), or NAN on non-finite values. */
static double eval_map(awe_vsm_wing *w, const double *g, double *gt) {
  const int n = w->n;
  const int visc = w->s.is_with_artificial_viscosity;
  double area = 0.0;
  induced(w, w->aic, g, w->vel);

  for (int i = 0; i < n; i++) {
    const double *v = w->vel + 3*i;
    const double *en = w->en + 3*i, *ec = w->ec + 3*i, *es = w->es + 3*i;
    const double vn = awe_v3_dot(v, en), vc = awe_v3_dot(v, ec), vs = awe_v3_dot(v, es);
    const double a = atan2(vn, vc);
    double ww = awe_v3_dot(v, v) - vs*vs;
    if (!(ww > 0.0)) ww = 0.0;
    const double cl = panel_cl(w, i, a);
    const double k = w->kfac[i];
    w->alpha[i] = a;
    w->v_eff[i] = sqrt(ww);
    w->clv[i] = cl;
    w->graw[i] = k*ww*cl;
    if (visc) {
      const double h = AV_SLOPE_STEP;
      w->mu[i] = (panel_cl(w, i, a + h) - panel_cl(w, i, a - h))/(2.0*h);  // slope for now
      area += w->chord[i]*w->width[i];
    }
  }

  // Li/Gaunaa implicit spanwise viscosity where the lift slope is negative
  memcpy(gt, w->graw, (size_t)n*sizeof(double));
  if (visc) {
    int active = 0;
    for (int i = 0; i < n; i++) {
      const double m = -w->s.artificial_viscosity_factor*area*w->mu[i]/(w->width[i]*w->width[i]);
      w->mu[i] = m > 0.0 ? m : 0.0;
      if (w->mu[i] > 0.0) active = 1;
    }
    viscosity_matrix(w);
    if (active) viscosity_solve(w, gt);
  }

  double gmax = 0.0, dmax = 0.0;
  int finite = 1;
  for (int i = 0; i < n; i++) {
    if (!isfinite(gt[i])) finite = 0;
    const double ag = fabs(gt[i]), ad = fabs(gt[i] - g[i]);
    if (ag > gmax) gmax = ag;
    if (ad > dmax) dmax = ad;
  }
  if (!finite) return NAN;
  const double ref = gmax > w->s.tol_reference_error ? gmax : w->s.tol_reference_error;
  return ref > 0.0 ? dmax/ref : dmax;
}


/* Row vectors of the Jacobian at the last evaluation: dG_i/dGamma_j = gvec_i . AIC_ij. */
static void jac_vectors(awe_vsm_wing *w) {
  for (int i = 0; i < w->n; i++) {
    const double *v = w->vel + 3*i;
    const double *en = w->en + 3*i, *ec = w->ec + 3*i, *es = w->es + 3*i;
    const double vn = awe_v3_dot(v, en), vc = awe_v3_dot(v, ec), vs = awe_v3_dot(v, es);
    const double a = w->alpha[i], cl = w->clv[i], ww = w->v_eff[i]*w->v_eff[i];
    const double k = w->kfac[i];
    const double h = CL_SLOPE_STEP;
    const double dcl = (panel_cl(w, i, a + h) - panel_cl(w, i, a - h))/(2.0*h);
    const double q = vn*vn + vc*vc;
    const double f = q > 0.0 ? ww*dcl/q : 0.0;
    for (int c = 0; c < 3; c++) {
      w->gvec[3*i + c] = k*(2.0*cl*(v[c] - vs*es[c]) + f*(vc*en[c] - vn*ec[c]));
    }
  }
}


/* Newton matrix dG/dGamma - (I - diag(mu) L) at the last evaluation, LU-factorised in w->jac. */
static int factor_jacobian(awe_vsm_wing *w) {
  const int n = w->n;
  const size_t nn = (size_t)n*(size_t)n;
  jac_vectors(w);
  for (int i = 0; i < n; i++) {
    const double gx = w->gvec[3*i], gy = w->gvec[3*i + 1], gz = w->gvec[3*i + 2];
    const double *ax = w->aic + (size_t)i*n, *ay = ax + nn, *az = ay + nn;
    double *row = w->jac + (size_t)i*n;
    for (int j = 0; j < n; j++) row[j] = gx*ax[j] + gy*ay[j] + gz*az[j];
    if (w->s.is_with_artificial_viscosity) {
      row[i] -= w->tri[n + i];
      if (i > 0) row[i - 1] -= w->tri[i];
      if (i < n - 1) row[i + 1] -= w->tri[2*n + i];
    } else {
      row[i] -= 1.0;
    }
  }
  w->lu_valid = lu_decomp(w->jac, n, w->piv) == 0;
  return w->lu_valid ? 0 : -1;
}


/* Relaxed fixed-point iteration from w->gam. Panel i relaxes with
 * w_i = min(relax, 1/(1 - dG_i/dGamma_i)) (diagonal of the Jacobian at the start): a small panel
 * next to its own trailing vortices (fine cosine tips) has dG_i/dGamma_i << -1 and would turn the
 * relaxed loop into a 2-cycle; other panels keep the requested factor. */
static int loop_solve(awe_vsm_wing *w, double relax, int *iters, double *res) {
  const int n = w->n, maxit = w->s.max_iterations;
  const size_t nn = (size_t)n*(size_t)n;
  double vmax = 0.0;
  for (int i = 0; i < n; i++) vmax = fmax(vmax, w->va_norm[i]);
  const double gamma_bound = 1e3*vmax*w->c_ref + 1e3*w->s.tol_reference_error;
  double best = INFINITY;
  for (int it = 0; it < maxit; it++) {
    const double err = eval_map(w, w->gam, w->gtarget);
    (*iters)++;
    if (!isfinite(err)) break;
    if (it == 0) {
      jac_vectors(w);
      for (int i = 0; i < n; i++) {
        const size_t ii = (size_t)i*n + i;
        const double jii = w->gvec[3*i]*w->aic[ii] + w->gvec[3*i + 1]*w->aic[nn + ii]
                           + w->gvec[3*i + 2]*w->aic[2*nn + ii];
        const double d = 1.0 - jii;
        w->relax[i] = (isfinite(d) && d*relax > 1.0) ? 1.0/d : relax;
      }
    }
    *res = err;
    if (err < w->s.rtol) return AWE_VSM_OK;
    if (err < best) {
      best = err;
      memcpy(w->gtry, w->gam, (size_t)n*sizeof(double));
    }
    if (it == maxit - 1 || (w->stop && *w->stop)) break;
    double gmax = 0.0;
    for (int i = 0; i < n; i++) {
      w->gam[i] += w->relax[i]*(w->gtarget[i] - w->gam[i]);
      const double ag = fabs(w->gam[i]);
      if (ag > gmax) gmax = ag;
    }
    // diverged (post-stall runaway): |Gamma| far beyond 1/2 V c cl with |cl| ~ 2 pi
    if (!(gmax <= gamma_bound)) break;
  }

  // not converged: leave the best iterate (and its alpha, v_eff) in place
  if (!isfinite(best)) return AWE_VSM_ENONFINITE;
  memcpy(w->gam, w->gtry, (size_t)n*sizeof(double));
  *res = eval_map(w, w->gam, w->gtarget);
  return AWE_VSM_ENOCONV;
}


static double sumsq_diff(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += (a[i] - b[i])*(a[i] - b[i]);
  return s;
}


/* In-place LU factorisation with partial pivoting of the row-major n x n matrix a,
 * P a = L U (unit lower L below the diagonal, U on and above). Written out instead of
 * gsl_linalg_LU_decomp, which allocates a pivot vector on every call (GSL 2.7) and so cannot be
 * used in the allocation-free solve. Returns 0, or -1 for a (numerically) singular matrix. */
static int lu_decomp(double *a, int n, int *piv) {
  double amax = 0.0;
  for (size_t k = 0; k < (size_t)n*(size_t)n; k++) {
    const double v = fabs(a[k]);
    if (v > amax) amax = v;
  }
  if (!(amax > 0.0) || !isfinite(amax)) return -1;
  const double tiny = 1e-13*amax;
  for (int k = 0; k < n; k++) {
    double *rk = a + (size_t)k*n;
    int p = k;
    double best = fabs(rk[k]);
    for (int i = k + 1; i < n; i++) {
      const double v = fabs(a[(size_t)i*n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = p;
    if (!(best > tiny)) return -1;
    if (p != k) {
      double *rp = a + (size_t)p*n;
      for (int j = 0; j < n; j++) {
        const double t = rk[j];
        rk[j] = rp[j];
        rp[j] = t;
      }
    }
    const double inv = 1.0/rk[k];
    for (int i = k + 1; i < n; i++) {
      double *ri = a + (size_t)i*n;
      const double l = ri[k]*inv;
      ri[k] = l;
      if (l == 0.0) continue;
      for (int j = k + 1; j < n; j++) ri[j] -= l*rk[j];
    }
  }
  return 0;
}


/* Solve a x = b with the factors of lu_decomp; b is overwritten by x. */
static void lu_solve(const double *a, int n, const int *piv, double *b) {
  for (int k = 0; k < n; k++) {
    if (piv[k] != k) {
      const double t = b[k];
      b[k] = b[piv[k]];
      b[piv[k]] = t;
    }
  }
  for (int i = 1; i < n; i++) {
    const double *ri = a + (size_t)i*n;
    double s = b[i];
    for (int j = 0; j < i; j++) s -= ri[j]*b[j];
    b[i] = s;
  }
  for (int i = n - 1; i >= 0; i--) {
    const double *ri = a + (size_t)i*n;
    double s = b[i];
    for (int j = i + 1; j < n; j++) s -= ri[j]*b[j];
    b[i] = s/ri[i];
  }
}


/* Damped Newton from w->gam on R = G - (I - diag(mu) L) Gamma. The LU factors of the Newton
 * matrix are kept across iterations and across solves (chord steps) and refreshed when a step
 * contracts the residual by less than NEWTON_REFRESH or the line search fails with old factors. */
static int newton_solve(awe_vsm_wing *w, int *iters, double *res) {
  const int n = w->n;
  const int visc = w->s.is_with_artificial_viscosity;
  double err = eval_map(w, w->gam, w->gtarget);
  (*iters)++;
  if (!isfinite(err)) return AWE_VSM_ENONFINITE;
  double phi = sumsq_diff(w->gtarget, w->gam, n);
  int fresh = 0;  // factors belong to the current iterate

  for (int it = 0; it < NEWTON_MAX_STEPS; it++) {
    *res = err;
    if (err < w->s.rtol) return AWE_VSM_OK;
    if (w->stop && *w->stop) return AWE_VSM_ENOCONV;
    if (!w->lu_valid) {
      if (factor_jacobian(w) != 0) return AWE_VSM_ENOCONV;
      fresh = 1;
    }

    // step = -J^-1 R with R = G - (I - diag(mu) L) Gamma
    for (int i = 0; i < n; i++) {
      double tg = w->gam[i];
      if (visc) {
        tg = w->tri[n + i]*w->gam[i];
        if (i > 0) tg += w->tri[i]*w->gam[i - 1];
        if (i < n - 1) tg += w->tri[2*n + i]*w->gam[i + 1];
      }
      w->step[i] = -(w->graw[i] - tg);
    }
    lu_solve(w->jac, n, w->piv, w->step);
    int ok = 1;
    for (int i = 0; i < n; i++) {
      if (!isfinite(w->step[i])) ok = 0;
    }

    // backtracking line search on |G~ - Gamma|^2 (old factors: full step or half only)
    double lam = 1.0;
    const double lam_min = fresh ? 1.0/1024.0 : 0.5;
    int accepted = 0;
    double pt = INFINITY, et = NAN;
    while (ok && lam >= lam_min) {
      for (int i = 0; i < n; i++) w->gtry[i] = w->gam[i] + lam*w->step[i];
      et = eval_map(w, w->gtry, w->gtarget_try);
      (*iters)++;
      if (isfinite(et)) {
        pt = sumsq_diff(w->gtarget_try, w->gtry, n);
        if (pt <= (1.0 - 1e-4*lam)*phi) {
          accepted = 1;
          break;
        }
      }
      lam *= 0.5;
    }
    if (!accepted) {
      if (fresh) return AWE_VSM_ENOCONV;
      // old factors misled the step: refactor at the current iterate (re-evaluated) and retry
      err = eval_map(w, w->gam, w->gtarget);
      (*iters)++;
      w->lu_valid = 0;
      continue;
    }

    double *t = w->gam;
    w->gam = w->gtry;
    w->gtry = t;
    t = w->gtarget;
    w->gtarget = w->gtarget_try;
    w->gtarget_try = t;
    if (pt > NEWTON_REFRESH*NEWTON_REFRESH*phi) w->lu_valid = 0;  // slow contraction
    phi = pt;
    err = et;
    fresh = 0;
  }
  *res = err;
  return err < w->s.rtol ? AWE_VSM_OK : AWE_VSM_ENOCONV;
}


/* Initial circulation: previous solution, elliptic or zero. */
static void initial_gamma(awe_vsm_wing *w, const double *gstart) {
  const int n = w->n;
  if (gstart) {
    memcpy(w->gam_start, gstart, (size_t)n*sizeof(double));
  } else if (w->s.use_gamma_prev && w->gam_prev_valid) {
    memcpy(w->gam_start, w->gam_prev, (size_t)n*sizeof(double));
  } else if (w->s.gamma0 == AWE_GAMMA0_ELLIPTIC) {
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < w->nsec; k++) {
      const double a = awe_v3_dot(w->sec_le + 3*k, w->sdir), b = awe_v3_dot(w->sec_te + 3*k, w->sdir);
      lo = fmin(lo, fmin(a, b));
      hi = fmax(hi, fmax(a, b));
    }
    for (int i = 0; i < n; i++) {
      const double y = awe_v3_dot(w->cp + 3*i, w->sdir) - 0.5*(lo + hi);
      const double e = 2.0*y/(hi - lo);
      w->gam_start[i] = sqrt(fmax(0.0, 1.0 - e*e));
    }
  } else {
    memset(w->gam_start, 0, (size_t)n*sizeof(double));
  }
}


/* ---- loads ----------------------------------------------------------------------------------- */

static void fill_pointers(awe_vsm_wing *w, awe_vsm_result *r) {
  r->n_panels = w->n;
  r->n_sections = w->nsec;
  r->gamma = w->gam;
  r->alpha = w->alpha;
  r->alpha_ac = w->alpha_ac;
  r->v_eff = w->v_eff;
  r->cl = w->clv;
  r->cd = w->cdv;
  r->cm = w->cmv;
  r->panel_force = w->pforce;
  r->panel_moment = w->pmom;
  r->section_moment = w->smom;
  r->area = w->area;
  r->c_ref = w->c_ref;
  r->span = w->span;
}


/* Zero loads and per-panel outputs (low wind, failures). */
static void zero_results(awe_vsm_wing *w, awe_vsm_result *r) {
  const size_t n = (size_t)w->n;
  memset(w->gam, 0, n*sizeof(double));
  memset(w->alpha, 0, n*sizeof(double));
  memset(w->alpha_ac, 0, n*sizeof(double));
  memset(w->v_eff, 0, n*sizeof(double));
  memset(w->clv, 0, n*sizeof(double));
  memset(w->cdv, 0, n*sizeof(double));
  memset(w->cmv, 0, n*sizeof(double));
  memset(w->pforce, 0, 3*n*sizeof(double));
  memset(w->pmom, 0, n*sizeof(double));
  memset(w->smom, 0, (size_t)w->nsec*sizeof(double));
  fill_pointers(w, r);
}


static void compute_results(awe_vsm_wing *w, const double va[3], const double ref[3],
                            awe_vsm_result *r) {
  const int n = w->n;
  const double rho = w->s.density;
  const int vsm = w->s.model == AWE_VSM_MODEL_VSM;

  // section coefficients at the angle of the solve; panels past their maximum lift (where the
  // circulation may have more than one solution)
  int stalled = 0;
  for (int i = 0; i < n; i++) {
    panel_coeffs(w, i, w->alpha[i], &w->clv[i], &w->cdv[i], &w->cmv[i]);
    stalled += w->alpha[i] > w->pa[i].a_clmax;
  }
  r->n_stalled = stalled;

  // force directions: from the angle that gave cl (the peer's default), or with correct_aoa from
  // the angle at the aerodynamic centres (VSM only)
  if (vsm && w->s.correct_aoa) {
    velocity_ac(w, w->gam, w->vel);
    for (int i = 0; i < n; i++) {
      const double *v = w->vel + 3*i;
      w->alpha_ac[i] = atan2(awe_v3_dot(v, w->en + 3*i), awe_v3_dot(v, w->ec + 3*i));
    }
  } else {
    memcpy(w->alpha_ac, w->alpha, (size_t)n*sizeof(double));
  }

  // panel forces and moments
  double f[3] = {0.0, 0.0, 0.0}, m[3] = {0.0, 0.0, 0.0};
  memset(w->smom, 0, (size_t)w->nsec*sizeof(double));
  for (int i = 0; i < n; i++) {
    const double *ec = w->ec + 3*i, *en = w->en + 3*i, *es = w->es + 3*i;
    const double q = 0.5*rho*w->v_eff[i]*w->v_eff[i];
    const double c = w->chord[i], wd = w->width[i];
    const double lift = q*c*w->clv[i], drag = q*c*w->cdv[i], mom = q*c*c*w->cmv[i];
    const double ca = cos(w->alpha_ac[i]), sa = sin(w->alpha_ac[i]);
    double ef[3], el[3], ed[3];
    for (int k = 0; k < 3; k++) ef[k] = ca*ec[k] + sa*en[k];
    awe_v3_normalize(ef);
    awe_v3_cross(el, ef, es);
    awe_v3_normalize(el);
    awe_v3_cross(ed, w->sdir, el);
    awe_v3_normalize(ed);

    double *fi = w->pforce + 3*i;
    for (int k = 0; k < 3; k++) fi[k] = (lift*el[k] + drag*ed[k])*wd;
    double arm[3], mf[3];
    for (int k = 0; k < 3; k++) arm[k] = w->ac[3*i + k] - ref[k];
    awe_v3_cross(mf, arm, fi);
    for (int k = 0; k < 3; k++) {
      f[k] += fi[k];
      m[k] += mom*wd*es[k] + mf[k];
    }
    w->pmom[i] = awe_v3_dot(fi, en)*(w->moment_frac - 0.25)*c + mom*wd;
    w->smom[w->pan_sec_user[i]] += w->pmom[i];
  }

  // totals and coefficients
  const double vnorm = awe_v3_norm(va);
  const double qinf = 0.5*rho*vnorm*vnorm;
  const double qs = qinf*w->area;
  double ed[3] = {va[0]/vnorm, va[1]/vnorm, va[2]/vnorm}, el[3], esd[3];
  awe_v3_cross(el, va, w->sdir);
  awe_v3_normalize(el);
  awe_v3_cross(esd, el, ed);
  memcpy(r->force, f, sizeof(f));
  memcpy(r->moment, m, sizeof(m));
  r->lift = awe_v3_dot(f, el);
  r->drag = awe_v3_dot(f, ed);
  r->side = awe_v3_dot(f, esd);
  r->va_norm = vnorm;
  r->q_inf = qinf;
  r->reynolds = w->s.mu > 0.0 ? rho*vnorm*w->c_ref/w->s.mu : 0.0;
  if (qs > 0.0) {
    r->CL = r->lift/qs;
    r->CD = r->drag/qs;
    r->CS = r->side/qs;
    for (int k = 0; k < 3; k++) {
      r->CF[k] = f[k]/qs;
      r->CM[k] = w->c_ref > 0.0 ? m[k]/(qs*w->c_ref) : 0.0;
    }
  }
  fill_pointers(w, r);
}


/* ---- solve --------------------------------------------------------------------------------- */

int awe_vsm_solve_from(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                       const double ref_point[3], const double *gamma_start,
                       awe_vsm_result *r) {
  if (!r) return AWE_VSM_EINVAL;
  memset(r, 0, sizeof(*r));
  if (!w || !va_b) {
    r->status = AWE_VSM_EINVAL;
    return AWE_VSM_EINVAL;
  }
  const double zero[3] = {0.0, 0.0, 0.0};
  const double *om = omega_b ? omega_b : zero;
  const double *ref = ref_point ? ref_point : zero;
  const int n = w->n;

  // inputs: non-finite or too little wind give zero loads
  if (!finite3(va_b) || !finite3(om) || !finite3(ref)) {
    zero_results(w, r);
    r->status = AWE_VSM_ENONFINITE;
    return AWE_VSM_ENONFINITE;
  }
  const double vnorm = awe_v3_norm(va_b);
  if (vnorm < AWE_VSM_MIN_WIND) {
    zero_results(w, r);
    r->va_norm = vnorm;
    r->q_inf = 0.5*w->s.density*vnorm*vnorm;
    r->converged = 1;
    r->status = AWE_VSM_LOW_WIND;
    return AWE_VSM_LOW_WIND;
  }

  // inflow, influence matrix at the evaluation points of the model
  set_inflow(w, va_b, om);
  build_geometric(w);  // whatever moved since the last solve
  const int vsm = w->s.model == AWE_VSM_MODEL_VSM;
  build_aic(w, vsm ? w->cp : w->ac, w->g_main, w->vc_main, vsm, vsm, w->aic);
  if (w->s.is_with_artificial_viscosity) {
    memset(w->mu, 0, (size_t)n*sizeof(double));
    viscosity_matrix(w);
  }

  // circulation
  initial_gamma(w, gamma_start);
  memcpy(w->gam, w->gam_start, (size_t)n*sizeof(double));
  const double relax = w->s.relaxation_factor;
  int st, iters = 0;
  double res = INFINITY;
  if (w->s.solver == AWE_VSM_SOLVER_NEWTON) {
    st = newton_solve(w, &iters, &res);
    if (st != AWE_VSM_OK) {
      // fall back to the relaxed loop from the best finite iterate
      r->newton_fallback = 1;
      int finite = 1;
      for (int i = 0; i < n; i++) {
        if (!isfinite(w->gam[i])) finite = 0;
      }
      if (!finite) memcpy(w->gam, w->gam_start, (size_t)n*sizeof(double));
      st = loop_solve(w, relax, &iters, &res);
    }
  } else {
    st = loop_solve(w, relax, &iters, &res);
  }
  if (st != AWE_VSM_OK && relax > 1e-3) {
    memcpy(w->gam, w->gam_start, (size_t)n*sizeof(double));
    st = loop_solve(w, 0.5*relax, &iters, &res);
  }
  r->iterations = iters;
  r->residual = res;

  if (st == AWE_VSM_ENONFINITE) {
    w->gam_prev_valid = 0;
    zero_results(w, r);
    r->iterations = iters;
    r->residual = NAN;
    r->status = AWE_VSM_ENONFINITE;
    return AWE_VSM_ENONFINITE;
  }

  // loads from the final iterate (alpha, v_eff belong to w->gam)
  compute_results(w, va_b, ref, r);
  int finite = isfinite(r->force[0]) && isfinite(r->force[1]) && isfinite(r->force[2]) &&
               isfinite(r->moment[0]) && isfinite(r->moment[1]) && isfinite(r->moment[2]);
  if (!finite) {
    w->gam_prev_valid = 0;
    zero_results(w, r);
    r->iterations = iters;
    r->residual = NAN;
    r->status = AWE_VSM_ENONFINITE;
    return AWE_VSM_ENONFINITE;
  }
  memcpy(w->gam_prev, w->gam, (size_t)n*sizeof(double));
  w->gam_prev_valid = 1;
  r->converged = st == AWE_VSM_OK;
  r->status = st;
  return st;
}


int awe_vsm_solve(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                  const double ref_point[3], awe_vsm_result *r) {
  return awe_vsm_solve_from(w, va_b, omega_b, ref_point, NULL, r);
}


void awe_vsm_va_from_angles(double v, double alpha_deg, double beta_deg, double va[3]) {
  const double a = alpha_deg*PI/180.0, b = beta_deg*PI/180.0;
  va[0] = v*cos(a)*cos(b);
  va[1] = v*sin(b);
  va[2] = v*sin(a);
}


const char *awe_vsm_strstatus(int status) {
  switch (status) {
    case AWE_VSM_OK: return "converged";
    case AWE_VSM_LOW_WIND: return "apparent wind below the minimum, zero loads";
    case AWE_VSM_ENOCONV: return "circulation did not converge";
    case AWE_VSM_ENONFINITE: return "non-finite value in the VSM solve";
    case AWE_VSM_EINVAL: return "invalid argument";
    default: return "unknown VSM status";
  }
}
