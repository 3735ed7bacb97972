/* body.h: rigid bodies and the tubes (beam elements) between them.
 *
 * Source: SymbolicAWEModels 0.17, src/system_structure/rigid_body.jl (Body),
 * src/generate_system/body_eqs.jl / rigid_body_eqs.jl (6-DOF equations),
 * timoshenko_tube_eqs.jl + timoshenko_element_wrench (corotational Timoshenko element),
 * elastic_tube_eqs.jl + elastic_joint_wrench (lumped 6-DOF elastic joint). Written anew here
 * from those equations.
 *
 * Body j (origin = centre of mass; model_build_body.c). States of a DYNAMIC body:
 *   bodies.NAME.pos [m], vel [m/s] (world), Q [-] (Q_b_to_w, w x y z), omega [rad/s] (body)
 *   dpos/dt = vel,  dvel/dt = F / m - c_w .* vel  (c_w: world_frame_damping [1/s], as SAM's)
 *   F = -m_0 g e_z + F_ext + sum of tube forces + sum of the forces on its riding points
 *   M = sum of tube moments + M_ext + sum (p_i - c) x F_i
 * Riding points (SAM: BODY_STATIC, body_idx, anchor_b r_i): p_i = c + R r_i,
 *   v_i = v + omega_w x R r_i; their masses are in m and (about the origin) in I, their
 *   weights in F_i (model_build_body.c).
 *   domega/dt = I^-1 (R^T M - omega x I omega) - c .* omega   (c: angular_damping [1/s])
 *   dQ/dt = 1/2 Q (x) (0, omega) + k (1 - |Q|^2) Q   (k = AWE_QUAT_GAIN, as the rigid wing)
 * with I the body-frame tensor (full, as given) and M the moment about the centre of mass,
 * world frame. A STATIC body has no state and keeps its initial pose.
 *
 * Timoshenko tube between a and b (ends x_a = p_a + R_a r_a, x_b = p_b + R_b r_b):
 *   element frame E = [e1 e2 e3]: e1 = (x_b - x_a)/l, e2 = the body-a vector ref_b made
 *   perpendicular to e1, e3 = e1 x e2 (roll follows a); ref_b = body a's y axis as SAM's
 *   timoshenko_element_frame, or, for a chord within 60 deg of it at rest (where that
 *   projection degenerates), the body-a axis least aligned with the chord
 *   node rotations: D_n = (E^T R_n) R_n0^T (R_n0 = E0^T R_n at rest),
 *                   theta_n = (D32 - D23, D13 - D31, D21 - D12) / 2
 *   delta = l - L0, Phi_y,z = 12 EI_y,z / (k_s GA L0^2) (Phi = 0: Euler-Bernoulli, GA = inf),
 *   the consistent 2-node Timoshenko end wrench (timoshenko_local_wrench):
 *     b = EI/(L0 (1+Phi)), s = 6 EI/(L0^2 (1+Phi)), Mt = GJ/L0, f = EA delta/L0
 *     F_a = [f, -s_z (th_a3 + th_b3), s_y (th_a2 + th_b2)],  F_b = -F_a
 *     M_a = [-Mt (th_a1 - th_b1), -b_y ((4+Phi_y) th_a2 + (2-Phi_y) th_b2),
 *            -b_z ((4+Phi_z) th_a3 + (2-Phi_z) th_b3)]
 *     M_b = [-Mt (th_b1 - th_a1), -b_y ((2-Phi_y) th_a2 + (4+Phi_y) th_b2),
 *            -b_z ((2-Phi_z) th_a3 + (4+Phi_z) th_b3)]
 *   damping (Rayleigh, stiffness-proportional, beta = damping [s]): the same wrench of
 *   beta times the deformation rates: stretch rate (v_b - v_a).e1 and the node spins less the
 *   element frame's spin (e1.omega_a) e1 + e1 x (v_b - v_a) / l, so rigid motion is undamped;
 *   forces act at the ends: moment on a body = (x - c) x F + E M.
 * Elastic tube (lumped joint, SAM's elastic_joint_wrench): in body a's frame
 *   dr = R_a^T (x_b - x_a) - dr0, dth = vee(R_rel0^T R_a^T R_b), rates dv, dw (corotational),
 *   force on b  F = R_a (-(k_ax, k_sh, k_sh) .* (dr + beta dv)),
 *   torque on b T = R_a (-(k_t, k_b, k_b) .* (dth + beta dw)),
 *   on a: -F and -T - (x_b - x_a) x F (plus the transport of each force to its centre of mass).
 * Rigidities: given, or from the Breukels (2011) laws (model_build_body.c).
 */
#ifndef AWE_BODY_H
#define AWE_BODY_H

#include "engine/work.h"

/* initial state of the DYNAMIC bodies into y */
void awe_body_state_init(const awe_model *m, const awe_work *w, double *y);

/* pose, velocities from y (static bodies: their initial pose) */
void awe_body_kinematics(const awe_model *m, awe_work *w, const double *y);

/* gravity, external inputs, tube wrenches; then the derivatives (w->body_dydt) */
void awe_body_dynamics(const awe_model *m, awe_work *w, unsigned flags);

/* the Timoshenko element's end wrench in element coordinates, linear in the deformations
 * (delta, th_a, th_b) (SAM's timoshenko_local_wrench; above); k = EA, GA, GJ, EIy, EIz, k_s */
void awe_timo_local(const double *k, double L0, double delta, const double ta[3],
                    const double tb[3], double Fa[3], double Ma[3], double Fb[3], double Mb[3]);

/* the wrench of tube i on its bodies (world frame; moments about each centre of mass) at the
 * current kinematics in w */
void awe_tube_wrench(const awe_model *m, const awe_work *w, int i, double Fa[3], double Ma[3],
                     double Fb[3], double Mb[3]);

/* derivatives into dydt */
void awe_body_assemble(const awe_model *m, const awe_work *w, double *dydt);

/* renormalise the bodies' quaternions in y; the largest | |Q| - 1 | found */
double awe_body_normalize(const awe_model *m, const awe_work *w, double *y);

#endif
