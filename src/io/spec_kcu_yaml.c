/* spec_kcu_yaml.c: the scenario's `kcu:` (kite control unit) and `tethers:` (tether length)
 * sections and settings.initial.l_tethers from the scenario (awesim-scenario(5)).
 *
 * kcu: the tapes are named segments of the structure; the numbers are checked here, where
 * their lines are known (ranges in awesim-scenario(5)); names and defaults are resolved by
 * the model builder (model_build_kcu.c), which knows every segment and its rest length.
 *
 * Tether length: `tethers: {NAME: {length: L, n_segments: N}}` (N: generated tethers only)
 * places the tether straight at L along the
 * line from its anchored end to its free end, unstretched length L (init_place.c, step 2 and
 * 3: init_stretched_length L, no pre-tension). settings.initial.l_tethers[k] given by the
 * scenario (or --set) does the same for the tethers of the k-th winch, as SymbolicAWEModels'
 * init! sets winch k's tether_length from KiteUtils' l_tethers[k]; 0 keeps the structure's
 * length (KiteUtils' default). A value in the model's own settings.yaml is not applied:
 * SymbolicAWEModels overwrites l_tethers from the structure file when it loads one, so the
 * structure's length wins there (model_build_kcu.c warns when the two differ).
 *
 * The scenario's other settings.initial vectors act the same way, k-th value on the k-th
 * component as SymbolicAWEModels' init! does: elevations, azimuths, headings [deg] and
 * elevation_rates, azimuth_rates [deg/s] on the structure's k-th transform (as `transforms:`
 * does), v_reel_outs [m/s] on the k-th winch's init_vel. From the model's settings.yaml they
 * are not applied (the structure wins; settings_use.c says so where they differ).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/spec_load.h"


static awe_status opt_num(const awe_ynode *map, const char *key, const char *sec, double *out,
                          awe_err *err) {
  const awe_ynode *v = awe_ymap_get(map, key);
  if (!v || v->kind == AWE_Y_NULL) return AWE_OK;
  char w[160];
  snprintf(w, sizeof(w), "%s.%s", sec, key);
  return awe_ynode_double(v, w, out, err);
}


/* a segment name (resolved by the model builder, which knows the generated segments too) */
static awe_status seg_name(awe_spec *s, const awe_ynode *v, const char *what, const char **out,
                           awe_loc *loc, awe_err *err) {
  const char *name;
  AWE_TRY(awe_ynode_string(v, what, &name, err));
  if (!name[0]) return awe_err_at(err, AWE_EINVAL, &v->loc, "%s: empty segment name", what);
  *out = awe_spec_strdup(s, name);
  *loc = v->loc;
  return *out ? AWE_OK : awe_err_set(err, AWE_ENOMEM, "out of memory");
}


/* x (when given, i.e. not NAN) within [lo, hi] (open at lo when lo_open) */
static awe_status in_range(const awe_ynode *map, const char *key, double x, double lo,
                           double hi, int lo_open, const char *unit, awe_err *err) {
  if (isnan(x)) return AWE_OK;
  int ok = (lo_open ? x > lo : x >= lo) && x <= hi && isfinite(x);
  if (ok) return AWE_OK;
  const awe_ynode *v = awe_ymap_get(map, key);
  char hs[32];
  if (isinf(hi)) snprintf(hs, sizeof(hs), "inf");
  else snprintf(hs, sizeof(hs), "%g", hi);
  return awe_err_at(err, AWE_EINVAL, v ? &v->loc : &map->loc,
                    "kcu.%s = %g %s is out of range %s%g, %s]", key, x, unit, lo_open ? "(" : "[",
                    lo, hs);
}


