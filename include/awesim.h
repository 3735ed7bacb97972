/* awesim.h: libawesim, the simulator as a C library (the only header a user needs).
 *
 *   awesim_error e;
 *   const char *sets[] = {"run.duration=10"};
 *   awesim_sim *s = awesim_open("scenarios/2plate_parked.yaml", 1, sets, &e);
 *   if (!s) { fprintf(stderr, "%s\n", e.msg); return 1; }
 *   int h = awesim_channel_index(s, "wings.main_wing.heading");
 *   while (awesim_time(s) < awesim_duration(s)) {
 *     if (awesim_step(s, 0.05)) { fprintf(stderr, "%s\n", awesim_message(s)); break; }
 *     printf("%g %g\n", awesim_time(s), awesim_get(s, h));
 *   }
 *   awesim_close(s);
 *
 * Conventions: functions that can fail return an awesim_status (0 = AWESIM_OK) and leave the
 * message (with file:line:col where a file is involved) in awesim_message(). The library
 * never prints and never exits. Handles share nothing mutable: separate handles may be used in
 * separate threads at the same time (except the HDF5 log: awesim_log_hdf5); one handle must
 * not be used by two threads at once.
 * Channels and inputs are scalars named GROUP.COMPONENT.VAR[.x|.y|.z|.w], SI units
 * (awesim-scenario(5)); indices are 0-based. Full reference: man 3 awesim.
 */
#ifndef AWESIM_H
#define AWESIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AWESIM_API_VERSION 1

/* Status codes: the same numbers as awesim's internal ones (awesim(1) maps them to exit codes). */
typedef enum {
  AWESIM_OK = 0,
  AWESIM_EUSAGE,     /* a call's argument is wrong (unknown name, index out of range...) */
  AWESIM_EINVAL,     /* invalid input data (schema, ranges, references) */
  AWESIM_EPARSE,     /* malformed YAML / CSV */
  AWESIM_ENOFILE,    /* cannot open an input file */
  AWESIM_EIO,        /* cannot write output */
  AWESIM_ENOMEM,     /* out of memory */
  AWESIM_ENOCONV,    /* a solver did not converge */
  AWESIM_EINTEG,     /* integration failed (non-finite state, stepper failure, a run limit) */
  AWESIM_EINTR,      /* interrupted */
  AWESIM_EINTERNAL,  /* a bug */
  AWESIM_EBUSY       /* another thread is in a call on the same handle (no internal twin) */
} awesim_status;

/* The error of awesim_open (which has no handle yet). */
typedef struct {
  awesim_status code;
  char msg[2048];
} awesim_error;

typedef struct awesim_sim awesim_sim;

/* Safety (every entry point): a NULL handle is refused (AWESIM_EUSAGE, NAN, -1, 0 or NULL as
 * the return type allows; awesim_message(NULL) says so). One call at a time runs on a handle: a
 * call made while another thread is inside a call on the same handle returns AWESIM_EBUSY at
 * once (NAN from awesim_get) and changes nothing, not even the message; awesim_request_stop is
 * the exception. awesim_close while another thread is inside a call asks that call to stop
 * and waits for it to return before freeing. Handles are independent: one per thread runs in
 * parallel. */

/* "0.1.0" */
const char *awesim_version(void);

/* Load a scenario (or a bare model file, then nset must be 0), apply the overrides sets[0..nset)
 * ("run.duration=20", as `awesim simulate --set`), build the model and start the run: the
 * initial state, the steady-state march when run.steady_state, the outputs and the
 * controllers' first sample at t = 0. NULL on failure with err (may be NULL) filled.
 * Turns GSL's abort-on-error handler off (process-wide), as the awesim program does. */
awesim_sim *awesim_open(const char *scenario, int nset, const char *const *sets,
                        awesim_error *err);
/* End the run (external controllers are closed and waited for), close the CSV log, free. */
void awesim_close(awesim_sim *s);

/* The message of the last failed call on s ("" when none). */
const char *awesim_message(const awesim_sim *s);
/* Load warnings (the ones awesim prints as "warning:"). */
int awesim_nwarnings(const awesim_sim *s);
const char *awesim_warning(const awesim_sim *s, int i);

double awesim_time(const awesim_sim *s);     /* current time [s] */
double awesim_duration(const awesim_sim *s); /* run.duration [s] */
double awesim_dt(const awesim_sim *s);       /* run.dt, the log interval [s] */

/* Output channels: the columns of `simulate --csv` without "time" (in that order). */
int awesim_nchannels(const awesim_sim *s);
const char *awesim_channel_name(const awesim_sim *s, int i);
const char *awesim_channel_unit(const awesim_sim *s, int i);
int awesim_channel_index(const awesim_sim *s, const char *name); /* -1: no such channel */
/* The value of channel i at the current time (NAN for a bad index). */
double awesim_get(const awesim_sim *s, int i);
/* n channels idx[0..n) into out (idx NULL: the first n channels). */
awesim_status awesim_read(awesim_sim *s, const int *idx, int n, double *out);

