/* sim.c: the simulation life cycle (sim.h). */
#include "solve/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aero/vsm.h"
#include "control/controller.h"
#include "engine/aero_coupling.h"
#include "engine/outputs.h"
#include "engine/unsteady.h"
#include "engine/winch.h"
#include "engine/wind.h"
#include "engine/work_alloc.h"
#include "model/input_signal.h"
#include "solve/steady.h"


long awe_sim_log_steps(const awe_model *m) {
  double n = m->opt.duration / m->opt.dt;
  long k = (long)ceil(n - 1e-9);
  return k > 0 ? k : 0;
}


double awe_sim_log_time(const awe_model *m, long k) {
  double t = (double)k * m->opt.dt;
  return t > m->opt.duration || k >= awe_sim_log_steps(m) ? m->opt.duration : t;
}


/* the crash check after an accepted step (sim.h awe_crash): 1 to stop there */
static int crash_check(void *ctx, double t, const double *y) {
  awe_sim *s = ctx;
  const awe_model *m = s->m;
  awe_work *w = s->w;
  if (!m->ground.on || m->nwing == 0 || s->crash.happened) return 0;
  if (strcmp(s->guard.phase, "simulation")) return 0;
  double floor_z = m->ground.height + m->opt.crash_clearance;
  /* cheap bound first: the points with a state, a rigid wing's centre of mass minus its reach */
  int near = 0;
  for (int i = 0; i < m->npoint && !near; i++) {
    int j = m->point_wing[i];
    if (j >= 0 && w->point_x[i] >= 0 && y[w->point_x[i] + 2] < floor_z) near = 1;
  }
  for (int j = 0; j < m->nwing && !near; j++) {
    int o = w->wing_x[j];
    if (o >= 0 && y[o + 2] - s->wing_reach[j] < floor_z) near = 1;
    for (int e = 0; e < m->wing_origin_num[j] && !near; e++) {
      int p = m->wing_origin_pts[m->wing_origin_adr[j] + e];
      if (w->point_x[p] >= 0 && y[w->point_x[p] + 2] < floor_z) near = 1;
    }
  }
  if (!near) return 0;
  /* exact: the kinematics at (t, y) from one right-hand side */
  awe_ctx c = s->ctx;
  if (awe_rhs(t, y, s->dydt, &c) != GSL_SUCCESS) return 0;
  double zmin = floor_z;
  int wing = -1, point = -1;
  for (int i = 0; i < m->npoint; i++) {
    if (m->point_wing[i] < 0 || m->point_type[i] != AWE_PT_WING) continue;
    if (w->pos[3 * i + 2] < zmin) {
      zmin = w->pos[3 * i + 2];
      wing = m->point_wing[i];
      point = i;
    }
  }
  for (int j = 0; j < m->nwing; j++)
    if (w->wing_pos[3 * j + 2] < zmin) {
      zmin = w->wing_pos[3 * j + 2];
      wing = j;
      point = -1;
    }
  if (wing < 0) return 0;
  const double *v = point >= 0 ? w->vel + 3 * point : w->wing_vel + 3 * wing;
  const double *vw = w->wing_vel + 3 * wing;
  s->crash = (awe_crash){1, wing, point, t, zmin, vw[2], awe_v3_norm(vw), v[2], awe_v3_norm(v)};
  return !m->opt.on_crash_continue;
}


/* a bound of a rigid wing's distance of one of its points or origin points from its centre of
 * mass (its state, work.h): twice that at the placement plus 1 m, as twist groups move points
 * and the mass centre is the model's, not this estimate's (a loose bound only costs one
 * right-hand side per step while the wing is that near the ground) */
static double wing_reach(const awe_model *m, int j) {
  double c[3] = {0.0, 0.0, 0.0}, sm = 0.0, r = 0.0;
  for (int i = 0; i < m->npoint; i++) {
    if (m->point_wing[i] != j || m->point_type[i] != AWE_PT_WING) continue;
    for (int k = 0; k < 3; k++) c[k] += m->point_mass0[i] * m->point_pos0[3 * i + k];
    sm += m->point_mass0[i];
  }
  if (!(sm > 0.0)) return INFINITY; /* no mass: always check exactly */
  for (int k = 0; k < 3; k++) c[k] /= sm;
  for (int i = 0; i < m->npoint; i++)
    if (m->point_wing[i] == j) r = fmax(r, awe_v3_dist(m->point_pos0 + 3 * i, c));
  for (int e = 0; e < m->wing_origin_num[j]; e++) {
    int p = m->wing_origin_pts[m->wing_origin_adr[j] + e];
    r = fmax(r, awe_v3_dist(m->point_pos0 + 3 * p, c));
  }
  return 2.0 * r + 1.0;
}


