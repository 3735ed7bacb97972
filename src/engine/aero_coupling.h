/* aero_coupling.h: the wings' aerodynamic loads from the Vortex Step Method (vsm.h).
 *
 * Sources: SymbolicAWEModels src/generate_system/vsm_eqs.jl @cee625c and @19945f5,
 * src/aero_modes/linearized.jl @e1a9685, common.jl @2832029, update_vsm! (physics.md §8);
 * VortexStepMethod.jl linearize (vsm.md §11).
 *
 * The VSM is solved only in the pre-calculate stage of the simulation life cycle, every
 * run.vsm_interval log steps (awe_rhs_aero_refresh: sim.c; also at t = 0, during the
 * steady-state march, and once at the operating point of linearize/step-response). Between
 * refreshes the right-hand side evaluates a frozen model (awe_aero_eval), so the integrator
 * sees a smooth function and linearize perturbs a fixed aerodynamic model (physics.md §11).
 *
 * Inputs of a rigid wing: y = [va_b (3), omega_b (3), theta_k (one per VSM section: the twist of
 * the group whose LE point is the section's LE, 0 for sections without a group)], va_b the
 * apparent wind at the wing origin in body axes, omega_b the body rates.
 *
 * AERO_LINEARIZED (rigid wings): at a refresh the VSM gives x0 = [F_b, M_b (about the origin),
 * M_sec,k] and J = dx/d(va_b, omega_b, theta) (forward differences, awe_vsm_linearize_forward:
 * 1 + 6 + n_sections warm-started Newton solves; the O(h) truncation, ~1e-4 of J, enters the
 * loads only through y - y0, i.e. at second order in the motion between refreshes). They are
 * stored as coefficients C = x/(q A) (q = 1/2 rho_vsm V^2, A the projected area) over
 * speed-independent wind coordinates
 *   y = [V, alpha, beta, omega_hat (3), theta_k],  V = |va_b|, alpha = atan2(va_z, va_x),
 *   beta = atan2(va_y, hypot(va_x, va_z)), omega_hat = omega_b L / V (L = half span)
 * by the chain rule at y0 (va = V [cos b cos a, sin b, cos b sin a]):
 *   dC/dalpha = J_va . dva/dalpha / (q0 A),  dC/dbeta = J_va . dva/dbeta / (q0 A),
 *   dC/domega_hat = J_omega V0/L / (q0 A),   dC/dtheta = J_theta / (q0 A),
 *   dC/dV = (J_va . va0/V0 - 2 x0/V0 + J_omega . omega0/V0) / (q0 A)   (at fixed angles and
 *   omega_hat; ~0 for a speed-independent polar)
 * Between refreshes
 *   C = C0 + dC/dy (y - y0),  q = 1/2 rho(z_origin) V^2,
 *   F_b = q A C[0:3],  M_b = q A C[3:6],  M_aero,g = q A sum_{k in g} C[6 + k]
 * so the loads equal x0 at y0 with the VSM's first derivatives there. x0 is solved at every
 * refresh; dC/dy is kept (one VSM solve instead of 1 + 6 + n_sections) while alpha, beta, each
 * omega_hat and each theta_k stay within run.vsm_jacobian_tol [rad] of the y where it was
 * computed and V within that fraction of its value there (awe_aero_set_jacobian_tol). The loads
 * then carry (dC/dy(y_J) - dC/dy(y0)) (y - y0): second order, |y_J - y0| <= tol times the motion
 * within a refresh interval. Measured on 2plate_steering (a 0.05 m steering step, the kite
 * turns through 130 deg in 8 s; 154 of its 200 refreshes linearize): at the default 1e-3 the
 * tether force and heading stay within 0.005 N and 0.003 deg of a fresh Jacobian at every
 * refresh up to 4 s after the step, closer than rel_tol 1e-4 is to 1e-5 (0.007 N, 0.005 deg);
 * 2plate_parked linearizes at 49 of 1200 refreshes in 60 s. Coefficients over angles
 * and normalised rates stay valid at any speed: the raw-velocity form (J/(q0 A) over va_b and
 * omega_b, as in SymbolicAWEModels @cee625c) has sensitivities ~1/V0 and, refreshed at low
 * speed, extrapolates to unbounded loads (a kite falling in still air spun up and diverged
 * with it). The rate terms are evaluated as (q A/V) L dC/domega_hat . omega, which vanishes
 * smoothly with V. Group moments are scaled like the force (the scaled form of physics.md §8:
 * SymbolicAWEModels @cee625c added unscaled coefficients to a dimensional balance; @19945f5 and
 * the 2026 AeroLinearized scale them by q A c_ref, which is what a section moment coefficient
 * needs). Drag correction factor drag_frac = 1 (no setting in these models sets it).
 * AERO_DIRECT (rigid wings): F_b, M_b and M_sec frozen from the last solve at (va_b, omega_b,
 *   theta), scaled by rho(z)/rho_vsm.
 * AERO_NONE: zero loads.
 * Particle wings (PARTICLE_DYNAMICS / REFINE): each refresh moves the VSM sections to the
 *   structure, section k from the WING point pair (2k, 2k+1) of the wing (LE, TE), in the wing
 *   frame of the reference points:
 *     le_k = R_bw^T (p_LE - o),  te_k = le_k + (1 + aero_scale_chord) R_bw^T (p_TE - p_LE)
 *   solves at va_b with omega = 0 and shares every panel force out to the LE/TE points of the two
 *   sections around it with bilinear weights of the panel's aerodynamic centre (s spanwise,
 *   c chordwise, found by Gauss-Newton in the LE/TE patch):
 *     w = [(1-s)(1-c), (1-s) c, s (1-c), s c]  ->  (LE_k, TE_k, LE_k+1, TE_k+1)
 *   which keeps the sum of the forces and, the patch being bilinear in the VSM's refinement, their
 *   moment; the panel pitching moment m'_i w_i (about e_span) is added as a couple along the panel
 *   normal on the patch's interpolated TE and LE. These body-frame point forces f0_i (scaled by
 *   rho(z_o)/rho_vsm) are rotated with the current wing frame in the right-hand side
 *   (SymbolicAWEModels: R_bw aero_force_point_b); the wing's aero force and moment outputs are
 *   the VSM's resultant and moment about the origin.
 *   An aero mesh that differs from the structure ("fine": V3Kite.jl's 37 sections over 10 LE/TE
 *   pairs): the patches above are the structural ones (pairs k, k+1, structural TE); at setup
 *   each aero section's LE and TE gets its patch, (s, c) there and its offset off the bilinear
 *   patch surface (CAD geometry, body frame), and each refresh puts it back there on the
 *   moved structure (offset in the body frame, chord scaled by 1 + aero_scale_chord from its
 *   LE); the panels are shared out as above. What the patches miss of the VSM's moment about
 *   the origin, dM = M_vsm - sum p_i x f_i, is added as the zero-sum forces
 *   a x (p_i - p_mean), I a = dM (I: the points' unit-mass inertia about their mean), so that
 *   both resultant and moment are the VSM's to rounding (tests/test_v3kite_jl.c). With equal
 *   counts nothing changes (bit for bit). SymbolicAWEModels instead rebuilds the VSM sections
 *   at the structure's pairs keeping the refined panels' polars and gives each refined panel
 *   to its parent section's LE/TE (src/vsm_refine.jl @0337e91,
 *   match_aero_sections_to_structure!, distribute_panel_forces_to_points!).
 *   AERO_DIRECT freezes f0_i between refreshes (SymbolicAWEModels' REFINE coupling).
 *   AERO_LINEARIZED (the default for particle wings, as for rigid ones) also takes the slopes
 *   of the point forces over the wind angles, df_i/dalpha and df_i/dbeta, by forward
 *   differences at fixed V (two more solves, warm-started from the refresh's circulation, step
 *   AWE_AERO_PARTICLE_H), and between refreshes applies
 *     f_i = (rho(z_o) V^2)/(rho_0 V0^2) [f0_i + df_i/dalpha (alpha - alpha0) + df_i/dbeta
 *           (beta - beta0)]
 *   at the current apparent wind (V, alpha, beta of va_b as above): exact at the refresh, the
 *   VSM's first derivatives there, V^2 exact for speed-independent polars; the shape of the
 *   wing stays that of the refresh. Why: frozen forces are an explicit coupling whose loop
 *   (angle of attack -> loads -> motion) is closed only at the refreshes; in fast flight it goes
 *   unstable at 20 Hz (the V3 figure eight: the angle of attack oscillated with a period of two
 *   refreshes and a growing amplitude above ~25 m/s of apparent wind until the wing folded,
 *   README "Flying with control"). With the loads following the wind between refreshes the
 *   same flight is stable at 20 Hz, within 1.0 deg of elevation and 1.2 deg of azimuth of a
 *   400 Hz reference over 30 s (frozen loads at 100 Hz: 0.3 and 0.4 deg); and as the loads no
 *   longer jump at a refresh (only by the linear model's second-order error) they excite the
 *   stiff bridle less. Resultant and moment follow
 *   the same linear model (slopes summed over the points at their structural places). Slopes
 *   of the resultant above AWE_AERO_MAX_SLOPE q A per rad (or of its moment above that times
 *   the wing's reach) come from a perturbed solve that settled on another branch of a stalled
 *   wing: the loads are then frozen until the next refresh (the V3's slopes stay below 5.9 per
 *   rad, released cold, and 3.5 in the figure eight). Like a
 *   rigid wing's coefficient slopes, the point-force slopes are kept from refresh to refresh
 *   (one solve instead of three; rescaled to the refresh's rho V^2) while alpha and beta stay
 *   within run.vsm_jacobian_tol [rad] of where they were computed, V within that fraction and
 *   every section point within that many chords (the shape): a second-order error in the loads;
 *   the V3 parked 60 s linearizes at 380 of 1200 refreshes, within 0.3 N of winch force and
 *   2e-6 rad of fresh slopes at every refresh (at 0.01 rad, the V3 scenarios' setting: 72, 1.4 N;
 *   v3-60s 113x -> 141x -> 165x). The
 *   right-hand side keeps the current point forces (awe_aero_point_forces_b) and their slope
 *   over va_b (awe_aero_point_force_slope) for the analytic Jacobian.
 * Unsteady (unsteady.h, physics.md §17; opt-in per wing): with a Wagner lag every refresh
 *   solves at the lag's deficiency d0 (the polars read at alpha_i - d0) and a linearized wing
 *   also takes its loads' slope over d (rigid: Cd = dC/dd; particle: the point forces'), one
 *   more solve at d0 + AWE_AERO_PARTICLE_H, kept with the other slopes while d stays within
 *   run.vsm_jacobian_tol of where it was taken; between refreshes the loads add slope * (d - d0)
 *   (limited to +-AWE_AERO_MAX_DELTA). A particle wing's apparent mass is shared over its points
 *   with the weights of the panel forces at each refresh (w->point_ma).
 * Low wind: below AWE_AERO_MIN_WIND (= vsm_min_wind, 0.5 m/s) a linearized wing is solved at
 *   the same direction with that speed (q -> 0 then makes its loads vanish smoothly), direct and
 *   particle wings get zero loads (SymbolicAWEModels' AeroDirect). No NaN can reach the state.
 * Failures: a VSM solve that does not converge, gives non-finite loads or implausible ones
 *   (|F| > AWE_AERO_MAX_COEF q A, |M| > the same times the wing's reach r_max + c_ref from the
 *   origin; reversed flow from the trailing edge, where the VSM has no solution) keeps the
 *   previous model and is counted (awe_aero_stats); the run goes on.
 * Reversed flow: the VSM needs the flow to meet the leading edge (its wake leaves the trailing
 *   edge); a refresh with va_b,x <= 0 is skipped (counted as reversed) and a rigid wing's loads
 *   blend, as the angle g between va_b and the body x axis goes from 80 to 100 deg
 *   (smoothstep weight s), into a bluff-body drag with no moment,
 *     F = (1 - s) F_vsm + s 1/2 rho C_D A |va| va,  M = (1 - s) M_vsm,  C_D = 1.2,
 *   which can take energy out of the motion but never put it in (still air). A particle wing in
 *   reversed flow gets zero loads until the flow turns. This regime is outside
 *   SymbolicAWEModels, whose VSM returns unconverged loads there.
 * Range of the linear model: its inputs are extrapolated at most AWE_AERO_MAX_DELTA = 0.5 rad
 *   (alpha, beta, theta) or 0.5 (omega_hat) from y0, V at most to 2 V0, and the loads are
 *   limited to the plausible range above. In normal flight a refresh interval moves y by far
 *   less; the limits only act in a tumble or a stall spin (a kite falling backwards in still
 *   air span up without them when a refresh in reversed flow failed).
 * Numerics: the coupled VSM runs the Newton solver (it falls back to the relaxed loop, at most
 *   AWE_AERO_MAX_LOOP iterations) warm-started from the previous refresh, whatever solver_type
 *   the settings name: both converge to the same circulation within rtol.
 */
