/* controller_build.c: the scenario's controllers -> the model (channels, resolved names).
 *
 * The logged channels are declared once in the registry (group "controllers"; one run per
 * quantity, so the HDF5 writer stores /controllers/setpoint as [T, N] like any group). Names of
 * measured (output) and driven (input) channels are resolved against the registry with a
 * did-you-mean from it; a channel driven by two controllers, and a period that is not a
 * positive multiple of AWE_CTRL_RESOLUTION, are errors at the controller's position.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/controller.h"
#include "util/pool.h"


int awe_output_scalar_find(const awe_model *m, const char *name) {
  const awe_varlist *l = &m->reg.output;
  char buf[512];
  for (int v = 0; v < l->n; v++)
    for (int k = 0; k < l->v[v].dim; k++) {
      awe_var_scalar_name(&l->v[v], k, buf, sizeof(buf));
      if (!strcmp(buf, name)) return l->v[v].offset + k;
    }
  return -1;
}


static int input_find(const awe_model *m, const char *name) {
  const awe_varlist *l = &m->reg.input;
  char buf[512];
  for (int v = 0; v < l->n; v++)
    for (int k = 0; k < l->v[v].dim; k++) {
      awe_var_scalar_name(&l->v[v], k, buf, sizeof(buf));
      if (!strcmp(buf, name)) return l->v[v].offset + k;
    }
  return -1;
}


/* unit of scalar element idx of list l */
static const char *unit_of(const awe_varlist *l, int idx) {
  for (int v = 0; v < l->n; v++)
    if (idx >= l->v[v].offset && idx < l->v[v].offset + l->v[v].dim) return l->v[v].unit;
  return "-";
}


/* "unknown ... channel 'x' (did you mean 'y'?)" over the scalar names of l */
static awe_status unknown(const awe_varlist *l, const char *what, const char *name,
                          const awe_loc *loc, const char *sec, awe_err *err) {
  int n = l->size;
  char **names = malloc(sizeof(char *) * (size_t)(n ? n : 1));
  char *store = malloc((size_t)(n ? n : 1) * 160);
  char best[160] = "";
  if (names && store) {
    int c = 0;
    for (int v = 0; v < l->n; v++)
      for (int k = 0; k < l->v[v].dim && c < n; k++, c++) {
        names[c] = store + (size_t)c * 160;
        awe_var_scalar_name(&l->v[v], k, names[c], 160);
      }
    const char *b = awe_closest(name, (const char *const *)names, c);
    if (b) snprintf(best, sizeof(best), "%s", b);
  }
  free(names);
  free(store);
  if (best[0])
    return awe_err_at(err, AWE_EINVAL, loc, "%s: unknown %s channel '%s' (did you mean '%s'?)",
                      sec, what, name, best);
  return awe_err_at(err, AWE_EINVAL, loc, "%s: unknown %s channel '%s' (%s)", sec, what, name,
                    !strcmp(what, "output") ? "the names --csv prints, without the unit"
                                            : "see awesim-scenario(5), Input channels");
}


#define ADD(...)                                                 \
  do {                                                           \
    if (awe_varlist_add(&m->reg.output, __VA_ARGS__) < 0)        \
      return awe_err_set(err, AWE_ENOMEM, "out of memory");      \
  } while (0)


static int loop_type(awe_ctrl_type t) { return t != AWE_CTRL_EXTERNAL; }


/* copy what the run needs into the model pool (the spec may be freed before the model) */
static awe_status copy_cfg(awe_model *m, awe_ctrl *c, const awe_controller_spec *in,
                           awe_err *err) {
  c->cfg = *in;
  awe_controller_spec *o = &c->cfg;
  o->name = awe_pool_strdup(m->pool, in->name);
  o->command = in->command ? awe_pool_strdup(m->pool, in->command) : NULL;
  o->wing = in->wing ? awe_pool_strdup(m->pool, in->wing) : NULL;
  o->f8_phase = in->f8_phase ? awe_pool_strdup(m->pool, in->f8_phase) : NULL;
  o->winch = in->winch ? awe_pool_strdup(m->pool, in->winch) : NULL;
  o->measure = NULL;
  o->output = NULL;
  o->measure_loc = o->output_loc = NULL;
  o->gain = awe_pool_array(m->pool, (size_t)in->noutput + 1, sizeof(double));
  c->meas_y = awe_pool_array(m->pool, (size_t)in->nmeasure + 5, sizeof(int));
  c->out_u = awe_pool_array(m->pool, (size_t)in->noutput + 2, sizeof(int));
  c->y_ext = awe_pool_array(m->pool, (size_t)in->noutput + 2, sizeof(int));
  if (!o->name || !o->gain || !c->meas_y || !c->out_u || !c->y_ext)
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int k = 0; k < in->noutput; k++) o->gain[k] = in->gain[k];
  if (in->setpoint.type == AWE_SIG_TABLE) {
    o->setpoint.table_t = awe_pool_array(m->pool, (size_t)in->setpoint.ntable, sizeof(double));
    o->setpoint.table_v = awe_pool_array(m->pool, (size_t)in->setpoint.ntable, sizeof(double));
    if (!o->setpoint.table_t || !o->setpoint.table_v)
      return awe_err_set(err, AWE_ENOMEM, "out of memory");
    memcpy(o->setpoint.table_t, in->setpoint.table_t, sizeof(double) * (size_t)in->setpoint.ntable);
    memcpy(o->setpoint.table_v, in->setpoint.table_v, sizeof(double) * (size_t)in->setpoint.ntable);
  }
  return AWE_OK;
}


