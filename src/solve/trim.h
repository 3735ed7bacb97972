/* trim.h: the free equilibrium (trim) of a flying system.
 *
 * The steady-state march (steady.h) holds every wing on its sphere: a rigid wing's centre moves
 * only radially and does not turn about the radial axis, a particle wing's points each move
 * only radially. Its residual is that constrained part. The free dynamics at that state are not
 * in equilibrium: the 2plate held at its scenario's 60 deg elevation has d/dt com_vel.x =
 * 2.18 m/s^2 (its free equilibrium is at 58.5 deg); every point of the V3's particle wing
 * carries 1.5-1.7 kN of tangential force (accelerations up to 1.3e5 m/s^2 on the 13 g trailing
 * edge points) that only the per-point constraint held, while the net force on the wing points
 * is 183 N: the wing's shape, frozen tangentially at its initial placement, is not its loaded
 * shape.
 *
 * The trim continues from that settled state: the same pseudo-transient Newton polish
 * (steady.c) on the full static residual acc(q) = 0 without the sphere hold, every position,
 * rigid-wing centre and orientation (three rotations: elevation, azimuth and heading free)
 * and every particle-wing point free; velocities zero; winches braked (a steady reel-out is an
 * equilibrium only in a frame that moves with the tether length; the trim does not solve it:
 * the winches are braked, and linearize then gives the braked winch its holding torque).
 * Then an outer iteration on the loads: Newton's method (the integrator's Jacobian, the step's
 * rigid rotation about the ground station applied exactly) to convergence with the wings'
 * aerodynamic models frozen at the current point (AeroLinearized: smooth in the state), a
 * fresh VSM solve at its solution, repeated while the residual with fresh loads improves, and
 * Newton with the loads fresh at every point after two outer iterations without progress.
 * Newton on the full state with the VSM re-solved at every trial point (the method before)
 * stopped the V3 at 2.9e-3: the residual along a step is then not the one the Jacobian
 * describes. The line search measures forces (each row times its mass), not accelerations,
 * which the 13 g trailing-edge points magnify; a step whose line search had to shorten it
 * below 1/4 raises the Levenberg shift sigma (sigma I - J; tenfold), a full step lowers it
 * (fourfold): the V3's Newton direction runs along its nearly neutral sideways motion, where
 * the plain steps were cut to 1/512 for hundreds of iterations. The VSM solves at a
 * circulation tolerance of 1e-12 during the trim (rtol 1e-5 of a simulation: the V3 stalled at
 * 2e-11 with its azimuth uncertain by 1e-6 rad). The V3: 75.0328 deg elevation, -2.5453 deg
 * azimuth (its structure is slightly asymmetric: steering_pos_y at y = 0.205 m,
 * steering_neg_y at -0.2017 m), relative residual 1.2e-11 (1.8e-8 N: the rounding of the stiff
 * lines' forces at 200 m) after 18 outer iterations, 0.7 s; from 76 and 85 deg the same trim
 * within 1e-8 rad.
 * When the solve from the settled start ends above a relative residual of 1e-9, the system
 * flies free (steady.c's march without the sphere hold and without the kinetic-energy
 * relaxation, winches braked) for 20 s, at most three times, each flight going on from the
 * last, and the same solve continues from where each got. The particle 2plate settles at 60 deg
 * but trims at 30.85 deg (2.7 deg angle of attack): from 60 deg the outer iteration does not
 * contract (Newton with frozen loads reaches 3e-12, the fresh loads at its solution leave 3e-2
 * to 4e-1), after a flight it converges to 1e-12. The state returned is the best one seen, the
 * settled start included. The controllers' outputs at t = 0 are frozen into the inputs (the
 * open-loop plant, as linearize sees it).
 *
 * Not solved: the V3 started at 3 deg azimuth. Its settled state there has a relative residual
 * of 1.6, the polish reaches 0.5 and Newton 0.47; the flights carry it away (its sideways
 * motion is unstable, 0.033 1/s at the trim) to -53 deg azimuth, 0.05, after 11 s. A free march
 * with relaxation instead of the flights found another equilibrium at 20.6 deg azimuth
 * (5e-7, the outer iteration then oscillating between 5e-7 and 8e-7).
 *
 * Trim variables: inputs p (scalar indices into u), solved together with the state so that as
 * many held outputs y_h(x, p) reach their values: an outer Newton iteration on
 * g(p) = y_h(x*(p), p) - value with finite-difference columns (the inputs' registry
 * perturbation sizes) and step halving, each x*(p) a warm-started free trim. The number of
 * held outputs must equal the number of trim variables.
 *
 * Residual: force = max |m a| over the moving points and rigid wings [N], moment = max |I alpha|
 * of the rigid wings [N m]; relative = max(force, moment / 1 m) / F_ref, F_ref the largest
 * segment tension (the weight of the heaviest point when no segment is in tension).
 */
#ifndef AWE_TRIM_H
#define AWE_TRIM_H

#include "solve/sim.h"

typedef struct {
  int ntrim;                  /* trim variables: scalar indices into u */
  const int *trim_u;
  int nhold;                  /* held outputs: scalar indices into the output vector */
  const int *hold_y;
  const double *hold_val;     /* their values, in the output's unit */
  const unsigned char *hold_angle; /* [nhold] 1: compared modulo 2 pi (NULL: none) */
} awe_trim_spec;

typedef struct {
  double force, moment;       /* residuals [N], [N m] */
  double force_ref;           /* F_ref [N] */
  double rel;                 /* relative residual */
  double hold;                /* max |y_h - value| (0 without holds) */
  int polish_iters, outer;    /* polish iterations done, outer iterations of the holds */
} awe_trim_result;

/* Trim s's model at t = 0. s must have been started (awe_sim_start); it settles on the sphere
 * first unless the start did. On return s->y is the trim (velocities zero), s->u holds the trim
 * variables' values, and the wings' aerodynamic models are those of the trim. spec may be NULL
 * (no trim variables). AWE_EUSAGE when the holds do not match the trim variables, AWE_ENOCONV
 * when the holds cannot be reached (the message names the held output, its value and the
 * nearest one reached). */
awe_status awe_trim_solve(awe_sim *s, const awe_trim_spec *spec, awe_trim_result *r,
                          awe_err *err);

/* Add the controllers' held outputs at t = 0 to the inputs u: the trim is that of the open-loop
 * plant with the controllers' outputs frozen (as linearize sees it). */
void awe_trim_fold_controllers(const awe_ctx *c, double *u);

/* The residuals of r at s->y with s->u (winches braked, no sphere hold), using the wings'
 * current aerodynamic models. GSL status. */
int awe_trim_residual(awe_sim *s, awe_trim_result *r);

/* awe_sim_aero_refresh with the VSM's circulation tolerance of the trim (AWE_TRIM_VSM_RTOL,
 * trim.c): the loads of a trim read from a file, whose residual is judged against 1e-6 (a
 * cold solve at the simulation's rtol 1e-5 left 1.3e-7 on the V3). Returns its value. */
int awe_trim_aero_refresh(awe_sim *s);

#endif
