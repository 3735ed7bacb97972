/* point.h: point masses, point forces and accelerations (physics.md §3).
 *
 * Source: SymbolicAWEModels src/generate_system/point_eqs.jl @33cb132 / @04df826,
 * segment_half_mass in src/components/kernels.jl @33bb307.
 *
 *   m_i = extra_mass_i + sum_{segments s at i} lambda_s l0_s / 2,  lambda_s = rho_s pi d_s^2/4
 *   S_i = sum_s (+-F_s u_s) + sum_s F_drag_s / 2          (segment.h)
 *   D_i = 0.5 rho(z_i) cd_i |va_i|_s area_i va_i,  va_i = f(z_i) wind_gnd - vel_i,
 *         |v|_s = sqrt(|v|^2 + 1e-24)
 *   F_i = S_i + [0, 0, -g m_i] + F_ext,i + D_i + m_i a_g,i   (the "force" output;
 *         a_g the ground contact per unit mass, ground.h: points with a state, rigid wings')
 * DYNAMIC points and WING points of particle wings:
 *   d pos/dt = vel
 *   d vel/dt = F_i/m_i - R_bw (bfd_i .* R_bw^T (vel_i - v_wing)) - wfd_i .* vel_i
 * bfd (body_frame_damping) acts relative to the velocity of the point's wing origin, in the wing
 * body axes (wing.h); a point without a wing is damped relative to the ground (v_wing = 0,
 * world axes). wfd (world_frame_damping) is per unit mass: a falling point reaches v = g/wfd.
 * WING points of rigid wings have no state: they are slaves of the wing body (wing.h), and their
 * F_i enters the wing's force and moment.
 * STATIC points stay at pos0 with zero velocity; QUASI_STATIC points have zero velocity and
 * F_i = 0 (quasi_static.c).
 */
#ifndef AWE_POINT_H
#define AWE_POINT_H

#include "engine/work.h"

/* Current mass of point i from w->seg_l0 into w->mass[i]. */
void awe_point_mass(const awe_model *m, awe_work *w, int i);
void awe_point_masses(const awe_model *m, awe_work *w);

/* Total force on point i (segment forces gathered from w->seg_*) into w->spring, w->force. */
void awe_point_force(const awe_model *m, awe_work *w, int i);
void awe_point_forces(const awe_model *m, awe_work *w);

/* Accelerations of the points with a state into w->acc. */
void awe_point_accelerations(const awe_model *m, awe_work *w);

#endif