/* the channels a builtin controller measures implicitly (wing or winch by name) */
static awe_status implicit_measures(awe_model *m, awe_ctrl *c, const char *sec, awe_err *err) {
  const awe_controller_spec *s = &c->cfg;
  char name[400];
  if (s->type == AWE_CTRL_FIGURE_EIGHT) {
    for (int j = 0; j < m->nwing; j++)
      if (!strcmp(m->wing_name[j], s->wing)) c->wing = j;
    if (c->wing < 0) {
      const char *best = awe_closest(s->wing, m->wing_name, m->nwing);
      return awe_err_at(err, AWE_EINVAL, &s->loc, "%s.wing: unknown wing '%s'%s%s%s", sec,
                        s->wing, best ? " (did you mean '" : "", best ? best : "",
                        best ? "'?)" : "");
    }
    static const char *const q[] = {"azimuth", "elevation", "course", "heading"};
    for (int k = 0; k < 4; k++) {
      snprintf(name, sizeof(name), "wings.%s.%s", s->wing, q[k]);
      c->meas_y[k] = awe_output_scalar_find(m, name);
    }
  } else if (s->type == AWE_CTRL_PUMPING) {
    c->winch = awe_model_find_winch(m, s->winch);
    if (c->winch < 0) {
      const char *best = awe_closest(s->winch, m->winch_name, m->nwinch);
      return awe_err_at(err, AWE_EINVAL, &s->loc, "%s.winch: unknown winch '%s'%s%s%s", sec,
                        s->winch, best ? " (did you mean '" : "", best ? best : "",
                        best ? "'?)" : "");
    }
    int i = c->winch;
    if (m->winch_tether_num[i] < 1)
      return awe_err_at(err, AWE_EINVAL, &s->loc, "%s.winch: winch '%s' holds no tether", sec,
                        s->winch);
    snprintf(name, sizeof(name), "winches.%s.force", s->winch);
    c->meas_y[0] = awe_output_scalar_find(m, name);
    snprintf(name, sizeof(name), "winches.%s.vel", s->winch);
    c->meas_y[1] = awe_output_scalar_find(m, name);
    snprintf(name, sizeof(name), "tethers.%s.len",
             m->tether_name[m->winch_tethers[m->winch_tether_adr[i]]]);
    c->meas_y[2] = awe_output_scalar_find(m, name);
    snprintf(name, sizeof(name), "winches.%s.%s", s->winch,
             m->winch_speed_controlled[i] || m->winch_async[i] ? "speed" : "torque");
    c->winch_u = input_find(m, name);
    c->winch_ratio = m->winch_drum_radius[i] / m->winch_gear_ratio[i];
    c->machine = m->winch_async[i] ? &m->winch_machine[i] : NULL;
    c->winch_v0 = m->winch_async[i] ? m->winch_init_vel[i] : 0.0;
    if (m->winch_speed_controlled[i])
      return awe_err_at(err, AWE_EINVAL, &s->loc, "%s.winch: '%s' is speed-controlled; the "
                        "pumping controller drives a torque-controlled or an AsyncMachine winch",
                        sec, s->winch);
  }
  return AWE_OK;
}


/* give output channel y the unit u; 1 when it changed */
static int put_unit(awe_model *m, int y, const char *u) {
  for (int v = 0; y >= 0 && v < m->reg.output.n; v++) {
    awe_var *a = &m->reg.output.v[v];
    if (a->offset != y) continue;
    if (!strcmp(a->unit, u)) return 0;
    a->unit = u;
    return 1;
  }
  return 0;
}


