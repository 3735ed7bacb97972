/* spec_scenario_yaml.c: the scenario file's run, inputs and output sections (schema 1).
 *
 * Strict: a scenario is written for awesim, so every unknown key is an error with a
 * suggestion. Model file paths are resolved by load.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/solver_names.h"
#include "io/spec_load.h"



static awe_status num(const awe_ynode *map, const char *key, const char *sec, double *out,
                      int required, awe_err *err) {
  const awe_ynode *v = awe_ymap_get(map, key);
  char w[160];
  snprintf(w, sizeof(w), "%s.%s", sec, key);
  if (!v || v->kind == AWE_Y_NULL) {
    if (required)
      return awe_err_at(err, AWE_EINVAL, map ? &map->loc : NULL, "%s: '%s' is required", sec,
                        key);
    return AWE_OK;
  }
  return awe_ynode_double(v, w, out, err);
}


static awe_status read_run(awe_spec *s, const awe_ynode *run, awe_err *err) {
  awe_run_spec *r = &s->scenario.run;
  r->duration = AWE_RUN_DURATION;
  r->dt = NAN;
  r->solver = NULL;
  r->jacobian_fd = 0;
  r->abs_tol = NAN;
  r->rel_tol = NAN;
  r->max_step = NAN;
  r->vsm_interval = AWE_RUN_VSM_INTERVAL;
  r->steady_state = 0;
  r->steady_state_time = AWE_RUN_STEADY_TIME;
  r->min_step = r->max_wall_time = r->max_steps = r->vsm_dt = r->vsm_jacobian_tol = NAN;
  r->on_crash_continue = 0;
  r->crash_clearance = NAN;
  if (!run || run->kind == AWE_Y_NULL) return AWE_OK;
  if (run->kind != AWE_Y_MAP) return awe_err_at(err, AWE_EINVAL, &run->loc, "run: expected a mapping");
  static const char *const keys[] = {"duration", "dt", "solver", "abs_tol", "rel_tol",
                                     "max_step", "vsm_interval", "steady_state",
                                     "steady_state_time", "min_step", "max_wall_time",
                                     "max_steps", "jacobian", "vsm_dt", "vsm_jacobian_tol",
                                     "on_crash", "crash_clearance"};
  AWE_TRY(awe_ymap_check_keys(run, "run", keys, AWE_ARRLEN(keys), err));
  AWE_TRY(num(run, "duration", "run", &r->duration, 0, err));
  AWE_TRY(num(run, "dt", "run", &r->dt, 0, err));
  const awe_ynode *dn = awe_ymap_get(run, "duration"), *tn = awe_ymap_get(run, "dt");
  r->duration_loc = dn ? dn->loc : run->loc;
  r->duration_given = dn && !awe_ynode_is_nothing(dn);
  if (tn) r->dt_loc = tn->loc;
  AWE_TRY(num(run, "abs_tol", "run", &r->abs_tol, 0, err));
  AWE_TRY(num(run, "rel_tol", "run", &r->rel_tol, 0, err));
  AWE_TRY(num(run, "max_step", "run", &r->max_step, 0, err));
  AWE_TRY(num(run, "steady_state_time", "run", &r->steady_state_time, 0, err));
  AWE_TRY(num(run, "min_step", "run", &r->min_step, 0, err));
  AWE_TRY(num(run, "max_wall_time", "run", &r->max_wall_time, 0, err));
  AWE_TRY(num(run, "max_steps", "run", &r->max_steps, 0, err));
  AWE_TRY(num(run, "vsm_dt", "run", &r->vsm_dt, 0, err));
  AWE_TRY(num(run, "vsm_jacobian_tol", "run", &r->vsm_jacobian_tol, 0, err));
  AWE_TRY(num(run, "crash_clearance", "run", &r->crash_clearance, 0, err));
  const awe_ynode *oc = awe_ymap_get(run, "on_crash");
  if (oc && oc->kind != AWE_Y_NULL) {
    const char *ov;
    AWE_TRY(awe_ynode_string(oc, "run.on_crash", &ov, err));
    if (strcmp(ov, "stop") && strcmp(ov, "continue"))
      return awe_err_at(err, AWE_EINVAL, &oc->loc,
                        "run.on_crash: '%s' is not allowed (allowed: stop, continue)", ov);
    r->on_crash_continue = !strcmp(ov, "continue");
  }
  const awe_ynode *v = awe_ymap_get(run, "vsm_interval");
  if (v && v->kind != AWE_Y_NULL) AWE_TRY(awe_ynode_int(v, "run.vsm_interval", &r->vsm_interval, err));
  v = awe_ymap_get(run, "steady_state");
  if (v && v->kind != AWE_Y_NULL) AWE_TRY(awe_ynode_bool(v, "run.steady_state", &r->steady_state, err));
  v = awe_ymap_get(run, "jacobian");
  if (v && v->kind != AWE_Y_NULL) {
    const char *jv;
    AWE_TRY(awe_ynode_string(v, "run.jacobian", &jv, err));
    if (strcmp(jv, "analytic") && strcmp(jv, "fd"))
      return awe_err_at(err, AWE_EINVAL, &v->loc,
                        "run.jacobian: '%s' is not a Jacobian kind (allowed: analytic, fd)", jv);
    r->jacobian_fd = !strcmp(jv, "fd");
  }
  v = awe_ymap_get(run, "solver");
  if (v && v->kind != AWE_Y_NULL) {
    const char *sv;
    AWE_TRY(awe_ynode_string(v, "run.solver", &sv, err));
    if (awe_solver_index(sv) < 0) {
      int ns;
      const char *const *solvers = awe_solver_list(&ns);
      const char *best = awe_closest(sv, solvers, ns);
      return awe_err_at(err, AWE_EINVAL, &v->loc, "run.solver: unknown GSL stepper '%s'%s%s%s "
                        "(allowed: %s)", sv, best ? " (did you mean '" : "", best ? best : "",
                        best ? "'?)" : "", awe_solver_names());
    }
    r->solver = awe_spec_strdup(s, sv);
  }
  /* ranges: positive durations and tolerances; checked here so the position is known.
   * Tolerances below 1e-14 (~50 ulp) cannot be met in double precision: the step size would
   * shrink to nothing (guard.h), so they are refused here instead. */
  const struct { const char *key; double val; double lo, hi; int open_lo; } rng[] = {
      {"duration", r->duration, 0, 1e9, 0},
      {"dt", r->dt, 0, 1e6, 1},
      {"abs_tol", r->abs_tol, 1e-14, 1e3, 0},
      {"rel_tol", r->rel_tol, 1e-14, 1, 0},
      {"max_step", r->max_step, 0, 1e6, 1},
      {"steady_state_time", r->steady_state_time, 0, 1e6, 0},
      {"min_step", r->min_step, 0, 1e3, 1},
      {"max_wall_time", r->max_wall_time, 0, 1e9, 1},
      {"max_steps", r->max_steps, 1, 1e15, 0},
      /* like a controller period: refreshes are integrator stops, resolved to 1 us (and a
       * refresh count k = t / vsm_dt must fit a long) */
      {"vsm_dt", r->vsm_dt, 1e-6, 1e6, 0},
      {"vsm_jacobian_tol", r->vsm_jacobian_tol, 0, 0.1, 0},
      {"crash_clearance", r->crash_clearance, -100, 1000, 0},
  };
  for (int i = 0; i < AWE_ARRLEN(rng); i++) {
    if (isnan(rng[i].val)) continue;
    int bad = rng[i].open_lo ? !(rng[i].val > rng[i].lo) : !(rng[i].val >= rng[i].lo);
    bad = bad || rng[i].val > rng[i].hi;
    if (bad) {
      const awe_ynode *n = awe_ymap_get(run, rng[i].key);
      return awe_err_at(err, AWE_EINVAL, n ? &n->loc : &run->loc,
                        "run.%s: %s is out of range (allowed: %s %s ... %s)%s", rng[i].key,
                        awe_num_str(rng[i].val).s, rng[i].open_lo ? ">" : ">=",
                        awe_num_str(rng[i].lo).s, awe_num_str(rng[i].hi).s,
                        strstr(rng[i].key, "_tol") && rng[i].lo > 0.0 && rng[i].val < rng[i].lo
                            ? ": a tolerance below 1e-14 cannot be met in double precision"
                            : "");
    }
  }
  /* a count: 1.5 steps is no limit anyone meant */
  if (!isnan(r->max_steps) && r->max_steps != floor(r->max_steps)) {
    const awe_ynode *n = awe_ymap_get(run, "max_steps");
    return awe_err_at(err, AWE_EINVAL, &n->loc, "run.max_steps: expected a whole number of "
                      "steps, got %s", awe_num_str(r->max_steps).s);
  }
  const awe_ynode *vi = awe_ymap_get(run, "vsm_interval"), *vd = awe_ymap_get(run, "vsm_dt");
  if (vi && vd && vi->kind != AWE_Y_NULL && vd->kind != AWE_Y_NULL)
    return awe_err_at(err, AWE_EINVAL, &vd->loc,
                      "run.vsm_dt: give either vsm_interval (log steps) or vsm_dt (seconds) "
                      "between aerodynamic refreshes, not both");
  if (r->vsm_interval < 0) {
    const awe_ynode *n = awe_ymap_get(run, "vsm_interval");
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "run.vsm_interval: %d is out of range (allowed: 0 = only at init, or >= 1)",
                      r->vsm_interval);
  }
  return AWE_OK;
}


