/* kcu.h: the kite control unit: depower and steering motors and the tapes they drive
 * (physics.md §16).
 *
 * Inputs kcu.depower u_p [%] (0 ... 100) and kcu.steering u_s [%] (-100 ... 100; the
 * commands, clamped to those ranges); states kcu.depower_actual p and kcu.steering_actual s
 * [%], each moved by its motor (KitePodModels.jl's KCU model, continuous in time):
 *
 *   dp/dt = clamp(k (u_p - p), -r_p, r_p),   ds/dt = clamp(k (u_s - s), -r_s, r_s)
 *
 * k the motor gain [1/s], r_p, r_s the speed limits [%/s]: a step of size D > r/k is followed
 * at the speed limit until r/k short of the command (in (D - r/k)/r s), then exponentially
 * with time constant 1/k. The function is continuous and piecewise linear, so the states
 * linearize (slope -k at rest) and the implicit steppers see a Lipschitz right-hand side.
 *
 * Tapes (V3Kite.jl src/calibration.jl; model_build_kcu.c for the defaults and sources):
 *   depower tape  l = l_dp0 + L_dp p / 100
 *   left tape     l = l_s0 - L_s s / 100,   right tape  l = l_s0 + L_s s / 100
 * held at >= 0 m. The segments' inputs segments.NAME.l0 still add to these.
 */
#ifndef AWE_KCU_H
#define AWE_KCU_H

#include "engine/work.h"

/* the settings and actual positions from u and y into the workspace (rhs stage 2) */
void awe_kcu_unpack(const awe_model *m, awe_work *w, const double *y);
/* rest length of tape segment s (w->kcu_l0) or base when s is not a KCU tape */
double awe_kcu_rest_length(const awe_model *m, const awe_work *w, int s, double base);
/* the motors' speeds into dydt (rhs stage 11) */
void awe_kcu_assemble(const awe_model *m, const awe_work *w, double *dydt);

#endif
