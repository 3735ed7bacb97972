/* quasi_static.h: massless force balance of QUASI_STATIC points and pulleys (physics.md §3, §6).
 *
 * Unknowns x: the positions of the QUASI_STATIC points (3 each) and the leg-1 rest lengths of
 * the quasi-static pulleys (1 each). Residual, with every state variable held fixed:
 *   R_i = F_i(x)                      for each quasi-static point (point.h, vel_i = 0)
 *   R_p = F_s(leg 1) - F_s(leg 2)     for each quasi-static pulley
 * SymbolicAWEModels makes these algebraic equations of its DAE (solved by the Newton iteration
 * of FBDF). awesim solves R(x) = 0 inside every right-hand-side call with Newton's method:
 *   J dx = -R,  x += lambda dx
 * warm-started from the previous solution (kept in the workspace), with Armijo backtracking
 * (step halved up to 30 times until |R|_2 decreases) and the analytic Jacobian of the
 * spring-dampers (the quasi-static ends have zero velocity, dv = v_a - v_b):
 *   dF_a/dp_b = u grad^T + (F_s/len) (I - u u^T),
 *   grad = dF_s/dp_b = (kappa EA l0/len^2 + c_u dv.u/len^2) u - (c_u/len^2)(dv - (dv.u) u),
 *   dF_a/dp_a = dF_b/dp_b = -dF_a/dp_b,   dF_s/dl0 = -kappa EA/len
 * (line drag and the mass change with l0 are left out of J: a modified Newton whose contraction
 * factor is their ratio to the stiffness). Converged when |dx|_inf <= 1e-11 (1 + |x|_inf), at most 50
 * iterations. When Newton is stuck far from a root (a poor first guess: slack lines make the
 * stiffness jump and |R| has local minima), pseudo-transient continuation takes over,
 *   (sigma I - J) dx = R,  sigma following the residual (Kelley & Keyes 1998),
 * and Newton restarts from its best point. If that fails too the call reports AWE_RHS_RETRY
 * (the integrator halves its step) and the warm start falls back to the last solution.
 * Note: a solve from a poor guess may find another equilibrium (an inverted arch held by the
 * compression stiffness); start quasi-static points near the intended shape.
 */
#ifndef AWE_QUASI_STATIC_H
#define AWE_QUASI_STATIC_H

#include "engine/work.h"

struct awe_qs *awe_qs_alloc(const awe_model *m, awe_work *w);
void awe_qs_free(struct awe_qs *q);

/* Warm start from the placed model (point_pos0, pulley_len0). */
void awe_qs_reset(const awe_model *m, awe_work *w);

/* Solve the quasi-static unknowns for the current workspace (states unpacked, rest lengths,
 * wind and inputs set); writes w->pos of quasi-static points, w->pulley_len of quasi-static
 * pulleys and the rest lengths of their legs. Returns 0, or -1 when Newton failed. */
int awe_qs_solve(const awe_model *m, awe_work *w, double t);

/* Final residual norm |R|_inf of the last solve [N]. */
double awe_qs_residual(const awe_work *w);

#endif
