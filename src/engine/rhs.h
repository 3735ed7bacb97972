/* rhs.h: the right-hand side y' = f(t, y, u) of the whole system.
 *
 * One function for simulate, steady state, linearize and step response (GSL odeiv2 signature).
 * Stages, each one call into a physics module:
 *   1. inputs     u = ctx->u, scheduled signals evaluated at t (signal.h)
 *   2. unpack     y -> positions, velocities, tether lengths, winch speeds, pulley states,
 *                 twist (group.h), rigid wings and their slave points (wing.h)
 *   3. wind       ground wind vector from the wind.v_wind input (atmosphere.h), apparent wind
 *                 at the wing origins
 *   4. lengths    rest lengths of all segments (segment.h)
 *   5. algebraic  quasi-static points and pulleys by Newton (quasi_static.h)
 *   6. masses     point masses from the current rest lengths (point.h)
 *   7. segments   spring-damper forces and line drag (segment.h)
 *   8. points     total point forces (point.h), wing aerodynamics from the frozen models
 *                 (aero_coupling.h), quasi-static twist, point accelerations, rigid-wing
 *                 and twist dynamics (wing.h, group.h)
 *   9. winches    winch force, friction, drum acceleration (winch.h)
 *  10. pulleys    rope acceleration (pulley.h)
 *  11. assemble   dydt from the layout in the registry (layout.c)
 *
 * Return contract (GSL odeiv2: gsl_odeiv2_system, the function may ask for a smaller step):
 *   GSL_SUCCESS     dydt is valid.
 *   AWE_RHS_RETRY   recoverable: the quasi-static Newton did not converge, or a non-finite value
 *                   appeared (a trial stage of a too-long step). In adaptive mode GSL halves the
 *                   step and retries; the first offending state is kept in w->bad_x/bad_t.
 *   GSL_EBADFUNC    never returned for a state; reserved for callers that want a hard stop.
 * Side effects: the workspace (scratch, counters, quasi-static warm start) only.
 */
#ifndef AWE_RHS_H
#define AWE_RHS_H

#include <gsl/gsl_errno.h>

#include "engine/work.h"

#define AWE_RHS_RETRY GSL_EMAXITER


/* Parameters of awe_rhs. The signals are evaluated at t clamped to [t_lo, t_hi), the left
 * limit being used at and beyond t_hi, so an integration interval that ends on a step sees
 * the value before the step (set t_lo = -INFINITY, t_hi = INFINITY for no clamping). */
typedef struct {
  const awe_model *m;       /* borrowed */
  awe_work *w;              /* borrowed scratch */
  const double *u;          /* [nu] inputs (borrowed); signals override their elements */
  const awe_signal *sig;    /* scheduled inputs evaluated at t, or NULL (borrowed) */
  int nsig;
  double t_lo, t_hi;
  unsigned flags;
  int nadd;                 /* controller outputs added after the signals (controller.h): */
  const int *add_idx;       /*   u[add_idx[j]] += awe_ctx_add(ctx, j, t) (borrowed) */
  const double *add_val;    /*   the value held since the last sample, or a ramp's end */
  const double *add_from;   /*   a ramp's start value, at add_t0; NULL: all held */
  const double *add_t0, *add_T; /* a ramp's start [s] and length [s] (0: held) */
} awe_ctx;

/* Controller output j at time t: held, or on its ramp from add_from at add_t0 to add_val at
 * add_t0 + add_T (then held). */
static inline double awe_ctx_add(const awe_ctx *c, int j, double t) {
  if (!c->add_from || !(c->add_T[j] > 0.0)) return c->add_val[j];
  double s = (t - c->add_t0[j]) / c->add_T[j];
  if (s >= 1.0) return c->add_val[j];
  if (s <= 0.0) return c->add_from[j];
  return c->add_from[j] + s * (c->add_val[j] - c->add_from[j]);
}

/* A context with no signals and no clamping. */
awe_ctx awe_ctx_make(const awe_model *m, awe_work *w, const double *u);

/* Right-hand side; params is an awe_ctx*. See the contract above. */
int awe_rhs(double t, const double y[], double dydt[], void *params);

/* Refresh the wings' frozen aerodynamic models at (t, y) with the context's inputs: one
 * right-hand-side evaluation for the kinematics (its loads, the old model's, are not used), then
 * awe_aero_refresh. The caller's stage is pre-calculate (sim.h). Returns the number of
 * wings whose solve failed (0 = all fine; every wing when y holds a non-finite value). */
int awe_rhs_aero_refresh(awe_ctx *ctx, double t, const double *y);

/* Name of scalar state k ("points.bob.vel.z") into buf. */
void awe_state_name(const awe_model *m, int k, char *buf, size_t n);

/* Index of the first non-finite element of v[0..n-1], or -1. */
int awe_first_nonfinite(const double *v, int n);

#endif
