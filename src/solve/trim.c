/* trim.c: the free equilibrium of a flying system (method: trim.h). */
#include "solve/trim.h"

#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aero/vsm.h"
#include "engine/aero_coupling.h"
#include "engine/outputs.h"
#include "model/input_signal.h"
#include "solve/steady.h"
#include "solve/steady_jac.h"
#include <gsl/gsl_errno.h>
#include "util/kite_frames.h"

/* outer iterations on the loads (trim.h) */
#define AWE_TRIM_MAX_OUTER 40
#define AWE_TRIM_VSM_RTOL 1e-12
/* the free flight of the continuation (free_trim) [s], and the residual that starts it */
#define AWE_TRIM_FLY_TIME 20.0
#define AWE_TRIM_FLY_BELOW 1e-9
#define AWE_TRIM_FLIGHTS 3


void awe_trim_fold_controllers(const awe_ctx *c, double *u) {
  for (int j = 0; j < c->nadd; j++) u[c->add_idx[j]] += awe_ctx_add(c, j, 0.0);
}


int awe_trim_residual(awe_sim *s, awe_trim_result *r) {
  const awe_model *m = s->m;
  awe_work *w = s->w;
  awe_ctx c = s->ctx; /* its signals, if any, at t = 0 */
  c.flags = AWE_CTX_BRAKE_ALL;
  int st = awe_rhs(0.0, s->y, s->dydt, &c);
  r->force = r->moment = r->force_ref = 0.0;
  if (st != GSL_SUCCESS) return st;
  double wmax = 0.0;
  for (int i = 0; i < m->npoint; i++) {
    if (w->point_x[i] < 0) continue;
    double f = w->mass[i] * awe_v3_norm(s->dydt + w->point_x[i] + 3);
    if (f > r->force) r->force = f;
    if (w->mass[i] * 9.80665 > wmax) wmax = w->mass[i] * 9.80665;
  }
  for (int j = 0; j < m->nwing; j++) {
    int o = w->wing_x[j];
    if (o < 0) continue;
    double f = w->wg[j].mass * awe_v3_norm(s->dydt + o + 3);
    if (f > r->force) r->force = f;
    for (int k = 0; k < 3; k++) {
      double mo = fabs(w->wg[j].I_p[k] * s->dydt[o + 10 + k]);
      if (mo > r->moment) r->moment = mo;
    }
    if (w->wg[j].mass * 9.80665 > wmax) wmax = w->wg[j].mass * 9.80665;
  }
  for (int i = 0; i < m->npulley; i++) {
    if (w->pulley_x[i] < 0) continue;
    double f = w->pulley_mass[i] * fabs(s->dydt[w->pulley_x[i] + 1]);
    if (f > r->force) r->force = f;
  }
  for (int i = 0; i < m->nsegment; i++)
    if (w->seg_force[i] > r->force_ref) r->force_ref = w->seg_force[i];
  if (!(r->force_ref > 0.0)) r->force_ref = wmax > 0.0 ? wmax : 1.0;
  double worst = r->force > r->moment ? r->force : r->moment; /* moments per metre */
  r->rel = worst / r->force_ref;
  return GSL_SUCCESS;
}


/* the accelerations at y with fresh aerodynamics: rows A into r, ||r||_2 (-1: cannot evaluate) */
static double rows(awe_sim *s, const int *A, const double *wt, int np, double *r, int fresh) {
  if (fresh && s->w->aero && awe_rhs_aero_refresh(&s->ctx, 0.0, s->y)) return -1.0;
  if (awe_rhs(0.0, s->y, s->dydt, &s->ctx) != GSL_SUCCESS) return -1.0;
  double n2 = 0.0;
  for (int k = 0; k < np; k++) {
    if (r) r[k] = s->dydt[A[k]];
    double f = wt[k] * s->dydt[A[k]];
    n2 += f * f;
  }
  return sqrt(n2);
}


/* the generalized mass of each residual row A[k] (point, pulley and wing masses, the wings'
 * principal inertias, the twist groups' inertias): the line search measures forces, not
 * accelerations, which the light trailing-edge points of a particle wing (13 g on the V3)
 * magnify by 1/m */
