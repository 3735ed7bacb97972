/* step_metrics.h: step responses from an operating point and their metrics.
 *
 * Metrics of a sampled response y(t_k), k = 0..n-1, to an input step of size A at t = 0
 * (y(t_0) is the value before the step):
 *   initial y_0 = y(t_0),  final y_f = y(t_{n-1}),  change dy = y_f - y_0,  gain dy / A
 *   rise time      t(90 %) - t(10 %), t(p) = first time y crosses y_0 + p dy (linear
 *                  interpolation between samples)
 *   peak           the extreme of y in the direction of dy (largest |y - y_0| when dy = 0),
 *                  refined by a parabola through the three samples around it
 *   overshoot      max(0, (y_peak - y_f) / dy) * 100 %
 *   settling time  the time after which |y - y_f| <= band/100 |dy| for good (interpolated at
 *                  the last crossing of the band)
 * A response with no change (|dy| <= 1e-12 max(1, |y_0|)) has NAN for every metric but the
 * peak.
 *
 * Step simulation (awe_step_simulate): the model integrated from the operating point with the
 * inputs held at their post-step values (scheduled signals frozen, as in the steady state);
 * the linear model (awe_step_linear) is stepped exactly: with M = [[A, B du], [0, 0]],
 *   exp(M dt) = [[Phi, Gamma], [0, 1]],  dx_{k+1} = Phi dx_k + Gamma,  dy_k = C dx_k + D du
 * (matrix exponential by scaling and squaring, gsl_linalg_exponential_ss).
 *
 * Equivalent spring of a tether (awe_spring_props, SymbolicAWEModels' calc_spring_props,
 * physics.md §12): with every winch braked, the force that holds the tether's free end in
 * equilibrium, F_0 = -F_end, plus a step F_step along the tether (anchor -> free end) is applied
 * as the external force of the free end; L(t) = |p_end - p_anchor| is recorded and
 *   k = F_step / (L_f - L_0),  unit_stiffness = k L_0
 *   m = extra mass of the free end + half the tether mass  (SymbolicAWEModels: half the tether
 *       mass; its tether ends carried no mass of their own)
 *   T_s = settling time of L into the p % band,  zeta = -ln(p/100) / (omega_n T_s),
 *   omega_n = sqrt(k/m),  c = 2 zeta sqrt(k m),  unit_damping = c L_0
 * with SymbolicAWEModels' fallback c = k tau (tau: time to reach L_0 + (1 - 1/e) dL) when the
 * response settles without oscillating (zeta >= 1 or T_s = 0).
 */
#ifndef AWE_STEP_METRICS_H
#define AWE_STEP_METRICS_H

#include "solve/sim.h"
#include "analysis/linearize.h"

typedef struct {
  double initial, final, delta, gain;   /* [unit], [unit], [unit], [unit / input unit] */
  double rise_time;                     /* [s] */
  double peak, peak_time;               /* [unit], [s] */
  double overshoot;                     /* [%] */
  double settling_time;                 /* [s] */
} awe_step_metrics;

/* Metrics of y[k * stride], k = 0..n-1, at times t[k]; amplitude A of the input step; band in
 * percent. */
void awe_step_metrics_eval(const double *t, const double *y, long stride, long n,
                           double amplitude, double band_pct, awe_step_metrics *out);

/* Called for every logged row with the full output vector (may be NULL). */
typedef awe_status (*awe_step_row_fn)(void *p, double t, const double *yout, awe_err *err);

/* Simulate s's model from x0 with inputs u0 before and u1 after the step at t = 0 (no
 * signals; ctx_flags as in rhs.h, e.g. AWE_CTX_BRAKE_ALL) for nsteps steps of dt. Row k
 * (t_k = k dt, row 0 before the step) of Y [(nsteps + 1) * ny] holds yout[ysel[j]]. s->y ends
 * at the final state. */
awe_status awe_step_simulate(awe_sim *s, const double *x0, const double *u0, const double *u1,
                             unsigned ctx_flags, double dt, long nsteps, const int *ysel,
                             int ny, double *Y, awe_step_row_fn row, void *rp, awe_err *err);

/* Response of the linear model L to the input change du [L->nu] from its operating point:
 * Y [(nsteps + 1) * L->ny] = y_op + dy(t_k), row 0 before the step. */
awe_status awe_step_linear(const awe_linsys *L, const double *du, double dt, long nsteps,
                           double *Y, awe_err *err);

/* awe_step_linear in a child process that a trip of g (a signal, run.max_wall_time) ends at
 * once with the guard's error (util/offload.h): the matrix exponential of a model with
 * thousands of states takes minutes in one GSL call. g NULL: in this process. */
awe_status awe_step_linear_guarded(const awe_linsys *L, const double *du, double dt,
                                   long nsteps, double *Y, awe_guard *g, awe_err *err);

/* Error between two responses of output j (column of row-major [n * ny] arrays): max and RMS
 * of |a - b|, and the scale max_k |a_k - a_0| of the nonlinear response a. */
void awe_step_compare(const double *a, const double *b, long n, int ny, int j, double *max,
                      double *rms, double *scale);

typedef struct {
  int tether;               /* tether index */
  int end, anchor;          /* free end and anchor point */
  double f_step;            /* [N] */
  double L0, dL;            /* distance anchor -> end at the start, its settled change [m] */
  double k;                 /* [N/m] */
  double mass;              /* [kg] */
  double settling_time;     /* [s] */
  double zeta;              /* [-] */
  double c;                 /* [N s/m] */
  double unit_stiffness;    /* [N] */
  double unit_damping;      /* [N s] */
  double model_unit_stiffness, model_unit_damping; /* mean of the tether's segments [N], [N s] */
  int fallback;             /* 1: c = k tau (no oscillation) */
} awe_spring_props;

/* Equivalent spring of tether `tether` of s's model about the operating point op (see above).
 * f_step [N] > 0 pulls the free end away from the anchor; band in percent. */
awe_status awe_spring_props_eval(awe_sim *s, const awe_op *op, int tether, double f_step,
                                 double dt, long nsteps, double band_pct, awe_spring_props *out,
                                 awe_err *err);

#endif
