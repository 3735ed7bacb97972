/* integrate.h: GSL odeiv2 driver and the sparse finite-difference Jacobian.
 *
 * Steppers by name (a const table after GSL's step types):
 *   explicit  rkf45, rkck, rk8pd (also rk2, rk4, msadams)
 *   implicit  msbdf, rk4imp, bsimp (also rk1imp, rk2imp) -- these get a Jacobian
 *             trbdf2 (step_trbdf2.h, awesim's own gsl_odeiv2_step_type): TR-BDF2 with its own
 *             coloured Jacobian on the pattern below and a sparse LU (sparse_lu.h); GSL's
 *             msbdf factorises the dense n x n matrix instead, which dominated the V3 kite.
 *             ros34pw2 (step_rosw.h): a Rosenbrock-W method on the same pattern, Jacobian,
 *             LU and co-rotation (docs/speed.md compares it with trbdf2).
 *             Flight real-time factors msbdf -> trbdf2 (bench_kite, scenario tolerances):
 *             V3 after its steady state 9 -> 59, 2plate_refine 48 -> 320, 2plate_parked
 *             60 s 52 -> 175; the scenarios' CLI runs: hanging tether 930 -> 2300, but
 *             pendulum 129 -> 23 and default 211 -> 47 (undamped: a second-order method)
 * Default: per model class (solver_default.h: trbdf2 with damped lines, wings or pulleys,
 * rk8pd when all lines are undamped; docs/speed.md). The earlier default, msbdf, was chosen
 * from this table (bench/bench_simulate.c, abs_tol = rel_tol = 1e-6, real-time factors):
 *                                 rkf45   rkck   rk8pd   msbdf   rk4imp   bsimp
 *   10-segment tether, 60 s        429     467     210    2035       82      54
 *   pulley (test model), 500 s      -       -     1002   28010      -        -
 *   pendulum (undamped stiff rod)  884     875    1871     124      113     112
 *   2plate structure, aero off      25      27      16       3      -        -
 *     (since the rigid-wing model: pulley legs damped on d(len - l0)/dt, rigid wing as one body)
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
 *
 * The simulation life cycle that drives it is sim.h.
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

/* Returned by awe_integrator_apply when the post-step hook asked to stop (not a GSL code). */
#define AWE_INTEG_STOP 1000

/* Call fn(ctx, t, y) after every accepted step (NULL: none); a nonzero return ends
 * awe_integrator_apply there with AWE_INTEG_STOP (the run life cycle's crash check, sim.h). */
void awe_integrator_set_post(awe_integrator *it, int (*fn)(void *, double, const double *),
                             void *ctx);

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

/* The Jacobian's sparsity pattern by columns: column j has the rows rows[adr[j] + k],
 * k < num[j] (the integrator owns the arrays). */
void awe_integrator_pattern(const awe_integrator *it, const int **adr, const int **num,
                            const int **rows);

/* The same Jacobian as awe_jacobian_fd on that pattern: jval[adr[j] + k] = df_rows/dy_j at
 * (t, y), no n x n array (the steady state's Newton on large models). GSL status. */
int awe_jacobian_sparse(awe_integrator *it, double t, const double y[], double *jval);

#endif
