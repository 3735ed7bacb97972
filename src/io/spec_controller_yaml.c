/* spec_controller_yaml.c: the scenario's `controllers:` list (schema 1) -> awe_controller_spec.
 *
 * Only the form and the ranges are checked here (each with file:line:col); channel names are
 * resolved against the model's registry when the model is built (controller.c), where the
 * did-you-mean suggestions come from the registry.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/spec_load.h"


static const char *const TYPES[] = {"pid", "figure_eight", "pumping", "external"};


static awe_status opt_num(const awe_ynode *map, const char *key, const char *sec, double *out,
                          awe_err *err) {
  const awe_ynode *v = awe_ymap_get(map, key);
  if (!v || v->kind == AWE_Y_NULL) return AWE_OK;
  char w[256];
  snprintf(w, sizeof(w), "%s.%s", sec, key);
  return awe_ynode_double(v, w, out, err);
}


/* a number that must be >= 0 (gains, rates) or > 0 (periods, times) */
static awe_status nonneg(const awe_ynode *map, const char *key, const char *sec, double *out,
                         int strict, awe_err *err) {
  AWE_TRY(opt_num(map, key, sec, out, err));
  const awe_ynode *v = awe_ymap_get(map, key);
  if (v && v->kind != AWE_Y_NULL && (strict ? !(*out > 0.0) : !(*out >= 0.0)))
    return awe_err_at(err, AWE_EINVAL, &v->loc, "%s.%s: %s is out of range (allowed: %s 0)", sec,
                      key, awe_num_str(*out).s, strict ? ">" : ">=");
  return AWE_OK;
}


static awe_status req(const awe_ynode *map, const char *key, const char *sec, double *out,
                      awe_err *err) {
  const awe_ynode *v = awe_ymap_get(map, key);
  if (!v || v->kind == AWE_Y_NULL)
    return awe_err_at(err, AWE_EINVAL, &map->loc, "%s: '%s' is required", sec, key);
  return opt_num(map, key, sec, out, err);
}


static awe_status str(awe_spec *s, const awe_ynode *map, const char *key, const char *sec,
                      const char **out, awe_err *err) {
  const awe_ynode *v = awe_ymap_get(map, key);
  if (!v || v->kind == AWE_Y_NULL) return AWE_OK;
  char w[256];
  snprintf(w, sizeof(w), "%s.%s", sec, key);
  const char *x;
  AWE_TRY(awe_ynode_string(v, w, &x, err));
  if (!x[0]) return awe_err_at(err, AWE_EINVAL, &v->loc, "%s: empty", w);
  *out = awe_spec_strdup(s, x);
  return *out ? AWE_OK : awe_err_set(err, AWE_ENOMEM, "out of memory");
}


/* measure: one channel name or a list of them */
static awe_status read_measure(awe_spec *s, const awe_ynode *n, const char *sec,
                               awe_controller_spec *c, awe_err *err) {
  if (!n || n->kind == AWE_Y_NULL) return AWE_OK;
  int cnt = n->kind == AWE_Y_SEQ ? n->n : 1;
  if (n->kind == AWE_Y_MAP || cnt < 1)
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "%s.measure: expected an output channel name or a list of them", sec);
  c->measure = awe_spec_alloc(s, sizeof(char *) * (size_t)cnt);
  c->measure_loc = awe_spec_alloc(s, sizeof(awe_loc) * (size_t)cnt);
  if (!c->measure || !c->measure_loc) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < cnt; i++) {
    const awe_ynode *it = n->kind == AWE_Y_SEQ ? n->items[i] : n;
    char w[256];
    snprintf(w, sizeof(w), "%s.measure", sec);
    const char *x;
    AWE_TRY(awe_ynode_string(it, w, &x, err));
    c->measure[i] = awe_spec_strdup(s, x);
    c->measure_loc[i] = it->loc;
  }
  c->nmeasure = cnt;
  return AWE_OK;
}


