/* vsm_internal.h: the awe_vsm_wing workspace, shared by vsm.c, vsm_geometry.c, vsm_linearize.c.
 *
 * Indexing: internal section k = 0..nsec-1 runs from the +y tip to the -y tip (the caller's order
 * reversed when the input ran -y -> +y, flag `reversed`); refined section r = 0..n; panel i lies
 * between refined sections i and i+1. Vectors are stored as 3 consecutive doubles per item.
 * AIC matrices are stored component-major, row-major: A[c*n*n + i*n + j] is component c of the
 * velocity at evaluation point i induced by horseshoe j with unit circulation.
 */
#ifndef AWE_VSM_INTERNAL_H
#define AWE_VSM_INTERNAL_H

#include "aero/vsm.h"

#include <math.h>

/* Airfoil data of one panel: a weighted blend of input airfoils, or its own Breukels section. */
typedef struct {
  int nterm;             /* 0: use `own`; else number of blended airfoils */
  int idx[4];            /* airfoil index into wing->af, -1 = inviscid */
  double wt[4];          /* blend weights, sum 1 */
  awe_airfoil own;       /* Breukels with blended (t, kappa) */
  int has_polar;         /* some term is a polar table */
  double amin, amax;     /* common alpha range of the polar terms (remove_nan == 0) */
  double a_clmax;        /* alpha of the largest cl in -20..40 deg (INFINITY: none below 40) */
} awe_vsm_panel_aero;

struct awe_vsm_wing {
  awe_vsm_settings s;
  int nsec, n;           /* input sections, panels (n + 1 refined sections) */
  int reversed;          /* internal section k is the caller's section nsec-1-k */
  double sdir[3];        /* unit spanwise direction */
  double moment_frac;    /* chordwise position of the twist axis */
  double alpha_shift;    /* polars read at alpha - alpha_shift (awe_vsm_wing_set_alpha_shift) */
  const awe_stop_flag *stop; /* nonzero: give up now (a signal; NULL: never) */

  /* airfoils (deep copies; polar rows live in one block) */
  int naf;
  awe_airfoil *af;
  double *af_rows;

  /* input sections, internal order */
  double *sec_le, *sec_te;     /* 3*nsec */
  double *sec_theta;           /* twist [rad] */
  double *theta_user;          /* twist in the caller's order (returned by awe_vsm_wing_twist) */
  int *sec_af;                 /* airfoil index */

  /* refinement: refined value = ref_w*section[ref_l] + (1 - ref_w)*section[ref_l + 1] */
  int *ref_l;
  double *ref_w;
  double *ref_le, *ref_te;     /* 3*(n+1), twisted (twist moves only the TE) */
  double *ref_te0, *ref_y;     /* 3*(n+1): untwisted TE, twist axis (fixed while twisting) */

  /* panels */
  awe_vsm_panel_aero *pa;
  double *b1, *b2;             /* quarter-chord points at the panel edges (b1 on the +y side) */
  double *ac, *cp;             /* aerodynamic centre (1/4 c), control point (3/4 c) */
  double *ec, *en, *es;        /* chordwise, normal, spanwise unit vectors */
  double *chord, *width;
  int *pan_sec;                /* panel -> internal section */
  int *pan_sec_user;           /* panel -> caller's section */
  double area, span, c_ref;