/* units of c's logged channels from its measured and driven channels; 1 when one changed */
static int set_units(awe_model *m, const awe_ctrl *c) {
  int changed = 0;
  if (c->cfg.type == AWE_CTRL_PID) {
    const char *mu = unit_of(&m->reg.output, c->meas_y[0]);
    changed |= put_unit(m, c->y_setpoint, mu);
    changed |= put_unit(m, c->y_measure, mu);
    changed |= put_unit(m, c->y_error, mu);
    changed |= put_unit(m, c->y_output, unit_of(&m->reg.input, c->out_u[0]));
  } else if (c->cfg.type == AWE_CTRL_FIGURE_EIGHT) {
    changed |= put_unit(m, c->y_output, unit_of(&m->reg.input, c->out_u[0]));
  } else if (c->cfg.type == AWE_CTRL_EXTERNAL) {
    for (int k = 0; k < c->cfg.noutput; k++)
      changed |= put_unit(m, c->y_ext[k], unit_of(&m->reg.input, c->out_u[k]));
  }
  return changed;
}


awe_model *awe_model_build_controlled(const awe_spec *s, awe_diag *warn, awe_err *err) {
  awe_model *m = awe_model_build(s, warn, err);
  if (m && awe_controllers_build(m, s, err) != AWE_OK) {
    awe_model_free(m);
    return NULL;
  }
  return m;
}


