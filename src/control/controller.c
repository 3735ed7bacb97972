/* controller.c: running the controllers at their sample instants; the discrete PID.
 *
 * Equations: controller.h. The PID follows the usual discrete form with derivative on the
 * measurement and a first-order filter (Astrom & Hagglund, Advanced PID Control, ISA 2006,
 * ch. 3 and 13: backward-Euler discretisation, conditional integration against windup).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "control/controller_internal.h"
#include "model/input_signal.h"

struct awe_ctrl_run {
  const awe_model *m;
  awe_ctrl_state *st;
  int *add_base;          /* [nctrl] first add entry of each controller */
  int nadd;
  int *add_u;
  double *add_v;
  double *add_from, *add_t0, *add_T; /* ramps (hold: ramp), controller.h */
  awe_ext_limits lim;      /* the run's stop flag and wall-time deadline */
};


void awe_ctrl_run_set_stop(awe_ctrl_run *r, const awe_stop_flag *stop) {
  if (r) r->lim.stop = stop;
}


void awe_ctrl_run_set_deadline(awe_ctrl_run *r, double deadline, double max_wall) {
  if (!r) return;
  r->lim.deadline = deadline;
  r->lim.max_wall = max_wall;
}


double awe_wrap_pi(double x) {
  double y = remainder(x, 2.0 * M_PI); /* [-pi, pi] */
  return y <= -M_PI ? y + 2.0 * M_PI : y;
}


double awe_pid_step(const awe_controller_spec *p, double T, awe_pid_state *st, double r,
                    double y, double *e_out) {
  double e = r - y;
  if (p->wrap) e = awe_wrap_pi(e);
  double dy = st->started ? y - st->y_prev : 0.0;
  if (p->wrap) dy = awe_wrap_pi(dy);
  double Tf = isnan(p->d_filter) ? T : p->d_filter;
  double D = p->kd > 0.0 ? Tf / (Tf + T) * st->D - p->kd / (Tf + T) * dy : 0.0;
  double I = st->I + p->ki * T * e;
  double v = p->kp * e + I + D;
  double u = v;
  if (u < p->limits[0]) u = p->limits[0];
  if (u > p->limits[1]) u = p->limits[1];
  if (!isnan(p->rate_limit)) {
    double du = p->rate_limit * T;
    if (u > st->u_prev + du) u = st->u_prev + du;
    if (u < st->u_prev - du) u = st->u_prev - du;
  }
  /* conditional integration: the step of I would push v further from the applied u */
  if (u != v && p->ki * e * (v - u) > 0.0) {
    I = st->I;
    v = p->kp * e + I + D;
  }
  st->I = I;
  st->D = D;
  st->y_prev = y;
  st->u_prev = u;
  st->started = 1;
  if (e_out) *e_out = e;
  return u;
}


awe_ctrl_run *awe_ctrl_run_alloc(const awe_model *m, awe_err *err) {
  if (m->nctrl <= 0) return NULL;
  awe_ctrl_run *r = calloc(1, sizeof(*r));
  if (!r) goto oom;
  r->m = m;
  r->lim.deadline = INFINITY;
  r->st = calloc((size_t)m->nctrl, sizeof(awe_ctrl_state));
  r->add_base = calloc((size_t)m->nctrl, sizeof(int));
  if (!r->st || !r->add_base) goto oom;
  for (int i = 0; i < m->nctrl; i++) {
    r->add_base[i] = r->nadd;
    r->nadd += m->ctrl[i].cfg.noutput + (m->ctrl[i].winch_u >= 0);
    r->st[i].ext_out = calloc((size_t)m->ctrl[i].cfg.noutput + 1, sizeof(double));
    if (!r->st[i].ext_out) goto oom;
  }
  r->add_u = calloc((size_t)r->nadd + 1, sizeof(int));
  r->add_v = calloc((size_t)r->nadd + 1, sizeof(double));
  r->add_from = calloc((size_t)r->nadd + 1, sizeof(double));
  r->add_t0 = calloc((size_t)r->nadd + 1, sizeof(double));
  r->add_T = calloc((size_t)r->nadd + 1, sizeof(double));
  if (!r->add_u || !r->add_v || !r->add_from || !r->add_t0 || !r->add_T) goto oom;
  for (int i = 0; i < m->nctrl; i++) {
    const awe_ctrl *c = &m->ctrl[i];
    int a = r->add_base[i];
    if (c->winch_u >= 0) r->add_u[a++] = c->winch_u;
    for (int k = 0; k < c->cfg.noutput; k++) r->add_u[a++] = c->out_u[k];
  }
  return r;
oom:
  awe_ctrl_run_free(r);
  awe_err_set(err, AWE_ENOMEM, "out of memory (controllers)");
  return NULL;
}