awe_sim *awe_sim_alloc(const awe_model *m, const char *solver, awe_err *err) {
  awe_sim *s = calloc(1, sizeof(*s));
  if (!s) {
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  s->m = m;
  s->steady_residual = s->steady_acc = NAN;
  s->w = awe_work_alloc(m, err);
  if (!s->w) goto fail;
  int nx = s->w->nx, nu = s->w->nu, ny = s->w->ny;
  s->y = calloc((size_t)nx + 1, sizeof(double));
  s->dydt = calloc((size_t)nx + 1, sizeof(double));
  s->u = calloc((size_t)nu + 1, sizeof(double));
  s->yout = calloc((size_t)ny + 1, sizeof(double));
  s->wing_reach = calloc((size_t)m->nwing + 1, sizeof(double));
  if (!s->y || !s->dydt || !s->u || !s->yout || !s->wing_reach) {
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto fail;
  }
  s->ctx = awe_ctx_make(m, s->w, s->u);
  s->ctx.sig = m->signals;
  s->ctx.nsig = m->nsignal;
  /* m->opt is complete (the model builder resolved every default, io/spec.h) */
  if (!solver || !*solver) solver = m->opt.solver;
  double hmax = m->opt.max_step > 0.0 ? m->opt.max_step : m->opt.dt;
  double h0 = hmax < 1e-3 ? hmax : 1e-3;
  s->it = awe_integrator_alloc(&s->ctx, solver, h0, m->opt.abs_tol, m->opt.rel_tol, hmax, err);
  if (!s->it) goto fail;
  awe_guard_init(&s->guard, &m->opt);
  awe_integrator_set_guard(s->it, &s->guard);
  for (int j = 0; j < m->nwing; j++) s->wing_reach[j] = wing_reach(m, j);
  awe_integrator_set_post(s->it, crash_check, s);
  if (m->nctrl > 0) {
    s->ctrl = awe_ctrl_run_alloc(m, err);
    if (!s->ctrl) goto fail;
    s->ctx.nadd = awe_ctrl_nadd(s->ctrl);
    s->ctx.add_idx = awe_ctrl_add_idx(s->ctrl);
    s->ctx.add_val = awe_ctrl_add_val(s->ctrl);
    awe_ctrl_add_ramps(s->ctrl, &s->ctx.add_from, &s->ctx.add_t0, &s->ctx.add_T);
    /* a wait for an external controller ends at the run's wall-time limit too */
    if (s->guard.max_wall > 0.0)
      awe_ctrl_run_set_deadline(s->ctrl, s->guard.wall0 + s->guard.max_wall, s->guard.max_wall);
  }
  return s;
fail:
  awe_sim_free(s);
  return NULL;
}


void awe_sim_free(awe_sim *s) {
  if (!s) return;
  awe_ctrl_run_free(s->ctrl);
  awe_integrator_free(s->it);
  awe_work_free(s->w);
  free(s->y);
  free(s->dydt);
  free(s->u);
  free(s->yout);
  free(s->wing_reach);
  free(s);
}


void awe_sim_set_stop(awe_sim *s, const awe_stop_flag *stop) {
  s->guard.stop = stop;
  for (int j = 0; j < s->m->nwing; j++) awe_vsm_wing_set_stop(awe_aero_vsm(s->w, j), stop);
  awe_ctrl_run_set_stop(s->ctrl, stop);
}


/* message for a failed integration */
static awe_status fail_msg(awe_sim *s, int st, awe_err *err) {
  char name[256];
  awe_work *w = s->w;
  char wb[600];
  if (awe_wind_box_report(s->m, w, w->bad_x >= 0 ? w->bad_t : s->t, wb, sizeof(wb)))
    return awe_err_set(err, AWE_EINVAL, "%s", wb); /* the box does not cover the flight */
  if (s->guard.why) return awe_guard_error(&s->guard, err);
  int k = awe_first_nonfinite(s->y, w->nx);
  if (k >= 0) {
    awe_state_name(s->m, k, name, sizeof(name));
    return awe_err_set(err, AWE_EINTEG, "t = %.9g s: non-finite state %s", s->t, name);
  }
  if (w->bad_x >= 0) {
    awe_state_name(s->m, w->bad_x, name, sizeof(name));
    return awe_err_set(err, AWE_EINTEG,
                       "t = %.9g s: non-finite %s%s at t = %.9g s (stepper %s)", s->t,
                       w->bad_dydt ? "derivative of " : "state ", name, w->bad_t,
                       awe_integrator_name(s->it));
  }
  if (st == AWE_RHS_RETRY && w->warn[AWE_WARN_QS_NOCONV].count + w->warn[AWE_WARN_QS_SINGULAR].count)
    return awe_err_set(err, AWE_EINTEG, "t = %.9g s: quasi-static force balance did not converge",
                       s->t);
  char what[400] = "";
  k = awe_integrator_limiting_state(s->it, s->y);
  if (k >= 0) {
    awe_state_name(s->m, k, name, sizeof(name));
    snprintf(what, sizeof(what), "; largest local error in %s = %.6g", name, s->y[k]);
  }
  return awe_err_set(err, AWE_EINTEG, "t = %.9g s: stepper %s failed in %s: GSL reported "
                     "'%s' (status %d)%s", s->t, awe_integrator_name(s->it),
                     awe_guard_phase_text(s->guard.phase), gsl_strerror(st), st, what);
}


/* pre-calculate at the start of an interval: inputs at t (right limit), discrete updates */
static void precalc(awe_sim *s) {
  const awe_model *m = s->m;
  awe_work *w = s->w;
  memcpy(w->u, s->u, sizeof(double) * (size_t)w->nu);
  awe_signals_apply(m->signals, m->nsignal, s->t, w->u);
  for (int j = 0; j < s->ctx.nadd; j++) w->u[s->ctx.add_idx[j]] += awe_ctx_add(&s->ctx, j, s->t);
  for (int i = 0; i < m->nwinch; i++) {
    /* a brake that holds stops the drum */
    if (w->winch_x[i] >= 0 && awe_winch_braked(w, i) && s->y[w->winch_x[i]] != 0.0) {
      s->y[w->winch_x[i]] = 0.0;
      s->reset_pending = 1;
    }
  }
}


/* the controllers' sample at s->t when one is due: s->yout holds the outputs at s->t; when a
 * held output changes, the outputs are re-evaluated with it and the stepper restarts */
static awe_status ctrl_at(awe_sim *s, awe_err *err) {
  double eps = 1e-12 * (fabs(s->t) > 1.0 ? fabs(s->t) : 1.0);
  if (!s->ctrl || awe_ctrl_next_time(s->ctrl) > s->t + eps) return AWE_OK;
  int changed = 0;
  AWE_TRY(awe_ctrl_sample(s->ctrl, s->t, eps, s->yout, &changed, err));
  if (!changed) return AWE_OK;
  s->reset_pending = 1;
  int rs = awe_outputs_eval(&s->ctx, s->t, s->y, s->dydt, s->yout);
  return rs == GSL_SUCCESS ? AWE_OK : fail_msg(s, rs, err);
}


awe_status awe_sim_finish(awe_sim *s, awe_err *err) {
  return awe_ctrl_run_finish(s->ctrl, s->t, err);
}


int awe_sim_aero_refresh(awe_sim *s) {
  if (!s->w->aero) return 0;
  awe_ctx c = s->ctx;
  c.t_lo = s->t;
  c.t_hi = INFINITY;
  return awe_rhs_aero_refresh(&c, s->t, s->y);
}


awe_status awe_sim_steady_state(awe_sim *s, double t_settle, awe_err *err) {
  awe_steady_io io = {s->m, s->w, s->it, &s->ctx, &s->guard, s->y, s->u, s->dydt, NAN, NAN, 0, 0};
  awe_status st = awe_steady_march(&io, t_settle, err);
  s->steady_residual = io.residual;
  s->steady_acc = io.acc;
  return st;
}


/* a Wagner lag starts in steady flow (d = 0, engine/unsteady.h), and the aerodynamic models
 * of a refresh before it are solved again at d = 0 */
static void wagner_settle(awe_sim *s) {
  const awe_model *m = s->m;
  int any = 0;
  for (int j = 0; j < m->nwing; j++) any |= s->w->wing_wag_x[j] >= 0;
  if (!any) return;
  awe_ctx c = s->ctx;
  c.t_lo = s->t;
  c.t_hi = INFINITY;
  if (awe_rhs(s->t, s->y, s->w->refresh_dydt, &c) != GSL_SUCCESS) return;
  awe_wagner_settle(m, s->w, s->y);
  awe_sim_aero_refresh(s);
}


awe_status awe_sim_start(awe_sim *s, awe_err *err) {
  const awe_model *m = s->m;
  s->guard.phase = "start";
  if (s->guard.why != AWE_GUARD_SIGNAL) s->guard.why = AWE_GUARD_OK; /* a fresh run */
  s->t = 0.0;
  s->nstep = 0;
  memset(&s->crash, 0, sizeof(s->crash));
  awe_state_init(m, s->w, s->y);
  awe_input_default(m, s->w, s->u);
  precalc(s);
  awe_sim_aero_refresh(s);
  wagner_settle(s);
  if (awe_guard_poll(&s->guard, s->t, 1)) return awe_guard_error(&s->guard, err);
  if (m->opt.steady_state) {
    awe_status st = awe_sim_steady_state(s, m->opt.steady_state_time, err);
    if (st != AWE_OK) return st;
    s->guard.phase = "start";
    awe_aero_reset_stats(s->w);
    wagner_settle(s);
    awe_sim_aero_refresh(s);
    if (awe_guard_poll(&s->guard, s->t, 1)) return awe_guard_error(&s->guard, err);
  }
  s->vsm_k = 1; /* refreshed at t = 0 above */
  awe_integrator_reset(s->it);
  s->reset_pending = 0;
  s->ctx.t_lo = 0.0;
  s->ctx.t_hi = INFINITY;
  int rs = awe_outputs_log(&s->ctx, s->t, s->y, s->dydt, s->yout, 1);
  if (rs != GSL_SUCCESS) return fail_msg(s, rs, err);
  AWE_TRY(awe_ctrl_run_start(s->ctrl, err));
  AWE_TRY(ctrl_at(s, err));
  s->reset_pending = 0;
  return AWE_OK;
}


awe_status awe_sim_step(awe_sim *s, double t_next, awe_err *err) {
  const awe_model *m = s->m;
  s->guard.phase = "simulation";
  if (awe_guard_poll(&s->guard, s->t, 1)) return awe_guard_error(&s->guard, err);
  /* pre-calculate: aerodynamic refresh every vsm_interval log intervals (run.vsm_dt: below) */
  if (m->opt.vsm_dt <= 0.0 && m->opt.vsm_interval > 0 && s->nstep > 0 &&
      s->nstep % m->opt.vsm_interval == 0) {
    precalc(s);
    awe_sim_aero_refresh(s);
  }
  s->nstep++;
  while (s->t < t_next) {
    /* pre-calculate */
    precalc(s);
    double eps = 1e-12 * (fabs(s->t) > 1.0 ? fabs(s->t) : 1.0);
    double lo = s->t, t_stop = t_next, bp;
    int at_bp = 0;
    /* a breakpoint within rounding of t counts as passed (the jump happens now) */
    while (awe_signals_next_breakpoint(m->signals, m->nsignal, lo, &bp) && bp - s->t <= eps) {
      lo = bp;
      s->reset_pending = 1;
    }
    double hi = INFINITY;
    if (awe_signals_next_breakpoint(m->signals, m->nsignal, lo, &bp) && bp <= t_next + eps) {
      hi = bp;
      at_bp = 1;
      if (t_next - bp > eps) t_stop = bp;
    }
    if (s->ctrl) {
      /* controllers: a sample due now (inside the log interval), and a stop at the next */
      if (awe_ctrl_next_time(s->ctrl) <= s->t + eps) {
        s->ctx.t_lo = lo;
        s->ctx.t_hi = INFINITY;
        int rs = awe_outputs_eval(&s->ctx, s->t, s->y, s->dydt, s->yout);
        if (rs != GSL_SUCCESS) return fail_msg(s, rs, err);
        AWE_TRY(ctrl_at(s, err));
        precalc(s);
      }
      double ts = awe_ctrl_next_time(s->ctrl);
      if (ts < t_stop && t_stop - ts > eps) t_stop = ts;
    }
    if (m->opt.vsm_dt > 0.0 && s->w->aero) {
      /* run.vsm_dt: refreshes at k vsm_dt, independent of the log interval; the integrator
       * stops there (as at a sample instant) but is not reset */
      double tr = (double)s->vsm_k * m->opt.vsm_dt;
      if (tr <= s->t + eps) {
        awe_sim_aero_refresh(s);
        s->vsm_k = (long)floor((s->t + eps) / m->opt.vsm_dt) + 1;
        tr = (double)s->vsm_k * m->opt.vsm_dt;
      }
      if (tr < t_stop && t_stop - tr > eps) t_stop = tr;
    }
    if (s->reset_pending) {
      awe_integrator_reset(s->it);
      s->reset_pending = 0;
    }
    /* integrate */
    s->ctx.t_lo = lo;
    s->ctx.t_hi = hi;
    s->w->bad_x = -1;
    int st = awe_integrator_apply(s->it, &s->t, t_stop, s->y);
    if (st == AWE_INTEG_STOP) { /* a crash (crash_check): the outputs there, then stop */
      s->reset_pending = 1;
      break;
    }
    if (st != GSL_SUCCESS) return fail_msg(s, st, err);
    if (awe_first_nonfinite(s->y, s->w->nx) >= 0) return fail_msg(s, st, err);
    if (at_bp) s->reset_pending = 1;
  }
  /* post-calculate at t_next with the inputs that hold from t_next on */
  s->ctx.t_lo = s->t;
  s->ctx.t_hi = INFINITY;
  memcpy(s->w->u, s->u, sizeof(double) * (size_t)s->w->nu);
  int rs = awe_outputs_log(&s->ctx, s->t, s->y, s->dydt, s->yout, 0);
  if (rs != GSL_SUCCESS) return fail_msg(s, rs, err);
  if (s->t < t_next) return AWE_OK; /* stopped by a crash */
  return ctrl_at(s, err);
}