/* Inputs u: the base values that scheduled inputs (`inputs:`) replace and controllers add to. */
int awesim_ninputs(const awesim_sim *s);
const char *awesim_input_name(const awesim_sim *s, int i);
const char *awesim_input_unit(const awesim_sim *s, int i);
int awesim_input_index(const awesim_sim *s, const char *name); /* -1: no such input */
double awesim_get_input(const awesim_sim *s, int i);
/* Set input i from now on (held until set again; the stepper restarts at the jump). The
 * channels read before the next step show its effect. AWESIM_EUSAGE for an input that the
 * scenario's `inputs:` schedule (the signal would replace the value). */
awesim_status awesim_set_input(awesim_sim *s, int i, double value);

/* Advance to t (> the current time). The integrator stops at every log time k run.dt on the
 * way (rows of the CSV log), at t, and wherever `simulate` stops it (controller samples, signal
 * breakpoints, VSM refreshes); stepping to the log times reproduces `simulate` bit for bit.
 * A crash with run.on_crash: stop ends the step early at the crash (awesim_crashed). A t past
 * run.duration is refused (AWESIM_EUSAGE, nothing stepped): no row would be logged there and
 * the log would close as complete; raise run.duration (an override) to run longer. */
awesim_status awesim_step_to(awesim_sim *s, double t);
/* awesim_step_to(current time + dt), where a target within 1e-9 s of a log time k run.dt is
 * that log time exactly (so that repeated steps of run.dt do not drift). */
awesim_status awesim_step(awesim_sim *s, double dt);
/* 1 after a wing hit the ground (run.on_crash: stop ends the run there). */
int awesim_crashed(const awesim_sim *s);
/* Ask the run of s to stop: a step_to, step or run in progress on s (in
 * another thread, or the one this signal handler interrupted) returns AWESIM_EINTR within one
 * right-hand-side evaluation, with the time and state of the last accepted integrator step;
 * later steps return AWESIM_EINTR at once. The one call that may be made on a handle in use
 * by another thread, and async-signal-safe (it stores one lock-free C11 atomic int). The handle
 * stays usable for reading channels, and awesim_close / awesim_log_hdf5_close close the HDF5
 * log with the status "interrupted". A request made between calls ends the run as well.
 * (awesim_trim and awesim_linearize do not poll it.) */
void awesim_request_stop(awesim_sim *s);
/* 1 once awesim_request_stop was called on s. */
int awesim_interrupted(const awesim_sim *s);

/* Log the rows of `simulate --csv=patterns` (patterns NULL: every channel) to path from now
 * on, starting with the current row; the same bytes as the CLI writes. Closed by awesim_close
 * or awesim_log_csv_close. Both log calls refuse (AWESIM_EIO, the file untouched) a path that is
 * a file the run reads (the scenario, its model files; compared by device and inode, so no
 * other spelling or link gets past), the run's other log, or anything but a regular file (a
 * FIFO is refused at once instead of blocking until a reader comes). */
awesim_status awesim_log_csv(awesim_sim *s, const char *path, const char *patterns);
awesim_status awesim_log_csv_close(awesim_sim *s);
/* The same for the HDF5 log of `simulate -o path` (its layout, awesim(1)); closed with the
 * status "complete" after the last log row, "failed" after a failed step, "crashed", or
 * "interrupted" when closed before the end. Not thread-safe: the HDF5 library (serial
 * build) may be used by one thread at a time, so handles that log HDF5 from several threads
 * need the caller's lock around their calls. */
awesim_status awesim_log_hdf5(awesim_sim *s, const char *path);
awesim_status awesim_log_hdf5_close(awesim_sim *s);

/* Run to the end of run.duration, writing each log row (time, then every channel: 1 +
 * awesim_nchannels values) into rows, at most maxrows of them; *nrows (may be NULL) is the
 * number written. The current row comes first when nothing was stepped yet. */
awesim_status awesim_run(awesim_sim *s, double *rows, long maxrows, long *nrows);
/* The number of rows awesim_run writes from here. */
long awesim_rows_left(const awesim_sim *s);

/* Trim at t = 0 (as `awesim trim` without trim variables): the state and inputs of s become
 * the trim, time 0. residual (may be NULL): [force N, moment N m, relative]. */
awesim_status awesim_trim(awesim_sim *s, double residual[3]);

/* Linearize at the current state and inputs (the controllers' held outputs folded into the
 * inputs), over the default channels of `awesim linearize` (awesim(1)). awesim_linearize fills
 * the sizes and keeps the model in s; awesim_lin_matrices copies the row-major A [nx*nx],
 * B [nx*nu], C [ny*nx], D [ny*nu] (any may be NULL); awesim_lin_name: kind 'x', 'u' or 'y'. */
awesim_status awesim_linearize(awesim_sim *s, int *nx, int *nu, int *ny);
/* As awesim_linearize over chosen channels, as `awesim linearize --inputs/--outputs`: inputs
 * and outputs are comma-separated globs over the input and channel names (NULL: the default
 * channels); a pattern that matches nothing is AWESIM_EUSAGE with a suggestion. */
awesim_status awesim_linearize_select(awesim_sim *s, const char *inputs, const char *outputs,
                                      int *nx, int *nu, int *ny);
awesim_status awesim_lin_matrices(awesim_sim *s, double *A, double *B, double *C, double *D);
const char *awesim_lin_name(const awesim_sim *s, char kind, int i);
const char *awesim_lin_unit(const awesim_sim *s, char kind, int i);

#ifdef __cplusplus
}
#endif
#endif