awe_status awe_controllers_build(awe_model *m, const awe_spec *s, awe_err *err) {
  const awe_scenario_spec *sc = &s->scenario;
  m->nctrl = sc->ncontroller;
  if (m->nctrl == 0) return AWE_OK;
  m->ctrl = awe_pool_array(m->pool, (size_t)m->nctrl, sizeof(awe_ctrl));
  if (!m->ctrl) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  /* the scenario's folder: external controllers run there */
  char dir[4096];
  snprintf(dir, sizeof(dir), "%s", sc->path ? sc->path : ".");
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  else snprintf(dir, sizeof(dir), ".");
  const char *cwd = awe_pool_strdup(m->pool, dir[0] ? dir : "/");
  if (!cwd) return awe_err_set(err, AWE_ENOMEM, "out of memory");

  for (int i = 0; i < m->nctrl; i++) {
    awe_ctrl *c = &m->ctrl[i];
    const awe_controller_spec *in = &sc->controllers[i];
    AWE_TRY(copy_cfg(m, c, in, err));
    c->cwd = cwd;
    c->y_setpoint = c->y_measure = c->y_error = c->y_output = c->y_phase = -1;
    c->wing = c->winch = c->winch_u = -1;
    c->machine = NULL;
    c->winch_v0 = 0.0;
    char sec[200];
    snprintf(sec, sizeof(sec), "controllers.%s", in->name);
    /* period: a positive multiple of the resolution at which the integrator stops */
    c->period = isnan(in->period) ? m->opt.dt : in->period;
    double q = c->period / AWE_CTRL_RESOLUTION;
    if (!(c->period >= AWE_CTRL_RESOLUTION) || fabs(q - nearbyint(q)) > 1e-6 * q)
      return awe_err_at(err, AWE_EINVAL, &in->period_loc,
                        "%s.period: %g s is not a positive multiple of %g s (the resolution of "
                        "the integrator's stops at sample instants)", sec, c->period,
                        AWE_CTRL_RESOLUTION);
    if (!isnan(in->d_filter) && in->d_filter <= 0.0 && in->kd > 0.0)
      return awe_err_at(err, AWE_EINVAL, &in->loc, "%s.d_filter: must be > 0 with kd", sec);
    AWE_TRY(implicit_measures(m, c, sec, err));
  }

  /* channels: one run per quantity over the controllers that have it */
  static const char *const q[] = {"setpoint", "measure", "error", "output", "phase"};
  for (int k = 0; k < 5; k++)
    for (int i = 0; i < m->nctrl; i++) {
      awe_ctrl *c = &m->ctrl[i];
      const awe_controller_spec *in = &sc->controllers[i];
      if (!loop_type(in->type)) continue;
      if (k == 4 && in->type == AWE_CTRL_PID) continue;
      const char *unit = "-";
      if (in->type == AWE_CTRL_FIGURE_EIGHT) unit = "rad";
      if (in->type == AWE_CTRL_PUMPING) unit = "m/s";
      if (k == 3) unit = in->type != AWE_CTRL_PUMPING ? "-" : c->machine ? "m/s" : "N m";
      if (k == 4) unit = "-";
      int y = m->reg.output.size;
      ADD("controllers", c->cfg.name, i, q[k], unit, 1, 0, AWE_VF_LOG);
      int *dst[5] = {&c->y_setpoint, &c->y_measure, &c->y_error, &c->y_output, &c->y_phase};
      *dst[k] = y;
    }
  int maxout = 0;
  for (int i = 0; i < m->nctrl; i++)
    if (sc->controllers[i].type == AWE_CTRL_EXTERNAL && sc->controllers[i].noutput > maxout)
      maxout = sc->controllers[i].noutput;
  for (int j = 0; j < maxout; j++)
    for (int i = 0; i < m->nctrl; i++) {
      awe_ctrl *c = &m->ctrl[i];
      if (c->cfg.type != AWE_CTRL_EXTERNAL || j >= c->cfg.noutput) continue;
      char var[32];
      snprintf(var, sizeof(var), "output_%d", j + 1);
      const char *pv = awe_pool_strdup(m->pool, var);
      if (!pv) return awe_err_set(err, AWE_ENOMEM, "out of memory");
      c->y_ext[j] = m->reg.output.size;
      ADD("controllers", c->cfg.name, i, pv, "-", 1, 0, AWE_VF_LOG);
    }

  /* measured and driven channels (controller channels exist now: they may be measured) */
  for (int i = 0; i < m->nctrl; i++) {
    awe_ctrl *c = &m->ctrl[i];
    const awe_controller_spec *in = &sc->controllers[i];
    char sec[200];
    snprintf(sec, sizeof(sec), "controllers.%s", in->name);
    for (int k = 0; k < in->nmeasure; k++) {
      c->meas_y[k] = awe_output_scalar_find(m, in->measure[k]);
      if (c->meas_y[k] < 0)
        return unknown(&m->reg.output, "output", in->measure[k], &in->measure_loc[k], sec, err);
    }
    if (in->type == AWE_CTRL_FIGURE_EIGHT && in->f8_phase) { /* the reel-in switch */
      c->meas_y[4] = awe_output_scalar_find(m, in->f8_phase);
      if (c->meas_y[4] < 0)
        return unknown(&m->reg.output, "output", in->f8_phase, &in->f8_phase_loc, sec, err);
    }
    for (int k = 0; k < in->noutput; k++) {
      c->out_u[k] = input_find(m, in->output[k]);
      if (c->out_u[k] < 0)
        return unknown(&m->reg.input, "input", in->output[k], &in->output_loc[k], sec, err);
      if (c->out_u[k] == c->winch_u)
        return awe_err_at(err, AWE_EINVAL, &in->output_loc[k],
                          "%s.output: '%s' is driven by the pumping controller itself", sec,
                          in->output[k]);
      for (int j = 0; j <= i; j++) {
        const awe_ctrl *o = &m->ctrl[j];
        int nk = j == i ? k : o->cfg.noutput;
        int clash = j < i && o->winch_u == c->out_u[k];
        for (int l = 0; l < nk && !clash; l++) clash = o->out_u[l] == c->out_u[k];
        if (clash)
          return awe_err_at(err, AWE_EINVAL, &in->output_loc[k],
                            "%s.output: channel '%s' is already driven by controller '%s' (one "
                            "controller per channel)", sec, in->output[k], o->cfg.name);
      }
    }
    if (c->winch_u >= 0)
      for (int j = 0; j < i; j++)
        for (int l = 0; l < m->ctrl[j].cfg.noutput; l++)
          if (m->ctrl[j].out_u[l] == c->winch_u)
            return awe_err_at(err, AWE_EINVAL, &in->loc,
                              "%s.winch: its input is already driven by controller '%s'", sec,
                              m->ctrl[j].cfg.name);
  }
  /* units of the controllers' channels follow the measured and driven channels; a pid may
   * measure a later controller's channel, whose unit is only known once that one is set:
   * repeat until nothing changes (at most one pass per controller in a chain) */
  for (int pass = 0; pass <= m->nctrl; pass++) {
    int changed = 0;
    for (int i = 0; i < m->nctrl; i++) changed |= set_units(m, &m->ctrl[i]);
    if (!changed) break;
  }
  /* each channel keeps its own unit (the CSV header shows it); an HDF5 dataset that holds
   * controllers of different units says "mixed" and lists them (writer_hdf5.c) */
  return AWE_OK;
}
