/* steady.c: kinetic-energy relaxation march before t = 0.
 *
 * Method and sources: see steady.h.
 */
#include "solve/steady.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/input_signal.h"
#include "solve/steady_jac.h"
#include "engine/aero_coupling.h"
#include "engine/unsteady.h"
#include "util/kite_frames.h"
#include "engine/wind.h"
#include "engine/wing.h"


static double kinetic_energy(const awe_model *m, const awe_work *w, const double *y) {
  double T = 0.0;
  for (int i = 0; i < m->npoint; i++) {
    int o = w->point_x[i];
    if (o >= 0) T += 0.5 * w->mass[i] * awe_v3_dot(y + o + 3, y + o + 3);
  }
  for (int i = 0; i < m->npulley; i++) {
    int o = w->pulley_x[i];
    if (o >= 0) T += 0.5 * w->pulley_mass[i] * y[o + 1] * y[o + 1];
  }
  for (int g = 0; g < m->ngroup; g++) {
    int o = w->group_x[g];
    if (o >= 0) T += 0.5 * w->gg[g].inertia * y[o + 1] * y[o + 1];
  }
  for (int j = 0; j < m->nbody; j++) {
    int o = w->body_x[j];
    if (o < 0) continue;
    const double *om = y + o + 10, *I = m->body_I + 9 * j;
    T += 0.5 * m->body_mass[j] * awe_v3_dot(y + o + 3, y + o + 3);
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) T += 0.5 * om[a] * I[3 * a + b] * om[b];
  }
  return T + awe_wing_kinetic_energy(m, w, y);
}


static void zero_velocities(const awe_model *m, const awe_work *w, double *y) {
  for (int i = 0; i < m->npoint; i++)
    if (w->point_x[i] >= 0) memset(y + w->point_x[i] + 3, 0, 3 * sizeof(double));
  for (int i = 0; i < m->npulley; i++)
    if (w->pulley_x[i] >= 0) y[w->pulley_x[i] + 1] = 0.0;
  for (int i = 0; i < m->nwinch; i++)
    if (w->winch_x[i] >= 0) y[w->winch_x[i]] = 0.0;
  for (int j = 0; j < m->nwing; j++)
    if (w->wing_x[j] >= 0) {
      memset(y + w->wing_x[j] + 3, 0, 3 * sizeof(double));
      memset(y + w->wing_x[j] + 10, 0, 3 * sizeof(double));
    }
  for (int g = 0; g < m->ngroup; g++)
    if (w->group_x[g] >= 0) y[w->group_x[g] + 1] = 0.0;
  for (int j = 0; j < m->nbody; j++)
    if (w->body_x[j] >= 0) {
      memset(y + w->body_x[j] + 3, 0, 3 * sizeof(double));
      memset(y + w->body_x[j] + 10, 0, 3 * sizeof(double));
    }
}


/* max |acc| and max |F| of the moving points at y (velocities zero) */
static int residual(awe_steady_io *s, double *fmax, double *amax) {
  const awe_model *m = s->m;
  awe_work *w = s->w;
  int st = awe_rhs(0.0, s->y, s->dydt, s->ctx);
  *fmax = *amax = 0.0;
  for (int i = 0; i < m->npoint; i++) {
    if (w->point_x[i] < 0) continue;
    /* the integrated acceleration: particle-wing points held on their sphere keep only the
     * radial part */
    double a = awe_v3_norm(s->dydt + w->point_x[i] + 3), f = w->mass[i] * a;
    if (f > *fmax) *fmax = f;
    if (a > *amax) *amax = a;
  }
  for (int i = 0; i < m->npulley; i++) {
    if (w->pulley_x[i] < 0) continue;
    double a = fabs(w->pulley_acc[i]);
    if (a > *amax) *amax = a;
  }
  for (int j = 0; j < m->nwing; j++) {
    if (w->wing_x[j] < 0) continue;
    /* the constrained (radial) part: FIX_SPHERE holds the rest */
    double a = awe_v3_norm(s->dydt + w->wing_x[j] + 3), f = w->wg[j].mass * a;
    if (f > *fmax) *fmax = f;
    if (a > *amax) *amax = a;
  }
  for (int j = 0; j < m->nbody; j++) {
    if (w->body_x[j] < 0) continue;
    double a = awe_v3_norm(s->dydt + w->body_x[j] + 3), f = m->body_mass[j] * a;
    if (f > *fmax) *fmax = f;
    if (a > *amax) *amax = a;
  }
  return st;
}