awe_status awe_spec_read_kcu(awe_spec *s, const awe_ynode *n, awe_err *err) {
  awe_kcu_spec *k = &s->scenario.kcu;
  k->depower = k->steering = NAN;
  k->depower_zero = k->depower_range = k->steering_neutral = k->steering_range = NAN;
  k->depower_rate = k->steering_rate = k->gain = NAN;
  if (!n || n->kind == AWE_Y_NULL) return AWE_OK;
  if (n->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &n->loc, "kcu: expected a mapping (depower_tape, "
                      "steering_tapes, depower, steering, ...)");
  static const char *const keys[] = {"depower_tape",  "steering_tapes", "depower",
                                     "steering",      "depower_zero",   "depower_range",
                                     "steering_neutral", "steering_range", "depower_rate",
                                     "steering_rate", "gain"};
  AWE_TRY(awe_ymap_check_keys(n, "kcu", keys, AWE_ARRLEN(keys), err));
  k->present = 1;
  k->loc = n->loc;
  const awe_ynode *v = awe_ymap_get(n, "depower_tape");
  if (v && v->kind != AWE_Y_NULL)
    AWE_TRY(seg_name(s, v, "kcu.depower_tape", &k->depower_tape, &k->depower_tape_loc, err));
  v = awe_ymap_get(n, "steering_tapes");
  if (v && v->kind != AWE_Y_NULL) {
    if (v->kind != AWE_Y_SEQ || v->n != 2)
      return awe_err_at(err, AWE_EINVAL, &v->loc,
                        "kcu.steering_tapes: expected two segment names [left, right]");
    for (int j = 0; j < 2; j++)
      AWE_TRY(seg_name(s, v->items[j], j ? "kcu.steering_tapes[2]" : "kcu.steering_tapes[1]",
                       &k->steering_tapes[j], &k->steering_tapes_loc[j], err));
    if (!strcmp(k->steering_tapes[0], k->steering_tapes[1]))
      return awe_err_at(err, AWE_EINVAL, &v->loc,
                        "kcu.steering_tapes: left and right are the same segment '%s'",
                        k->steering_tapes[0]);
  }
  if (!k->depower_tape && !k->steering_tapes[0])
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "kcu: name depower_tape, steering_tapes or both (segments of the structure)");
  if (k->depower_tape && k->steering_tapes[0])
    for (int j = 0; j < 2; j++)
      if (!strcmp(k->depower_tape, k->steering_tapes[j]))
        return awe_err_at(err, AWE_EINVAL, &k->steering_tapes_loc[j],
                          "kcu.steering_tapes: '%s' is also the depower_tape", k->depower_tape);
  double *dst[] = {&k->depower,       &k->steering,       &k->depower_zero, &k->depower_range,
                   &k->steering_neutral, &k->steering_range, &k->depower_rate,
                   &k->steering_rate, &k->gain};
  for (int j = 0; j < (int)AWE_ARRLEN(dst); j++)
    AWE_TRY(opt_num(n, keys[j + 2], "kcu", dst[j], err));
  if ((v = awe_ymap_get(n, "depower"))) k->depower_loc = v->loc;
  if ((v = awe_ymap_get(n, "steering"))) k->steering_loc = v->loc;
  AWE_TRY(in_range(n, "depower", k->depower, 0, 100, 0, "%", err));
  AWE_TRY(in_range(n, "steering", k->steering, -100, 100, 0, "%", err));
  AWE_TRY(in_range(n, "depower_zero", k->depower_zero, 0, INFINITY, 1, "m", err));
  AWE_TRY(in_range(n, "depower_range", k->depower_range, -INFINITY, INFINITY, 0, "m", err));
  AWE_TRY(in_range(n, "steering_neutral", k->steering_neutral, 0, INFINITY, 1, "m", err));
  AWE_TRY(in_range(n, "steering_range", k->steering_range, 0, INFINITY, 0, "m", err));
  AWE_TRY(in_range(n, "depower_rate", k->depower_rate, 0, INFINITY, 1, "%/s", err));
  AWE_TRY(in_range(n, "steering_rate", k->steering_rate, 0, INFINITY, 1, "%/s", err));
  AWE_TRY(in_range(n, "gain", k->gain, 0, INFINITY, 1, "1/s", err));
  return AWE_OK;
}


