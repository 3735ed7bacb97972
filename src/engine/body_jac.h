/* body_jac.h: the derivatives of a rigid body's own equations, of the points riding it and of
 * the tube wrenches (body.h), for the analytic Jacobian (jacobian.h).
 *
 * States of a DYNAMIC body, offsets in its 13: pos 0, vel 3, Q 6 (w x y z), omega 10 (body).
 * R(Q) = I + s P(Q), s = 2/|Q|^2 (awe_quat_to_R keeps R orthonormal off the unit sphere), so
 *   dR/dQ_k = s (dP/dQ_k - P 2 Q_k/|Q|^2),  P = (R - I)/s.
 * A riding point r_b (body frame): p = c + R r_b, v = v_c + R (omega x r_b):
 *   dp/dc = I, dp/dQ_k = dR_k r_b;  dv/dv_c = I, dv/dQ_k = dR_k (omega x r_b),
 *   dv/domega = -R [r_b]x.
 * The body's own rows, the forces and moments held fixed (they are added by the caller
 * through d vel/dt += dF/m, d omega/dt += I^-1 R^T dM):
 *   d pos/dt = vel: I;  d vel/dt: -diag(c_w) on vel;
 *   dQ/dt = Q (x) (0, omega)/2 + k (1 - |Q|^2) Q:
 *     d/dQ_k = e_k (x) (0, omega)/2 + k (1 - |Q|^2) e_k - 2 k Q_k Q,
 *     d/domega_j = Q (x) (0, e_j)/2;
 *   d omega/dt = I^-1 (R^T M - omega x I omega) - c .* omega:
 *     d/dQ_k = I^-1 dR_k^T M,  d/domega = -I^-1 ([omega]x I - [I omega]x) - diag(c).
 * Tubes: the wrench (F_a, M_a, F_b, M_b) of a tube, differentiated analytically in the 13
 * states of each dynamic end body (tube_jac.c; its header has the equations).
 */
#ifndef AWE_BODY_JAC_H
#define AWE_BODY_JAC_H

#include "engine/work.h"

/* dR/dQ_k (k = 0..3) of awe_quat_to_R into dR[9 k ..] (row-major) */
void awe_quat_dR(const double q[4], double dR[36]);

/* a point at r_b on a body of rotation R (dR its derivatives), body rate om_b: dp/dQ (3x4),
 * dv/dQ (3x4), dv/domega (3x3), row-major */
void awe_body_ride_jac(const double R[9], const double dR[36], const double om_b[3],
                       const double r_b[3], double dpdQ[12], double dvdQ[12], double dvdw[9]);

/* body j's own rows in its own states, forces and moments fixed (above): J 13x13 row-major
 * (overwritten); dR of its Q */
void awe_body_own_jac(const awe_model *m, const awe_work *w, int j, const double dR[36],
                      double J[169]);

/* tube i's wrench (rows F_a, M_a, F_b, M_b) in the states of body a (columns 0..12) and of
 * body b (13..25), zero for a STATIC body: J 12x26 row-major (overwritten); tube_jac.c */
void awe_tube_jac(const awe_model *m, const awe_work *w, int i, double J[312]);

#endif