void awe_ctrl_run_free(awe_ctrl_run *r) {
  if (!r) return;
  if (r->st)
    for (int i = 0; i < r->m->nctrl; i++) {
      awe_ext_free(r->st[i].ext);
      free(r->st[i].ext_out);
    }
  free(r->st);
  free(r->add_base);
  free(r->add_u);
  free(r->add_v);
  free(r->add_from);
  free(r->add_t0);
  free(r->add_T);
  free(r);
}


awe_status awe_ctrl_run_start(awe_ctrl_run *r, awe_err *err) {
  if (!r) return AWE_OK;
  const awe_model *m = r->m;
  for (int i = 0; i < m->nctrl; i++) {
    awe_ctrl_state *s = &r->st[i];
    awe_ext_free(s->ext);
    double *eo = s->ext_out;
    memset(s, 0, sizeof(*s));
    s->ext_out = eo;
    memset(eo, 0, sizeof(double) * (size_t)m->ctrl[i].cfg.noutput);
    s->side = 1;
  }
  memset(r->add_v, 0, sizeof(double) * (size_t)r->nadd);
  memset(r->add_from, 0, sizeof(double) * (size_t)r->nadd);
  memset(r->add_t0, 0, sizeof(double) * (size_t)r->nadd);
  memset(r->add_T, 0, sizeof(double) * (size_t)r->nadd);
  for (int i = 0; i < m->nctrl; i++)
    if (m->ctrl[i].cfg.type == AWE_CTRL_EXTERNAL)
      AWE_TRY(awe_ext_start(&r->st[i].ext, m, &m->ctrl[i], &r->lim, err));
  return AWE_OK;
}


int awe_ctrl_nadd(const awe_ctrl_run *r) { return r ? r->nadd : 0; }
const int *awe_ctrl_add_idx(const awe_ctrl_run *r) { return r ? r->add_u : NULL; }
const double *awe_ctrl_add_val(const awe_ctrl_run *r) { return r ? r->add_v : NULL; }


void awe_ctrl_add_ramps(const awe_ctrl_run *r, const double **from, const double **t0,
                        const double **T) {
  int any = 0;
  for (int i = 0; r && i < r->m->nctrl; i++) any |= r->m->ctrl[i].cfg.hold == AWE_HOLD_RAMP;
  *from = any ? r->add_from : NULL;
  *t0 = any ? r->add_t0 : NULL;
  *T = any ? r->add_T : NULL;
}


static double sample_time(const awe_ctrl *c, long k) { return (double)k * c->period; }


double awe_ctrl_next_time(const awe_ctrl_run *r) {
  double t = INFINITY;
  if (!r) return t;
  for (int i = 0; i < r->m->nctrl; i++) {
    double ti = sample_time(&r->m->ctrl[i], r->st[i].k);
    if (ti < t) t = ti;
  }
  return t;
}


static void put(double *yout, int idx, double v) {
  if (idx >= 0) yout[idx] = v;
}


/* entry a's new target v at sample time t: held, or a ramp of one period T from the value
 * applied at t (the previous ramp has ended: the integrator stops at every sample) */
static void set_add(awe_ctrl_run *r, int a, double v, int *changed, double t, double T,
                    int ramp) {
  if (r->add_v[a] != v || r->add_T[a] > 0.0) *changed = 1;
  if (ramp) {
    r->add_from[a] = r->add_v[a];
    r->add_t0[a] = t;
    r->add_T[a] = r->add_v[a] != v ? T : 0.0;
  }
  r->add_v[a] = v;
}


