/* jacobian.h: analytic Jacobian df/dy of the structural right-hand side, for the columns
 * where every dependent row is one of the structural kinds below; the other columns stay
 * with coloured finite differences (integrate.h, step_trbdf2.h).
 *
 * Rows done analytically ("simple" rows):
 *   pos of a point with a state (not a rigid wing's slave):   d pos/dt = vel        (I)
 *   vel of such a point, when every segment at it is a spring-damper or a pulley leg (not
 *   inside a rigid wing) whose ends are points with a state or fixed points, and the point is
 *   in no group: acc = F/m - wfd .* vel - damping, with F from segment.h, point.h; the
 *   damping bfd .* vel, or R diag(bfd) R^T (vel - vel_origin) for a point of a particle wing
 *   (R its frame); the aerodynamic point forces of a particle wing, R f_b (aero_coupling.h):
 *   frozen f_b depend on the frame only; linearized ones, f_b(va_b) with va_b = R^T (f(z_o)
 *   wind - v_o) and G = d f_b/d va_b from the coupling, also on the origin's velocity,
 *   -R G R^T, and height, R (f_b dlog rho/dz + G R^T f'(z_o) wind); the ground contact
 *   a_g(z, v) per unit mass (ground.h: its derivatives by z and v; the mass terms below carry
 *   + a_g dm/dx / m, as F holds m a_g)
 *   tether length:  d len/dt = winch speed (0 when held)
 *   winch speed (winch.h), when its segments are plain as above and no pulley leg
 *   pulley:  d len/dt = vel,  d vel/dt = (F_s(leg 0) - F_s(leg 1))/m_p - 5 vel (pulley.h)
 * A column j is analytic when every row the pattern lists for it is simple; its entries are
 * then all written here. The positions of a particle wing's reference points also move its
 * frame R: d(R f_b)/dp (+ R G dR^T va_w for linearized loads) and d(R B R^T dv)/dp with dR/dp
 * from central differences of the frame
 * alone (wing.h awe_wing_frame_at; no right-hand side).
 * DYNAMIC rigid bodies (body.h): their 13 rows, when their riding points are plain (no group
 * or wing; plain segments): the own block, the riding points' segment forces and drag, and
 * the tube wrenches (body_jac.h, tube_jac.c); a segment end riding a body is differentiated
 * through p = c + R r, v = v_c + R (omega x r) in every row that reads it (points, bodies,
 * winches, pulleys).
 * Rigid wings (their bodies, twist groups) and quasi-static clusters keep finite differences.
 * Steady state (AWE_CTX_FIX_SPHERE): a particle-wing point's rows are projected radially,
 * d pos/dt = P v, d vel/dt = P acc, P = r r^T/r.r (rhs.c); the analytic entries are
 * projected alike and the point's own position columns gain d(P x)/dr =
 * (r x^T + (r.x) I)/r.r - 2 (r.x) r r^T/(r.r)^2.
 *
 * Derivatives (d = pos_b - pos_a, len = |d|, u = d/len, P = I - u u^T, dv = vel_a - vel_b,
 * segment force on a: F_s u with F_s = (kappa EA (len - l0) - c (dv.u + s_leg v_p))/len,
 * v_p a pulley's rope speed and s_leg = +-1 on a pulley leg, else 0):
 *   g = dF_s/d d = [(kappa EA - F_s) u^T - c dv^T P / len] / len
 *   d(F_s u)/d d  = u g + F_s P / len
 *   d(F_s u)/d dv = -c u u^T / len,   d(F_s u)/d l0 = -kappa EA u / len,
 *   d(F_s u)/d v_p = -c s_leg u / len
 *   l0 = tether_len/n, or pulley_len (leg 0) resp. sum_len - pulley_len (leg 1)
 * (kappa switches at len = l0; its jump is not differentiated). Line drag
 * F_d = q P va, q = rho(z_mid) (cd d_line / 2) |va| len, va = f(z_mid) wind - (vel_a + vel_b)/2:
 *   dF_d/d va = q P + rho (cd d/2) len (P va) va^T / |va|
 *   dF_d/d d  = (q/len) [(P va) u^T - u va^T P - (va.u) P]
 *   dF_d/d z  = q (rho'/rho) P va + dF_d/d va f'(z) wind,   rho'/rho = -1/(8550 (1 + x/1024))
 * (fastexp' = fastexp/(1 + x/1024), atmosphere.h); point drag likewise. Masses depend on the
 * rest length (tether or pulley length x): d acc/d x = (dF/d x - F dm/d x / m) / m. Winch:
 * d acc_w = (r^2/I) (F_w/|F_w|) . dF_w - (r/I) friction'(v) dv.
 */
#ifndef AWE_JACOBIAN_H
#define AWE_JACOBIAN_H

#include "engine/rhs.h"

typedef struct awe_jac_an awe_jac_an;

/* Decide the analytic columns of the pattern (column j: rows[col_adr[j] + k], k < col_num[j])
 * for m and w's layout. NULL when out of memory; a result with no analytic column is valid. */
awe_jac_an *awe_jac_an_alloc(const awe_model *m, const awe_work *w, int n, const int *col_adr,
                             const int *col_num, const int *rows);
void awe_jac_an_free(awe_jac_an *a);

/* analytic[j] != 0 for the analytic columns (n entries); their count. */
const unsigned char *awe_jac_an_mask(const awe_jac_an *a);
int awe_jac_an_count(const awe_jac_an *a);

/* Write the analytic columns at the workspace's current state (the last awe_rhs call, which
 * must have been at the state wanted, with ctx's flags): dense row-major dfdy [n*n] (entries
 * added; the caller zeroes dfdy), or on the pattern (jval[col_adr[j] + k]; the analytic
 * columns are zeroed first). */
void awe_jac_an_dense(const awe_jac_an *a, const awe_ctx *ctx, double *dfdy);
void awe_jac_an_pattern(const awe_jac_an *a, const awe_ctx *ctx, double *jval);

#endif
