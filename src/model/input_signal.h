/* input_signal.h: scheduled input signals (scenario `inputs:`) evaluated at time t.
 *
 * Shapes (all times in s, values in the channel's unit):
 *   constant  value
 *   step      before for t < t0, after for t >= t0 (right-continuous)
 *   ramp      from for t <= t_start, linear to `to` at t_end, held after; t_end <= t_start
 *             degenerates to a step at t_start
 *   sine      offset + amplitude * sin(2 pi frequency t + phase)   (frequency in Hz, phase rad)
 *   table     piecewise linear through (table_t[i], table_v[i]), table_t non-decreasing, held
 *             constant outside; a repeated time is a jump (the later value holds from there)
 *
 * Breakpoints are the times where a signal or its slope jumps (step t0, ramp t_start and t_end,
 * table knots). An integrator stops exactly at the next one and restarts there, so the jump
 * never falls inside a step:
 *
 *   double t_stop;
 *   if (!awe_signals_next_breakpoint(m->signals, m->nsignal, t, &t_stop) || t_stop > t_log)
 *     t_stop = t_log;
 *   ... integrate to t_stop, reset the stepper, awe_signals_apply(..., t_stop, u) ...
 *
 * Evaluation is pure and allocation-free (safe inside the right-hand side).
 */
#ifndef AWE_INPUT_SIGNAL_H
#define AWE_INPUT_SIGNAL_H

#include "model/model.h"
#include "io/spec.h"

/* Value of s at time t. A table with no rows gives NAN. */
double awe_signal_eval(const awe_input_spec *s, double t);

/* The first breakpoint strictly after t_from: returns 1 and sets *t_next, or 0 if there is
 * none (constant, sine, or every breakpoint <= t_from). */
int awe_signal_breakpoints(const awe_input_spec *s, double t_from, double *t_next);

/* u[sig[i].u_index] = awe_signal_eval(&sig[i].sig, t) for i in 0..n-1 (in order, so a later
 * signal on the same element wins). */
void awe_signals_apply(const awe_signal *sig, int n, double t, double *u);

/* Earliest breakpoint strictly after t_from over n signals; 0 if none. */
int awe_signals_next_breakpoint(const awe_signal *sig, int n, double t_from, double *t_next);

#endif
