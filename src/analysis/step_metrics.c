/* step_metrics.c: step-response metrics, the nonlinear and linear step simulations, and the
 * equivalent spring of a tether (calc_spring_props).
 *
 * Equations and sources: see step_metrics.h (physics.md §11-12).
 */
#include "analysis/step_metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>

#include "engine/outputs.h"
#include "util/offload.h"


/* first time sign (y - y0) reaches frac |dy| (interpolated), NAN if never */
static double crossing(const double *t, const double *y, long stride, long n, double y0,
                       double dy, double frac) {
  double sg = dy > 0.0 ? 1.0 : -1.0, target = frac * fabs(dy);
  double prev = 0.0;
  for (long k = 0; k < n; k++) {
    double d = sg * (y[k * stride] - y0);
    if (d >= target) {
      if (k == 0 || d == prev) return t[k];
      return t[k - 1] + (target - prev) / (d - prev) * (t[k] - t[k - 1]);
    }
    prev = d;
  }
  return NAN;
}


void awe_step_metrics_eval(const double *t, const double *y, long stride, long n,
                           double amplitude, double band_pct, awe_step_metrics *out) {
  out->initial = out->final = out->delta = out->gain = NAN;
  out->rise_time = out->peak = out->peak_time = out->overshoot = out->settling_time = NAN;
  if (n < 1) return;
  double y0 = y[0], yf = y[(n - 1) * stride], dy = yf - y0;
  out->initial = y0;
  out->final = yf;
  out->delta = dy;
  out->gain = amplitude != 0.0 ? dy / amplitude : NAN;
  int moved = fabs(dy) > 1e-12 * (fabs(y0) > 1.0 ? fabs(y0) : 1.0);
  double sg = dy >= 0.0 ? 1.0 : -1.0;

  /* peak */
  long kp = 0;
  double best = -INFINITY;
  for (long k = 0; k < n; k++) {
    double d = y[k * stride] - y0;
    double v = moved ? sg * d : fabs(d);
    if (v > best) {
      best = v;
      kp = k;
    }
  }
  out->peak = y[kp * stride];
  out->peak_time = t[kp];
  if (kp > 0 && kp < n - 1) {
    /* parabola through the three samples around the peak */
    double t0 = t[kp - 1], t1 = t[kp], t2 = t[kp + 1];
    double a0 = y[(kp - 1) * stride], a1 = y[kp * stride], a2 = y[(kp + 1) * stride];
    double d01 = (a1 - a0) / (t1 - t0), d12 = (a2 - a1) / (t2 - t1);
    double c2 = (d12 - d01) / (t2 - t0);
    if (c2 != 0.0) {
      double c1 = d01 - c2 * (t0 + t1);
      double tv = -c1 / (2.0 * c2);
      if (tv >= t0 && tv <= t2) {
        out->peak_time = tv;
        out->peak = a0 + (tv - t0) * (d01 + c2 * (tv - t1));
      }
    }
  }
  if (!moved) return;

  out->overshoot = (out->peak - yf) / dy * 100.0;
  if (out->overshoot < 0.0) out->overshoot = 0.0;
  double t10 = crossing(t, y, stride, n, y0, dy, 0.1), t90 = crossing(t, y, stride, n, y0, dy, 0.9);
  out->rise_time = t90 - t10;

  /* settling: last sample outside the band, interpolated to the band edge */
  double b = band_pct / 100.0 * fabs(dy);
  long last = -1;
  for (long k = n - 1; k >= 0; k--)
    if (fabs(y[k * stride] - yf) > b) {
      last = k;
      break;
    }
  if (last < 0) {
    out->settling_time = t[0];
  } else if (last >= n - 1) {
    out->settling_time = NAN;
  } else {
    double d0 = y[last * stride] - yf, d1 = y[(last + 1) * stride] - yf;
    double target = d0 > 0.0 ? b : -b;
    double f = d0 != d1 ? (d0 - target) / (d0 - d1) : 1.0;
    if (f < 0.0) f = 0.0;
    if (f > 1.0) f = 1.0;
    out->settling_time = t[last] + f * (t[last + 1] - t[last]);
  }
}


static awe_status integ_fail(awe_sim *s, double t, int st, awe_err *err) {
  char name[256];
  if (s->guard.why) return awe_guard_error(&s->guard, err); /* a signal or a limit */
  int k = awe_first_nonfinite(s->y, s->w->nx);
  if (k < 0) k = s->w->bad_x;
  if (k >= 0) {
    awe_state_name(s->m, k, name, sizeof(name));
    return awe_err_set(err, AWE_EINTEG, "step response: t = %.9g s: non-finite %s", t, name);
  }
  return awe_err_set(err, AWE_EINTEG, "step response: t = %.9g s: integration failed: %s", t,
                     gsl_strerror(st));
}