static void row_weights(const awe_model *m, const awe_work *w, const int *A, int np,
                        double *wt) {
  for (int k = 0; k < np; k++) {
    int a = A[k];
    wt[k] = 1.0;
    for (int i = 0; i < m->npoint; i++)
      if (w->point_x[i] >= 0 && a >= w->point_x[i] + 3 && a < w->point_x[i] + 6) wt[k] = w->mass[i];
    for (int i = 0; i < m->npulley; i++)
      if (w->pulley_x[i] >= 0 && a == w->pulley_x[i] + 1) wt[k] = w->pulley_mass[i];
    for (int j = 0; j < m->nwing; j++) {
      int o = w->wing_x[j];
      if (o < 0) continue;
      if (a >= o + 3 && a < o + 6) wt[k] = w->wg[j].mass;
      if (a >= o + 10 && a < o + 13) wt[k] = w->wg[j].I_p[a - o - 10];
    }
    for (int g = 0; g < m->ngroup; g++)
      if (w->group_x[g] >= 0 && a == w->group_x[g] + 1) wt[k] = w->gg[g].inertia;
    if (!(wt[k] > 0.0)) wt[k] = 1.0;
  }
}


/* y <- y0 + lam dq in the coordinates P. The positions' part of dq is split into the rigid
 * rotation about the wing's ground station that fits it best (least squares) and the rest:
 * the rotation is applied exactly, so that a step that swings the kite across the wind
 * (metres at the wing, a near-zero stiffness) does not stretch the stiff tether and bridle
 * lines at second order, which made the plain Newton step useless on the V3 kite (a 5.8 m
 * step predicted to remove the residual raised it from 2.3 to 6e4 m/s^2). Rotations of rigid
 * wings are composed on their quaternions. */
static void apply_step(const awe_model *m, const awe_work *w, const int *P, int np,
                       const double *base, const double *y0, const double *dq, double lam,
                       double *y) {
  memcpy(y, y0, sizeof(double) * (size_t)w->nx);
  double *d = (double *)w->refresh_dydt; /* scratch [nx]: the plain displacement */
  memset(d, 0, sizeof(double) * (size_t)w->nx);
  for (int k = 0; k < np; k++)
    if (P[k] >= 0) d[P[k]] = lam * dq[k];
  double om[3] = {0.0, 0.0, 0.0};
  if (base) {
    double M[9] = {0}, b3[3] = {0};
    int cnt = 0;
    for (int i = 0; i < m->npoint + m->nwing; i++) {
      int o = i < m->npoint ? w->point_x[i] : w->wing_x[i - m->npoint];
      if (o < 0) continue;
      double r[3], c[3];
      awe_v3_sub(r, y0 + o, base);
      awe_v3_cross(c, r, d + o);
      double r2 = awe_v3_dot(r, r);
      for (int a = 0; a < 3; a++) {
        b3[a] += c[a];
        for (int e = 0; e < 3; e++) M[3 * a + e] += (a == e ? r2 : 0.0) - r[a] * r[e];
      }
      cnt++;
    }
    gsl_matrix_view Mv = gsl_matrix_view_array(M, 3, 3);
    gsl_vector_view bv = gsl_vector_view_array(b3, 3), xv = gsl_vector_view_array(om, 3);
    gsl_permutation *pm = gsl_permutation_alloc(3);
    int sg;
    if (cnt < 2 || !pm || gsl_linalg_LU_decomp(&Mv.matrix, pm, &sg) ||
        gsl_linalg_LU_solve(&Mv.matrix, pm, &bv.vector, &xv.vector) || !isfinite(om[0]) ||
        !isfinite(om[1]) || !isfinite(om[2]))
      om[0] = om[1] = om[2] = 0.0;
    if (pm) gsl_permutation_free(pm);
  }
  double qr[4], R[9];
  awe_quat_from_rotvec(om, qr);
  awe_quat_to_R(qr, R);
  for (int i = 0; i < m->npoint + m->nwing; i++) {
    int o = i < m->npoint ? w->point_x[i] : w->wing_x[i - m->npoint];
    if (o < 0) continue;
    double r[3], rr[3], c[3];
    awe_v3_sub(r, y0 + o, base ? base : y0 + o);
    awe_mat3_vec(R, r, rr);
    awe_v3_cross(c, om, r);
    for (int a = 0; a < 3; a++) y[o + a] = y0[o + a] + (rr[a] - r[a]) + d[o + a] - c[a];
  }
  for (int k = 0; k < np; k++) {
    if (P[k] >= 0) {
      int plain = 1; /* positions were done above */
      for (int i = 0; i < m->npoint && plain; i++)
        if (w->point_x[i] >= 0 && P[k] >= w->point_x[i] && P[k] < w->point_x[i] + 3) plain = 0;
      for (int j = 0; j < m->nwing && plain; j++)
        if (w->wing_x[j] >= 0 && P[k] >= w->wing_x[j] && P[k] < w->wing_x[j] + 3) plain = 0;
      if (plain) y[P[k]] = y0[P[k]] + lam * dq[k];
      continue;
    }
    int code = -1 - P[k];
    if (code % 4) continue; /* a wing's rotation is applied once, from its first axis */
    int o = code / 4; /* the quaternion's offset (steady_jac.h) */
    double phi[3] = {lam * dq[k], lam * dq[k + 2], lam * dq[k + 4]}, dqq[4], q[4];
    awe_quat_from_rotvec(phi, dqq);
    awe_quat_mul(y0 + o, dqq, q);
    awe_quat_normalize(q);
    memcpy(y + o, q, sizeof(q));
  }
}


