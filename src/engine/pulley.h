/* pulley.h: a line running over a pulley: two segments sharing one rope (physics.md §6).
 *
 * Source: SymbolicAWEModels src/generate_system/pulley_eqs.jl @33cb132.
 *
 *   l0_1 = pulley_len,  l0_2 = sum_len - pulley_len   (sum_len fixed at init)
 *   m_p  = sum_len lambda_1        (rope mass, lambda = rho pi d^2/4 of leg 1)     [kg]
 *   F_p  = F_s(leg 1) - F_s(leg 2)                                                 [N]
 *   T    = (F_s(leg 1) + F_s(leg 2))/2, the line tension (0 when negative: a slack pulley is
 *          frictionless)                                                           [N]
 *   F_f  = (1 - efficiency) T vel/sqrt(vel^2 + eps^2) + damping vel                [N]
 *   DYNAMIC:      d len/dt = vel,  d vel/dt = (F_p - F_f)/m_p - damping_rate vel
 *                 (the legs' dampers act on d(len - l0)/dt, so F_p holds -c (2 vel) too:
 *                 segment.h)
 * Friction (SymbolicAWEModels 0.14, Pulley efficiency, friction_epsilon, damping; YAML columns
 *   of pulleys): the sheave passes on `efficiency` of the line tension, so a rope sliding
 *   steadily (|vel| >> eps) runs with F_1 - F_2 = (1 - efficiency) (F_1 + F_2)/2, i.e.
 *   F_out = F_in (1 + efficiency)/(3 - efficiency) (0.95: F_out = 0.9512 F_in); efficiency
 *   defaults to 0.95 (a sealed ball bearing), eps (friction_epsilon) to 0.1 m/s (awesim's
 *   choice), damping [N s/m] to 0. It replaces the hidden pulley_damp of 5 1/s of SAM < 0.14
 *   and awesim before, which a model calibrated with it keeps as damping_rate: 5 [1/s] (an
 *   awesim extension column, default 0).
 *   QUASI_STATIC: F_p = 0 (equal tension), solved with the quasi-static points
 *                 (quasi_static.c); also used for a DYNAMIC pulley whose rope has no mass.
 */
#ifndef AWE_PULLEY_H
#define AWE_PULLEY_H

#include "engine/work.h"

/* Friction force of pulley i [N] at rope speed v [m/s] and line tension T (the mean of the
 * legs' [N]; none when slack): (1 - efficiency) max(T, 0) v/sqrt(v^2 + eps^2) + damping v;
 * *dv and *dt (may be NULL) its derivatives by v and T. */
double awe_pulley_friction(const awe_model *m, int i, double v, double tension, double *dv,
                           double *dt);

/* Accelerations of the pulleys with a state into w->pulley_acc (segments evaluated). */
void awe_pulley_dynamics(const awe_model *m, awe_work *w);

#endif