/* max |acc| over the position rows A[0..np-1] at s->y; -1 if the rhs fails */
static double acc_norm(awe_steady_io *s, const int *A, int np, double *r) {
  if (awe_rhs(0.0, s->y, s->dydt, s->ctx) != GSL_SUCCESS) return -1.0;
  double res = 0.0;
  for (int k = 0; k < np; k++) {
    if (r) r[k] = s->dydt[A[k]];
    if (fabs(s->dydt[A[k]]) > res) res = fabs(s->dydt[A[k]]);
  }
  return res;
}


/* Pseudo-transient continuation of the static equilibrium acc(q) = 0 (velocities zero,
 * winches braked; Kelley & Keyes 1998):  (sigma I - J) dq = acc,  J = d acc/d q from the
 * integrator's Jacobian (analytic columns, coloured differences for the rest), in the
 * coordinates of awe_steady_jac_coords (steady_jac.h): positions, pulley lengths, rigid-wing
 * centres, twists and each rigid wing's orientation as a rotation vector phi (principal frame),
 * Q <- Q (x) Exp(dphi); the residual rows are the accelerations. sigma = 1/dtau starts at
 * 1e-2 max|J_ii| and follows the residual (switched evolution relaxation: sigma *= res_new/
 * res_old after a success, *= 10 after a rejected step), so the iteration moves like a damped
 * march while the residual is large (slack lines, kinks) and becomes Newton's method near the
 * solution. The matrix is sparse, on the Jacobian's pattern (steady_jac.h). The wings'
 * aerodynamic models are refreshed at every 4th iterate, and at every iterate once
 * max |acc| < 1e-3. At most 1000 iterations; it stops after 100 without a 0.1 % improvement
 * (25 once max |acc| is below 1e-3 of the settling tolerance AWE_STEADY_ACC_OK).
 * Returns the iterations done. */
/* does a wing have a Wagner lag (engine/unsteady.h)? */
static int wagner_any(const awe_model *m, const awe_work *w) {
  for (int j = 0; j < m->nwing; j++)
    if (w->wing_wag_x[j] >= 0) return 1;
  return 0;
}


