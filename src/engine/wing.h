/* wing.h: rigid (RIGID_DYNAMICS / QUATERNION) wing bodies and the frames of particle wings.
 *
 * Source: SymbolicAWEModels src/generate_system/wing_eqs.jl @ae6cd59, rigid_body_eqs.jl,
 * src/system_structure/transforms.jl init_principal_frame! @394ead8 (physics.md §3, §4).
 *
 * Geometry (constant, from the CAD positions): body frame b from the reference points,
 *   z_b = n(z2 - z1), x_b = n(n(y2 - y1) x z_b), y_b = z_b x x_b   (R_bc = [x_b y_b z_b]),
 * origin o = weighted origin points, WING points p_b,i = R_bc^T (p_cad,i - o_cad). Rigid wings:
 *   m = sum m_i,  c_b = sum m_i p_b,i / m,  I_b = sum m_i (|r_i|^2 E - r_i r_i^T),  r_i = p_b,i - c_b
 *   I_b = R_pb diag(I_1, I_2, I_3) R_pb^T    (principal axes, right-handed; axis 2 nearest the
 *   CAD y axis (span), axis 1 nearest CAD x: SymbolicAWEModels' calc_inertia_y_rotation, so
 *   y_damping damps pitch whatever the order of the moments)
 * with m_i the WING points' masses at init (extra mass plus half of each attached segment).
 *
 * States: centre of mass c [m] and its velocity v [m/s] (world), the quaternion Q of R_pw
 * (principal -> world; w,x,y,z, Hamilton) and the body rates omega_p [rad/s] (principal frame).
 * Kinematics:
 *   R_pw = R(Q)  with s = 2/|Q|^2 (orthonormal for any Q != 0),   R_bw = R_pw R_pb^T
 *   omega_w = R_pw omega_p,  origin o = c - R_bw c_b,  v_o = v + omega_w x (o - c)
 *   WING point i (slave):  p_i = c + R_bw (p_b,i(theta) - c_b),
 *                          v_i = v + omega_w x (p_i - c) + R_bw dp_b,i/dt
 *   (p_b,i(theta): twisted by its group, group.h).
 * Dynamics (F_i: total force on slave point i from segments, gravity, drag, external force):
 *   F   = sum F_i + R_bw F_aero,b + F_ext
 *   M   = sum (p_i - c) x F_i + R_bw (M_aero,b + F_aero,b x c_b) + M_ext   (about the COM)
 *   M_p = R_pw^T M
 *   dv/dt = F / m
 *   alpha_1 = (M_p1 + (I_2 - I_3) w_2 w_3) / I_1   (cyclic: Euler's equations)
 *   domega_p/dt = [alpha_1 - c_1 w_1, alpha_2 - c_2 w_2, alpha_3 - c_3 w_3]
 *                 (c = the structure's angular_damping vector [1/s], SymbolicAWEModels 0.15,
 *                 default [0, 150, 0], a scalar broadcast; older files and the scenario's
 *                 wings.NAME.angular_damping c_a, y_damping c_y: c = [c_a, c_a + c_y, c_a])
 *   dQ/dt = 1/2 Q (x) (0, omega_p) + k (1 - |Q|^2) Q,   k = AWE_QUAT_GAIN = 10 1/s
 * Quaternion norm: the Baumgarte term pulls |Q| back to 1 with time constant 1/(2k) = 0.05 s,
 * R(Q) is orthonormal whatever |Q|, and the integrator renormalises Q after every accepted step
 * of the single-step steppers (integrate.c); multistep steppers (msbdf) keep their history and
 * rely on the Baumgarte term (renormalising and resetting only if ||Q| - 1| > 1e-6).
 * Constraints (rhs flags): AWE_CTX_FIX_WING freezes the body (all derivatives 0);
 * AWE_CTX_FIX_SPHERE (steady state, find_steady_state!'s fix_sphere) keeps only the radial
 * components along a = n(c - base) of dc/dt and dv/dt and removes the radial component of
 * omega (rotation about the tether axis) from dQ/dt and domega/dt.
 *
 * Particle wings: R_bw from the reference points of the current positions, origin from the
 * origin points, omega = 0 (SymbolicAWEModels' PARTICLE_DYNAMICS frame).
 * Apparent wind at the origin: va = f(z_o) wind_gnd - v_o, va_b = R_bw^T va.
 * Ground station (base) of a wing: its own, m->wing_ground (ground_station.c: its ground_point,
 * or the STATIC end of the line chain that holds it).
 */
#ifndef AWE_WING_H
#define AWE_WING_H

#include "engine/work.h"

#define AWE_QUAT_GAIN 10.0

/* Constant geometry of every wing into w->wg, w->point_pos_b (and the group geometry,
 * group.h). Returns AWE_OK or AWE_EINVAL with err set (degenerate frame or inertia). */
awe_status awe_wing_setup(const awe_model *m, awe_work *w, awe_err *err);

/* Rigid-wing states in y from the placed model (positions and velocities of its points). */
void awe_wing_state_init(const awe_model *m, const awe_work *w, double *y);

/* Body -> world frame R of particle wing j from its reference points at positions pos [3 np]
 * (as awe_wing_kinematics; the identity when they define no frame). */
void awe_wing_frame_at(const awe_model *m, int j, const double *pos, double R[9]);

/* Unpack the rigid-wing states, place and move their slave points (groups already unpacked),
 * and set the frames and origins of all wings. */
void awe_wing_kinematics(const awe_model *m, awe_work *w, const double *y);

/* Apparent wind at every wing origin (after the wind stage). */
void awe_wing_apparent_wind(const awe_model *m, awe_work *w);

/* Force and moment sums and the rigid-body derivatives into w->wing_acc, wing_alpha_p,
 * wing_qdot (flags: AWE_CTX_FIX_WING, AWE_CTX_FIX_SPHERE). */
void awe_wing_dynamics(const awe_model *m, awe_work *w, unsigned flags);

/* Write the rigid-wing derivatives into dydt. */
void awe_wing_assemble(const awe_model *m, const awe_work *w, double *dydt);

/* Renormalise the quaternions in y; returns max ||Q| - 1| before. */
/* Unit quaternions y[x_off[j] + 6 .. + 9] of n pose blocks (wings, bodies; -1: none); the
 * largest deviation |q| - 1 before. */
double awe_quat_states_normalize(const int *x_off, int n, double *y);
double awe_wing_normalize(const awe_model *m, const awe_work *w, double *y);

/* Kinetic energy of the rigid wings at y [J]. */
double awe_wing_kinetic_energy(const awe_model *m, const awe_work *w, const double *y);

#endif
