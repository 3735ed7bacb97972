/* pulley.h: a line running over a pulley: two segments sharing one rope (physics.md §6).
 *
 * Source: SymbolicAWEModels src/generate_system/pulley_eqs.jl @33cb132.
 *
 *   l0_1 = pulley_len,  l0_2 = sum_len - pulley_len   (sum_len fixed at init)
 *   m_p  = sum_len lambda_1        (rope mass, lambda = rho pi d^2/4 of leg 1)     [kg]
 *   F_p  = F_s(leg 1) - F_s(leg 2)                                                 [N]
 *   DYNAMIC:      d len/dt = vel,  d vel/dt = F_p/m_p - 5 vel   (pulley_damp = 5 1/s)
 *                 (the legs' dampers act on d(len - l0)/dt, so F_p holds -c (2 vel) too:
 *                 segment.h)
 *   QUASI_STATIC: F_p = 0 (equal tension), solved with the quasi-static points
 *                 (quasi_static.c); also used for a DYNAMIC pulley whose rope has no mass.
 */
#ifndef AWE_PULLEY_H
#define AWE_PULLEY_H

#include "engine/work.h"

#define AWE_PULLEY_DAMP 5.0 /* [1/s] */

/* Accelerations of the pulleys with a state into w->pulley_acc (segments evaluated). */
void awe_pulley_dynamics(const awe_model *m, awe_work *w);

#endif