static awe_status read_input(awe_spec *s, const awe_ynode *n, int idx, awe_input_spec *in,
                             awe_err *err) {
  char sec[64];
  snprintf(sec, sizeof(sec), "inputs[%d]", idx + 1);
  if (n->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "%s: expected a mapping {input: GROUP.NAME.VAR, type: ..., ...}", sec);
  in->loc = n->loc;
  const awe_ynode *ch = awe_ymap_get(n, "input");
  if (!ch) return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: 'input' (channel name) is required", sec);
  const char *chs;
  char w[96];
  snprintf(w, sizeof(w), "%s.input", sec);
  AWE_TRY(awe_ynode_string(ch, w, &chs, err));
  in->channel = awe_spec_strdup(s, chs);
  return awe_spec_read_signal(s, n, sec, in, err);
}


awe_status awe_spec_read_signal(awe_spec *s, const awe_ynode *n, const char *sec,
                                awe_input_spec *in, awe_err *err) {
  char w[256];
  in->loc = n->loc;
  const awe_ynode *ty = awe_ymap_get(n, "type");
  const char *tys = "constant";
  snprintf(w, sizeof(w), "%s.type", sec);
  if (ty) AWE_TRY(awe_ynode_string(ty, w, &tys, err));
  static const char *const types[] = {"constant", "step", "ramp", "sine", "table"};
  int t = -1;
  for (int i = 0; i < 5; i++)
    if (!strcmp(tys, types[i])) t = i;
  if (t < 0) {
    const char *best = awe_closest(tys, types, 5);
    return awe_err_at(err, AWE_EINVAL, &ty->loc,
                      "%s: unknown type '%s'%s%s%s (allowed: constant, step, ramp, sine, table)",
                      w, tys, best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
  }
  in->type = (awe_signal_type)t;
  switch (in->type) {
    case AWE_SIG_CONSTANT: {
      static const char *const k[] = {"input", "type", "value"};
      AWE_TRY(awe_ymap_check_keys(n, sec, k, AWE_ARRLEN(k), err));
      AWE_TRY(num(n, "value", sec, &in->value, 1, err));
      break;
    }
    case AWE_SIG_STEP: {
      static const char *const k[] = {"input", "type", "t0", "before", "after"};
      AWE_TRY(awe_ymap_check_keys(n, sec, k, AWE_ARRLEN(k), err));
      AWE_TRY(num(n, "t0", sec, &in->t0, 1, err));
      AWE_TRY(num(n, "before", sec, &in->before, 0, err));
      AWE_TRY(num(n, "after", sec, &in->after, 1, err));
      break;
    }
    case AWE_SIG_RAMP: {
      static const char *const k[] = {"input", "type", "t_start", "t_end", "from", "to"};
      AWE_TRY(awe_ymap_check_keys(n, sec, k, AWE_ARRLEN(k), err));
      AWE_TRY(num(n, "t_start", sec, &in->t_start, 1, err));
      AWE_TRY(num(n, "t_end", sec, &in->t_end, 1, err));
      AWE_TRY(num(n, "from", sec, &in->from, 0, err));
      AWE_TRY(num(n, "to", sec, &in->to, 1, err));
      if (!(in->t_end > in->t_start))
        return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: t_end (%g) must be after t_start (%g)",
                          sec, in->t_end, in->t_start);
      break;
    }
    case AWE_SIG_SINE: {
      static const char *const k[] = {"input", "type", "amplitude", "frequency", "phase",
                                      "offset"};
      AWE_TRY(awe_ymap_check_keys(n, sec, k, AWE_ARRLEN(k), err));
      AWE_TRY(num(n, "amplitude", sec, &in->amplitude, 1, err));
      AWE_TRY(num(n, "frequency", sec, &in->frequency, 1, err));
      AWE_TRY(num(n, "phase", sec, &in->phase, 0, err));
      AWE_TRY(num(n, "offset", sec, &in->offset, 0, err));
      if (in->frequency < 0)
        return awe_err_at(err, AWE_EINVAL, &awe_ymap_get(n, "frequency")->loc,
                          "%s.frequency: must be >= 0 Hz, got %g", sec, in->frequency);
      break;
    }
    case AWE_SIG_TABLE: {
      static const char *const k[] = {"input", "type", "time", "value"};
      AWE_TRY(awe_ymap_check_keys(n, sec, k, AWE_ARRLEN(k), err));
      const awe_ynode *tt = awe_ymap_get(n, "time"), *vv = awe_ymap_get(n, "value");
      if (!tt || !vv || tt->kind != AWE_Y_SEQ || vv->kind != AWE_Y_SEQ || tt->n != vv->n ||
          tt->n < 1)
        return awe_err_at(err, AWE_EINVAL, &n->loc,
                          "%s: a table needs 'time' and 'value' lists of equal, non-zero length",
                          sec);
      in->ntable = tt->n;
      in->table_t = awe_spec_alloc(s, sizeof(double) * (size_t)tt->n);
      in->table_v = awe_spec_alloc(s, sizeof(double) * (size_t)tt->n);
      if (!in->table_t || !in->table_v) return awe_err_set(err, AWE_ENOMEM, "out of memory");
      for (int i = 0; i < tt->n; i++) {
        snprintf(w, sizeof(w), "%s.time[%d]", sec, i);
        AWE_TRY(awe_ynode_double(tt->items[i], w, &in->table_t[i], err));
        snprintf(w, sizeof(w), "%s.value[%d]", sec, i);
        AWE_TRY(awe_ynode_double(vv->items[i], w, &in->table_v[i], err));
        /* a repeated time is a jump: the later value holds from that time on */
        if (i > 0 && !(in->table_t[i] >= in->table_t[i - 1]))
          return awe_err_at(err, AWE_EINVAL, &tt->items[i]->loc,
                            "%s.time: times must not decrease (%g after %g)", sec,
                            in->table_t[i], in->table_t[i - 1]);
        if (i > 1 && in->table_t[i] == in->table_t[i - 2])
          return awe_err_at(err, AWE_EINVAL, &tt->items[i]->loc,
                            "%s.time: a time may appear at most twice (a jump)", sec);
      }
      break;
    }
  }
  return AWE_OK;
}