/* Newton's method on the free static residual acc(q) = 0, the wings' aerodynamics re-solved
 * at every iterate and trial point when fresh, else the models frozen as they are (the outer
 * iteration on the loads, free_trim); J = d acc/d q from the integrator's Jacobian (analytic
 * columns, coloured differences; steady_jac.h), steps as in apply_step, a backtracking line
 * search on the force norm ||m acc||_2 (row_weights) and a Levenberg-style shift
 * (sigma I - J): tenfold when no step along the direction decreases the norm or the step had
 * to be shortened below 1/4, a quarter after a full step. Returns the iterations. */
static int newton(awe_sim *s, int maxit, int fresh) {
  const awe_model *m = s->m;
  awe_work *w = s->w;
  int n = w->nx, np, it = 0;
  int *P = malloc(sizeof(int) * ((size_t)n + 1)), *A = malloc(sizeof(int) * ((size_t)n + 1));
  double *r = NULL, *dq = NULL, *y0 = NULL, *wt = NULL;
  awe_steady_jac *g = NULL;
  const double *base = m->nwing > 0 ? w->wg[0].base : NULL;
  if (!P || !A) goto out;
  np = awe_steady_jac_coords(m, w, P, A);
  if (np == 0) goto out;
  r = malloc(sizeof(double) * (size_t)np);
  dq = malloc(sizeof(double) * (size_t)np);
  y0 = malloc(sizeof(double) * (size_t)n);
  wt = malloc(sizeof(double) * (size_t)np);
  g = awe_steady_jac_alloc(s->it, w, n, P, A, np);
  if (!r || !dq || !y0 || !wt || !g) goto out;
  row_weights(m, w, A, np, wt);
  double res = rows(s, A, wt, np, r, fresh), sigma = 0.0, dmax = 0.0, lam = 1.0;
  for (; it < maxit && res > 0.0; it++) {
    if (awe_guard_poll(&s->guard, 0.0, 0)) break;
    memcpy(y0, s->y, sizeof(double) * (size_t)n);
    if (awe_steady_jac_eval(g, y0, &dmax) != GSL_SUCCESS) break;
    memcpy(s->y, y0, sizeof(double) * (size_t)n);
    rows(s, A, wt, np, r, 0); /* the Jacobian left the workspace at a perturbed state */
    int ok = 0;
    for (int tries = 0; tries < 8 && !ok; tries++) {
      if (awe_steady_jac_factor(g, sigma) == 0) {
        awe_steady_jac_solve(g, r, dq);
        lam = 1.0;
        for (int k = 0; k < 10; k++, lam *= 0.5) {
          apply_step(m, w, P, np, base, y0, dq, lam, s->y);
          double rn = rows(s, A, wt, np, NULL, fresh);
          if (rn >= 0.0 && rn < (1.0 - 1e-4 * lam) * res) {
            res = rn;
            ok = 1;
            break;
          }
        }
      }
      if (!ok) sigma = sigma > 0.0 ? 10.0 * sigma : 1e-6 * (dmax > 1.0 ? dmax : 1.0);
    }
    if (!ok) {
      memcpy(s->y, y0, sizeof(double) * (size_t)n);
      rows(s, A, wt, np, r, fresh);
      break; /* at the level of the finite-difference noise */
    }
    /* a short step: the Newton direction runs along a nearly neutral mode (the V3's sideways
     * motion) where the residual is far from linear; the shift shortens it */
    if (lam < 0.25)
      sigma = sigma > 1e-6 * dmax ? 10.0 * sigma : 1e-6 * (dmax > 1.0 ? dmax : 1.0);
    else if (lam == 1.0)
      sigma = sigma < 1e-9 * dmax ? 0.0 : 0.25 * sigma;
  }
out:
  free(P);
  free(A);
  free(r);
  free(dq);
  free(y0);
  free(wt);
  awe_steady_jac_free(g);
  return it;
}