#ifndef AWE_AERO_COUPLING_H
#define AWE_AERO_COUPLING_H

#include "engine/work.h"

#define AWE_AERO_MIN_WIND 0.5
#define AWE_AERO_MAX_COEF 4.0    /* plausible |C_F| (a flat plate's normal force: ~2) */
#define AWE_AERO_MAX_DELTA 0.5   /* extrapolation range of the linear model [rad, -] */
#define AWE_AERO_MAX_LOOP 500    /* iterations of the relaxed loop behind Newton */
#define AWE_AERO_REVERSED_CD 1.2 /* drag coefficient of a wing in reversed flow [-] */
#define AWE_AERO_PARTICLE_H 1e-4 /* angle step of a particle wing's slopes [rad] */
#define AWE_AERO_MAX_SLOPE 12.566370614359172 /* plausible |dC_F/dangle|: 4 pi per rad, */
                                 /* twice a thin airfoil's lift slope */

typedef struct {
  unsigned long refreshes;  /* wing refreshes (VSM solves or linearizations) */
  unsigned long failures;   /* refreshes whose solve failed (previous model kept) */
  unsigned long low_wind;   /* refreshes below AWE_AERO_MIN_WIND */
  unsigned long solves;     /* VSM solves, linearization included */
  unsigned long jacobians;  /* linearizations of wings (the others kept the last slopes) */
  unsigned long reversed;   /* refreshes in reversed flow (no VSM solve) */
  double t_fail;            /* time of the first failure [s] */
} awe_aero_stats;

