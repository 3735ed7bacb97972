/* awesim_api.c: include/awesim.h over the run life cycle of solve/sim.h: open, names, inputs,
 * steps, the CSV log. Trim and linearization: awesim_lin.c. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_errno.h>

#include "api/api_internal.h"
#include "control/controller.h"
#include "engine/outputs.h"
#include "io/load.h"
#include "io/yaml_doc.h"
#include "model/model.h"
#include "output/awesio_write.h"
#include "output/log_select.h"
#include "output/out_guard.h"


const char *awesim_version(void) { return AWE_VERSION; }

static awesim_status log_csv_close_(awesim_sim *s);
static awesim_status log_hdf5_close_(awesim_sim *s);


awesim_status awe_api_fail(awesim_sim *s, awe_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  s->err.code = code;
  vsnprintf(s->err.msg, sizeof(s->err.msg), fmt, ap);
  va_end(ap);
  return (awesim_status)code;
}


static awesim_status fail_err(awesim_sim *s, const awe_err *e) {
  if (e != &s->err) s->err = *e;
  if (!s->err.code) s->err.code = AWE_EINTERNAL;
  return (awesim_status)s->err.code;
}


static void free_table(awe_api_scalar *t, int n) {
  for (int i = 0; t && i < n; i++) free(t[i].name);
  free(t);
}


/* a model file (system or structure file) is recognised by its keys, as by the CLI */
/* the scalars of l (only the logged ones when log_only) with their names */
static awe_api_scalar *name_table(const awe_varlist *l, int log_only, int *n) {
  int cnt = 0;
  for (int i = 0; i < l->n; i++)
    if (!log_only || (l->v[i].flags & AWE_VF_LOG)) cnt += l->v[i].dim;
  awe_api_scalar *t = calloc((size_t)cnt + 1, sizeof(*t));
  if (!t) return NULL;
  int j = 0;
  char buf[512];
  for (int i = 0; i < l->n; i++) {
    const awe_var *v = &l->v[i];
    if (log_only && !(v->flags & AWE_VF_LOG)) continue;
    for (int k = 0; k < v->dim; k++, j++) {
      awe_var_scalar_name(v, k, buf, sizeof(buf));
      t[j].name = malloc(strlen(buf) + 1);
      if (!t[j].name) {
        free_table(t, j);
        return NULL;
      }
      memcpy(t[j].name, buf, strlen(buf) + 1);
      t[j].unit = v->unit;
      t[j].k = v->offset + k;
    }
  }
  *n = j;
  return t;
}


static int is_model_file(const char *path, awe_err *err, int *model) {
  awe_ydoc *d = awe_ydoc_load_file(path, err);
  if (!d) return -1;
  const awe_ynode *r = awe_ydoc_root(d);
  *model = (awe_ymap_get(r, "system") || awe_ymap_get(r, "points")) &&
           !awe_ymap_get(r, "awesim");
  awe_ydoc_free(d);
  return 0;
}


awesim_sim *awesim_open(const char *scenario, int nset, const char *const *sets,
                        awesim_error *err) {
  awesim_error dummy;
  if (!err) err = &dummy;
  memset(err, 0, sizeof(*err));
  gsl_set_error_handler_off();
  awesim_sim *s = calloc(1, sizeof(*s));
  if (!s) {
    err->code = AWESIM_ENOMEM;
    snprintf(err->msg, sizeof(err->msg), "out of memory");
    return NULL;
  }
  atomic_flag_clear(&s->busy);
  awe_diag early = {0};
  if (!scenario) {
    awe_api_fail(s, AWE_EUSAGE, "awesim_open: no scenario path");
    goto fail;
  }
  if (nset < 0 || (nset > 0 && !sets)) {
    awe_api_fail(s, AWE_EUSAGE, "awesim_open: %d overrides but no array of them", nset);
    goto fail;
  }
  int model = 0;
  if (is_model_file(scenario, &s->err, &model)) goto fail;
  if (model) {
    if (nset) {
      awe_api_fail(s, AWE_EUSAGE, "overrides need a scenario file; %s is a model file",
                   scenario);
      goto fail;
    }
    s->spec = awe_spec_load_model(scenario, &early, &s->err);
  } else {
    s->spec = awe_spec_load(scenario, nset, sets, &early, &s->err);
  }
  if (!s->spec) goto fail;
  s->m = awe_model_build_controlled(s->spec, &s->spec->warnings, &s->err);
  if (!s->m) goto fail;
  s->sim = awe_sim_alloc(s->m, NULL, &s->err);
  if (!s->sim) goto fail;
  awe_sim_set_stop(s->sim, &s->stop);
  s->chan = name_table(&s->m->reg.output, 1, &s->nchan);
  s->in = name_table(&s->m->reg.input, 0, &s->nin);
  if (!s->chan || !s->in) {
    awe_api_fail(s, AWE_ENOMEM, "out of memory");
    goto fail;
  }
  if (awe_sim_start(s->sim, &s->err)) goto fail;
  awe_diag_free(&early);
  return s;
fail:
  err->code = (awesim_status)(s->err.code ? s->err.code : AWE_EINTERNAL);
  snprintf(err->msg, sizeof(err->msg), "%s", s->err.msg);
  awe_diag_free(&early);
  awesim_close(s);
  return NULL;
}