/* the residual with the loads of a fresh aerodynamic solve at s->y into r; 0, or -1 when the
 * state cannot be evaluated */
static int fresh_residual(awe_sim *s, awe_trim_result *r) {
  if (s->w->aero) awe_rhs_aero_refresh(&s->ctx, 0.0, s->y);
  return awe_trim_residual(s, r) == GSL_SUCCESS && isfinite(r->rel) ? 0 : -1;
}


/* keep s->y in yb when its residual r->rel beats *best */
static int keep_best(awe_sim *s, const awe_trim_result *r, double *best, double *yb) {
  if (!(r->rel < *best)) return 0;
  *best = r->rel;
  memcpy(yb, s->y, sizeof(double) * (size_t)s->w->nx);
  return 1;
}


/* polish and the outer iteration on the loads from s->y; the best state into yb, *best */
static void solve_from(awe_sim *s, awe_steady_io *io, awe_trim_result *r, double *best,
                       double *yb) {
  r->polish_iters += awe_steady_polish(io);
  if (!s->guard.why && fresh_residual(s, r) == 0) keep_best(s, r, best, yb);
  memcpy(s->y, yb, sizeof(double) * (size_t)s->w->nx);
  int stall = 0;
  for (int o = 0; o < AWE_TRIM_MAX_OUTER && !s->guard.why && *best > 1e-12; o++) {
    int fresh = o == AWE_TRIM_MAX_OUTER - 1 || stall == 2 || !s->w->aero;
    if (s->w->aero) awe_rhs_aero_refresh(&s->ctx, 0.0, s->y);
    r->polish_iters += newton(s, 60, fresh);
    if (s->guard.why || fresh_residual(s, r)) break;
    if (keep_best(s, r, best, yb)) {
      stall = 0;
      continue;
    }
    memcpy(s->y, yb, sizeof(double) * (size_t)s->w->nx);
    if (fresh || ++stall > 2) break;
  }
  memcpy(s->y, yb, sizeof(double) * (size_t)s->w->nx);
}


/* the free trim at the inputs s->ctx.u, warm-started from s->y (velocities zero): the
 * pseudo-transient polish (steady.c) without the sphere hold, then the outer iteration on the
 * loads (trim.h): Newton to convergence with the wings' aerodynamic models frozen at the
 * current point, a fresh solve at its solution, repeated while the residual with fresh loads
 * improves; Newton with the aerodynamics fresh at every point after two outer iterations
 * without progress. When that ends above AWE_TRIM_FLY_BELOW, the system flies free from the
 * start for AWE_TRIM_FLY_TIME and the same solve continues from where it got. The best state
 * seen is returned, the start included. */