/* transforms: {NAME: {elevation, azimuth, heading, elevation_vel, azimuth_vel, turn_rate}}
 * overrides the placement of the structure's transforms (degrees, degrees/s, as there) */
static awe_status read_transforms(awe_spec *s, const awe_ynode *tr, awe_err *err) {
  if (!tr || tr->kind == AWE_Y_NULL) return AWE_OK;
  if (tr->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &tr->loc,
                      "transforms: expected a mapping of transform names to overrides");
  awe_struct_spec *ss = &s->structure;
  for (int i = 0; i < tr->n; i++) {
    const char *name = tr->keys[i]->str;
    const awe_ynode *v = tr->items[i];
    awe_transform_spec *T = NULL;
    for (int k = 0; k < ss->ntransform; k++)
      if (ss->transforms[k].name && !strcmp(ss->transforms[k].name, name)) T = &ss->transforms[k];
    if (!T) {
      const char *names[64];
      int n = 0;
      for (int k = 0; k < ss->ntransform && n < 64; k++)
        if (ss->transforms[k].name) names[n++] = ss->transforms[k].name;
      const char *best = n ? awe_closest(name, names, n) : NULL;
      return awe_err_at(err, AWE_EINVAL, &v->loc, "transforms: the structure has no transform "
                        "'%s'%s%s%s", name, best ? " (did you mean '" : "", best ? best : "",
                        best ? "'?)" : "");
    }
    char sec[200];
    snprintf(sec, sizeof(sec), "transforms.%s", name);
    if (v->kind != AWE_Y_MAP)
      return awe_err_at(err, AWE_EINVAL, &v->loc, "%s: expected a mapping", sec);
    static const char *const k[] = {"elevation", "azimuth", "heading", "elevation_vel",
                                    "azimuth_vel", "turn_rate"};
    AWE_TRY(awe_ymap_check_keys(v, sec, k, AWE_ARRLEN(k), err));
    double *dst[6] = {&T->elevation, &T->azimuth, &T->heading, &T->elevation_vel,
                      &T->azimuth_vel, &T->turn_rate};
    for (int j = 0; j < 6; j++) {
      double x = NAN;
      AWE_TRY(num(v, k[j], sec, &x, 0, err));
      if (!isnan(x)) *dst[j] = x * M_PI / 180.0;
      if (!isnan(x) && j < 3) T->angle_loc[j] = awe_ymap_get(v, k[j])->loc;
    }
  }
  return AWE_OK;
}


