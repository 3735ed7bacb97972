/* sim.h: the simulation life cycle: allocate, start (initial state, steady-state march),
 * step from log row to log row, finish, free. It drives the integrator (integrate.h) and the
 * steady-state march (steady.h), which both sit below it.
 *
 * Life cycle of one log step (awe_sim_step), after dsim (seed 003):
 *   initialize     t_k -> t_{k+1}
 *   pre-calculate  scheduled inputs at the interval start; discrete updates (a winch whose
 *                  brake engages is stopped); a stepper reset after a discontinuity; the
 *                  wings' aerodynamic models are refreshed (VSM solve or linearization,
 *                  aero_coupling.h) at the start of every run.vsm_interval-th interval (and at
 *                  t = 0); the integrator is not reset for that (the change of the right-hand
 *                  side is of the order of the linearization error)
 *   integrate      gsl_odeiv2_evolve_apply steps (of a GSL driver's stepper and control) up
 *                  to the next event (signal breakpoint or controller sample instant) or
 *                  t_{k+1}; at an event the integrator stops exactly there and is reset;
 *                  at a sample instant the controllers measure the outputs there and their
 *                  held outputs change (controller.h), also at t_{k+1} after post-calculate,
 *                  so the logged row shows the outputs that hold from t_{k+1} on
 *   post-calculate outputs from one right-hand-side evaluation at t_{k+1} (outputs.h)
 *   complete       the caller logs the row (s->yout)
 * Inputs between events are continuous and evaluated inside the right-hand side (rhs.h).
 */
#ifndef AWE_SIM_H
#define AWE_SIM_H

#include "solve/integrate.h"

/* A wing that hit the ground (ground.h): after every accepted step of the simulation (not
 * the settling), with m->ground.on, the lowest WING point of each wing and the wing's origin
 * are compared with ground.height + run.crash_clearance; the first one below it is recorded
 * with its velocity there (the impact). With run.on_crash = stop the step ends at that
 * instant (awe_sim_step returns AWE_OK with s->t at the crash and the outputs there) and the
 * caller ends the run as crashed; with continue it is recorded and the run goes on. */
typedef struct {
  int happened;            /* 0 until a crash */
  int wing;                /* wing index */
  int point;               /* its point that crossed first, -1: the wing origin */
  double t;                /* [s] */
  double z;                /* the point's height then [m] */
  double v_vertical;       /* the wing's (origin's) vertical velocity then [m/s] (< 0: down) */
  double v_total;          /* the wing's speed then [m/s]: the impact */
  double pt_vertical, pt_total; /* the same of the point that crossed (a flapping trailing
                                   edge may be much faster than the wing) */
} awe_crash;

typedef struct awe_sim {
  const awe_model *m;      /* borrowed */
  awe_work *w;             /* owned */
  awe_integrator *it;      /* owned */
  awe_ctx ctx;             /* the rhs parameters (u = the base inputs below) */
  double t;                /* current time [s] */
  double *y;               /* [nx] state */
  double *u;               /* [nu] base inputs (defaults; signals act inside the rhs) */
  double *dydt;            /* [nx] scratch */
  double *yout;            /* [ny] outputs at t (post-calculate) */
  int reset_pending;       /* an event was passed: reset the stepper before going on */
  long nstep;              /* log intervals done (awe_sim_step calls) */
  long vsm_k;              /* run.vsm_dt: the next aerodynamic refresh is at vsm_k vsm_dt */
  double steady_residual;  /* max |F| of moving points after the steady-state march [N], NAN */
  double steady_acc;       /* max |acc| after it [m/s^2], NAN */
  awe_guard guard;         /* limits and stop flag (guard.h); limits from m->opt */
  struct awe_ctrl_run *ctrl; /* owned: the controllers' runtime (controller.h), or NULL */
  awe_crash crash;         /* the first crash of the run (happened = 0: none) */
  double *wing_reach;      /* [nwing] a rigid wing's largest distance of a point from its
                              origin [m] (the crash check's cheap bound) */
} awe_sim;

/* Allocate for m. solver NULL or "" -> m->opt.solver (the model's default per class).
 * The guard takes its limits from m->opt and its wall clock starts here. */
awe_sim *awe_sim_alloc(const awe_model *m, const char *solver, awe_err *err);

/* Let the run be stopped by a signal: stop is the flag a handler sets to the signal number
 * (borrowed; NULL: none). Every loop of the run polls it (the integrator, the settling, the
 * wings' VSM solves), and the run then ends with AWE_EINTR within one right-hand side. */
void awe_sim_set_stop(awe_sim *s, const awe_stop_flag *stop);
void awe_sim_free(awe_sim *s);

/* The steady-state march of steady.h on s (before t = 0): fills s->steady_residual and
 * s->steady_acc. awe_sim_start calls it when m->opt.steady_state. */
awe_status awe_sim_steady_state(awe_sim *s, double t_settle, awe_err *err);

/* Initialize: y0, u0, the first aerodynamic refresh, the steady-state march before t = 0 when
 * m->opt.steady_state, outputs at t = 0. */
awe_status awe_sim_start(awe_sim *s, awe_err *err);

/* Advance to t_next (> s->t) through the life cycle above; fills s->yout. A crash with
 * run.on_crash = stop ends the step early (s->crash; s->t < t_next). On failure returns
 * AWE_EINTEG with a message naming the time and the first non-finite variable (or the stepper
 * error, or the limit of the guard that tripped), AWE_EINTR after a stop signal; s->t and s->y
 * then hold the last accepted state. */
awe_status awe_sim_step(awe_sim *s, double t_next, awe_err *err);

/* End of a run: close the external controllers' input and wait for them (controller.h). */
awe_status awe_sim_finish(awe_sim *s, awe_err *err);

/* Refresh the wings' aerodynamic models at the current state s->t, s->y (aero_coupling.h).
 * Returns the number of wings whose VSM solve failed (their previous model is kept). */
int awe_sim_aero_refresh(awe_sim *s);

/* Time of log step k (k dt, the last one clamped to the duration) and the number of steps. */
double awe_sim_log_time(const awe_model *m, long k);
long awe_sim_log_steps(const awe_model *m);

#endif