static awe_status free_trim(awe_sim *s, awe_steady_io *io, awe_trim_result *r, awe_err *err) {
  int nx = s->w->nx;
  double best = INFINITY;
  double *yb = malloc(sizeof(double) * ((size_t)nx + 1) * 2), *ys = yb + nx + 1;
  if (!yb) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  memcpy(ys, s->y, sizeof(double) * (size_t)nx);
  /* the start is a candidate too: a polish that wanders off (a particle wing folding) must not
   * return a worse state than it was given */
  if (fresh_residual(s, r) == 0) keep_best(s, r, &best, yb);
  solve_from(s, io, r, &best, yb);
  for (int f = 0; f < AWE_TRIM_FLIGHTS && !s->guard.why && best > AWE_TRIM_FLY_BELOW &&
                  s->w->aero; f++) {
    memcpy(s->y, ys, sizeof(double) * (size_t)nx);
    awe_err e2 = {0};
    io->free = io->fly = 1;
    awe_status st = awe_steady_march(io, AWE_TRIM_FLY_TIME, &e2);
    io->free = io->fly = 0;
    memcpy(ys, s->y, sizeof(double) * (size_t)nx); /* the next flight goes on from here */
    if (st != AWE_OK) break;
    if (!s->guard.why) {
      double b2 = INFINITY;
      double *y2 = malloc(sizeof(double) * ((size_t)nx + 1));
      if (y2 && fresh_residual(s, r) == 0) keep_best(s, r, &b2, y2);
      if (y2) solve_from(s, io, r, &b2, y2);
      if (y2 && b2 < best) {
        best = b2;
        memcpy(yb, y2, sizeof(double) * (size_t)nx);
      }
      free(y2);
    }
  }
  if (s->guard.why) {
    free(yb);
    return awe_guard_error(&s->guard, err);
  }
  memcpy(s->y, yb, sizeof(double) * (size_t)nx);
  if (fresh_residual(s, r)) {
    free(yb);
    return awe_err_set(err, AWE_ENOCONV, "trim: the state cannot be evaluated");
  }
  free(yb);
  return AWE_OK;
}


/* the VSM's circulation tolerance at the trim: its loads must not carry the rtol of a
 * simulation's solve (1e-5 by default; the V3 stalled at a relative residual of 2e-11, its
 * azimuth, a nearly neutral direction, uncertain by 1e-6 rad); saved into sv[nwing] (on != 0)
 * or restored from it (on == 0) */
static void tight_vsm(const awe_model *m, const awe_work *w, awe_vsm_settings *sv, int on) {
  for (int j = 0; j < m->nwing; j++) {
    struct awe_vsm_wing *v = awe_aero_vsm(w, j);
    if (!v) continue;
    if (!on) {
      awe_vsm_wing_set_settings(v, &sv[j]);
      continue;
    }
    sv[j] = *awe_vsm_wing_settings(v);
    awe_vsm_settings t = sv[j];
    if (t.rtol > AWE_TRIM_VSM_RTOL) t.rtol = AWE_TRIM_VSM_RTOL;
    awe_vsm_wing_set_settings(v, &t);
  }
}


int awe_trim_aero_refresh(awe_sim *s) {
  awe_vsm_settings *sv = malloc(sizeof(awe_vsm_settings) * ((size_t)s->m->nwing + 1));
  if (!sv) return awe_sim_aero_refresh(s);
  tight_vsm(s->m, s->w, sv, 1);
  int rc = awe_sim_aero_refresh(s);
  tight_vsm(s->m, s->w, sv, 0);
  free(sv);
  return rc;
}