/* set the initial length of tether ts: placed straight, unstretched length L */
static void set_length(awe_tether_spec *ts, double L) {
  ts->init_stretched_length = L;
  ts->init_tether_force = NAN;
  ts->init_stretch_frac = NAN;
  ts->length_set = 1;
}


static awe_status check_length(const awe_ynode *v, const char *what, double L, awe_err *err) {
  if (L > 0.0 && isfinite(L) && L <= 1e6) return AWE_OK;
  return awe_err_at(err, AWE_EINVAL, &v->loc,
                    "%s = %g m is out of range (0, 1e6]: a tether length must be positive", what,
                    L);
}


/* settings.initial.l_tethers from the scenario: per winch, in the structure's order */
static awe_status scenario_l_tethers(awe_spec *s, const awe_ynode *root, awe_err *err) {
  const awe_ynode *lt = awe_ymap_get(awe_ymap_get(awe_ymap_get(root, "settings"), "initial"),
                                     "l_tethers");
  if (!lt || lt->kind == AWE_Y_NULL) return AWE_OK;
  awe_struct_spec *ss = &s->structure;
  const awe_settings *st = &s->settings;
  if (st->n_l_tethers > ss->nwinch)
    return awe_err_at(err, AWE_EINVAL, &lt->loc,
                      "settings.initial.l_tethers has %d values but the structure has %d "
                      "winch%s (one length per winch, in the structure's order)",
                      st->n_l_tethers, ss->nwinch, ss->nwinch == 1 ? "" : "es");
  for (int w = 0; w < st->n_l_tethers; w++) {
    double L = st->l_tethers[w];
    if (L == 0.0) continue; /* KiteUtils' default: keep the structure's length */
    char what[64];
    snprintf(what, sizeof(what), "settings.initial.l_tethers[%d]", w + 1);
    const awe_ynode *item = lt->kind == AWE_Y_SEQ && w < lt->n ? lt->items[w] : lt;
    AWE_TRY(check_length(item, what, L, err));
    const awe_winch_spec *ws = &ss->winches[w];
    for (int j = 0; j < ws->ntether; j++) {
      const awe_ref *r = &ws->tethers[j];
      for (int t = 0; t < ss->ntether; t++)
        if ((r->name && ss->tethers[t].name && !strcmp(r->name, ss->tethers[t].name)) ||
            (!r->name && r->index == t + 1))
          set_length(&ss->tethers[t], L);
    }
  }
  return AWE_OK;
}


/* the other settings.initial vectors from the scenario: on the k-th transform / winch */
static awe_status scenario_initial(awe_spec *s, const awe_ynode *root, awe_err *err) {
  const awe_ynode *ini = awe_ymap_get(awe_ymap_get(root, "settings"), "initial");
  awe_struct_spec *ss = &s->structure;
  const awe_settings *st = &s->settings;
  const char *const *tk = awe_settings_transform_keys;
  const double *tv[AWE_SET_TRANSFORM_VECS];
  int tn[AWE_SET_TRANSFORM_VECS];
  awe_settings_transform_vectors(st, tv, tn);
  for (int j = 0; j < AWE_SET_TRANSFORM_VECS; j++) {
    const awe_ynode *v = awe_ymap_get(ini, tk[j]);
    if (!v || v->kind == AWE_Y_NULL) continue;
    if (tn[j] > ss->ntransform)
      return awe_err_at(err, AWE_EINVAL, &v->loc,
                        "settings.initial.%s has %d values but the structure has %d "
                        "transform%s (one per transform, in the structure's order)",
                        tk[j], tn[j], ss->ntransform, ss->ntransform == 1 ? "" : "s");
    for (int k = 0; k < tn[j]; k++) {
      awe_transform_spec *T = &ss->transforms[k];
      double *dst[] = {&T->elevation, &T->azimuth, &T->heading, &T->elevation_vel,
                       &T->azimuth_vel};
      *dst[j] = tv[j][k] * M_PI / 180.0;
    }
  }
  const awe_ynode *v = awe_ymap_get(ini, "v_reel_outs");
  if (v && v->kind != AWE_Y_NULL) {
    if (st->n_v_reel_outs > ss->nwinch)
      return awe_err_at(err, AWE_EINVAL, &v->loc,
                        "settings.initial.v_reel_outs has %d values but the structure has %d "
                        "winch%s (one per winch, in the structure's order)",
                        st->n_v_reel_outs, ss->nwinch, ss->nwinch == 1 ? "" : "es");
    for (int k = 0; k < st->n_v_reel_outs; k++) ss->winches[k].init_vel = st->v_reel_outs[k];
  }
  return AWE_OK;
}