  /* geometric (wake-independent) parts of the AIC. geom_valid == 0 rebuilds them in full;
   * else only the rows whose evaluation point moved and the columns whose horseshoe moved
   * since the last build (compared bitwise with the points kept in gc_*) */
  int geom_valid;
  unsigned geom_rev, geom_rev_built;  /* geometry changes, and the one the matrices belong to */
  int geom_reference;          /* tests: rebuild them pair by pair at every solve instead
                                  (awe_vsm_geometric_reference, the code before the incremental
                                  shared-filament build); set before the first solve */
  double *g_main, *g_ac;       /* 3*n*n: bound (VSM) + chordwise trailing - 2D self term */
  double *vc_main, *vc_ac;     /* n*n: speed below which a trailing core is touched */
  double *gc_qc, *gc_te;       /* 3*(n+1): quarter-chord and TE points the matrices belong to */
  double *gc_main, *gc_ac;     /* 3*n: evaluation points of g_main and g_ac at that build */
  int *node_moved, *pan_moved; /* n+1, n: refined section / horseshoe moved since that build */
  double *node_r0, *node_l2, *node_sl;  /* 3*(n+1), n+1, n+1: te_r - qc_r, its square, length */
  double *bnd_r0, *bnd_l2, *bnd_eps;    /* 3*n, n, n: b1 - b2, its square, bound core radius */
  /* row scratch: p - qc_r, p - te_r and their lengths; filament qc_r -> te_r at p and its core
   * onset speeds as leg 1 (from qc_r) and as leg 2 (te_r -> qc_r); nodes wanted */
  double *row_rq, *row_rt, *row_nq, *row_nt;
  double *node_v, *node_v1, *node_v2;
  int *node_need;

  /* per-solve AIC */
  double *aic;                 /* at the evaluation points of the model (VSM: cp, LLT: ac) */
  double *semi;                /* 3*(n+1) scratch for the wake legs (or the vectors to them) */
  double *leg_n;               /* n+1 scratch: distances to the trailing-edge points */
  double *leg1, *leg2;         /* 3*(n+1) scratch: wake legs from TE point k along u_k, u_k-1 */

  /* inflow */
  double *va, *va_norm, *va_unit, *v_ref;  /* per panel; v_ref = |va_i x s_i| */
  double *ecoef;               /* per panel: wake core coefficient 4 alpha0 nu/|va_i| */
  double *kfac;                /* per panel: c_i/(2 V_ref,i) of the fixed-point map */
  int uniform;                 /* all panels see the same va (omega = 0, no panel wind) */
  double *dva;                 /* 3 per panel: wind added to panel i's inflow (body frame) */
  int has_dva;                 /* dva is in use (awe_vsm_wing_set_panel_wind) */

  /* iteration */
  double *gam, *gam_start, *gam_prev, *gtry, *graw, *gtarget, *gtarget_try, *step, *rhs;
  int gam_prev_valid;
  double *vel, *alpha, *v_eff, *clv, *gvec, *mu, *tri, *relax;
  double *jac;                 /* n*n Newton matrix, LU in place */
  int *piv;                    /* LU row interchanges */
  int lu_valid;                /* jac/piv hold usable factors (kept across solves) */

  /* results */
  double *alpha_ac, *cdv, *cmv, *pforce, *pmom, *smom;

  /* linearization scratch */
  double *lin_gam, *lin_theta, *lin_xp, *lin_xm;

  /* the last solve, for awe_vsm_velocity_at: its status (AWE_VSM_EINVAL: none, or failed),
   * apparent wind and body rates, and the geometry it belongs to */
  int last_status;
  double last_va[3], last_om[3];
  unsigned last_geom_rev;
};

/* vsm_geometry.c */

/* Compute the refinement map (ref_l, ref_w) for the current input sections. */
int awe_vsm_geom_setup(awe_vsm_wing *w, char *err, size_t errsz);

/* Refined sections (with twist) -> panels -> reference quantities (the AIC caches notice the
 * moved points at the next solve). */
void awe_vsm_geom_update(awe_vsm_wing *w);

/* The same after a change of the twist only (the untwisted refined sections are kept). */
void awe_vsm_geom_update_twist(awe_vsm_wing *w);

/* Map every panel to the input section whose centre is nearest to the panel centre. */
void awe_vsm_geom_map_panels(awe_vsm_wing *w);

/* vsm.c */

/* Section coefficients of panel i at alpha. */
void awe_vsm_panel_coeffs(const awe_vsm_wing *w, int i, double alpha, double *cl, double *cd,
                          double *cm);

/* Lift coefficient of panel i at alpha (the Newton Jacobian's slope). */
double awe_vsm_panel_cl(const awe_vsm_wing *w, int i, double alpha);

