/* guard.h: what stops a run before its end, and the message that says why.
 *
 * A run must end, and end for a reason it can name. Every loop that can spend time (the
 * integrator's steps and right-hand-side calls, the steady-state settling and its Newton
 * polish, the linearization's perturbations) polls one awe_guard, which trips on
 *   a signal        the CLI's handler stores the stop signal (SIGINT, SIGTERM, SIGHUP...) in a
 *                   awe_stop_flag it owns
 *                   (C11 7.14.1.1: the one object a handler may write); the guard only reads it.
 *                   libawesim's awesim_request_stop stores AWE_GUARD_STOP_REQUEST in the same way
 *   wall time       run.max_wall_time [s] (default: none), counted from awe_guard_init
 *   steps           run.max_steps integrator steps, accepted and rejected (default 1e9)
 *   step size       an accepted step (or the next one proposed) shorter than the floor
 *                   run.min_step (default 1e-12 max(1, |t|): ~4500 ulp of t) -- a stepper that
 *                   needs such steps is grinding on an unstable or hopelessly stiff system
 *   range           a state outside what a physical system can reach (awe_guard_bounds)
 * The first trip is kept (sticky), with its code (AWE_EINTR for a signal, AWE_EINTEG for the
 * others), the phase it happened in ("settling", "simulation", ...) and a message. Nothing here
 * allocates or prints; polling costs one volatile read, plus a clock reading every 64th call.
 */
#ifndef AWE_GUARD_H
#define AWE_GUARD_H

#include <signal.h>

#include "model/model.h"
#include "util/status.h"

typedef enum {
  AWE_GUARD_OK = 0,
  AWE_GUARD_SIGNAL,     /* a stop signal (SIGINT, SIGTERM, SIGHUP, ...) */
  AWE_GUARD_WALL,       /* run.max_wall_time */
  AWE_GUARD_STEPS,      /* run.max_steps */
  AWE_GUARD_STEP_SIZE,  /* step size below the floor */
  AWE_GUARD_RANGE       /* a state outside the physically possible range */
} awe_guard_reason;

/* Default of run.max_steps: generous (hours of CPU) but finite. */
#define AWE_GUARD_MAX_STEPS 1e9
/* Relative step-size floor when run.min_step is not set: h >= AWE_GUARD_MIN_STEP max(1, |t|). */
#define AWE_GUARD_MIN_STEP 1e-12
/* The stop flag's value for a stop requested by the library's caller (awesim_request_stop),
 * not a signal: no signal has this number, and it fits a signed or unsigned sig_atomic_t. */
#define AWE_GUARD_STOP_REQUEST 127
/* Speed bound: 10 x the speed of sound at 15 degC (343 m/s) [m/s]. */
#define AWE_GUARD_MAX_SPEED 3430.0
/* Position bound: this many times the model's size (awe_guard_bounds). */
#define AWE_GUARD_SIZE_FACTOR 1e3

typedef struct {
  const awe_stop_flag *stop; /* the signal number once one arrived, else 0; NULL: none */
  double max_wall;         /* [s] of wall time from wall0; <= 0: no limit */
  double wall0;            /* CLOCK_MONOTONIC when the run started [s] */
  double max_steps;        /* integrator steps, accepted + rejected; <= 0: no limit */
  double min_step;         /* [s]; <= 0: AWE_GUARD_MIN_STEP max(1, |t|) */
  const char *phase;       /* what the run is doing: "start", "settling", "simulation", ... */
  unsigned npoll;          /* polls since the last clock reading */
  awe_guard_reason why;    /* the first trip, AWE_GUARD_OK while none */
  awe_status code;         /* AWE_EINTR or AWE_EINTEG after a trip */
  const char *trip_phase;  /* phase at the first trip */
  char msg[1024];          /* its message */
} awe_guard;

/* Limits from the run options (max_wall_time, max_steps, min_step); no stop flag; phase
 * "start"; the wall clock starts now. */
void awe_guard_init(awe_guard *g, const awe_opt *o);

/* Poll the stop flag (every call) and the wall clock (every 64th call, and when force). t is
 * the current time of the run, for the message. Returns the (sticky) reason, AWE_GUARD_OK to
 * go on. g may be NULL (never trips). */
awe_guard_reason awe_guard_poll(awe_guard *g, double t, int force);

/* Trip with reason why and a printf-style message (ignored when already tripped). */
void awe_guard_trip(awe_guard *g, awe_guard_reason why, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The step-size floor at time t [s]. */
double awe_guard_step_floor(const awe_guard *g, double t);

/* Copy the trip into err and return its code (AWE_OK when not tripped). */
awe_status awe_guard_error(const awe_guard *g, awe_err *err);

/* Long form of a phase for messages ("settling" -> "the steady-state settling"). */
const char *awe_guard_phase_text(const char *phase);

/* Physically possible range of each state of m: |y_k| <= xmax[k] [w->nx entries, by the
 * registry's state layout]. Positions and lengths (unit m): AWE_GUARD_SIZE_FACTOR x the model's
 * size (its largest initial distance from the origin or total tether length, at least 1 m);
 * speeds (m/s): AWE_GUARD_MAX_SPEED; everything else: INFINITY. Returns the model size [m]. */
double awe_guard_bounds(const awe_model *m, double *xmax);

#endif