awe_status awe_step_simulate(awe_sim *s, const double *x0, const double *u0, const double *u1,
                             unsigned ctx_flags, double dt, long nsteps, const int *ysel,
                             int ny, double *Y, awe_step_row_fn row, void *rp, awe_err *err) {
  awe_work *w = s->w;
  awe_ctx saved = s->ctx;
  awe_status rs = AWE_OK;
  const char *phase = s->guard.phase;
  s->guard.phase = "step-response";
  memcpy(s->y, x0, sizeof(double) * (size_t)w->nx);
  s->ctx.u = u0;
  s->ctx.sig = NULL;
  s->ctx.nsig = 0;
  s->ctx.t_lo = -INFINITY;
  s->ctx.t_hi = INFINITY;
  s->ctx.flags = ctx_flags;
  double t = 0.0;
  int st = awe_outputs_eval(&s->ctx, t, s->y, s->dydt, s->yout);
  if (st != GSL_SUCCESS) {
    rs = integ_fail(s, t, st, err);
    goto done;
  }
  s->ctx.u = u1;
  awe_integrator_reset(s->it);
  for (long k = 0;; k++) {
    for (int j = 0; j < ny; j++) Y[k * ny + j] = s->yout[ysel[j]];
    if (row && (rs = row(rp, t, s->yout, err)) != AWE_OK) goto done;
    if (k == nsteps) break;
    double t1 = (double)(k + 1) * dt;
    w->bad_x = -1;
    st = awe_integrator_apply(s->it, &t, t1, s->y);
    if (st != GSL_SUCCESS || awe_first_nonfinite(s->y, w->nx) >= 0) {
      rs = integ_fail(s, t, st, err);
      goto done;
    }
    t = t1;
    st = awe_outputs_eval(&s->ctx, t, s->y, s->dydt, s->yout);
    if (st != GSL_SUCCESS) {
      rs = integ_fail(s, t, st, err);
      goto done;
    }
  }
done:
  s->ctx = saved;
  awe_integrator_reset(s->it);
  if (!rs) s->guard.phase = phase;
  return rs;
}


awe_status awe_step_linear(const awe_linsys *L, const double *du, double dt, long nsteps,
                           double *Y, awe_err *err) {
  int n = L->nx, nu = L->nu, ny = L->ny;
  size_t sn = (size_t)n + 1;
  gsl_matrix *M = gsl_matrix_calloc(sn, sn), *E = gsl_matrix_alloc(sn, sn);
  double *dx = calloc(sn, sizeof(double)), *tmp = calloc(sn, sizeof(double));
  double *ydu = calloc((size_t)ny + 1, sizeof(double));
  awe_status rs = AWE_OK;
  if (!M || !E || !dx || !tmp || !ydu) {
    rs = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto done;
  }
  for (int i = 0; i < n; i++) {
    double b = 0.0;
    for (int j = 0; j < nu; j++) b += L->B[(size_t)i * (size_t)nu + (size_t)j] * du[j];
    gsl_matrix_set(M, (size_t)i, (size_t)n, b * dt);
    for (int j = 0; j < n; j++)
      gsl_matrix_set(M, (size_t)i, (size_t)j, L->A[(size_t)i * (size_t)n + (size_t)j] * dt);
  }
  if (gsl_linalg_exponential_ss(M, E, GSL_PREC_DOUBLE) != GSL_SUCCESS) {
    rs = awe_err_set(err, AWE_EINTERNAL, "step response: matrix exponential failed");
    goto done;
  }
  for (int i = 0; i < ny; i++) {
    double d = 0.0;
    for (int j = 0; j < nu; j++) d += L->D[(size_t)i * (size_t)nu + (size_t)j] * du[j];
    ydu[i] = d;
  }
  for (long k = 0; k <= nsteps; k++) {
    if (k > 0) {
      for (int i = 0; i < n; i++) {
        double v = gsl_matrix_get(E, (size_t)i, (size_t)n);
        for (int j = 0; j < n; j++) v += gsl_matrix_get(E, (size_t)i, (size_t)j) * dx[j];
        tmp[i] = v;
      }
      memcpy(dx, tmp, sizeof(double) * (size_t)n);
    }
    for (int i = 0; i < ny; i++) {
      double v = L->y_op[i] + (k > 0 ? ydu[i] : 0.0);
      for (int j = 0; j < n; j++) v += L->C[(size_t)i * (size_t)n + (size_t)j] * dx[j];
      Y[k * ny + i] = v;
    }
  }
done:
  gsl_matrix_free(M);
  gsl_matrix_free(E);
  free(dx);
  free(tmp);
  free(ydu);
  return rs;
}