int awe_steady_polish(awe_steady_io *s) {
  const awe_model *m = s->m;
  awe_work *w = s->w;
  int n = w->nx, np = 0, it = 0;
  int *P = malloc(sizeof(int) * ((size_t)n + 1)), *A = malloc(sizeof(int) * ((size_t)n + 1));
  double *r = NULL, *dx = NULL, *y0 = NULL, *ybest = NULL;
  awe_steady_jac *g = NULL;
  if (!P || !A) goto out;
  np = awe_steady_jac_coords(m, w, P, A);
  if (np == 0) goto out;
  r = malloc(sizeof(double) * (size_t)np);
  dx = malloc(sizeof(double) * (size_t)np);
  y0 = malloc(sizeof(double) * (size_t)n);
  ybest = malloc(sizeof(double) * (size_t)n);
  g = awe_steady_jac_alloc(s->it, w, n, P, A, np);
  if (!r || !dx || !y0 || !ybest || !g) goto out;
  if (w->aero) awe_rhs_aero_refresh(s->ctx, 0.0, s->y);
  double res = acc_norm(s, A, np, r), sigma = -1.0, best = res;
  memcpy(ybest, s->y, sizeof(double) * (size_t)n);
  int fails = 0, stall = 0;
  for (; it < 1000 && res > 1e-12 && fails < 12; it++) {
    if (awe_guard_poll(s->guard, 0.0, 0)) break; /* the caller reports it */
    double dmax;
    if (awe_steady_jac_eval(g, s->y, &dmax) != GSL_SUCCESS) break;
    acc_norm(s, A, np, r); /* the Jacobian left the workspace at a perturbed state */
    if (sigma < 0.0) sigma = 1e-2 * dmax;
    if (awe_steady_jac_factor(g, sigma)) {
      sigma *= 10.0;
      fails++;
      continue;
    }
    awe_steady_jac_solve(g, r, dx);
    memcpy(y0, s->y, sizeof(double) * (size_t)n);
    for (int k = 0; k < np; k++) {
      if (P[k] >= 0) {
        s->y[P[k]] += dx[k];
        continue;
      }
      int code = -1 - P[k];
      if (code % 4) continue; /* a wing's rotation is applied once, from its first axis */
      int o = code / 4; /* the quaternion's offset (steady_jac.h) */
      double phi[3] = {dx[k], dx[k + 2], dx[k + 4]}, dq[4], q[4];
      awe_quat_from_rotvec(phi, dq);
      awe_quat_mul(s->y + o, dq, q);
      awe_quat_normalize(q);
      memcpy(s->y + o, q, sizeof(q));
    }
    /* the aerodynamic model follows every 4th iterate (its linearization carries the steps in
     * between), and every iterate near convergence */
    int fresh = w->aero && (it % 4 == 3 || res < 1e-3);
    if (fresh) awe_rhs_aero_refresh(s->ctx, 0.0, s->y);
    double rn = acc_norm(s, A, np, NULL);
    if (rn >= 0.0 && rn < 1e3 * res) {
      /* accepted (not necessarily monotone: a residual norm is no energy) */
      if (rn < 0.999 * best) {
        best = rn;
        memcpy(ybest, s->y, sizeof(double) * (size_t)n);
        stall = 0;
      } else if (++stall >= (best < 1e-3 * AWE_STEADY_ACC_OK ? 25 : 100)) {
        /* no progress: at the level of the finite-difference noise. Far below the settling
         * tolerance 25 iterates suffice (the V3 kite: 287 -> 72 iterates, residual 6.9e-8 ->
         * 4.8e-8 N); above it a plateau may precede more progress */
        break;
      }
      /* switched evolution relaxation, at least halving sigma after a decrease */
      sigma *= rn < res ? (rn / res < 0.5 ? rn / res : 0.5) : rn / res;
      res = rn;
      fails = 0;
    } else {
      memcpy(s->y, y0, sizeof(double) * (size_t)n);
      if (fresh) awe_rhs_aero_refresh(s->ctx, 0.0, s->y);
      sigma *= 10.0;
      fails++;
    }
  }
  memcpy(s->y, ybest, sizeof(double) * (size_t)n);
out:
  free(P);
  free(A);
  free(r);
  free(dx);
  free(y0);
  free(ybest);
  awe_steady_jac_free(g);
  return it;
}


/* why the settling march stopped at pseudo-time tau */
static awe_status march_fail(awe_steady_io *s, int st, double tau, awe_err *err) {
  char name[256], wb[600];
  if (awe_wind_box_report(s->m, s->w, 0.0, wb, sizeof(wb)))
    return awe_err_set(err, AWE_EINVAL, "steady state: %s", wb); /* the box misses the kite */
  if (s->guard->why) return awe_guard_error(s->guard, err);
  int k = awe_first_nonfinite(s->y, s->w->nx);
  if (k < 0 && s->w->bad_x >= 0) k = s->w->bad_x;
  if (k >= 0) {
    awe_state_name(s->m, k, name, sizeof(name));
    return awe_err_set(err, AWE_ENOCONV, "steady state: the settling march failed at %.6g s: "
                       "non-finite %s", tau, name);
  }
  char what[400] = "";
  k = awe_integrator_limiting_state(s->it, s->y);
  if (k >= 0) {
    awe_state_name(s->m, k, name, sizeof(name));
    snprintf(what, sizeof(what), "; largest local error in %s = %.6g", name, s->y[k]);
  }
  return awe_err_set(err, AWE_ENOCONV, "steady state: the settling march failed at %.6g s: "
                     "stepper %s reported '%s' (status %d)%s", tau, awe_integrator_name(s->it),
                     gsl_strerror(st), st, what);
}


