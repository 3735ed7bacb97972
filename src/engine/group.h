/* group.h: twist groups (twist surfaces) of rigid wings.
 *
 * Source: SymbolicAWEModels src/generate_system/group_eqs.jl @393cade (late 2025) and
 * twist_surface_eqs.jl @8355953 (physics.md §3, §7).
 *
 * Geometry (body frame, untwisted, from the CAD positions): LE = the group's first point,
 * chord c = (farthest group point) - LE, x_airf = c/|c|, y_airf = the body y axis made
 * orthogonal to x_airf, z0 = x_airf x y_airf (the plate normal).
 * Twist theta rotates the group's points about the LE line along y_airf (Rodrigues; positive
 * = nose up, the TE moves along -z0):
 *   p_b(theta) = LE + Rot(y_airf, theta) (p_b0 - LE),   dp_b/dt = dtheta/dt y_airf x (p_b - LE)
 * (SymbolicAWEModels: LE + cos(theta) c_i - sin(theta) c_i x y_airf, the same for points in the
 * chord plane). Moment about the twist axis at moment_frac of the chord:
 *   z_airf(theta) = sin(theta) x_airf + cos(theta) z0,  n_w = R_bw (-z_airf(theta))
 *   r_i = (p_b0,i - (LE + moment_frac c)) . x_airf,   M_tether = sum_i r_i (F_i . n_w)
 *   I_g = (1/3) m_g |c|^2,  m_g = sum of the group points' extra masses
 *   alpha = (M_aero + M_tether) / I_g
 *   theta = clamp(theta_free, -90 deg, +90 deg)
 * DYNAMIC:      d theta_free/dt = omega,  d omega/dt = alpha - damping omega   (FIX_WING: 0)
 * QUASI_STATIC: omega = 0 and M_aero(theta) + M_tether(theta) = 0, solved in the right-hand side
 *               by a safeguarded secant iteration on theta (warm-started, |d theta| < 1e-10 rad);
 *               the forces of the group's points are re-evaluated at each iterate.
 * STATIC:       theta = 0.
 * M_aero is the VSM section moment of the group's sections (aero_coupling.h), positive nose up.
 */
#ifndef AWE_GROUP_H
#define AWE_GROUP_H

#include "engine/work.h"

/* Geometry of every group (after the wing's body positions are known). AWE_EINVAL when a
 * DYNAMIC group has no mass or no chord. */
awe_status awe_group_setup(const awe_model *m, awe_work *w, awe_err *err);

/* Twist states from y (clamped twist into w->twist). */
void awe_group_unpack(const awe_model *m, awe_work *w, const double *y);

/* Twisted body position pb and body velocity vb of WING point p of a rigid wing. */
void awe_group_point_b(const awe_model *m, const awe_work *w, int p, double pb[3], double vb[3]);

/* Tether moments and twist accelerations (after the point forces and the aerodynamics). */
void awe_group_dynamics(const awe_model *m, awe_work *w, unsigned flags);

/* Solve the QUASI_STATIC groups' moment balance (point forces evaluated). Returns 0, or -1
 * when the iteration failed (the step is retried). */
int awe_group_quasi_static(const awe_model *m, awe_work *w);

/* Write the twist derivatives into dydt. */
void awe_group_assemble(const awe_model *m, const awe_work *w, double *dydt);

/* Initial twist states (zero) in y, and the warm start of the quasi-static groups. */
void awe_group_state_init(const awe_model *m, awe_work *w, double *y);

#endif