/* Allocate the coupling for m (VSM wings, section maps, scratch). Returns NULL with err->code
 * == 0 when no wing has aerodynamics, NULL with err set on failure. */
struct awe_aero *awe_aero_alloc(const awe_model *m, const awe_work *w, awe_err *err);
void awe_aero_free(struct awe_aero *a);

/* Forget the frozen models (zero loads until the next refresh) and the statistics' warm start. */
void awe_aero_reset(const awe_model *m, awe_work *w);

/* Refresh every wing's model from the workspace's kinematics, which the caller has just
 * evaluated at time t (awe_rhs_aero_refresh in rhs.h does both: the coupling hands no call
 * back up to the right-hand side). Returns the number of wings whose solve failed (0 = all
 * fine). */
int awe_aero_refresh(const awe_model *m, awe_work *w, double t);

/* Loads of the frozen models at the current kinematics: w->wing_aero_force_b,
 * wing_aero_moment_b, group_moment_aero (right-hand side). */
void awe_aero_eval(const awe_model *m, awe_work *w);

/* Add the point forces of particle wings to w->force (right-hand side; awe_aero_eval first). */
void awe_aero_point_forces(const awe_model *m, awe_work *w);

/* Keep a linearized wing's Jacobian while its wind coordinates stay within tol [rad] of where
 * it was computed (run.vsm_jacobian_tol); 0: a fresh one at every refresh. Forgets the kept
 * Jacobians. linearize and step-response use 0 (their operating point is exact). */