typedef struct {
  const awe_linsys *L;
  const double *du;
  double dt;
  long nsteps;
} linear_job;

/* in the child: the response Y [(nsteps + 1) ny] */
static awe_status linear_child(void *arg, void **out, size_t *nout, awe_err *err) {
  const linear_job *j = arg;
  size_t n = (size_t)(j->nsteps + 1) * (size_t)j->L->ny;
  double *Y = malloc(sizeof(double) * (n + 1));
  if (!Y) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  awe_status st = awe_step_linear(j->L, j->du, j->dt, j->nsteps, Y, err);
  if (st) {
    free(Y);
    return st;
  }
  *out = Y;
  *nout = sizeof(double) * n;
  return AWE_OK;
}


static int guard_tripped(void *g) { return awe_guard_poll(g, 0.0, 1) != AWE_GUARD_OK; }


awe_status awe_step_linear_guarded(const awe_linsys *L, const double *du, double dt,
                                   long nsteps, double *Y, awe_guard *g, awe_err *err) {
  if (!g) return awe_step_linear(L, du, dt, nsteps, Y, err);
  if (guard_tripped(g)) return awe_guard_error(g, err);
  linear_job j = {L, du, dt, nsteps};
  void *buf = NULL;
  size_t nb = 0;
  awe_status st = awe_offload(linear_child, &j, guard_tripped, g, &buf, &nb, err);
  if (st == AWE_EINTR && g->why) return awe_guard_error(g, err);
  if (st) return st;
  size_t want = sizeof(double) * (size_t)(nsteps + 1) * (size_t)L->ny;
  if (nb != want) {
    free(buf);
    return awe_err_set(err, AWE_EINTERNAL, "step response: the child process sent %zu of %zu "
                       "bytes", nb, want);
  }
  if (nb) memcpy(Y, buf, nb);
  free(buf);
  return AWE_OK;
}


void awe_step_compare(const double *a, const double *b, long n, int ny, int j, double *max,
                      double *rms, double *scale) {
  double mx = 0.0, s2 = 0.0, sc = 0.0;
  for (long k = 0; k < n; k++) {
    double e = fabs(a[k * ny + j] - b[k * ny + j]);
    double d = fabs(a[k * ny + j] - a[j]);
    if (e > mx) mx = e;
    if (d > sc) sc = d;
    s2 += e * e;
  }
  *max = mx;
  *rms = n > 0 ? sqrt(s2 / (double)n) : 0.0;
  *scale = sc;
}

/* ---- equivalent spring of a tether ---- */

static int pos_offset(const awe_model *m, int point) {
  const awe_varlist *l = &m->reg.output;
  for (int i = 0; i < l->n; i++)
    if (l->v[i].comp_index == point && !strcmp(l->v[i].group, "points") &&
        !strcmp(l->v[i].var, "pos"))
      return l->v[i].offset;
  return -1;
}


