/* vsm.h: Vortex Step Method (VSM) / lifting-line (LLT) aerodynamics of one wing.
 *
 * The wing is a chain of sections (leading edge LE, trailing edge TE, airfoil) ordered along the
 * span. It is refined into n_panels panels; each panel carries a horseshoe vortex of strength
 * Gamma_i (bound filament on the quarter-chord line, two chordwise trailing filaments, two
 * semi-infinite wake filaments along the local apparent wind). Gamma solves
 *
 *   Gamma_i = 1/2 |v_i x s_i|^2 / |va_i x s_i| * c_i * cl_i(alpha_i),
 *   v_i = va_i + sum_j AIC_ij Gamma_j,   alpha_i = atan2(v_i.n_i, v_i.c_i),
 *
 * evaluated at the 3/4-chord control points (VSM, with the 2D self-induction of each panel's own
 * bound vortex removed) or at the 1/4-chord aerodynamic centres (LLT). Forces follow from
 * cl, cd, cm of every panel (see vsm.c for the equations, docs/vsm.md for the
 * method, after VortexStepMethod.jl and the Python Vortex-Step-Method).
 *
 * Frames and units: everything is in the kite body frame (x from LE to TE, y spanwise to the
 * left tip seen from the front, z up), SI units, angles in radians unless named *_deg.
 *
 * Usage:
 *   awe_vsm_settings s;  awe_vsm_settings_default(&s);
 *   awe_vsm_wing *w = awe_vsm_wing_alloc(sec, nsec, af, naf, &s, err, sizeof err);
 *   double va[3];  awe_vsm_va_from_angles(20.0, 5.0, 0.0, va);
 *   awe_vsm_result r;
 *   int st = awe_vsm_solve(w, va, NULL, NULL, &r);   // st == AWE_VSM_OK: r.CL, r.CD, ...
 *   awe_vsm_wing_free(w);
 *
 * Thread safety: a wing is a workspace; use one wing per thread. Nothing is global.
 */
#ifndef AWE_VSM_H
#define AWE_VSM_H

#include <signal.h>
#include <stddef.h>

#include "aero/airfoil.h"
#include "aero/vsm_settings.h"
#include "util/status.h"

/* Below this apparent wind speed [m/s] awe_vsm_solve returns zero loads and AWE_VSM_LOW_WIND. */
#define AWE_VSM_MIN_WIND 1e-3

/* Return codes of awe_vsm_solve / awe_vsm_linearize (SUNDIALS sign convention). */
typedef enum {
  AWE_VSM_OK = 0,           /* converged */
  AWE_VSM_LOW_WIND = 1,     /* |va| < AWE_VSM_MIN_WIND: all loads are exactly zero (not an error) */
  AWE_VSM_ENOCONV = -1,     /* Gamma did not converge; results hold the last iterate, flagged */
  AWE_VSM_ENONFINITE = -2,  /* NaN/Inf in the inputs or during the iteration; loads are zeroed */
  AWE_VSM_EINVAL = -3       /* invalid argument (NULL pointer, wrong size) */
} awe_vsm_status;

/* One input section. airfoil indexes the airfoil array given to awe_vsm_wing_alloc;
 * a negative index means INVISCID (cl = 2 pi alpha). Sections must be ordered along the span
 * (either +y -> -y, as in the aero geometry files, or -y -> +y: the order is detected). */
typedef struct {
  double le[3], te[3];   /* leading / trailing edge [m], body frame */
  int airfoil;
} awe_vsm_section;

typedef struct awe_vsm_wing awe_vsm_wing;

/* Result of one solve. The pointer fields point into the wing's workspace: they stay valid until
 * the next awe_vsm_solve / awe_vsm_linearize on the same wing or awe_vsm_wing_free.
 * Per-panel arrays have n_panels entries, ordered from the +y tip to the -y tip; per-section
 * arrays have n_sections entries in the caller's section order. */