void awe_aero_set_jacobian_tol(awe_work *w, double tol);

/* The plausibility bound of a particle wing's slopes, per rad of C_F (AWE_AERO_MAX_SLOPE when
 * per_rad <= 0); forgets the kept slopes. For tests: the guard is hard to provoke in flight. */
void awe_aero_set_max_slope(awe_work *w, double per_rad);

/* Zero the statistics (the simulation does so after the steady state: its trial states are
 * not the run's). */
void awe_aero_reset_stats(awe_work *w);

/* Statistics (zeros without aerodynamics). */
awe_aero_stats awe_aero_get_stats(const awe_work *w);

/* The point forces of particle wings [3 np] at the last awe_aero_point_forces, body frame of
 * their wing (NULL without aerodynamics), for tests, diagnostics and the Jacobian (jacobian.h). */
const double *awe_aero_point_forces_b(const awe_work *w);

/* G = d f_b/d va_b (row-major) of WING point i of particle wing j at the last evaluation: the
 * slope of its body-frame aerodynamic force over the apparent wind in body axes. Returns 1 for a
 * linearized particle wing, else 0 with G = 0 (frozen loads). The Jacobian turns it into the
 * columns of the origin's velocity and height and of the frame (jacobian.h). */
int awe_aero_point_force_slope(const awe_work *w, int j, int i, double G[9]);

/* Does the right-hand side apply particle wing j's frozen point forces (a valid model)? */
int awe_aero_point_forces_on(const awe_work *w, int j);

/* The VSM wing of wing j (NULL without aerodynamics), for tests and diagnostics. */
struct awe_vsm_wing *awe_aero_vsm(const awe_work *w, int j);

/* Unsteady aerodynamics (unsteady.h), after awe_aero_alloc: the mean chords of the Wagner lag
 * (w->wing_wag_chord, 1 m without a VSM wing) and the panels' apparent mass with its first
 * distribution (at the VSM density; each refresh redistributes it at the density there).
 * Returns 0, or -1 out of memory. G of awe_aero_point_force_slope holds the lag's term in the
 * force it scales (the lag's own dependence goes to finite differences, jacobian.h). */
int awe_aero_unsteady_init(const awe_model *m, awe_work *w);

/* The apparent mass of wing j at density rho [kg]: rho SCALE sum_i pi c_i^2 w_i / 4 over its
 * panels (0 without it). */
double awe_aero_apparent_mass(const awe_work *w, int j, double rho);

/* Section inputs of rigid wing j at the current workspace: theta per section (n_sections). */
void awe_aero_section_twist(const awe_model *m, const awe_work *w, int j, double *theta);

#endif