/* output: {channel: gain, ...}, or a list of channels (gain 1) */
static awe_status read_output(awe_spec *s, const awe_ynode *n, const char *sec,
                              awe_controller_spec *c, awe_err *err) {
  if (!n || n->kind == AWE_Y_NULL || n->kind == AWE_Y_SCALAR || n->n < 1)
    return awe_err_at(err, AWE_EINVAL, n ? &n->loc : &c->loc,
                      "%s.output: expected input channels, {CHANNEL: GAIN, ...} or a list", sec);
  int cnt = n->n;
  c->output = awe_spec_alloc(s, sizeof(char *) * (size_t)cnt);
  c->output_loc = awe_spec_alloc(s, sizeof(awe_loc) * (size_t)cnt);
  c->gain = awe_spec_alloc(s, sizeof(double) * (size_t)cnt);
  if (!c->output || !c->output_loc || !c->gain) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  char w[256];
  for (int i = 0; i < cnt; i++) {
    const awe_ynode *key = n->kind == AWE_Y_MAP ? n->keys[i] : n->items[i];
    snprintf(w, sizeof(w), "%s.output", sec);
    const char *x;
    AWE_TRY(awe_ynode_string(key, w, &x, err));
    c->output[i] = awe_spec_strdup(s, x);
    c->output_loc[i] = key->loc;
    c->gain[i] = 1.0;
    if (n->kind == AWE_Y_MAP) {
      snprintf(w, sizeof(w), "%s.output.%s", sec, x);
      AWE_TRY(awe_ynode_double(n->items[i], w, &c->gain[i], err));
    }
    for (int k = 0; k < i; k++)
      if (!strcmp(c->output[k], c->output[i]))
        return awe_err_at(err, AWE_EINVAL, &key->loc, "%s.output: channel '%s' is listed twice",
                          sec, x);
  }
  c->noutput = cnt;
  return AWE_OK;
}


static awe_status read_setpoint(awe_spec *s, const awe_ynode *n, const char *sec,
                                awe_controller_spec *c, awe_err *err) {
  awe_input_spec *sp = &c->setpoint;
  sp->type = AWE_SIG_CONSTANT;
  sp->value = 0.0;
  if (!n || n->kind == AWE_Y_NULL) return AWE_OK;
  char w[256];
  snprintf(w, sizeof(w), "%s.setpoint", sec);
  sp->loc = n->loc;
  if (n->kind == AWE_Y_SCALAR) return awe_ynode_double(n, w, &sp->value, err);
  if (n->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "%s: expected a number or an input signal {type: step|ramp|sine|table, ...}",
                      w);
  if (awe_ymap_get(n, "input"))
    return awe_err_at(err, AWE_EINVAL, &awe_ymap_get(n, "input")->loc,
                      "%s: a set-point signal has no 'input' key (the controller measures "
                      "'measure')", w);
  return awe_spec_read_signal(s, n, w, sp, err);
}


/* figure_eight's turns: up (the default: Fechner's up-loops, climbing away from the ground) or
 * down (the 2019 V3 flight's: every turn descends, the kite climbs through the centre) */
static awe_status read_f8_turns(const awe_ynode *tu, const char *sec, awe_controller_spec *c,
                                awe_err *err) {
  c->f8_down_turns = 0;
  if (!tu || tu->kind == AWE_Y_NULL) return AWE_OK;
  static const char *const TURNS[] = {"up", "down"};
  char w[220];
  const char *ts;
  snprintf(w, sizeof(w), "%s.turns", sec);
  AWE_TRY(awe_ynode_string(tu, w, &ts, err));
  if (!strcmp(ts, "down")) {
    c->f8_down_turns = 1;
  } else if (strcmp(ts, "up") != 0) {
    const char *best = awe_closest(ts, TURNS, AWE_ARRLEN(TURNS));
    return awe_err_at(err, AWE_EINVAL, &tu->loc,
                      "%s: unknown turns '%s'%s%s%s (allowed: up, the turns climb; down, they "
                      "descend)", w, ts, best ? " (did you mean '" : "", best ? best : "",
                      best ? "'?)" : "");
  }
  return AWE_OK;
}


/* figure_eight's reel-in target: phase (a channel), reel_in_elevation [deg] (both or neither),
 * reel_in_azimuth [deg] (default 0) */
