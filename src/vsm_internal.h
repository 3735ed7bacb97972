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

#include "vsm.h"

/* Airfoil data of one panel: a weighted blend of input airfoils, or its own Breukels section. */
typedef struct {
  int nterm;             /* 0: use `own`; else number of blended airfoils */
  int idx[4];            /* airfoil index into wing->af, -1 = inviscid */
  double wt[4];          /* blend weights, sum 1 */
  awe_airfoil own;       /* Breukels with blended (t, kappa) */
  int has_polar;         /* some term is a polar table */
  double amin, amax;     /* common alpha range of the polar terms (remove_nan == 0) */
} awe_vsm_panel_aero;

struct awe_vsm_wing {
  awe_vsm_settings s;
  int nsec, n;           /* input sections, panels (n + 1 refined sections) */
  int reversed;          /* internal section k is the caller's section nsec-1-k */
  double sdir[3];        /* unit spanwise direction */
  double moment_frac;    /* chordwise position of the twist axis */

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
  double *ref_le, *ref_te;     /* 3*(n+1), twisted */

  /* panels */
  awe_vsm_panel_aero *pa;
  double *b1, *b2;             /* quarter-chord points at the panel edges (b1 on the +y side) */
  double *ac, *cp;             /* aerodynamic centre (1/4 c), control point (3/4 c) */
  double *ec, *en, *es;        /* chordwise, normal, spanwise unit vectors */
  double *chord, *width;
  int *pan_sec;                /* panel -> internal section */
  int *pan_sec_user;           /* panel -> caller's section */
  double area, span, c_ref;

  /* geometric (wake-independent) parts of the AIC, rebuilt when the geometry changes */
  int geom_valid;
  double *g_main, *g_ac;       /* 3*n*n: bound (VSM) + chordwise trailing - 2D self term */
  double *vc_main, *vc_ac;     /* n*n: speed below which a trailing core is touched */

  /* per-solve AIC */
  double *aic;                 /* at the evaluation points of the model (VSM: cp, LLT: ac) */
  double *semi;                /* 3*(n+1) scratch for the wake legs */

  /* inflow */
  double *va, *va_norm, *va_unit, *v_ref;  /* per panel; v_ref = |va_i x s_i| */
  int uniform;                 /* all panels see the same va (omega = 0) */

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
};

/* vsm_geometry.c */

/* Compute the refinement map (ref_l, ref_w) for the current input sections. */
int awe_vsm_geom_setup(awe_vsm_wing *w, char *err, size_t errsz);

/* Refined sections (with twist) -> panels -> reference quantities; invalidates the AIC caches. */
void awe_vsm_geom_update(awe_vsm_wing *w);

/* Map every panel to the input section whose centre is nearest to the panel centre. */
void awe_vsm_geom_map_panels(awe_vsm_wing *w);

/* vsm.c */

/* awe_vsm_solve with an explicit initial circulation (NULL: as awe_vsm_solve). */
int awe_vsm_solve_from(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                       const double ref_point[3], const double *gamma_start,
                       awe_vsm_result *r);

#endif