typedef struct {
  int status;            /* awe_vsm_status, same as the return value */
  int converged;         /* 1 if Gamma converged (also for LOW_WIND), else 0 */
  int iterations;        /* evaluations of the fixed-point map (loop steps; Newton steps and
                            line-search trials) */
  int newton_fallback;   /* 1 if Newton failed and the relaxed loop finished the solve */
  double residual;       /* max|G(Gamma) - Gamma| / max(max|G(Gamma)|, tol_reference_error) */
  int n_stalled;         /* panels whose cl falls with alpha at the solution (post-stall) */

  double force[3];       /* total aerodynamic force [N], body frame */
  double moment[3];      /* total moment about ref_point [N m], body frame */
  double lift, drag, side;  /* along e_L = (va x y_s)/|.|, e_D = va/|va|, e_S = e_L x e_D [N] */
  double CL, CD, CS;     /* lift, drag, side / (q_inf S) */
  double CF[3];          /* force / (q_inf S) */
  double CM[3];          /* moment / (q_inf S c_ref) */

  double va_norm;        /* |va| [m/s] */
  double q_inf;          /* 1/2 rho |va|^2 [Pa] */
  double area;           /* reference area S: projected area of the sections on the body xy plane */
  double c_ref;          /* reference chord: largest panel chord [m] */
  double span;           /* extent of the sections along spanwise_direction [m] */
  double reynolds;       /* rho |va| c_ref / mu */

  int n_panels, n_sections;
  const double *gamma;         /* circulation [m^2/s] */
  const double *alpha;         /* angle of attack at the evaluation point of the solve [rad] */
  const double *alpha_ac;      /* angle of the force directions [rad]: alpha, or with correct_aoa
                                  (VSM) the angle at the 1/4-chord */
  const double *v_eff;         /* |v x s|, in-plane effective speed [m/s] */
  const double *cl, *cd, *cm;  /* section coefficients at alpha */
  const double *panel_force;   /* 3 per panel: force on the panel [N], body frame */
  const double *panel_moment;  /* pitching moment about the twist axis (moment_frac) [N m] */
  const double *section_moment;/* sum of panel_moment over the panels of each input section [N m] */
} awe_vsm_result;

/* Panel geometry of a wing (pointers into the wing, valid until the next geometry change). */
typedef struct {
  int n_panels, n_sections;
  double area, span, c_ref;    /* reference area [m^2], span [m], reference chord [m] */
  double moment_frac;          /* chordwise position of the twist axis (0 = LE, 1 = TE) */
  const double *aero_center;   /* 3 per panel: 1/4-chord point where the panel force acts */
  const double *control_point; /* 3 per panel: 3/4-chord point */
  const double *chord, *width; /* panel chord and span width [m] */
  const double *e_chord, *e_normal, *e_span;  /* 3 per panel: unit vectors */
  const int *panel_section;    /* input section (caller's index) each panel belongs to */
} awe_vsm_geometry;

/* Build a wing: copies the sections and airfoils (polar tables included), refines the sections
 * to s->n_panels panels (LINEAR, COSINE, SPLIT_PROVIDED, UNCHANGED; with nsec == n_panels + 1 the
 * sections are used as given) and allocates all workspace. Airfoil data are blended along the span
 * with the refinement weights (Breukels: the (t, kappa) parameters; others: the coefficients).
 * Returns NULL on error with a message in err (err may be NULL). */
awe_vsm_wing *awe_vsm_wing_alloc(const awe_vsm_section *sec, int nsec, const awe_airfoil *af,
                                 int naf, const awe_vsm_settings *s, char *err, size_t errsz);

/* Free a wing; NULL is a no-op. */
void awe_vsm_wing_free(awe_vsm_wing *w);

/* Move the input sections (deformable wings): sec[k].le/te replace the positions of section k in
 * the caller's order (the airfoil field is ignored). The refinement weights are kept, so nothing
 * is reallocated. Returns AWE_VSM_OK or AWE_VSM_EINVAL (bad size, non-finite or zero chord). */
int awe_vsm_wing_set_sections(awe_vsm_wing *w, const awe_vsm_section *sec, int nsec);

/* Twist each input section by theta[k] [rad] (positive = nose up, TE rotated about the LE around
 * the local spanwise axis), interpolated linearly onto the refined sections. theta == NULL resets
 * to zero twist. The reference area is not affected. Returns AWE_VSM_OK or AWE_VSM_EINVAL. */
int awe_vsm_wing_set_twist(awe_vsm_wing *w, const double *theta);

/* Wind that differs along the span: panel i's inflow becomes va_b - omega_b x cp_i + dva_b[i]
 * (3 per panel, body frame, copied; the panels of awe_vsm_wing_geometry) in every later solve
 * and linearization, whose inputs stay va_b, omega_b and theta. NULL: the same va_b on every
 * panel again. */
void awe_vsm_wing_set_panel_wind(awe_vsm_wing *w, const double *dva_b);

/* Current twist of each input section [rad] (array of n_sections, owned by the wing). */
const double *awe_vsm_wing_twist(const awe_vsm_wing *w);

/* Shift of the polars' angle of attack [rad]: every panel's cl, cd and cm are read at
 * alpha_i - shift while the force directions keep alpha_i (the Wagner lift lag's deficiency,
 * engine/unsteady.h; SymbolicAWEModels 0.17 alpha_eff = alpha - deficiency). Default 0. */
void awe_vsm_wing_set_alpha_shift(awe_vsm_wing *w, double shift);

/* Chordwise position of the twist axis used for panel_moment/section_moment (default 0.25). */
void awe_vsm_wing_set_moment_frac(awe_vsm_wing *w, double frac);

/* Watch stop (borrowed; NULL: never): while it is nonzero every solve gives up after one
 * iteration (not converged), so a signal ends a long solve at once. */
void awe_vsm_wing_set_stop(awe_vsm_wing *w, const awe_stop_flag *stop);

/* Forget the previous circulation (the next solve starts from s->gamma0). */
void awe_vsm_wing_reset_gamma(awe_vsm_wing *w);

