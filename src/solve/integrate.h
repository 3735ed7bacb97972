/* integrate.h: GSL odeiv2 driver, sparse finite-difference Jacobian, and the per-step life cycle.
 *
 * Steppers by name (a const table after GSL's step types):
 *   explicit  rkf45, rkck, rk8pd (also rk2, rk4, msadams)
 *   implicit  msbdf, rk4imp, bsimp (also rk1imp, rk2imp) -- these get a Jacobian
 *             trbdf2 (step_trbdf2.h, awesim's own gsl_odeiv2_step_type): TR-BDF2 with its own
 *             coloured Jacobian on the pattern below and a sparse LU (sparse_lu.h); GSL's
 *             msbdf factorises the dense n x n matrix instead, which dominated the V3 kite.
 *             Flight real-time factors msbdf -> trbdf2 (bench_kite, scenario tolerances):
 *             V3 after its steady state 9 -> 59, 2plate_refine 48 -> 320, 2plate_parked
 *             60 s 52 -> 175; the scenarios' CLI runs: hanging tether 930 -> 2300, but
 *             pendulum 129 -> 23 and default 211 -> 47 (undamped: a second-order method)
 * Default: per model class (solver_default.h: trbdf2 with damped lines, wings or pulleys,
 * rk8pd when all lines are undamped; README "Speed"). The earlier default, msbdf, was chosen
 * from this table (bench/bench_simulate.c, abs_tol = rel_tol = 1e-6, real-time factors):
 *                                 rkf45   rkck   rk8pd   msbdf   rk4imp   bsimp
 *   10-segment tether, 60 s        429     467     210    2035       82      54
 *   pulley (test model), 500 s      -       -     1002   28010      -        -
 *   pendulum (undamped stiff rod)  884     875    1871     124      113     112
 *   2plate structure, aero off      25      27      16       3      -        -
 *     (since the wing issue: pulley legs damped on d(len - l0)/dt, rigid wing as one body)
 *     particle wing                 23      24      15      24      -        -
 *     rigid wing                    19      20      12      42      -        -
 * Tethers, bridles and pulleys with line damping are stiff with strongly damped fast modes:
 * BDF takes steps 10-100x longer than any explicit method. An undamped stiff mode (the rigid
 * pendulum rod) or constant slack/taut switching (a limp kite without aerodynamics) favour
 * rk8pd/rkf45; such scenarios should name their solver.
 *
 * Jacobian (implicit steppers): the structural columns analytic (jacobian.h: points, segments,
 * drag, tether lengths, winches; run.jacobian = analytic, the default), the others by
 * coloured sparse finite differences (Curtis-Powell-Reid), coloured on those columns only.
 * The state is split into blocks (a point's pos+vel, a tether length, a winch speed, a
 * pulley's len+vel); the block dependency graph follows from the topology (segments,
 * tethers, winches, pulleys, wing-origin damping, and clusters of quasi-static unknowns that
 * couple everything around them). Columns whose dependent rows do not overlap share a colour
 * (greedy, largest column first: jac_color.h) and are perturbed together:
 *   J[:, c] = (f(y + sum_{j in colour} h_j e_j) - f(y)) / h_j   on the rows depending on j,
 *   h_j = sqrt(eps) max(|y_j|, 1)
 * so one Jacobian costs 1 + ncolours right-hand sides (a 10-segment tether: ~20 instead of 63).
 * A point's position rows are the exception to the block rule: d pos/dt = vel, so they
 * depend on the point's own velocity only; the colouring is done on this refined pattern.
 * msbdf reuses the Jacobian across steps (modified Newton; it re-evaluates only when its
 * iteration matrix goes stale: 132 Jacobians for 2294 steps of the 60 s tether run); rk4imp
 * and bsimp ask for one every step (GSL's design), each costing 1 + ncolours right-hand sides.
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
#ifndef AWE_INTEGRATE_H
#define AWE_INTEGRATE_H

#include "solve/guard.h"
#include "engine/rhs.h"


typedef struct awe_integrator awe_integrator;

/* The stepper names: solver_names.h. */
/* 1 implicit, 0 explicit, -1 unknown name. */
int awe_solver_implicit(const char *name);