static awe_status read_f8_reel_in(awe_spec *s, const awe_ynode *n, const char *sec,
                                  awe_controller_spec *c, awe_err *err) {
  AWE_TRY(str(s, n, "phase", sec, &c->f8_phase, err));
  AWE_TRY(opt_num(n, "reel_in_elevation", sec, &c->f8_in_elevation, err));
  c->f8_in_azimuth = 0.0;
  AWE_TRY(opt_num(n, "reel_in_azimuth", sec, &c->f8_in_azimuth, err));
  const awe_ynode *ph = awe_ymap_get(n, "phase"), *el = awe_ymap_get(n, "reel_in_elevation");
  const awe_ynode *az = awe_ymap_get(n, "reel_in_azimuth");
  if (!c->f8_phase && (el || az))
    return awe_err_at(err, AWE_EINVAL, &(el ? el : az)->loc,
                      "%s: reel_in_elevation/reel_in_azimuth need 'phase' (the channel that "
                      "says reel-in, e.g. controllers.pump.phase)", sec);
  if (!c->f8_phase) return AWE_OK;
  c->f8_phase_loc = ph->loc;
  if (!el)
    return awe_err_at(err, AWE_EINVAL, &ph->loc, "%s: 'phase' needs 'reel_in_elevation' [deg]",
                      sec);
  if (!(c->f8_in_elevation > 0.0 && c->f8_in_elevation < 90.0))
    return awe_err_at(err, AWE_EINVAL, &el->loc,
                      "%s.reel_in_elevation: %s deg is out of range (allowed: 0 < e < 90)", sec,
                      awe_num_str(c->f8_in_elevation).s);
  if (!(fabs(c->f8_in_azimuth) < 90.0))
    return awe_err_at(err, AWE_EINVAL, &az->loc,
                      "%s.reel_in_azimuth: %s deg is out of range (allowed: -90 < a < 90)", sec,
                      awe_num_str(c->f8_in_azimuth).s);
  c->f8_in_azimuth *= M_PI / 180.0;
  c->f8_in_elevation *= M_PI / 180.0;
  return AWE_OK;
}


