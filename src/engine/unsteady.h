/* unsteady.h: opt-in unsteady aerodynamics of a wing (physics.md §17), after SymbolicAWEModels 0.17
 * (docs/src/unsteady_aero.md, "Unsteady aerodynamics"; UnsteadyAero of a VSMEngine). Keyed per
 * wing as unsteady: {apparent_mass: SCALE, wagner: BOOL} (awesim-scenario(5)); both off by
 * default, and then nothing below runs (results unchanged bit for bit).
 *
 * Wagner lift lag (two states per wing, wings.NAME.wagner_x1, wagner_x2 [rad]). With the
 * reduced time s = int 2 V/c dt (c the mean chord of the VSM mesh, sum c_i w_i / sum w_i) and
 * the wing's reference angle of attack alpha = atan2(va_z, va_x), V = |va|, of its mean
 * apparent wind va in body axes (at equal weight over its WING points, as SymbolicAWEModels'
 * WagnerLag gathers va_in over the wing's nodes; a constant offset of alpha such as the
 * chord's pitch in body axes cancels from d):
 *   dx_i/dt = (2 V/c) (alpha - b_i x_i),   d = sum_i A_i (alpha - b_i x_i),
 *   A = (0.165, 0.335), b = (0.0455, 0.3)   (R. T. Jones' fit of Wagner's function)
 * (SymbolicAWEModels' tunable wagner_gains A and wagner_rates b: the keys of unsteady:, with
 * these defaults; A_i >= 0, A_1 + A_2 <= 1, b_i > 0)
 * and every panel's polar is read at alpha_i - d (cl, cd and cm; the force directions keep the
 * geometric alpha_i): awe_vsm_wing_set_alpha_shift. After a step in alpha from rest (x = 0)
 * alpha - b_i x_i = alpha e^(-b_i s), so alpha - d = alpha phi(s) with Wagner's indicial
 * function phi(s) = 1 - A_1 e^(-b_1 s) - A_2 e^(-b_2 s) (phi(0) = 0.5); for alpha = a e^(i k s)
 * the lag is Jones' approximation of Theodorsen's C(k), 1 - sum_i A_i i k/(i k + b_i). In
 * steady flow x_i = alpha/b_i and d = 0: a trimmed wing is untouched (awe_wagner_settle puts
 * the states there at the start of a run and after the steady state; during the steady-state
 * march, AWE_CTX_NO_LAG, d = 0 and the states hold, so it settles to the lag-free equilibrium).
 * The coupling (aero_coupling.h) solves the VSM at the deficiency d0 of the refresh and, for
 * linearized wings, its slope over d (one more solve); between refreshes the loads follow
 * d - d0 linearly. Frozen (AeroDirect) wings see d only at the refreshes.
 *
 * Apparent (added) mass (PARTICLE_DYNAMICS wings only, as in SymbolicAWEModels): per VSM panel
 * of chord c_i and width w_i (the mesh at build time)
 *   m_a,i = SCALE rho pi c_i^2 w_i / 4
 * shared over the wing's LE/TE points with the weights of that panel's force (aero_coupling.h,
 * they sum to 1), rho the density at the wing origin at each refresh. It is isotropic and has
 * no weight: a point's acceleration is (F + m g)/(m + m_a) rather than F/m, gravity m g still on
 * m alone; damping terms per unit mass are unchanged. w->point_ma holds it (NULL when no wing
 * has apparent mass).
 */
#ifndef AWE_UNSTEADY_H
#define AWE_UNSTEADY_H

#include "engine/work.h"

#define AWE_WAGNER_A1 0.165
#define AWE_WAGNER_A2 0.335
#define AWE_WAGNER_B1 0.0455
#define AWE_WAGNER_B2 0.3

/* The lag's right-hand side: dx = dx/dt [2] and the deficiency *d at apparent speed V [m/s],
 * mean chord c [m], reference angle alpha [rad], gains A [2], rates b [2] and states x [2]. */
void awe_wagner_rhs(double V, double c, double alpha, const double A[2], const double b[2],
                    const double x[2], double dx[2], double *d);

/* The lag's inflow of wing j at the workspace's kinematics: the apparent wind averaged at equal
 * weight over the wing's WING points (wind there less their velocity), in body axes, its speed
 * *V and angle *alpha = atan2(va_z, va_x). */
void awe_wagner_inflow(const awe_model *m, const awe_work *w, int j, double *V, double *alpha);

/* Right-hand side stage (after the apparent wind, before the loads): w->wing_wag_d and
 * wing_wag_dx of every wing with a lag, from y. */
void awe_unsteady_eval(const awe_model *m, awe_work *w, const double *y);

/* The lag states' derivatives into dydt. */
void awe_unsteady_assemble(const awe_model *m, const awe_work *w, double *dydt);

/* Put the lag states of y at their steady values x_i = alpha/b_i (d = 0) for the workspace's
 * apparent wind (the right-hand side must have been evaluated at y). */
void awe_wagner_settle(const awe_model *m, awe_work *w, double *y);

#endif