/* vsm_influence.c */

/* Cache the wake-independent matrices for the current geometry and model; after a geometry
 * change (twist of some sections, linearization steps) only what moved is recomputed, and the
 * entries come out bitwise equal to a full build. */
void awe_vsm_build_geometric(awe_vsm_wing *w);

/* Full AIC at the points ep: cached part (or exact where a core is touched) + wake legs. */
void awe_vsm_build_aic(awe_vsm_wing *w, const double *ep, const double *g, const double *vc,
                       int with_bound, int sub2d, double *a);

/* Velocity at the aerodynamic centres for the circulation g, out = va_i + sum_j AIC_ac,ij g_j,
 * summed directly (the LLT matrix at the 1/4 chord is not stored). With a uniform wake the legs
 * sharing a trailing-edge point are merged: sum_j g_j (S_j+1 - S_j) = sum_k S_k (g_k-1 - g_k). */
void awe_vsm_velocity_ac(awe_vsm_wing *w, const double *g, double *out);

/* Wake-independent velocity at p of the unit horseshoe j: bound filament (with_bound), the two
 * chordwise trailing filaments with their cores for the wind speed vinf, minus the 2D induction
 * of its bound vortex (sub2d); the same filaments and cores as the influence matrices. */
void awe_vsm_ring_geometric(const awe_vsm_wing *w, int j, const double p[3], double vinf,
                            int with_bound, int sub2d, double out[3]);

/* Induced velocity at the rows of a for the circulation g, added to va: out = va_i + A_i g. */
void awe_vsm_induced(const awe_vsm_wing *w, const double *a, const double *g, double *out);

/* vsm_circulation.c */

/* Per-panel inflow va_i = va - omega x cp_i. */
void awe_vsm_set_inflow(awe_vsm_wing *w, const double va[3], const double om[3]);

/* Tridiagonal (I - diag(mu) L) of the Li/Gaunaa viscosity into w->tri (sub, diag, super). */
void awe_vsm_viscosity_matrix(awe_vsm_wing *w);

/* Relaxed fixed-point iteration from w->gam. Panel i relaxes with
 * w_i = min(relax, 1/(1 - dG_i/dGamma_i)) (diagonal of the Jacobian at the start): a small panel
 * next to its own trailing vortices (fine cosine tips) has dG_i/dGamma_i << -1 and would turn the
 * relaxed loop into a 2-cycle; other panels keep the requested factor. */
int awe_vsm_loop_solve(awe_vsm_wing *w, double relax, int *iters, double *res);

/* Damped Newton from w->gam on R = G - (I - diag(mu) L) Gamma. The LU factors of the Newton
 * matrix are kept across iterations and across solves (chord steps) and refreshed when a step
 * contracts the residual by less than NEWTON_REFRESH or the line search fails with old factors. */
int awe_vsm_newton_solve(awe_vsm_wing *w, int *iters, double *res);

/* Initial circulation: previous solution, elliptic or zero. */
void awe_vsm_initial_gamma(awe_vsm_wing *w, const double *gstart);

/* vsm_loads.c */

/* Zero loads and per-panel outputs (low wind, failures). */
void awe_vsm_zero_results(awe_vsm_wing *w, awe_vsm_result *r);

/* Loads, coefficients and per-panel outputs of the converged circulation w->gam for the
 * free stream va about ref into r. */
void awe_vsm_compute_results(awe_vsm_wing *w, const double va[3], const double ref[3],
                             awe_vsm_result *r);

/* vsm_influence.c */

/* The cached geometric matrices (g_main, g_ac, vc_main, vc_ac layout) computed pair by pair
 * from whole horseshoes, as before the shared-filament build: reference for the tests. g_ac and
 * vc_ac are only written for the VSM model. */
void awe_vsm_geometric_reference(const awe_vsm_wing *w, double *g_main, double *g_ac,
                                 double *vc_main, double *vc_ac);

/* All three components finite. */
static inline int awe_vsm_finite3(const double a[3]) {
  return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}

#endif