awe_status awe_spec_read_tethers(awe_spec *s, const awe_ynode *root, awe_err *err) {
  AWE_TRY(scenario_initial(s, root, err));
  AWE_TRY(scenario_l_tethers(s, root, err));
  const awe_ynode *tn = awe_ymap_get(root, "tethers");
  if (!tn || tn->kind == AWE_Y_NULL) return AWE_OK;
  if (tn->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &tn->loc,
                      "tethers: expected a mapping of tether names to {length: METRES}");
  awe_struct_spec *ss = &s->structure;
  for (int i = 0; i < tn->n; i++) {
    const char *name = tn->keys[i]->str;
    const awe_ynode *v = tn->items[i];
    awe_tether_spec *T = NULL;
    for (int k = 0; k < ss->ntether; k++)
      if (ss->tethers[k].name && !strcmp(ss->tethers[k].name, name)) T = &ss->tethers[k];
    if (!T) {
      const char *names[64];
      int n = 0;
      for (int k = 0; k < ss->ntether && n < 64; k++)
        if (ss->tethers[k].name) names[n++] = ss->tethers[k].name;
      const char *best = n ? awe_closest(name, names, n) : NULL;
      return awe_err_at(err, AWE_EINVAL, &tn->keys[i]->loc,
                        "tethers: the structure has no tether '%s'%s%s%s", name,
                        best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
    }
    char sec[200];
    snprintf(sec, sizeof(sec), "tethers.%s", name);
    if (v->kind != AWE_Y_MAP)
      return awe_err_at(err, AWE_EINVAL, &v->loc, "%s: expected a mapping {length: METRES, "
                        "n_segments: N}", sec);
    static const char *const k[] = {"length", "n_segments"};
    AWE_TRY(awe_ymap_check_keys(v, sec, k, 2, err));
    const awe_ynode *ns = awe_ymap_get(v, "n_segments");
    if (ns && ns->kind != AWE_Y_NULL) {
      char what[220];
      snprintf(what, sizeof(what), "%s.n_segments", sec);
      if (T->nseg > 0)
        return awe_err_at(err, AWE_EINVAL, &ns->loc, "%s: tether '%s' lists its %d segments "
                          "in the structure; n_segments applies to a generated tether", what,
                          name, T->nseg);
      int nseg;
      AWE_TRY(awe_ynode_int(ns, what, &nseg, err));
      if (nseg < 1 || nseg > AWE_N_SEGMENTS_MAX)
        return awe_err_at(err, AWE_EINVAL, &ns->loc, "%s = %d is out of range (1 ... %d)",
                          what, nseg, AWE_N_SEGMENTS_MAX);
      T->n_segments = nseg;
    }
    const awe_ynode *ln = awe_ymap_get(v, "length");
    if (!ln || ln->kind == AWE_Y_NULL) continue;
    double L;
    char what[220];
    snprintf(what, sizeof(what), "%s.length", sec);
    AWE_TRY(awe_ynode_double(ln, what, &L, err));
    AWE_TRY(check_length(ln, what, L, err));
    set_length(T, L);
  }
  return AWE_OK;
}