void awesim_close(awesim_sim *s) {
  if (!s) return;
  /* a run in another thread is asked to stop and finishes its call before the handle goes */
  if (atomic_flag_test_and_set(&s->busy)) {
    s->stop = AWE_GUARD_STOP_REQUEST;
    struct timespec ms = {0, 1000000};
    while (atomic_flag_test_and_set(&s->busy)) nanosleep(&ms, NULL);
  }
  if (s->sim) awe_sim_finish(s->sim, &s->err);
  log_csv_close_(s);
  log_hdf5_close_(s);
  awe_linsys_free(&s->lin);
  free_table(s->chan, s->nchan);
  free_table(s->in, s->nin);
  awe_sim_free(s->sim);
  awe_model_free(s->m);
  awe_spec_free(s->spec);
  free(s);
}


const char *awesim_message(const awesim_sim *s) {
  return s ? s->err.msg : "no handle: the awesim_sim pointer is NULL (awesim_open failed or it was closed)";
}

int awesim_nwarnings(const awesim_sim *s) { return s ? s->spec->warnings.n : 0; }

const char *awesim_warning(const awesim_sim *s, int i) {
  return s && i >= 0 && i < s->spec->warnings.n ? s->spec->warnings.msg[i] : NULL;
}

double awesim_time(const awesim_sim *s) { return s ? s->sim->t : NAN; }
double awesim_duration(const awesim_sim *s) { return s ? s->m->opt.duration : NAN; }
double awesim_dt(const awesim_sim *s) { return s ? s->m->opt.dt : NAN; }
int awesim_crashed(const awesim_sim *s) { return s ? s->sim->crash.happened : 0; }

/* async-signal-safe and race-free: one store to a lock-free atomic int, no call, no lock */
void awesim_request_stop(awesim_sim *s) {
  if (s) s->stop = AWE_GUARD_STOP_REQUEST;
}

int awesim_interrupted(const awesim_sim *s) { return s ? s->stop != 0 : 0; }


static int find(const awe_api_scalar *t, int n, const char *name) {
  for (int i = 0; name && i < n; i++)
    if (!strcmp(t[i].name, name)) return i;
  return -1;
}


int awesim_nchannels(const awesim_sim *s) { return s ? s->nchan : 0; }

const char *awesim_channel_name(const awesim_sim *s, int i) {
  return s && i >= 0 && i < s->nchan ? s->chan[i].name : NULL;
}

const char *awesim_channel_unit(const awesim_sim *s, int i) {
  return s && i >= 0 && i < s->nchan ? s->chan[i].unit : NULL;
}

int awesim_channel_index(const awesim_sim *s, const char *name) {
  return s ? find(s->chan, s->nchan, name) : -1;
}


awesim_status awe_api_refresh(awesim_sim *s) {
  if (!s->dirty) return AWESIM_OK;
  awe_sim *sim = s->sim;
  s->dirty = 0;
  /* the base inputs as post-calculate sees them; the outputs and the workspace as after a
   * controller's sample (sim.c ctrl_at), so that a run driven from here follows the same
   * arithmetic as one driven by a builtin controller */
  memcpy(sim->w->u, sim->u, sizeof(double) * (size_t)sim->w->nu);
  sim->ctx.t_lo = sim->t;
  sim->ctx.t_hi = INFINITY;
  if (awe_outputs_eval(&sim->ctx, sim->t, sim->y, sim->dydt, sim->yout) != 0)
    return awe_api_fail(s, AWE_EINTEG, "t = %.9g s: the outputs cannot be evaluated with the "
                        "inputs set", sim->t);
  return AWESIM_OK;
}


