/* linearize.h: linear model (A, B, C, D) of the right-hand side about an operating point.
 *
 * The nonlinear system  dx/dt = f(x, u),  y = h(x, u)  (rhs.h, outputs.h) is linearized as
 *   d(dx)/dt = A dx + B du,   dy = C dx + D du
 * by central differences with the per-variable perturbation sizes of the registry (after
 * OpenFAST's ModVar, seed 002):
 *   A[:, j] = (f(x + h_j e_j, u) - f(x - h_j e_j, u)) / (2 h_j),   h_j = var->perturb
 *   B[:, j] = (f(x, u + h_j e_j) - f(x, u - h_j e_j)) / (2 h_j)       (C, D alike with h)
 * Minimal state: an orientation state (registry flag AWE_VF_QUAT, unit quaternion
 * q = (w, x, y, z), Hamilton, body -> world) is never perturbed component-wise. Its three
 * linearization coordinates are a body-frame rotation vector theta composed with the
 * operating-point quaternion,
 *   q(theta) = q_op (x) Exp(theta),   Exp(theta) = (cos(|theta|/2), sin(|theta|/2) theta/|theta|)
 * and its derivative rows are the rate of that rotation vector,
 *   dtheta/dt = Jr^-1(theta) omega,   omega = 2 Im(q* (x) dq/dt) / |q|^2,
 *   Jr^-1(theta) = I + [theta]x / 2 + (1/|theta|^2 - (1 + cos|theta|)/(2 |theta| sin|theta|))
 *                  [theta]x^2
 * (Sola et al. 2018, "A micro Lie theory", eq. 144), so A is expressed in 3 coordinates per
 * orientation and a quaternion-normalisation term (k (1 - |q|^2) q, which has no component
 * in omega) cannot create a spurious mode. Quaternion outputs are differenced the same way
 * (OpenFAST MV_ComputeDiff): dy = (Log(q_op* q+) - Log(q_op* q-)) / (2h). Outputs flagged
 * AWE_VF_ANGLE are differenced modulo 2 pi.
 * Aerodynamics: the wing's linear aero model lives in the workspace and is only refreshed by
 * the simulation driver; linearizing never refreshes it, so it stays frozen during the
 * perturbations, as in SymbolicAWEModels' linearize! (physics.md §11).
 *
 * Operating point (awe_op_find): the state after the steady-state march (steady.h; every
 * winch braked, then a torque-driven winch whose torque the scenario does not schedule gets
 * the holding torque tau = -ratio |F_w| + tau_fric, SymbolicAWEModels' calc_steady_torque) or
 * the state at time t of a simulation of the scenario. Its residual is ||dx/dt||_2 over the
 * minimal coordinates except the integrating states, i.e. over the rate states (unit with
 * "/s": velocities, reel-out speeds, angular velocities), whose derivatives are the
 * accelerations. The displacement-like states (positions, tether and pulley lengths,
 * orientations, angles) integrate those rates, so a trim with constant rates (a steady
 * reel-out) is admissible, as a rotating rotor is in OpenFAST.
 *
 * Channels: one per scalar of a variable (3 per quaternion: NAME.rx, .ry, .rz [rad]); names are
 * the registry's scalar names ("points.mass.pos.z"), which are also the scenario input names
 * and the HDF5 channel names.
 */
#ifndef AWE_LINEARIZE_H
#define AWE_LINEARIZE_H

#include <stddef.h>

#include "solve/sim.h"
#include "solve/trim.h"
#include "model/registry.h"
#include "util/status.h"

/* One linearization coordinate of a variable list. */
typedef struct {
  int var;     /* index into the list */
  int k;       /* component: 0..dim-1, or 0..2 (rotation vector) for AWE_VF_QUAT */
  int scalar;  /* index into the full vector: offset + k (offset of the quaternion for QUAT) */
} awe_lin_chan;

/* Number of channels of the whole list (dim per variable, 3 per quaternion). */
int awe_lin_nchan(const awe_varlist *l);

/* All channels of l into ch [awe_lin_nchan(l)]. */
void awe_lin_channels(const awe_varlist *l, awe_lin_chan *ch);

/* Name ("points.mass.pos.z", "wings.kite.Q.rx") and unit ("rad" for rotation vectors). */
void awe_lin_chan_name(const awe_varlist *l, const awe_lin_chan *c, char *buf, size_t n);
const char *awe_lin_chan_unit(const awe_varlist *l, const awe_lin_chan *c);

/* Channels selected by comma-separated globs over the channel names (blanks ignored; a
 * variable's own name, "points.mass.pos", selects all its channels), in list order, each once.
 * Only variables whose flags contain all of need_flags take part. A pattern that matches
 * nothing is an error (AWE_EUSAGE, with a suggestion). *out is malloc'ed (free it); *n may be 0
 * only when patterns is empty. */
awe_status awe_lin_select(const awe_varlist *l, const char *patterns, unsigned need_flags,
                          awe_lin_chan **out, int *n, awe_err *err);

/* The function to linearize: full-layout vectors x [xl->size], u [ul->size] -> dxdt
 * [xl->size], y [yl->size]. Returns 0, or non-zero when the point cannot be evaluated. */
typedef int (*awe_lin_eval_fn)(void *ctx, const double *x, const double *u, double *dxdt,
                               double *y);

typedef struct {
  const awe_varlist *xl, *ul, *yl; /* layouts (borrowed) */
  awe_lin_eval_fn eval;
  void *ctx;
  const awe_lin_chan *uc;          /* selected inputs (borrowed) */
  int nu;
  const awe_lin_chan *yc;          /* selected outputs (borrowed) */
  int ny;
  /* 1 for a state variable that integrates another state (left out of the residual);
   * NULL: none */
  int (*integrating)(const awe_var *v);
  /* nonzero (a signal number): stop between two perturbations with AWE_EINTR; NULL: never */
  const awe_stop_flag *stop;
} awe_lin_problem;