/* Integrator for ctx (borrowed, must stay at the same address: it is the GSL params).
 * h0 initial step, hmax maximum step (<= 0: none). NULL with err set on failure. */
awe_integrator *awe_integrator_alloc(awe_ctx *ctx, const char *solver, double h0, double abs_tol,
                                     double rel_tol, double hmax, awe_err *err);
void awe_integrator_free(awe_integrator *it);

/* Forget the step history (after a discontinuity); keeps the current step size. */
void awe_integrator_reset(awe_integrator *it);

/* Integrate from *t to t1 (exactly) in place. Returns the GSL status; accepted and rejected
 * steps are added to the workspace statistics. With a guard (awe_integrator_set_guard), every
 * right-hand-side call polls it, and every accepted step is checked against the step-size
 * floor, the step limit and the state bounds (guard.h); a trip returns AWE_INTEG_GUARD at the
 * last accepted state, with the reason in the guard. A stepper that gives up (GSL_FAILURE:
 * the tolerance cannot be met at the smallest representable step) trips it too. */
int awe_integrator_apply(awe_integrator *it, double *t, double t1, double y[]);

/* Returned by awe_integrator_apply when the guard tripped (it is GSL's "user function asked to
 * stop" code, which every stepper passes straight up). */
#define AWE_INTEG_GUARD GSL_EBADFUNC

/* The state whose local error estimate of the last step, relative to its tolerance
 * (abs_tol + rel_tol |y_i|), is largest: the one that limits the step size; -1 if none. */
int awe_integrator_limiting_state(const awe_integrator *it, const double *y);

/* Watch g (borrowed; NULL: none) in every call of it. */
void awe_integrator_set_guard(awe_integrator *it, awe_guard *g);

/* The stepper's name. */
const char *awe_integrator_name(const awe_integrator *it);

/* Number of colours of the sparse Jacobian (right-hand sides per Jacobian minus one). */
int awe_integrator_ncolors(const awe_integrator *it);

/* Number of columns of the Jacobian computed analytically (jacobian.h; 0 with run.jacobian =
 * fd); the others are coloured finite differences. */
int awe_integrator_analytic_columns(const awe_integrator *it);

/* Which columns (n entries, nonzero = analytic), or NULL with run.jacobian = fd. */
const unsigned char *awe_integrator_analytic_mask(const awe_integrator *it);

/* Jacobian dfdy: the analytic columns (jacobian.h), the others by coloured finite differences;
 * coloured finite-difference Jacobian dfdy [n*n, row-major] and dfdt [n] at (t, y); the GSL
 * jacobian callback. params is the awe_integrator. */
int awe_jacobian_fd(double t, const double y[], double *dfdy, double dfdt[], void *params);

/* ---- simulation life cycle ---- */

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
  double steady_residual;  /* max |F| of moving points after the steady-state march [N], NAN */
  double steady_acc;       /* max |acc| after it [m/s^2], NAN */
  awe_guard guard;         /* limits and stop flag (guard.h); limits from m->opt */
  struct awe_ctrl_run *ctrl; /* owned: the controllers' runtime (controller.h), or NULL */
} awe_sim;

/* Allocate for m. solver NULL or "" -> m->opt.solver, or AWE_DEFAULT_SOLVER if that is empty.
 * The guard takes its limits from m->opt and its wall clock starts here. */
awe_sim *awe_sim_alloc(const awe_model *m, const char *solver, awe_err *err);

/* Let the run be stopped by a signal: stop is the flag a handler sets to the signal number
 * (borrowed; NULL: none). Every loop of the run polls it (the integrator, the settling, the
 * wings' VSM solves), and the run then ends with AWE_EINTR within one right-hand side. */
void awe_sim_set_stop(awe_sim *s, const volatile sig_atomic_t *stop);
void awe_sim_free(awe_sim *s);

/* Initialize: y0, u0, the first aerodynamic refresh, the steady-state march before t = 0 when
 * m->opt.steady_state, outputs at t = 0. */
awe_status awe_sim_start(awe_sim *s, awe_err *err);

/* Advance to t_next (> s->t) through the life cycle above; fills s->yout. On failure returns
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
