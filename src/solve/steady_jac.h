/* steady_jac.h: the steady state's Newton matrix sigma I - J in its generalized coordinates,
 * sparse (steady.c's pseudo-transient continuation).
 *
 * The coordinates q_k are state components P[k] (positions, pulley lengths, wing centres,
 * twists) or, P[k] = -1 - (4 o + axis), a rotation about an axis of the body-side frame of the
 * quaternion at state offset o (a rigid wing: principal axes; a rigid body: body axes);
 * their residual rows are the states A[k] (the accelerations). J_gen(i, k) = d acc_A[i]/d q_k
 * is read from the integrator's sparse Jacobian (integrate.h): a plain column is column P[k]
 * restricted to the rows A; a rotation column is 1/2 sum_q J(A[i], Q_q) (Q (x) (0, e_axis))_q
 * over the wing's quaternion columns Q (dQ/dphi = 1/2 Q (x) (0, e), principal frame). The
 * matrix keeps the Jacobian's pattern, so memory and work grow with the model's couplings,
 * not with n^2 (scenarios/tests/tether400.yaml, 1200 coordinates: settled in 7.7 s with
 * 64 MB peak with the dense matrix, 0.28 s and 8 MB sparse). It is factorised by the sparse LU
 * (sparse_lu.h) as sigma (I - J_gen / sigma). That LU keeps its pivots on the diagonal; when
 * one is too small (the shipped kites, once sigma is far below their stiffness: 2plate and V3
 * from sigma ~ 1e-4 down), the dense LU with partial pivoting (GSL, as before this file) takes
 * over for that iterate, its matrix allocated at the first use: kites stay dense, tethers and
 * nets sparse.
 */
#ifndef AWE_STEADY_JAC_H
#define AWE_STEADY_JAC_H

#include "solve/integrate.h"

typedef struct awe_steady_jac awe_steady_jac;

/* The coordinates into P and A (n + 1 entries each, n = w->nx): the moving points' positions
 * (rows: their accelerations), pulley lengths, each rigid wing's centre and its three rotation
 * axes interleaved, twist groups. Returns their number np. */
int awe_steady_jac_coords(const awe_model *m, const awe_work *w, int *P, int *A);

/* Pattern and work for the coordinates P, A (np of them) of the integrator's n states; NULL
 * when out of memory. */
awe_steady_jac *awe_steady_jac_alloc(awe_integrator *it, const awe_work *w, int n, const int *P,
                                     const int *A, int np);

/* J_gen at (0, y) (the workspace is left at a perturbed state) and the largest |J_gen(k, k)|
 * into *dmax. GSL status. */
int awe_steady_jac_eval(awe_steady_jac *g, const double *y, double *dmax);

/* Factorise sigma I - J_gen; 0, or -1 when singular for both LUs. */
int awe_steady_jac_factor(awe_steady_jac *g, double sigma);

/* dx = (sigma I - J_gen)^-1 r (dx may be r). */
void awe_steady_jac_solve(awe_steady_jac *g, const double *r, double *dx);

void awe_steady_jac_free(awe_steady_jac *g);

#endif