awe_status awe_steady_march(awe_steady_io *s, double t_settle, awe_err *err) {
  const awe_model *m = s->m;
  awe_work *w = s->w;
  if (!(t_settle > 0.0)) t_settle = AWE_RUN_STEADY_TIME;
  double dt = m->opt.dt;
  double h = dt / 10.0 < t_settle / 100.0 ? dt / 10.0 : t_settle / 100.0;

  /* inputs frozen at t = 0, every winch braked */
  double *u0 = malloc(sizeof(double) * ((size_t)w->nu + 1));
  if (!u0) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  memcpy(u0, s->u, sizeof(double) * (size_t)w->nu);
  awe_signals_apply(m->signals, m->nsignal, 0.0, u0);
  awe_ctx saved = *s->ctx;
  s->ctx->u = u0;
  s->ctx->sig = NULL;
  s->ctx->nsig = 0;
  s->ctx->t_lo = -INFINITY;
  s->ctx->t_hi = INFINITY;
  /* a Wagner lag has no deficiency in steady flow (the run settles its states afterwards) */
  s->ctx->flags |= AWE_CTX_BRAKE_ALL | AWE_CTX_NO_LAG | (s->free ? 0u : AWE_CTX_FIX_SPHERE);
  if (s->free) s->ctx->flags &= ~AWE_CTX_FIX_SPHERE;

  awe_status rc = AWE_OK;
  const char *phase = s->guard->phase;
  s->guard->phase = "settling"; /* left so on failure: the log records where the run stopped */
  zero_velocities(m, w, s->y);
  awe_integrator_reset(s->it);
  double tau = 0.0, T_prev = 0.0, fmax, amax;
  long k = 0, nsteps = (long)ceil(t_settle / h - 1e-9);
  int per_refresh = (int)floor(dt / h + 0.5);
  if (per_refresh < 1) per_refresh = 1;
  while (k < nsteps) {
    if (w->aero && k % per_refresh == 0) awe_rhs_aero_refresh(s->ctx, tau, s->y);
    double t1 = (double)(++k) * h;
    w->bad_x = -1;
    int st = awe_integrator_apply(s->it, &tau, t1, s->y);
    if (st != GSL_SUCCESS || awe_first_nonfinite(s->y, w->nx) >= 0) {
      rc = march_fail(s, st, tau, err);
      break;
    }
    double T = kinetic_energy(m, w, s->y);
    if (T < T_prev && !s->fly) {
      zero_velocities(m, w, s->y);
      awe_integrator_reset(s->it);
      T_prev = 0.0;
      if (residual(s, &fmax, &amax) == GSL_SUCCESS && amax < 1e-9) break;
    } else {
      T_prev = T;
    }
  }
  zero_velocities(m, w, s->y);
  if (rc == AWE_OK) awe_steady_polish(s);
  if (rc == AWE_OK && s->guard->why) rc = awe_guard_error(s->guard, err);
  /* the Wagner lags' states to steady flow at the settled state (d = 0 there, unsteady.h) */
  if (rc == AWE_OK && wagner_any(m, w) && awe_rhs(0.0, s->y, s->dydt, s->ctx) == GSL_SUCCESS)
    awe_wagner_settle(m, w, s->y);
  if (rc == AWE_OK && w->aero) awe_rhs_aero_refresh(s->ctx, 0.0, s->y);
  if (rc == AWE_OK) {
    if (residual(s, &fmax, &amax) != GSL_SUCCESS) {
      rc = awe_err_set(err, AWE_ENOCONV, "steady state: the settled state cannot be evaluated");
    } else {
      s->residual = fmax;
      s->acc = amax;
    }
  }
  *s->ctx = saved;
  awe_integrator_reset(s->it);
  free(u0);
  if (rc == AWE_OK) s->guard->phase = phase;
  return rc;
}