/* ground: {enabled, height, frequency, damping_ratio, friction, friction_speed} */
static awe_status read_ground(awe_spec *s, const awe_ynode *gn, awe_err *err) {
  awe_ground_spec *g = &s->scenario.ground;
  g->enabled = -1;
  g->height = 0.0;
  g->frequency = AWE_GROUND_FREQUENCY;
  g->damping_ratio = AWE_GROUND_DAMPING_RATIO;
  g->friction = AWE_GROUND_FRICTION;
  g->friction_speed = AWE_GROUND_FRICTION_SPEED;
  if (!gn || gn->kind == AWE_Y_NULL) return AWE_OK;
  if (gn->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &gn->loc, "ground: expected a mapping");
  g->loc = gn->loc;
  static const char *const keys[] = {"enabled", "height", "frequency", "damping_ratio",
                                     "friction", "friction_speed"};
  AWE_TRY(awe_ymap_check_keys(gn, "ground", keys, AWE_ARRLEN(keys), err));
  const awe_ynode *v = awe_ymap_get(gn, "enabled");
  if (v && v->kind != AWE_Y_NULL) AWE_TRY(awe_ynode_bool(v, "ground.enabled", &g->enabled, err));
  double *dst[5] = {&g->height, &g->frequency, &g->damping_ratio, &g->friction,
                    &g->friction_speed};
  /* ranges: a contact period below 1 ms or above 100 s is a slip, not a ground */
  static const double lo[5] = {-1e5, 0.01, 0.0, 0.0, 1e-6}, hi[5] = {1e5, 1000.0, 10.0, 10.0, 10.0};
  for (int j = 0; j < 5; j++) {
    AWE_TRY(num(gn, keys[j + 1], "ground", dst[j], 0, err));
    if (!(*dst[j] >= lo[j] && *dst[j] <= hi[j])) {
      const awe_ynode *n = awe_ymap_get(gn, keys[j + 1]);
      return awe_err_at(err, AWE_EINVAL, n ? &n->loc : &gn->loc,
                        "ground.%s: %g is out of range (allowed: %g ... %g)", keys[j + 1],
                        *dst[j], lo[j], hi[j]);
    }
  }
  return AWE_OK;
}


