/* controller.h: closed-loop controllers (scenario `controllers:`), discrete-time.
 *
 * A controller samples at t_k = k * period (k = 0, 1, ...): it reads its measured output
 * channels at t_k, computes its outputs and holds them until t_{k+1} (zero-order hold), or,
 * with hold: ramp, moves each applied value linearly from where it is at t_k to the new one
 * at t_{k+1} (a continuous actuator: a tape length that jumps makes the bridle ring, and the
 * stepper resolve it; d/dt of the applied value is then (u_k - u_{k-1})/T, within the
 * rate limit). The outputs, times their gains, are ADDED to the input vector after the
 * scheduled inputs (rhs.c, stage 1), so a trim schedule and a controller can share a channel.
 * The integrator
 * stops exactly at every sample instant (integrate.c), so results do not depend on the
 * stepper's step sizes. Controllers run in the order listed; a later one may measure an
 * earlier one's channels, which are updated at the same instant.
 *
 * Types: pid (below), figure_eight (controller_fig8.c), pumping (controller_pump.c),
 * external (a process over a pipe, controller_external.c).
 *
 * pid, with T = period, e_k = r_k - y_k (wrapped to (-pi, pi] with wrap), u_{-1} = 0:
 *   P_k = kp e_k
 *   D_k = Tf/(Tf + T) D_{k-1} - kd/(Tf + T) (y_k - y_{k-1})   derivative on the measurement,
 *         first-order filter Tf = d_filter (default T), backward Euler; D_0 = 0
 *   I_k = I_{k-1} + ki T e_k                                   (backward Euler)
 *   v_k = P_k + I_k + D_k;  u_k = clamp(v_k, limits), then |u_k - u_{k-1}| <= rate_limit T,
 *   anti-windup by conditional integration: when u_k != v_k and ki e_k pushes v further away,
 *   I_k = I_{k-1} (the integrator stops while the output is clamped or rate-limited).
 *
 * Logged channels (registry group "controllers", HDF5 /controllers/...):
 *   controllers.NAME.setpoint, .measure, .error  [unit of the measured channel]
 *   controllers.NAME.output                      [unit of the first driven channel]
 *   controllers.NAME.phase [-]                   figure_eight: target side (0: +azimuth,
 *                                                1: -azimuth); pumping: 0 reel-out, 1 reel-in
 *   controllers.NAME.output_K                    external: the K-th reply value (1-based)
 * The values are those of the latest sample (held between samples, like the outputs).
 */
#ifndef AWE_CONTROLLER_H
#define AWE_CONTROLLER_H

#include <signal.h>

#include "model/model.h"

/* Sample periods are multiples of this resolution [s]: the integrator stops at the sample
 * instants to within its own rounding (1e-12 of t), far below it. */
#define AWE_CTRL_RESOLUTION 1e-6

/* Resolve the scenario's controllers into m (registry channels, measured and driven
 * elements, validation with file:line:col). Called by awe_model_build_controlled. */
awe_status awe_controllers_build(awe_model *m, const awe_spec *s, awe_err *err);

/* The runnable model of a scenario: the plant (awe_model_build), then its controllers
 * (awe_controllers_build), which look the plant's winches and wings up. The one owner of that
 * order, so the model layer never calls up into this one. Read-only once it returns; NULL
 * with err set on failure (free with awe_model_free). */
awe_model *awe_model_build_controlled(const awe_spec *s, awe_diag *warn, awe_err *err);

/* Name of the output-vector element k ("wings.main_wing.heading") into buf; -1 if none. */
int awe_output_scalar_find(const awe_model *m, const char *name);

/* ---- running controllers (owned by the simulation, sim.h) ---- */

typedef struct awe_ctrl_run awe_ctrl_run;

/* Runtime state for m's controllers; NULL with err on failure (or when m has none: NULL,
 * err untouched). */
awe_ctrl_run *awe_ctrl_run_alloc(const awe_model *m, awe_err *err);

/* Stop external controllers (close their input, end their process groups: SIGTERM, then
 * SIGKILL after a grace period; reap them) and free. */
void awe_ctrl_run_free(awe_ctrl_run *r);

/* Reset every controller to its initial state (held outputs 0, next sample at t = 0) and start
 * the external processes. */
awe_status awe_ctrl_run_start(awe_ctrl_run *r, awe_err *err);

/* Let waits for external controllers end early on a signal: stop is the flag a handler sets
 * (borrowed; NULL: none). */
void awe_ctrl_run_set_stop(awe_ctrl_run *r, const awe_stop_flag *stop);

/* Let waits for external controllers end at the run's wall-time limit: deadline is the
 * CLOCK_MONOTONIC time [s] when run.max_wall_time (max_wall [s], for the message) runs out;
 * INFINITY (the default): none. */
void awe_ctrl_run_set_deadline(awe_ctrl_run *r, double deadline, double max_wall);

/* The additions to the input vector: n elements u[idx[j]] += val[j] (held), or the ramps
 * from[j] at t0[j] to val[j] at t0[j] + T[j] (T[j] = 0: held), awe_ctx_add (rhs.h). */
int awe_ctrl_nadd(const awe_ctrl_run *r);
const int *awe_ctrl_add_idx(const awe_ctrl_run *r);
const double *awe_ctrl_add_val(const awe_ctrl_run *r);
void awe_ctrl_add_ramps(const awe_ctrl_run *r, const double **from, const double **t0,
                        const double **T);

/* Earliest sample instant not yet taken (INFINITY when there is none). */
double awe_ctrl_next_time(const awe_ctrl_run *r);

/* Run every controller whose next sample instant is within eps of t (or before it), in
 * order, measuring yout (the outputs at t) and writing their channels into yout. *changed is
 * set when a held output changed (the integrator is then restarted). AWE_EINTEG with the
 * controller, time and offending line named when an external controller fails. */
awe_status awe_ctrl_sample(awe_ctrl_run *r, double t, double eps, double *yout, int *changed,
                           awe_err *err);

/* Close the external controllers' input and wait for them to exit (end of a run). */
awe_status awe_ctrl_run_finish(awe_ctrl_run *r, double t, awe_err *err);

/* Energy bookkeeping of the pumping controllers: completed cycles, their total energy [J]
 * and duration [s], the peak winch force [N] (all 0 without a pumping controller). */
void awe_ctrl_pump_stats(const awe_ctrl_run *r, int *cycles, double *energy, double *time,
                         double *peak_force);

/* The pumping controller whose winch command rang (a second of samples in which most command
 * steps reversed the one before: a sampled loop beyond its stability bound) in the largest
 * share of its seconds: its index, the share, the ringing seconds in reel-out and reel-in, all
 * seconds; -1 (share 0) without a pumping controller or a full second. */
int awe_ctrl_pump_ringing(const awe_ctrl_run *r, double *share, long ringing[2],
                          long *seconds);

#endif
