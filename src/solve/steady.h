/* steady.h: settle the system before t = 0 (run.steady_state).
 *
 * SymbolicAWEModels' find_steady_state! is a damped time march with the winches braked and the
 * wings free only radially (fix_sphere; physics.md §10 item 7). awesim marches the same way,
 * with every winch braked (AWE_CTX_BRAKE_ALL), every rigid wing held on its sphere
 * (AWE_CTX_FIX_SPHERE: its centre of mass moves only radially and it does not turn about the
 * radial axis; wing.h), every particle wing's points moving only radially from the base
 * (rhs.c; SymbolicAWEModels' fix_point_sphere), the aerodynamics refreshed every log interval and the scheduled inputs
 * frozen at their t = 0 values, and damps it by kinetic-energy relaxation
 * (dynamic relaxation, the classic form-finding method for cable nets; Barnes 1999): whenever
 * the kinetic energy  T = sum_i m_i |v_i|^2 / 2 + sum_p m_p v_p^2 / 2 (+ the rigid wings'
 * translational and rotational energy and the twist groups' I_g w^2 / 2)  stops growing, every
 * velocity is set to zero and the stepper is reset. A single mode released from rest has its
 * energy peak exactly at equilibrium, so each relaxation cycle removes most of the remaining
 * error whatever the stiffness. The march checks the energy every min(dt/10, t/100) and stops
 * after t_settle or when max |acc| < 1e-9 m/s^2. Slow modes next to stiff ones (a pulley
 * sliding on a stiff line) relax slowly this way, so the march ends with a Newton polish of
 * the static equilibrium acc(q) = 0 by pseudo-transient continuation (steady.c), over the
 * positions, pulley lengths, rigid-wing centres of mass and twists and the wings' orientations
 * (as rotation vectors), with J = d acc/d q from the coloured finite-difference Jacobian
 * (integrate.h).
 *
 * Residual reported: max |F_i| over the moving points and m |acc| of the rigid wings (the
 * constrained, radial part) [N], and max |acc| [m/s^2] at the settled state with zero velocities
 * (awe_steady_io.residual, .acc; the simulation copies them to s->steady_residual, s->steady_acc).
 */
#ifndef AWE_STEADY_H
#define AWE_STEADY_H

#include "solve/integrate.h"

/* Settled: max |acc| below 1e-3 g [m/s^2] (a warning otherwise; the run goes on). */
#define AWE_STEADY_ACC_OK (1e-3 * 9.80665)

/* What the march works on, borrowed from the simulation (sim.h hands it down, so the march
 * needs no simulation type): the state, inputs and scratch, the stepper it marches with, the
 * right-hand side's context (restored on return) and the guard it polls. */
typedef struct {
  const awe_model *m;
  awe_work *w;
  awe_integrator *it;
  awe_ctx *ctx;
  awe_guard *guard;
  double *y;               /* [nx] state, settled in place */
  double *u;               /* [nu] base inputs */
  double *dydt;            /* [nx] scratch */
  double residual;         /* out: max |F| of the moving points [N], NAN before */
  double acc;              /* out: max |acc| [m/s^2], NAN before */
  int free;                /* 1: no sphere hold (the trim, trim.h), the wings free */
  int fly;                 /* 1: no kinetic-energy relaxation either: a plain free flight of
                            * t_settle (the trim's continuation from far away, trim.h) */
} awe_steady_io;

/* March io (at t = 0) for t_settle [s] (<= 0 or NAN: AWE_RUN_STEADY_TIME, io/spec.h). */
awe_status awe_steady_march(awe_steady_io *io, double t_settle, awe_err *err);

/* The pseudo-transient Newton polish alone (steady.c), at t = 0 with s->ctx as it is (its
 * flags and inputs: the trim, trim.h, calls it without AWE_CTX_FIX_SPHERE); velocities must be
 * zero. Returns the iterations done. */
int awe_steady_polish(awe_steady_io *s);

#endif