double awesim_get(const awesim_sim *s, int i) {
  if (!s || i < 0 || i >= s->nchan) return NAN;
  awesim_sim *w = (awesim_sim *)s; /* the outputs' refresh is a cache fill */
  if (atomic_flag_test_and_set(&w->busy)) return NAN;
  if (s->dirty) awe_api_refresh(w);
  double v = s->sim->yout[s->chan[i].k];
  atomic_flag_clear(&w->busy);
  return v;
}


static awesim_status read_(awesim_sim *s, const int *idx, int n, double *out) {
  if (n < 0 || n > s->nchan || !out)
    return awe_api_fail(s, AWE_EUSAGE, "awesim_read: %d channels asked, the model has %d", n,
                        s->nchan);
  API_TRY(awe_api_refresh(s));
  for (int j = 0; j < n; j++) {
    int i = idx ? idx[j] : j;
    if (i < 0 || i >= s->nchan)
      return awe_api_fail(s, AWE_EUSAGE, "awesim_read: channel index %d out of range [0, %d)",
                          i, s->nchan);
    out[j] = s->sim->yout[s->chan[i].k];
  }
  return AWESIM_OK;
}


int awesim_ninputs(const awesim_sim *s) { return s ? s->nin : 0; }

const char *awesim_input_name(const awesim_sim *s, int i) {
  return s && i >= 0 && i < s->nin ? s->in[i].name : NULL;
}

const char *awesim_input_unit(const awesim_sim *s, int i) {
  return s && i >= 0 && i < s->nin ? s->in[i].unit : NULL;
}

int awesim_input_index(const awesim_sim *s, const char *name) {
  return s ? find(s->in, s->nin, name) : -1;
}

double awesim_get_input(const awesim_sim *s, int i) {
  return s && i >= 0 && i < s->nin ? s->sim->u[s->in[i].k] : NAN;
}


static awesim_status set_input_(awesim_sim *s, int i, double value) {
  if (i < 0 || i >= s->nin)
    return awe_api_fail(s, AWE_EUSAGE, "awesim_set_input: input index %d out of range [0, %d)",
                        i, s->nin);
  if (!isfinite(value))
    return awe_api_fail(s, AWE_EUSAGE, "awesim_set_input: %s = %g is not finite",
                        s->in[i].name, value);
  for (int j = 0; j < s->m->nsignal; j++)
    if (s->m->signals[j].u_index == s->in[i].k)
      return awe_api_fail(s, AWE_EUSAGE, "awesim_set_input: %s is scheduled by the scenario's "
                          "inputs: (its signal replaces the value set); drop it there to set it "
                          "from here", s->in[i].name);
  double *u = &s->sim->u[s->in[i].k];
  if (*u == value) return AWESIM_OK;
  *u = value;
  s->sim->reset_pending = 1; /* a jump: the stepper restarts there */
  s->dirty = 1;
  return AWESIM_OK;
}


static awesim_status log_row(awesim_sim *s) {
  awe_err e = {0};
  if (s->h5 && awe_h5_write_row(s->h5, s->sim->t, s->sim->yout, &e)) return fail_err(s, &e);
  if (!s->csv) return AWESIM_OK;
  int rc = awe_csv_write_row(s->csv, s->sim->t, s->sim->yout, &e);
  if (rc == AWE_WRITER_EPIPE)
    return awe_api_fail(s, AWE_EIO, "the CSV log's reader closed it");
  return rc ? fail_err(s, &e) : AWESIM_OK;
}


/* one awe_sim_step to t (a log time or the caller's target) */
static awesim_status step1(awesim_sim *s, double t) {
  API_TRY(awe_api_refresh(s));
  if (awe_sim_step(s->sim, t, &s->err)) {
    s->failed = s->err.code != AWE_EINTR; /* a stop: the log is kept, marked interrupted */
    s->dirty = s->err.code == AWE_EINTR; /* the outputs of the last accepted state */
    return fail_err(s, &s->err);
  }
  return AWESIM_OK;
}