/* wings: {NAME: {aero_mode, angular_damping, y_damping, unsteady}} overrides the structure's
 * wings */
static awe_status read_wing_overrides(awe_spec *s, const awe_ynode *wn, awe_err *err) {
  if (!wn || wn->kind == AWE_Y_NULL) return AWE_OK;
  if (wn->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &wn->loc,
                      "wings: expected a mapping of wing names to overrides");
  awe_struct_spec *ss = &s->structure;
  for (int i = 0; i < wn->n; i++) {
    const char *name = wn->keys[i]->str;
    const awe_ynode *v = wn->items[i];
    awe_wing_spec *W = NULL;
    for (int k = 0; k < ss->nwing; k++)
      if (ss->wings[k].name && !strcmp(ss->wings[k].name, name)) W = &ss->wings[k];
    if (!W) {
      const char *names[64];
      int n = 0;
      for (int k = 0; k < ss->nwing && n < 64; k++)
        if (ss->wings[k].name) names[n++] = ss->wings[k].name;
      const char *best = n ? awe_closest(name, names, n) : NULL;
      return awe_err_at(err, AWE_EINVAL, &v->loc, "wings: the structure has no wing '%s'%s%s%s",
                        name, best ? " (did you mean '" : "", best ? best : "",
                        best ? "'?)" : "");
    }
    char sec[200];
    snprintf(sec, sizeof(sec), "wings.%s", name);
    if (v->kind != AWE_Y_MAP)
      return awe_err_at(err, AWE_EINVAL, &v->loc, "%s: expected a mapping", sec);
    static const char *const k[] = {"aero_mode", "angular_damping", "y_damping", "unsteady"};
    AWE_TRY(awe_ymap_check_keys(v, sec, k, AWE_ARRLEN(k), err));
    const awe_ynode *am = awe_ymap_get(v, "aero_mode");
    if (am && am->kind != AWE_Y_NULL) {
      char w[240];
      snprintf(w, sizeof(w), "%s.aero_mode", sec);
      AWE_TRY(awe_spec_parse_aero_mode(am, w, &W->aero_mode, err));
    }
    char us[240];
    snprintf(us, sizeof(us), "%s.unsteady", sec);
    AWE_TRY(awe_spec_parse_unsteady(awe_ymap_get(v, "unsteady"), us, W, err));
    AWE_TRY(num(v, "angular_damping", sec, &W->angular_damping, 0, err));
    AWE_TRY(num(v, "y_damping", sec, &W->y_damping, 0, err));
    static const char *const dk[2] = {"angular_damping", "y_damping"};
    for (int j = 0; j < 2; j++) { /* where a damping was set, for model_validate's warning */
      const awe_ynode *d = awe_ymap_get(v, dk[j]);
      if (d && d->kind != AWE_Y_NULL) {
        W->damping_loc[j] = d->loc;
        W->has_angular_damping_vec = 0; /* the scalar pair [a, a + y, a] again */
      }
    }
  }
  return AWE_OK;
}