/* Forget the previous circulation and Newton's kept factors: the next solve depends on its
 * inputs alone (a cold start, bitwise reproducible). */
void awe_vsm_wing_reset(awe_vsm_wing *w);

/* Replace the numerical settings (solver, model, tolerances, density, ...). The geometry
 * settings (n_panels, distribution, spanwise_direction) are fixed at alloc and ignored here. */
void awe_vsm_wing_set_settings(awe_vsm_wing *w, const awe_vsm_settings *s);

/* Settings in use (owned by the wing). */
const awe_vsm_settings *awe_vsm_wing_settings(const awe_vsm_wing *w);

/* Panel geometry of the wing. */
void awe_vsm_wing_geometry(const awe_vsm_wing *w, awe_vsm_geometry *g);

/* Solve for the circulation and the loads.
 *   va_b      apparent wind (velocity of the air relative to the body, at the body origin)
 *             [m/s], body frame
 *   omega_b   body rates [rad/s], body frame, or NULL for zero; panel i sees
 *             va_i = va_b - omega_b x cp_i (cp_i relative to the body origin)
 *   ref_point point for the moments [m], or NULL for the origin
 * Warm start from the previous Gamma when s->use_gamma_prev. Solver per s->solver: relaxed
 * fixed-point loop (convergence tested on the unrelaxed update) or damped Newton (falls back to
 * the loop). No memory is allocated. Returns an awe_vsm_status; on AWE_VSM_ENOCONV the results
 * are filled from the last iterate and r->converged == 0. r may not be NULL. */
int awe_vsm_solve(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                  const double ref_point[3], awe_vsm_result *r);

/* awe_vsm_solve from an explicit initial circulation gamma_start (n_panels values; NULL: as
 * awe_vsm_solve). Continuation (a polar's neighbouring angle) and branch checks use it. */
int awe_vsm_solve_from(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                       const double ref_point[3], const double *gamma_start,
                       awe_vsm_result *r);

/* Flow velocity out [m/s] at the point p [m] (body frame, the frame of the sections), from the
 * last solve's circulation and inflow: va_b - omega_b x p plus the velocity induced at p by all
 * filaments of every horseshoe (bound, chordwise trailing, semi-infinite wake) with the
 * solver's cores (a point within a core gets the core's finite, linearly vanishing velocity,
 * not the singular one). The panel wind of awe_vsm_wing_set_panel_wind is not added at p. At a
 * control point this is the solver's velocity there plus the 2D induction of the panel's own
 * bound vortex, which the solver removes (the section polar holds it). No allocation; the wing
 * is not changed. Returns the last solve's status (AWE_VSM_OK, AWE_VSM_ENOCONV: its last
 * iterate, AWE_VSM_LOW_WIND: no induction), or AWE_VSM_EINVAL (out = NaN) without a solve with
 * a circulation, after a geometry change since, or for a non-finite p. */
int awe_vsm_velocity_at(const awe_vsm_wing *w, const double p[3], double out[3]);

/* Number of linearization inputs/outputs: 6 + n_sections. */
int awe_vsm_linearize_size(const awe_vsm_wing *w);

/* Jacobian of the loads about an operating point, by central differences with Gamma warm-started
 * from the operating point (Newton, tight tolerance).
 *   inputs  y = [va_b (3), omega_b (3), theta (n_sections)]  (theta = section twist offsets from
 *           the current twist, i.e. y0 has theta = 0)
 *   outputs x = [force (3), moment about ref_point (3), section_moment (n_sections)]
 * x0 (size m = 6 + n_sections) receives x(y0); jac (m*m, row-major) receives dx_i/dy_j at
 * jac[i*m + j]. Either may be NULL. The wing's twist and warm start are restored afterwards and
 * r (may be NULL) holds the solve at y0. Returns AWE_VSM_OK or the first failing solve's status;
 * with AWE_VSM_LOW_WIND x0 and jac are zero, with AWE_VSM_ENOCONV at y0 jac is not written. */
int awe_vsm_linearize(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                      const double ref_point[3], double *x0, double *jac, awe_vsm_result *r);

/* As awe_vsm_linearize with one-sided (forward) differences: 1 + m solves instead of 2 m + 2,
 * truncation error O(h) instead of O(h^2) (relative ~1e-4 with the steps above). The scalar
 * fields of r hold the solve at y0; its array pointers show the last perturbed solve. The warm
 * start is restored to the circulation at y0. */
int awe_vsm_linearize_forward(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                              const double ref_point[3], double *x0, double *jac,
                              awe_vsm_result *r);

/* va = V [cos(alpha) cos(beta), sin(beta), sin(alpha)], the convention of VortexStepMethod.jl and
 * the Python Vortex-Step-Method (alpha, beta in degrees). */
void awe_vsm_va_from_angles(double v, double alpha_deg, double beta_deg, double va[3]);

/* Name of a status code. */
const char *awe_vsm_strstatus(int status);

#endif