/* The linear model. Row-major matrices; names and units per coordinate. */
typedef struct {
  int nx, nu, ny;
  double *A, *B, *C, *D;        /* [nx*nx], [nx*nu], [ny*nx], [ny*nu] */
  double *x_op, *u_op, *y_op;   /* operating point; rotation vectors Log(q_op) for QUAT */
  double *dx_op;                /* minimal dx/dt at the operating point */
  double *x_perturb, *u_perturb;/* perturbation sizes used */
  unsigned char *x_integrating; /* [nx] */
  char **x_name, **u_name, **y_name;
  const char **x_unit, **u_unit, **y_unit;
  double residual;              /* ||dx_op||_2 over the non-integrating coordinates */
  int residual_worst;           /* coordinate with the largest |dx_op| (-1 if none) */
  long nevals;                  /* function evaluations used */
} awe_linsys;

/* Minimal derivative at (x, u): dx_min [awe_lin_nchan(xl)], and the residual (may be NULL). */
awe_status awe_lin_deriv(const awe_lin_problem *p, const double *x, const double *u,
                         double *dx_min, double *residual, int *worst, awe_err *err);

/* Linearize p at (x_op, u_op) (full layouts; a quaternion in x_op is normalised first).
 * Fills *L (free with awe_linsys_free). AWE_EUSAGE for a selected input without a
 * perturbation size (a discrete input such as a brake), AWE_ENOCONV when f or h cannot be
 * evaluated, AWE_EINTR when p->stop was raised. */
awe_status awe_linearize(const awe_lin_problem *p, const double *x_op, const double *u_op,
                         awe_linsys *L, awe_err *err);
void awe_linsys_free(awe_linsys *L);

/* ---- the model's right-hand side as an awe_lin_problem ---- */

typedef struct {
  awe_ctx ctx;   /* no signals, no clamping; ctx.u is set by every evaluation */
  double t;      /* time of the evaluations [s] (a time-varying wind field): 0 from init */
} awe_lin_model;

/* Evaluation context over m and its workspace w (both borrowed). */
void awe_lin_model_init(awe_lin_model *lm, const awe_model *m, awe_work *w, unsigned ctx_flags);

/* awe_lin_eval_fn of the model: awe_rhs at lm->t plus the outputs (outputs.h). */
int awe_lin_model_eval(void *lm, const double *x, const double *u, double *dxdt, double *y);

/* The model's integrating states: orientations and every state whose unit is not a rate
 * (no "/s"): positions, tether and pulley lengths, angles. */
int awe_lin_model_integrating(const awe_var *v);

/* Default channels. Inputs: the variables flagged AWE_VF_LINEARIZE (winch torques, speeds of
 * speed-controlled winches); a model without any gets the external forces of its moving points.
 * Outputs: those flagged AWE_VF_LINEARIZE plus every tether length; a model without any gets
 * the positions of its moving points. *fallback is set to 1 when the fallback was taken. */
awe_status awe_lin_default_inputs(const awe_model *m, awe_lin_chan **out, int *n, int *fallback,
                                  awe_err *err);
awe_status awe_lin_default_outputs(const awe_model *m, awe_lin_chan **out, int *n,
                                   int *fallback, awe_err *err);

/* ---- operating point ---- */

enum {
  AWE_OP_HOLD_TORQUE = 1u << 0, /* steady state: unscheduled winch torques := holding torque */
  AWE_OP_TRIM = 1u << 1,        /* steady state: continued to the free trim (solve/trim.h) */
  AWE_OP_GIVEN = 1u << 2        /* s started, s->y and s->u hold a trim (a --from file): taken
                                   as it is (t_at ignored) */
};

typedef struct {
  double t;          /* time of the operating point [s] (0 after the steady state) */
  int steady;        /* 1: after the steady-state march */
  double *x, *u;     /* [nx], [nu] (owned): state, inputs with the signals frozen at t */
  double steady_residual; /* max |F| of the moving points after the march [N], or NAN */
  int nheld;         /* winch torques set to the holding torque */
  int trim;          /* 1: the free trim (AWE_OP_TRIM) */
  awe_trim_result tr;/* its residuals (trim.h) */
} awe_op;

/* Operating point of s's model: t_at NAN = after the steady-state march (whatever
 * run.steady_state says), continued to the free trim with AWE_OP_TRIM, otherwise the state at t_at >= 0 of the scenario's simulation
 * (which settles first when run.steady_state is set), reached along simulate's log grid
 * (awe_op_advance). The controllers' outputs are folded into op->u for a trim or a time
 * (awe_op_here). s is left at the operating point. */
awe_status awe_op_find(awe_sim *s, double t_at, unsigned flags, awe_op *op, awe_err *err);
void awe_op_free(awe_op *op);

/* Advance the started simulation s to t_at >= s->t along the log grid of `awesim simulate`
 * (one awe_sim_step per log interval run.dt, the last one ending at t_at), so the state at a
 * log time is the one simulate logs there. A crash with run.on_crash = stop ends it early
 * (s->t < t_at). */
awe_status awe_op_advance(awe_sim *s, double t_at, awe_err *err);

/* The operating point where s is now (not an equilibrium in general): op->t = s->t, op->x =
 * s->y, op->u = s->u with the signals at s->t and, with fold, the controllers' outputs
 * added (as the simulation adds them from s->t on: the linear model is the plant's, with the
 * controllers' outputs frozen; the caller sets s->ctx.nadd = 0 if s goes on from op->u). */
awe_status awe_op_here(awe_sim *s, awe_op *op, int fold, awe_err *err);

#endif