awe_status awe_spring_props_eval(awe_sim *s, const awe_op *op, int tether, double f_step,
                                 double dt, long nsteps, double band_pct, awe_spring_props *out,
                                 awe_err *err) {
  const awe_model *m = s->m;
  awe_work *w = s->w;
  memset(out, 0, sizeof(*out));
  out->tether = tether;
  out->f_step = f_step;
  if (tether < 0 || tether >= m->ntether)
    return awe_err_set(err, AWE_EINVAL, "spring props: no tether %d", tether);
  int a = m->tether_start[tether], b = m->tether_end[tether];
  int wi = m->tether_winch[tether], wp = wi >= 0 ? m->winch_point[wi] : -1;
  int fa = awe_point_has_state(m, a) && a != wp, fb = awe_point_has_state(m, b) && b != wp;
  if (!fa && !fb)
    return awe_err_set(err, AWE_EINVAL, "spring props: tether %s has no free (moving) end",
                       m->tether_name[tether]);
  int end = fb ? b : a, anchor = fb ? a : b;
  out->end = end;
  out->anchor = anchor;
  int fo = w->point_u_force[end], pe = pos_offset(m, end), pa = pos_offset(m, anchor);
  if (fo < 0 || pe < 0 || pa < 0)
    return awe_err_set(err, AWE_EINTERNAL, "spring props: point %s has no force input",
                       m->point_name[end]);

  /* holding force and direction at the operating point */
  size_t nu = (size_t)w->nu;
  double *u0 = malloc(sizeof(double) * (nu + 1)), *u1 = malloc(sizeof(double) * (nu + 1));
  long nt = nsteps + 1;
  double *Y = malloc(sizeof(double) * (size_t)nt * 6), *tt = malloc(sizeof(double) * (size_t)nt);
  double *len = malloc(sizeof(double) * (size_t)nt);
  awe_status rs = AWE_OK;
  if (!u0 || !u1 || !Y || !tt || !len) {
    rs = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto done;
  }
  memcpy(u0, op->u, sizeof(double) * nu);
  awe_ctx c = awe_ctx_make(m, w, u0);
  c.flags = AWE_CTX_BRAKE_ALL;
  if (awe_rhs(0.0, op->x, s->dydt, &c) != GSL_SUCCESS) {
    rs = awe_err_set(err, AWE_ENOCONV, "spring props: the operating point cannot be evaluated");
    goto done;
  }
  double dir[3], Fend[3];
  awe_v3_sub(dir, w->pos + 3 * end, w->pos + 3 * anchor);
  double L0 = awe_v3_norm(dir);
  if (!(L0 > 0.0)) {
    rs = awe_err_set(err, AWE_EINVAL, "spring props: tether %s has zero length",
                     m->tether_name[tether]);
    goto done;
  }
  memcpy(Fend, w->force + 3 * end, sizeof(Fend));
  double mt = 0.0, ks = 0.0, cs = 0.0;
  int ns = m->tether_seg_num[tether];
  for (int j = 0; j < ns; j++) {
    int sg = m->tether_segs[m->tether_seg_adr[tether] + j];
    mt += w->segment_lambda[sg] * w->seg_l0[sg];
    ks += m->segment_unit_k[sg];
    cs += m->segment_unit_c[sg];
  }
  out->model_unit_stiffness = ns ? ks / ns : NAN;
  out->model_unit_damping = ns ? cs / ns : NAN;
  out->mass = m->point_extra_mass[end] + 0.5 * mt;
  for (int k = 0; k < 3; k++) u0[fo + k] -= Fend[k];
  memcpy(u1, u0, sizeof(double) * nu);
  for (int k = 0; k < 3; k++) u1[fo + k] += f_step * dir[k] / L0;

  int ysel[6] = {pe, pe + 1, pe + 2, pa, pa + 1, pa + 2};
  rs = awe_step_simulate(s, op->x, u0, u1, AWE_CTX_BRAKE_ALL, dt, nsteps, ysel, 6, Y, NULL,
                         NULL, err);
  if (rs) goto done;
  for (long k = 0; k < nt; k++) {
    double d[3];
    awe_v3_sub(d, Y + k * 6, Y + k * 6 + 3);
    len[k] = awe_v3_norm(d);
    tt[k] = (double)k * dt;
  }
  awe_step_metrics met;
  awe_step_metrics_eval(tt, len, 1, nt, f_step, band_pct, &met);
  out->L0 = len[0];
  out->dL = met.delta;
  if (!(fabs(met.delta) > 1e-12 * L0)) {
    rs = awe_err_set(err, AWE_ENOCONV,
                     "spring props: tether %s does not stretch under %g N (change %.3g m)",
                     m->tether_name[tether], f_step, met.delta);
    goto done;
  }
  out->k = f_step / met.delta;
  out->unit_stiffness = out->k * out->L0;
  out->settling_time = met.settling_time;
  double wn = sqrt(out->k / out->mass);
  out->zeta = -log(band_pct / 100.0) / (wn * met.settling_time);
  out->c = 2.0 * out->zeta * sqrt(out->k * out->mass);
  if (!(met.settling_time > 0.0) || !(out->zeta < 1.0)) {
    double tau = crossing(tt, len, 1, nt, len[0], met.delta, 1.0 - exp(-1.0));
    out->fallback = 1;
    out->c = out->k * tau;
    out->zeta = out->c / (2.0 * sqrt(out->k * out->mass));
  }
  out->unit_damping = out->c * out->L0;
done:
  free(u0);
  free(u1);
  free(Y);
  free(tt);
  free(len);
  return rs;
}