awe_status awe_ctrl_sample(awe_ctrl_run *r, double t, double eps, double *yout, int *changed,
                           awe_err *err) {
  if (!r) return AWE_OK;
  const awe_model *m = r->m;
  for (int i = 0; i < m->nctrl; i++) {
    const awe_ctrl *c = &m->ctrl[i];
    awe_ctrl_state *s = &r->st[i];
    if (sample_time(c, s->k) > t + eps) continue;
    /* a sample instant is never skipped (the integrator stops at each); catch up if t is past
     * it by rounding only */
    while (sample_time(c, s->k + 1) <= t + eps) s->k++;
    s->k++;
    const awe_controller_spec *p = &c->cfg;
    int a = r->add_base[i], ramp = p->hold == AWE_HOLD_RAMP;
    switch (p->type) {
      case AWE_CTRL_PID: {
        s->sp = awe_signal_eval(&p->setpoint, t);
        s->meas = yout[c->meas_y[0]];
        s->out = awe_pid_step(p, c->period, &s->pid, s->sp, s->meas, &s->err);
        for (int k = 0; k < p->noutput; k++)
          set_add(r, a + k, p->gain[k] * s->out, changed, t, c->period, ramp);
        break;
      }
      case AWE_CTRL_FIGURE_EIGHT: {
        s->out = awe_fig8_step(c, s, yout);
        for (int k = 0; k < p->noutput; k++)
          set_add(r, a + k, p->gain[k] * s->out, changed, t, c->period, ramp);
        break;
      }
      case AWE_CTRL_PUMPING: {
        double cmd, dep;
        awe_pump_step(c, s, t, yout, &cmd, &dep);
        set_add(r, a, cmd, changed, t, c->period, ramp);
        for (int k = 0; k < p->noutput; k++)
          set_add(r, a + 1 + k, p->gain[k] * dep, changed, t, c->period, ramp);
        break;
      }
      case AWE_CTRL_EXTERNAL: {
        AWE_TRY(awe_ext_exchange(s->ext, c, t, yout, s->ext_out, &r->lim, err));
        for (int k = 0; k < p->noutput; k++) {
          set_add(r, a + k, s->ext_out[k], changed, t, c->period, ramp);
          put(yout, c->y_ext[k], s->ext_out[k]);
        }
        break;
      }
    }
    put(yout, c->y_setpoint, s->sp);
    put(yout, c->y_measure, s->meas);
    put(yout, c->y_error, s->err);
    put(yout, c->y_output, s->out);
    put(yout, c->y_phase, s->phase);
  }
  return AWE_OK;
}


awe_status awe_ctrl_run_finish(awe_ctrl_run *r, double t, awe_err *err) {
  if (!r) return AWE_OK;
  awe_status st = AWE_OK;
  for (int i = 0; i < r->m->nctrl; i++) {
    if (!r->st[i].ext) continue;
    awe_status s1 = awe_ext_finish(r->st[i].ext, &r->m->ctrl[i], t, &r->lim, st ? NULL : err);
    r->st[i].ext = NULL;
    if (s1 && !st) st = s1;
  }
  return st;
}


int awe_ctrl_pump_ringing(const awe_ctrl_run *r, double *share, long ringing[2],
                          long *seconds) {
  int best = -1;
  *share = 0.0;
  ringing[0] = ringing[1] = *seconds = 0;
  if (!r) return -1;
  for (int i = 0; i < r->m->nctrl; i++) {
    const awe_ctrl_state *s = &r->st[i];
    if (r->m->ctrl[i].cfg.type != AWE_CTRL_PUMPING || s->windows <= 0) continue;
    double f = (double)(s->alternating[0] + s->alternating[1]) / (double)s->windows;
    if (best < 0 || f > *share) {
      best = i;
      *share = f;
      ringing[0] = s->alternating[0];
      ringing[1] = s->alternating[1];
      *seconds = s->windows;
    }
  }
  return best;
}


void awe_ctrl_pump_stats(const awe_ctrl_run *r, int *cycles, double *energy, double *time,
                         double *peak_force) {
  *cycles = 0;
  *energy = *time = *peak_force = 0.0;
  if (!r) return;
  for (int i = 0; i < r->m->nctrl; i++) {
    if (r->m->ctrl[i].cfg.type != AWE_CTRL_PUMPING) continue;
    *cycles += r->st[i].cycles;
    *energy += r->st[i].e_done;
    *time += r->st[i].t_done;
    if (r->st[i].peak > *peak_force) *peak_force = r->st[i].peak;
  }
}