/* output.channels, output.compression, output.compression_level */
static awe_status read_output_log(awe_spec *s, const awe_ynode *out, awe_err *err) {
  awe_scenario_spec *sc = &s->scenario;
  const awe_ynode *ch = awe_ymap_get(out, "channels");
  if (ch && ch->kind != AWE_Y_NULL) {
    if (ch->kind != AWE_Y_SEQ || ch->n < 1)
      return awe_err_at(err, AWE_EINVAL, &ch->loc,
                        "output.channels: expected a list of channel globs, e.g. "
                        "[\"winches/*\", \"wings/kite/elevation\"]");
    sc->channels = awe_spec_alloc(s, sizeof(char *) * (size_t)ch->n);
    sc->channels_loc = awe_spec_alloc(s, sizeof(awe_loc) * (size_t)ch->n);
    if (!sc->channels || !sc->channels_loc) return awe_err_set(err, AWE_ENOMEM, "out of memory");
    for (int i = 0; i < ch->n; i++) {
      const char *p;
      AWE_TRY(awe_ynode_string(ch->items[i], "output.channels", &p, err));
      if (!p[0] || strlen(p) > 250)
        return awe_err_at(err, AWE_EINVAL, &ch->items[i]->loc,
                          "output.channels: %s channel pattern", p[0] ? "too long a" : "empty");
      sc->channels[i] = awe_spec_strdup(s, p);
      sc->channels_loc[i] = ch->items[i]->loc;
    }
    sc->nchannels = ch->n;
  }
  const awe_ynode *c = awe_ymap_get(out, "compression");
  if (c && c->kind != AWE_Y_NULL) {
    const char *p;
    AWE_TRY(awe_ynode_string(c, "output.compression", &p, err));
    if (!strcmp(p, "none")) sc->compression = AWE_LOG_COMPRESS_NONE;
    else if (!strcmp(p, "deflate") || !strcmp(p, "gzip")) sc->compression = AWE_LOG_COMPRESS_DEFLATE;
    else if (!strcmp(p, "shuffle+deflate")) sc->compression = AWE_LOG_COMPRESS_SHUFFLE_DEFLATE;
    else
      return awe_err_at(err, AWE_EINVAL, &c->loc,
                        "output.compression: \"%s\" is not one of none, deflate, "
                        "shuffle+deflate", p);
  }
  sc->compression_level = sc->compression ? 4 : 0;
  const awe_ynode *lv = awe_ymap_get(out, "compression_level");
  if (lv && lv->kind != AWE_Y_NULL) {
    int k;
    AWE_TRY(awe_ynode_int(lv, "output.compression_level", &k, err));
    if (k < 1 || k > 9)
      return awe_err_at(err, AWE_EINVAL, &lv->loc,
                        "output.compression_level: %d is outside 1..9", k);
    if (!sc->compression)
      return awe_err_at(err, AWE_EINVAL, &lv->loc,
                        "output.compression_level: the log is not compressed; set "
                        "output.compression: deflate or shuffle+deflate");
    sc->compression_level = k;
  }
  return AWE_OK;
}