/* held outputs minus their values at s->y */
static int hold_error(awe_sim *s, const awe_trim_spec *ts, double *g) {
  double *yo = malloc(sizeof(double) * ((size_t)s->w->ny + 1));
  if (!yo) return -1;
  awe_ctx c = s->ctx;
  c.flags = AWE_CTX_BRAKE_ALL;
  int st = awe_outputs_eval(&c, 0.0, s->y, s->dydt, yo);
  for (int i = 0; i < ts->nhold && st == GSL_SUCCESS; i++) {
    double d = yo[ts->hold_y[i]] - ts->hold_val[i];
    if (ts->hold_angle && ts->hold_angle[i]) d = remainder(d, 2.0 * M_PI);
    g[i] = d;
  }
  free(yo);
  return st == GSL_SUCCESS ? 0 : -1;
}


static double maxabs(const double *v, int n) {
  double r = 0.0;
  for (int i = 0; i < n; i++)
    if (fabs(v[i]) > r) r = fabs(v[i]);
  return r;
}


/* Newton on the held outputs over the trim variables (trim.h) */
static awe_status hold_solve(awe_sim *s, awe_steady_io *io, const awe_trim_spec *ts, double *u0,
                             awe_trim_result *r, awe_err *err) {
  const awe_model *m = s->m;
  int n = ts->ntrim, nx = s->w->nx;
  double *g = calloc((size_t)n * (4 + (size_t)n) + 1, sizeof(double));
  double *g1 = g + n, *dp = g1 + n, *p0 = dp + n, *J = p0 + n;
  double *y0 = malloc(sizeof(double) * ((size_t)nx + 1));
  awe_status rc = AWE_OK;
  if (!g || !y0) {
    rc = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto out;
  }
  if (hold_error(s, ts, g)) goto bad;
  double gn = maxabs(g, n);
  for (r->outer = 0; r->outer < 30 && gn > 1e-9; r->outer++) {
    memcpy(y0, s->y, sizeof(double) * (size_t)nx);
    for (int j = 0; j < n; j++) p0[j] = u0[ts->trim_u[j]];
    /* finite-difference columns, each a warm-started trim */
    for (int j = 0; j < n; j++) {
      const awe_var *v = NULL;
      for (int q = 0; q < m->reg.input.n; q++) {
        const awe_var *c = &m->reg.input.v[q];
        if (ts->trim_u[j] >= c->offset && ts->trim_u[j] < c->offset + c->dim) v = c;
      }
      double h = v && v->perturb > 0.0 ? v->perturb : 1e-4 * (fabs(p0[j]) > 1.0 ? fabs(p0[j]) : 1.0);
      u0[ts->trim_u[j]] = p0[j] + h;
      if ((rc = free_trim(s, io, r, err))) goto out;
      if (hold_error(s, ts, g1)) goto bad;
      for (int i = 0; i < n; i++) J[i * n + j] = (g1[i] - g[i]) / h;
      u0[ts->trim_u[j]] = p0[j];
      memcpy(s->y, y0, sizeof(double) * (size_t)nx);
    }
    gsl_matrix_view A = gsl_matrix_view_array(J, (size_t)n, (size_t)n);
    gsl_vector_view b = gsl_vector_view_array(g, (size_t)n), x = gsl_vector_view_array(dp, (size_t)n);
    gsl_permutation *perm = gsl_permutation_alloc((size_t)n);
    int sg, bad_lu = !perm || gsl_linalg_LU_decomp(&A.matrix, perm, &sg) ||
                     gsl_linalg_LU_solve(&A.matrix, perm, &b.vector, &x.vector);
    if (perm) gsl_permutation_free(perm);
    if (bad_lu) break; /* the holds do not depend on the trim variables: reported below */
    /* step halving on max |g| */
    double lam = 1.0, gnew = INFINITY;
    for (int k = 0; k < 8; k++, lam *= 0.5) {
      for (int j = 0; j < n; j++) u0[ts->trim_u[j]] = p0[j] - lam * dp[j];
      memcpy(s->y, y0, sizeof(double) * (size_t)nx);
      if ((rc = free_trim(s, io, r, err))) goto out;
      if (hold_error(s, ts, g1)) continue;
      gnew = maxabs(g1, n);
      if (gnew < gn) break;
    }
    if (!(gnew < gn)) {
      for (int j = 0; j < n; j++) u0[ts->trim_u[j]] = p0[j];
      memcpy(s->y, y0, sizeof(double) * (size_t)nx);
      if ((rc = free_trim(s, io, r, err))) goto out;
      hold_error(s, ts, g);
      break;
    }
    memcpy(g, g1, sizeof(double) * (size_t)n);
    gn = gnew;
  }
  r->hold = gn;
  if (gn > 1e-6) {
    int i = 0;
    for (int k = 1; k < n; k++)
      if (fabs(g[k]) > fabs(g[i])) i = k;
    rc = awe_err_set(err, AWE_ENOCONV, "trim: the held outputs cannot be reached: the nearest "
                     "trim misses hold %d by %.6g (in the output's unit)", i + 1, g[i]);
  }
  goto out;
bad:
  rc = awe_err_set(err, AWE_ENOCONV, "trim: the held outputs cannot be evaluated");
out:
  free(g);
  free(y0);
  return rc;
}