static awe_status read_one(awe_spec *s, const awe_ynode *n, int idx, awe_controller_spec *c,
                           awe_err *err) {
  char sec[200];
  snprintf(sec, sizeof(sec), "controllers[%d]", idx);
  if (n->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "%s: expected a mapping {name: ..., type: pid|figure_eight|pumping|external, "
                      "...}", sec);
  c->loc = n->loc;
  c->period = NAN;
  c->d_filter = NAN;
  c->rate_limit = NAN;
  c->limits[0] = -INFINITY;
  c->limits[1] = INFINITY;
  c->timeout = 10.0;
  c->f8_azimuth = c->f8_elevation = c->f8_turn_azimuth = NAN;
  c->f8_in_azimuth = c->f8_in_elevation = NAN;
  c->f8_phase = NULL;
  c->reel_out_force = c->reel_in_speed = c->min_length = c->max_length = NAN;
  c->depower = 0.0;
  c->force_bandwidth = 1.0;
  c->force_kp = c->ramp_time = c->kv = c->reel_in_force = 0.0;
  const awe_ynode *nm = awe_ymap_get(n, "name");
  if (!nm || nm->kind == AWE_Y_NULL)
    return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: 'name' is required", sec);
  AWE_TRY(str(s, n, "name", sec, &c->name, err));
  for (const char *p = c->name; *p; p++)
    if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9')))
      return awe_err_at(err, AWE_EINVAL, &nm->loc,
                        "%s.name: '%s' may contain only letters, digits and '_' (it names the "
                        "channels controllers.NAME.*)", sec, c->name);
  snprintf(sec, sizeof(sec), "controllers.%s", c->name);
  const awe_ynode *ty = awe_ymap_get(n, "type");
  if (!ty || ty->kind == AWE_Y_NULL)
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "%s: 'type' is required (pid, figure_eight, pumping, external)", sec);
  const char *tys;
  char w[256];
  snprintf(w, sizeof(w), "%s.type", sec);
  AWE_TRY(awe_ynode_string(ty, w, &tys, err));
  int t = -1;
  for (int i = 0; i < AWE_ARRLEN(TYPES); i++)
    if (!strcmp(tys, TYPES[i])) t = i;
  if (t < 0) {
    const char *best = awe_closest(tys, TYPES, AWE_ARRLEN(TYPES));
    return awe_err_at(err, AWE_EINVAL, &ty->loc,
                      "%s: unknown controller type '%s'%s%s%s (allowed: pid, figure_eight, "
                      "pumping, external)", w, tys, best ? " (did you mean '" : "",
                      best ? best : "", best ? "'?)" : "");
  }
  c->type = (awe_ctrl_type)t;
  static const char *const k_pid[] = {"name",  "type",     "period", "measure", "setpoint",
                                      "wrap",  "kp",       "ki",     "kd",      "d_filter",
                                      "limits", "rate_limit", "output", "hold"};
  static const char *const k_f8[] = {"name", "type", "period", "wing", "azimuth", "elevation",
                                     "turn_azimuth", "kp", "ki", "kd", "d_filter", "limits",
                                     "rate_limit", "output", "phase", "reel_in_azimuth",
                                     "reel_in_elevation", "hold", "turns"};
  static const char *const k_pump[] = {"name", "type", "period", "winch", "reel_out_force",
                                       "reel_in_speed", "min_length", "max_length", "kp", "ki",
                                       "limits", "depower", "output", "hold",
                                       "force_bandwidth", "force_kp", "ramp_time", "kv",
                                       "reel_in_force"};
  static const char *const k_ext[] = {"name", "type", "period", "command", "measure", "output",
                                      "timeout", "hold"};
  if (c->type == AWE_CTRL_PID) AWE_TRY(awe_ymap_check_keys(n, sec, k_pid, AWE_ARRLEN(k_pid), err));
  if (c->type == AWE_CTRL_FIGURE_EIGHT)
    AWE_TRY(awe_ymap_check_keys(n, sec, k_f8, AWE_ARRLEN(k_f8), err));
  if (c->type == AWE_CTRL_PUMPING)
    AWE_TRY(awe_ymap_check_keys(n, sec, k_pump, AWE_ARRLEN(k_pump), err));
  if (c->type == AWE_CTRL_EXTERNAL)
    AWE_TRY(awe_ymap_check_keys(n, sec, k_ext, AWE_ARRLEN(k_ext), err));

  AWE_TRY(nonneg(n, "period", sec, &c->period, 1, err));
  c->period_loc = awe_ymap_get(n, "period") ? awe_ymap_get(n, "period")->loc : n->loc;
  AWE_TRY(nonneg(n, "kp", sec, &c->kp, 0, err));
  AWE_TRY(nonneg(n, "ki", sec, &c->ki, 0, err));
  AWE_TRY(nonneg(n, "kd", sec, &c->kd, 0, err));
  AWE_TRY(nonneg(n, "d_filter", sec, &c->d_filter, 0, err));
  AWE_TRY(nonneg(n, "rate_limit", sec, &c->rate_limit, 1, err));
  /* finite and bounded like run.max_wall_time: a wait for a reply must end */
  AWE_TRY(opt_num(n, "timeout", sec, &c->timeout, err));
  const awe_ynode *to = awe_ymap_get(n, "timeout");
  if (to && to->kind != AWE_Y_NULL && !(c->timeout > 0.0 && c->timeout <= AWE_CTRL_MAX_TIMEOUT))
    return awe_err_at(err, AWE_EINVAL, &to->loc, "%s.timeout: %g is out of range (allowed: > 0 "
                      "... %g s)", sec, c->timeout, AWE_CTRL_MAX_TIMEOUT);
  const awe_ynode *ho = awe_ymap_get(n, "hold");
  if (ho && ho->kind != AWE_Y_NULL) {
    static const char *const HOLDS[] = {"zero", "ramp"};
    const char *hs;
    snprintf(w, sizeof(w), "%s.hold", sec);
    AWE_TRY(awe_ynode_string(ho, w, &hs, err));
    if (!strcmp(hs, "ramp")) {
      c->hold = AWE_HOLD_RAMP;
    } else if (strcmp(hs, "zero") != 0) {
      const char *best = awe_closest(hs, HOLDS, AWE_ARRLEN(HOLDS));
      return awe_err_at(err, AWE_EINVAL, &ho->loc,
                        "%s: unknown hold '%s'%s%s%s (allowed: zero, the output held between "
                        "samples; ramp, moved linearly to the new value over one period)", w, hs,
                        best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
    }
  }
  const awe_ynode *wr = awe_ymap_get(n, "wrap");
  if (wr && wr->kind != AWE_Y_NULL) {
    snprintf(w, sizeof(w), "%s.wrap", sec);
    AWE_TRY(awe_ynode_bool(wr, w, &c->wrap, err));
  }
  const awe_ynode *li = awe_ymap_get(n, "limits");
  if (li && li->kind != AWE_Y_NULL) {
    snprintf(w, sizeof(w), "%s.limits", sec);
    AWE_TRY(awe_ynode_vec(li, w, 2, c->limits, err));
    c->limits_loc = li->loc;
    if (!(c->limits[0] < c->limits[1]))
      return awe_err_at(err, AWE_EINVAL, &li->loc,
                        "%s: [%g, %g] is reversed or empty (expected [min, max], min < max)", w,
                        c->limits[0], c->limits[1]);
  }
  AWE_TRY(read_measure(s, awe_ymap_get(n, "measure"), sec, c, err));
  const awe_ynode *on = awe_ymap_get(n, "output");
  if (on || c->type != AWE_CTRL_PUMPING) AWE_TRY(read_output(s, on, sec, c, err));
  switch (c->type) {
    case AWE_CTRL_PID:
      if (c->nmeasure != 1)
        return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: a pid needs one 'measure' channel", sec);
      AWE_TRY(read_setpoint(s, awe_ymap_get(n, "setpoint"), sec, c, err));
      break;
    case AWE_CTRL_FIGURE_EIGHT:
      AWE_TRY(str(s, n, "wing", sec, &c->wing, err));
      if (!c->wing) return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: 'wing' is required", sec);
      AWE_TRY(req(n, "azimuth", sec, &c->f8_azimuth, err));
      AWE_TRY(req(n, "elevation", sec, &c->f8_elevation, err));
      c->f8_turn_azimuth = NAN;
      AWE_TRY(opt_num(n, "turn_azimuth", sec, &c->f8_turn_azimuth, err));
      if (!(c->f8_azimuth > 0.0 && c->f8_azimuth < 90.0 && c->f8_elevation > 0.0 &&
            c->f8_elevation < 90.0))
        return awe_err_at(err, AWE_EINVAL, &n->loc,
                          "%s: azimuth %g and elevation %g must lie in (0, 90) deg", sec,
                          c->f8_azimuth, c->f8_elevation);
      c->f8_azimuth *= M_PI / 180.0;
      c->f8_elevation *= M_PI / 180.0;
      c->f8_turn_azimuth = isnan(c->f8_turn_azimuth) ? 0.5 * c->f8_azimuth
                                                     : c->f8_turn_azimuth * M_PI / 180.0;
      if (!(c->f8_turn_azimuth >= 0.0 && c->f8_turn_azimuth <= c->f8_azimuth))
        return awe_err_at(err, AWE_EINVAL, &awe_ymap_get(n, "turn_azimuth")->loc,
                          "%s.turn_azimuth: must lie in [0, azimuth]", sec);
      AWE_TRY(read_f8_turns(awe_ymap_get(n, "turns"), sec, c, err));
      AWE_TRY(read_f8_reel_in(s, n, sec, c, err));
      break;
    case AWE_CTRL_PUMPING:
      AWE_TRY(str(s, n, "winch", sec, &c->winch, err));
      if (!c->winch) return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: 'winch' is required", sec);
      AWE_TRY(req(n, "reel_out_force", sec, &c->reel_out_force, err));
      AWE_TRY(req(n, "reel_in_speed", sec, &c->reel_in_speed, err));
      AWE_TRY(req(n, "min_length", sec, &c->min_length, err));
      AWE_TRY(req(n, "max_length", sec, &c->max_length, err));
      AWE_TRY(opt_num(n, "depower", sec, &c->depower, err));
      AWE_TRY(nonneg(n, "force_bandwidth", sec, &c->force_bandwidth, 0, err));
      AWE_TRY(nonneg(n, "force_kp", sec, &c->force_kp, 0, err));
      AWE_TRY(nonneg(n, "ramp_time", sec, &c->ramp_time, 0, err));
      AWE_TRY(nonneg(n, "kv", sec, &c->kv, 0, err));
      AWE_TRY(nonneg(n, "reel_in_force", sec, &c->reel_in_force, 0, err));
      if (!(c->reel_out_force > 0.0 && c->reel_in_speed > 0.0))
        return awe_err_at(err, AWE_EINVAL, &n->loc,
                          "%s: reel_out_force and reel_in_speed must be > 0", sec);
      if (!(c->min_length > 0.0 && c->min_length < c->max_length))
        return awe_err_at(err, AWE_EINVAL, &n->loc,
                          "%s: need 0 < min_length < max_length, got %g, %g", sec, c->min_length,
                          c->max_length);
      break;
    case AWE_CTRL_EXTERNAL:
      AWE_TRY(str(s, n, "command", sec, &c->command, err));
      if (!c->command)
        return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: 'command' is required", sec);
      if (c->nmeasure < 1)
        return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: 'measure' (a list of channels) is "
                          "required", sec);
      break;
  }
  return AWE_OK;
}


awe_status awe_spec_read_controllers(awe_spec *s, const awe_ynode *list, awe_err *err) {
  awe_scenario_spec *sc = &s->scenario;
  if (!list || list->kind == AWE_Y_NULL) return AWE_OK;
  if (list->kind != AWE_Y_SEQ)
    return awe_err_at(err, AWE_EINVAL, &list->loc, "controllers: expected a list of controllers");
  sc->controllers = awe_spec_alloc(s, sizeof(awe_controller_spec) * (size_t)(list->n + 1));
  if (!sc->controllers) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < list->n; i++) {
    AWE_TRY(read_one(s, list->items[i], i, &sc->controllers[i], err));
    for (int k = 0; k < i; k++)
      if (!strcmp(sc->controllers[k].name, sc->controllers[i].name))
        return awe_err_at(err, AWE_EINVAL, &sc->controllers[i].loc,
                          "controllers[%d]: name '%s' is used twice (names must be unique)", i,
                          sc->controllers[i].name);
    sc->ncontroller = i + 1;
  }
  return AWE_OK;
}