static awesim_status step_to_(awesim_sim *s, double t) {
  awe_sim *sim = s->sim;
  const awe_model *m = s->m;
  s->err = (awe_err){0};
  if (!(t > sim->t) || !isfinite(t))
    return awe_api_fail(s, AWE_EUSAGE, "awesim_step_to: t = %.17g s is not after the current "
                        "time %.17g s", t, sim->t);
  /* past the run's end no row is logged and the log would close as complete: refuse */
  if (t > m->opt.duration * (1.0 + 1e-12) + 1e-12)
    return awe_api_fail(s, AWE_EUSAGE, "awesim_step_to: t = %.17g s is past run.duration = "
                        "%.17g s (allowed: up to run.duration; raise it in the scenario or with "
                        "the override run.duration=SECONDS to run longer)", t, m->opt.duration);
  if (sim->crash.happened && !m->opt.on_crash_continue)
    return awe_api_fail(s, AWE_EINTEG, "t = %.9g s: the run ended: a wing hit the ground",
                        sim->t);
  if (s->stop)
    return awe_api_fail(s, AWE_EINTR, "t = %.9g s: the run ended: interrupted by %s", sim->t,
                        s->stop == AWE_GUARD_STOP_REQUEST ? "a stop request" : "a signal");
  long nlog = awe_sim_log_steps(m);
  while (sim->t < t) {
    double tl = s->k < nlog ? awe_sim_log_time(m, s->k + 1) : INFINITY;
    double eps = 1e-12 * (fabs(t) > 1.0 ? fabs(t) : 1.0);
    int is_log = tl <= t + eps;
    API_TRY(step1(s, is_log ? tl : t));
    if (sim->t < (is_log ? tl : t)) return log_row(s); /* a crash: its row ends the run */
    if (is_log) {
      s->k++;
      API_TRY(log_row(s));
    }
  }
  return AWESIM_OK;
}


static awesim_status step_(awesim_sim *s, double dt) {
  if (!(dt > 0.0) || !isfinite(dt))
    return awe_api_fail(s, AWE_EUSAGE, "awesim_step: dt = %g s must be positive", dt);
  double t = s->sim->t + dt, k = round(t / s->m->opt.dt);
  if (k >= 1.0 && k <= (double)awe_sim_log_steps(s->m) &&
      fabs(t - awe_sim_log_time(s->m, (long)k)) <= 1e-9)
    t = awe_sim_log_time(s->m, (long)k);
  return step_to_(s, t);
}


long awesim_rows_left(const awesim_sim *s) {
  if (!s) return 0;
  long left = awe_sim_log_steps(s->m) - s->k;
  return (left > 0 ? left : 0) + (s->sim->t == 0.0 && s->k == 0);
}


static awesim_status run_(awesim_sim *s, double *rows, long maxrows, long *nrows) {
  awe_sim *sim = s->sim;
  int ncol = s->nchan + 1;
  long n = 0;
  if (nrows) *nrows = 0;
  if (maxrows < 0 || (maxrows > 0 && !rows))
    return awe_api_fail(s, AWE_EUSAGE, "awesim_run: no buffer for %ld rows", maxrows);
  s->err = (awe_err){0};
  int first = sim->t == 0.0 && s->k == 0;
  long nlog = awe_sim_log_steps(s->m);
  for (;;) {
    if (!first) {
      if (s->k >= nlog || (sim->crash.happened && !s->m->opt.on_crash_continue)) break;
      API_TRY(step_to_(s, awe_sim_log_time(s->m, s->k + 1)));
    }
    first = 0;
    if (n < maxrows) {
      double *r = rows + n * ncol;
      r[0] = sim->t;
      API_TRY(read_(s, NULL, s->nchan, r + 1));
      n++;
      if (nrows) *nrows = n;
    }
  }
  return AWESIM_OK;
}


static awesim_status log_csv_(awesim_sim *s, const char *path, const char *patterns) {
  log_csv_close_(s);
  if (!path) return awe_api_fail(s, AWE_EUSAGE, "awesim_log_csv: no path");
  awe_err e = {0};
  s->csv_file = awe_out_guard_fopen(s->spec, path, s->h5_path, &e);
  if (!s->csv_file) return fail_err(s, &e);
  s->csv_path = strdup(path);
  int rc = awe_csv_open(&s->csv, s->csv_file, &s->m->reg.output, patterns, &e);
  if (rc) {
    fclose(s->csv_file);
    s->csv_file = NULL;
    s->csv = NULL;
    return fail_err(s, &e);
  }
  API_TRY(awe_api_refresh(s));
  return log_row(s);
}