awe_status awe_trim_solve(awe_sim *s, const awe_trim_spec *ts, awe_trim_result *r,
                          awe_err *err) {
  const awe_model *m = s->m;
  awe_work *w = s->w;
  memset(r, 0, sizeof(*r));
  if (ts && ts->nhold != ts->ntrim)
    return awe_err_set(err, AWE_EUSAGE, "trim: %d held output%s but %d trim variable%s: each "
                       "held output needs one trim input (and each trim input one held output)",
                       ts->nhold, ts->nhold == 1 ? "" : "s", ts->ntrim, ts->ntrim == 1 ? "" : "s");
  /* continuation: first the settled state on the sphere */
  if (isnan(s->steady_residual)) AWE_TRY(awe_sim_steady_state(s, m->opt.steady_state_time, err));
  const char *phase = s->guard.phase;
  s->guard.phase = "trim";

  double *u0 = malloc(sizeof(double) * ((size_t)w->nu + 1));
  awe_vsm_settings *sv = malloc(sizeof(awe_vsm_settings) * ((size_t)m->nwing + 1));
  if (!u0 || !sv) {
    free(u0);
    free(sv);
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  tight_vsm(m, w, sv, 1);
  memcpy(u0, s->u, sizeof(double) * (size_t)w->nu);
  awe_signals_apply(m->signals, m->nsignal, 0.0, u0);
  awe_trim_fold_controllers(&s->ctx, u0);
  awe_ctx saved = s->ctx;
  s->ctx.nadd = 0;
  s->ctx.u = u0;
  s->ctx.sig = NULL;
  s->ctx.nsig = 0;
  s->ctx.t_lo = -INFINITY;
  s->ctx.t_hi = INFINITY;
  s->ctx.flags = AWE_CTX_BRAKE_ALL; /* no sphere hold: the wings are free */
  awe_steady_io io = {m, w, s->it, &s->ctx, &s->guard, s->y, u0, s->dydt, NAN, NAN, 0, 0};

  awe_status rc = free_trim(s, &io, r, err);
  if (rc == AWE_OK && ts && ts->ntrim > 0) {
    rc = hold_solve(s, &io, ts, u0, r, err);
    if (rc == AWE_OK) rc = free_trim(s, &io, r, err); /* polish at the final trim inputs */
  }
  s->ctx = saved;
  /* the base inputs of the trim variables: without the controllers' outputs folded in */
  if (rc == AWE_OK && ts)
    for (int j = 0; j < ts->ntrim; j++) {
      int k = ts->trim_u[j];
      double add = 0.0;
      for (int q = 0; q < s->ctx.nadd; q++)
        if (s->ctx.add_idx[q] == k) add += awe_ctx_add(&s->ctx, q, 0.0);
      s->u[k] = u0[k] - add;
    }
  s->ctx.u = s->u;
  tight_vsm(m, w, sv, 0);
  free(sv);
  free(u0);
  awe_integrator_reset(s->it);
  if (rc == AWE_OK) s->guard.phase = phase;
  return rc;
}