/* a scenario's top-level keys (awesim-scenario(5)) */
static const char *const SCENARIO_KEYS[] = {"awesim",     "name",  "description", "model",
                                            "settings",   "transforms", "wings", "run",
                                            "inputs",     "output", "controllers",
                                            "kcu",        "tethers",
                                            "ground",     "wind"};


awe_status awe_spec_check_scenario_keys(const awe_ynode *root, awe_err *err) {
  return awe_ymap_check_keys(root, "scenario", SCENARIO_KEYS, AWE_ARRLEN(SCENARIO_KEYS), err);
}


awe_status awe_spec_read_scenario(awe_spec *s, const awe_ynode *root, awe_err *err) {
  awe_scenario_spec *sc = &s->scenario;
  AWE_TRY(awe_spec_check_scenario_keys(root, err));
  AWE_TRY(read_run(s, awe_ymap_get(root, "run"), err));
  /* settings.initial first: the named overrides (transforms:, tethers:) win over it */
  AWE_TRY(awe_spec_read_tethers(s, root, err));
  AWE_TRY(read_ground(s, awe_ymap_get(root, "ground"), err));
  AWE_TRY(read_transforms(s, awe_ymap_get(root, "transforms"), err));
  AWE_TRY(read_wing_overrides(s, awe_ymap_get(root, "wings"), err));
  AWE_TRY(awe_spec_read_kcu(s, awe_ymap_get(root, "kcu"), err));
  AWE_TRY(awe_spec_read_wind(s, awe_ymap_get(root, "wind"), err));

  const awe_ynode *in = awe_ymap_get(root, "inputs");
  if (in && in->kind != AWE_Y_NULL) {
    if (in->kind != AWE_Y_SEQ)
      return awe_err_at(err, AWE_EINVAL, &in->loc, "inputs: expected a list of input signals");
    sc->ninput = in->n;
    sc->inputs = awe_spec_alloc(s, sizeof(awe_input_spec) * (size_t)(in->n + 1));
    if (!sc->inputs) return awe_err_set(err, AWE_ENOMEM, "out of memory");
    for (int i = 0; i < in->n; i++) AWE_TRY(read_input(s, in->items[i], i, &sc->inputs[i], err));
  }

  AWE_TRY(awe_spec_read_controllers(s, awe_ymap_get(root, "controllers"), err));

  const awe_ynode *out = awe_ymap_get(root, "output");
  if (out && out->kind != AWE_Y_NULL) {
    if (out->kind != AWE_Y_MAP) return awe_err_at(err, AWE_EINVAL, &out->loc, "output: expected a mapping");
    static const char *const ok[] = {"hdf5", "csv", "channels", "compression",
                                     "compression_level"};
    AWE_TRY(awe_ymap_check_keys(out, "output", ok, (int)AWE_ARRLEN(ok), err));
    AWE_TRY(read_output_log(s, out, err));
    const awe_ynode *h = awe_ymap_get(out, "hdf5");
    if (h && h->kind != AWE_Y_NULL) {
      const char *p;
      AWE_TRY(awe_ynode_string(h, "output.hdf5", &p, err));
      if (!p[0]) return awe_err_at(err, AWE_EINVAL, &h->loc, "output.hdf5: empty file name");
      sc->hdf5 = awe_spec_path_join(s, sc->path, p);
    }
    const awe_ynode *c = awe_ymap_get(out, "csv");
    if (c && c->kind != AWE_Y_NULL) {
      const char *p;
      AWE_TRY(awe_ynode_string(c, "output.csv", &p, err));
      sc->csv = awe_spec_strdup(s, p);
    }
  }
  return AWE_OK;
}