static awesim_status log_csv_close_(awesim_sim *s) {
  awe_err e = {0};
  int rc = 0;
  if (s->csv) rc = awe_csv_close(s->csv, &e);
  s->csv = NULL;
  if (s->csv_file && fclose(s->csv_file) && !rc)
    rc = awe_err_set(&e, AWE_EIO, "the CSV log: %s", strerror(errno));
  s->csv_file = NULL;
  free(s->csv_path);
  s->csv_path = NULL;
  return rc ? fail_err(s, &e) : AWESIM_OK;
}


static awesim_status log_hdf5_(awesim_sim *s, const char *path) {
  log_hdf5_close_(s);
  if (!path) return awe_api_fail(s, AWE_EUSAGE, "awesim_log_hdf5: no path");
  awe_err e = {0};
  if (awe_out_guard(s->spec, path, s->csv_path, &e)) return fail_err(s, &e);
  char *topo = awe_awesio_string(s->m, s->spec->scenario.name, s->spec->scenario.path, &e);
  if (!topo) return fail_err(s, &e);
  awe_h5_info info = {.solver = awe_integrator_name(s->sim->it), .command_line = "libawesim",
                      .scenario = s->spec->scenario_text, .topology = topo};
  awe_log_compression(s->spec, &info);
  awe_varlist sel; /* the scenario's output.channels */
  if (awe_log_select(s->spec, &s->m->reg.output, &sel, &e)) {
    free(topo);
    return fail_err(s, &e);
  }
  s->h5 = awe_h5_open(path, &sel, &info, &e);
  awe_varlist_free(&sel);
  free(topo);
  if (!s->h5) return fail_err(s, &e);
  s->h5_path = strdup(path);
  API_TRY(awe_api_refresh(s));
  return log_row(s);
}


static awesim_status log_hdf5_close_(awesim_sim *s) {
  if (!s->h5) return AWESIM_OK;
  awe_sim *sim = s->sim;
  awe_run_status rs = s->failed ? AWE_RUN_FAILED
                      : sim->crash.happened && !s->m->opt.on_crash_continue ? AWE_RUN_CRASHED
                      : s->k >= awe_sim_log_steps(s->m) ? AWE_RUN_COMPLETE
                                                         : AWE_RUN_INTERRUPTED;
  awe_err e = {0};
  awe_status st = awe_h5_close(s->h5, rs, rs == AWE_RUN_FAILED ? s->err.msg : NULL, &e);
  s->h5 = NULL;
  free(s->h5_path);
  s->h5_path = NULL;
  return st ? fail_err(s, &e) : AWESIM_OK;
}


/* ---- the public entry points (API_CALL, api_internal.h) ---- */
awesim_status awesim_read(awesim_sim *s, const int *idx, int n, double *out) {
  API_CALL(s, read_(s, idx, n, out));
}
awesim_status awesim_set_input(awesim_sim *s, int i, double value) {
  API_CALL(s, set_input_(s, i, value));
}
awesim_status awesim_step_to(awesim_sim *s, double t) { API_CALL(s, step_to_(s, t)); }
awesim_status awesim_step(awesim_sim *s, double dt) { API_CALL(s, step_(s, dt)); }
awesim_status awesim_run(awesim_sim *s, double *rows, long maxrows, long *nrows) {
  API_CALL(s, run_(s, rows, maxrows, nrows));
}
awesim_status awesim_log_csv(awesim_sim *s, const char *path, const char *patterns) {
  API_CALL(s, log_csv_(s, path, patterns));
}
awesim_status awesim_log_csv_close(awesim_sim *s) { API_CALL(s, log_csv_close_(s)); }
awesim_status awesim_log_hdf5(awesim_sim *s, const char *path) {
  API_CALL(s, log_hdf5_(s, path));
}
awesim_status awesim_log_hdf5_close(awesim_sim *s) { API_CALL(s, log_hdf5_close_(s)); }
