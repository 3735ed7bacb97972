/* model_build_kcu.c: the kite control unit from the scenario's `kcu:` (equations engine/kcu.h),
 * and the model's settings.initial.l_tethers against the structure.
 *
 * Defaults and their sources:
 *   depower_range 5.0 m, steering_range 1.4 m: the TU Delft V3's KCU documentation as
 *     V3Kite.jl (src/calibration.jl) states it: depower tape l = 0.2 m + 5.0 m u_p, steering
 *     tapes l = 1.6 m -/+ 1.4 m u_s (u in 0..1, -1..1).
 *   depower_zero 0.75 m: that mapping's 0.2 m moved to the SymbolicAWEModels V3 geometry
 *     (models/v3_kite), whose 0.8 m steering tapes act like 0.55 m less power tape (same chord
 *     angle within 0.25 deg; physics.md §15): 22 -> 30 % is 1.85 -> 2.25 m of power tape.
 *   steering_neutral: the mean rest length of the two steering tapes in the structure.
 *     V3Kite.jl's 1.6 m belongs to its own geometry, whose steering knots sit 1.6 m from the
 *     KCU (its struc_geometry.yaml); SymbolicAWEModels' depower-40 geometry (models/v3_kite)
 *     has 0.8 m tapes under longer bridle lines. The turn comes from the difference of the two
 *     tapes (V3Kite.jl's inverse depends on the gain only), so the structure's neutral length
 *     is kept and the difference applied to it. V3Kite.jl itself shortens its 1.6 m base by a
 *     calibrated steering_reduction (V3GeomAdjustConfig, 0.2 m in its flight replay).
 *   depower (initial): settings.initial.depowers[1] when given (KiteUtils), else the value
 *     that gives the structure's depower tape: (l0 - depower_zero) / depower_range. The V3's
 *     2.0 m power tape is 25 % (36 % by the 0.2 m of V3Kite.jl's geometry).
 *   steering (initial): settings.initial.steerings[1] when given, else 0.
 *   depower_rate, steering_rate, gain: the settings' kcu section (KiteUtils: v_depower
 *     0.075 and v_steering 0.2 ranges per second, the depower range being 1 and the steering
 *     range 2 units, i.e. 7.5 and 20 %/s; depower_gain = steering_gain = 3 1/s), the KCU model
 *     of KitePodModels.jl (motor speed = gain x error, limited to v_depower / v_steering).
 */
#include <math.h>
#include <string.h>

#include "model/model_build_internal.h"

#define DEF(x, d) (isnan(x) ? (d) : (x))


static awe_status tape(awe_mb_builder *b, const char *name, const awe_loc *loc, const char *what,
                       int *out, awe_err *err) {
  awe_model *m = b->m;
  int s = awe_model_find_segment(m, name);
  if (s < 0) {
    const char *best = awe_closest(name, (const char *const *)m->segment_name, m->nsegment);
    return awe_err_at(err, AWE_EINVAL, loc, "%s: the structure has no segment '%s'%s%s%s", what,
                      name, best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
  }
  if (m->segment_tether[s] >= 0)
    return awe_err_at(err, AWE_EINVAL, loc, "%s: '%s' is a segment of tether '%s'; a KCU tape "
                      "must be a free segment", what, name, m->tether_name[m->segment_tether[s]]);
  if (m->segment_pulley[s] >= 0)
    return awe_err_at(err, AWE_EINVAL, loc, "%s: '%s' is a leg of pulley '%s'; a KCU tape "
                      "must be a free segment", what, name, m->pulley_name[m->segment_pulley[s]]);
  *out = s;
  return AWE_OK;
}


/* the first value of a settings vector the files gave, or NAN */
static double first_given(const awe_settings *st, const char *key, const double *v, int n) {
  int idx = awe_settings_find(key);
  return idx >= 0 && st->given[idx] && n > 0 ? v[0] : NAN;
}


awe_status awe_mb_kcu(awe_mb_builder *b, awe_err *err) {
  awe_model *m = b->m;
  const awe_kcu_spec *k = &b->s->scenario.kcu;
  const awe_settings *st = &b->s->settings;
  m->kcu_seg[0] = m->kcu_seg[1] = m->kcu_seg[2] = -1;
  double dp_set = first_given(st, "depowers", st->depowers, st->n_depowers);
  double st_set = first_given(st, "steerings", st->steerings, st->n_steerings);
  if (!k->present) {
    const char *key = !isnan(dp_set) ? "depowers" : !isnan(st_set) ? "steerings" : NULL;
    if (key) {
      int idx = awe_settings_find(key);
      awe_warn(b->warn, &st->loc[idx], "settings.initial.%s is not used: the scenario has no "
               "kite control unit (kcu:) to set", key);
    }
    return AWE_OK;
  }
  m->has_kcu = 1;
  if (k->depower_tape)
    AWE_TRY(tape(b, k->depower_tape, &k->depower_tape_loc, "kcu.depower_tape", &m->kcu_seg[0],
                 err));
  for (int j = 0; j < 2; j++)
    if (k->steering_tapes[j])
      AWE_TRY(tape(b, k->steering_tapes[j], &k->steering_tapes_loc[j], "kcu.steering_tapes",
                   &m->kcu_seg[1 + j], err));
  m->kcu_dp_zero = DEF(k->depower_zero, 0.75);
  m->kcu_dp_range = DEF(k->depower_range, 5.0);
  m->kcu_st_range = DEF(k->steering_range, 1.4);
  m->kcu_st_neutral = k->steering_neutral;
  if (isnan(m->kcu_st_neutral))
    m->kcu_st_neutral = m->kcu_seg[1] >= 0 ? 0.5 * (m->segment_l0[m->kcu_seg[1]] +
                                                     m->segment_l0[m->kcu_seg[2]]) : 0.0;
  /* the motors: the scenario's kcu:, else the settings' kcu section (KiteUtils units) */
  static const char *const sk[4] = {"v_depower", "v_steering", "depower_gain", "steering_gain"};
  const double sv4[4] = {st->v_depower, st->v_steering, st->depower_gain, st->steering_gain};
  const double kv4[4] = {k->depower_rate, k->steering_rate, k->gain, k->gain};
  for (int j = 0; j < 4; j++) {
    int idx = awe_settings_find(sk[j]);
    if (isnan(kv4[j]) && !(sv4[j] > 0.0 && isfinite(sv4[j])))
      return awe_err_at(err, AWE_EINVAL, idx >= 0 && st->loc[idx].file ? &st->loc[idx] : NULL,
                        "kcu.%s = %g must be > 0 (the kite control unit's motor)", sk[j], sv4[j]);
  }
  m->kcu_dp_rate = DEF(k->depower_rate, 100.0 * st->v_depower);
  m->kcu_st_rate = DEF(k->steering_rate, 100.0 * st->v_steering);
  m->kcu_gain[0] = DEF(k->gain, st->depower_gain);
  m->kcu_gain[1] = DEF(k->gain, st->steering_gain);

  /* initial settings: the scenario, the settings, the structure */
  double dp = k->depower;
  const awe_loc *dp_loc = &k->depower_loc;
  if (isnan(dp) && !isnan(dp_set)) {
    dp = dp_set;
    dp_loc = &st->loc[awe_settings_find("depowers")];
  }
  if (isnan(dp) && m->kcu_seg[0] >= 0) {
    dp = m->kcu_dp_range != 0.0
             ? 100.0 * (m->segment_l0[m->kcu_seg[0]] - m->kcu_dp_zero) / m->kcu_dp_range
             : 0.0;
    dp_loc = &k->depower_tape_loc;
  }
  if (isnan(dp)) dp = 0.0;
  if (!(dp >= 0.0 && dp <= 100.0))
    return awe_err_at(err, AWE_EINVAL, dp_loc,
                      "kcu: the initial depower is %g %% (allowed 0 ... 100 %%)%s", dp,
                      dp_loc == &k->depower_tape_loc
                          ? "; it is the structure's depower tape by the mapping depower_zero + "
                            "depower_range x depower / 100: give kcu.depower"
                          : "");
  double sv = DEF(k->steering, DEF(st_set, 0.0));
  if (!(sv >= -100.0 && sv <= 100.0))
    return awe_err_at(err, AWE_EINVAL, &st->loc[awe_settings_find("steerings")],
                      "settings.initial.steerings[1] = %g %% is out of range (-100 ... 100 %%)",
                      sv);
  /* the run holds a tape that the steering shortens past 0 m at 0 m, but the structure cannot
     start with a segment of no length: the initial steering has this model's own limit, said
     as such (it failed as "rest length l0 = 0 m must be > 0" of a tape segment) */
  double smax = m->kcu_st_range > 0.0 ? 100.0 * m->kcu_st_neutral / m->kcu_st_range : INFINITY;
  if (m->kcu_seg[1] >= 0 && fabs(sv) >= smax) {
    const awe_loc *sl = !isnan(k->steering) ? &k->steering_loc
                                            : &st->loc[awe_settings_find("steerings")];
    return awe_err_at(err, AWE_EINVAL, sl, "%s = %g %%: the %s steering tape would start at "
                      "%g m; this model's tapes (%g m at 0 %%, %g m per 100 %%) allow an initial "
                      "steering of less than +-%.4g %% (larger commands during the run are taken, the "
                      "shorter tape held at 0 m)",
                      !isnan(k->steering) ? "kcu.steering" : "settings.initial.steerings[1]", sv,
                      sv > 0 ? "left" : "right",
                      m->kcu_st_neutral - m->kcu_st_range * fabs(sv) / 100.0,
                      m->kcu_st_neutral, m->kcu_st_range, smax);
  }
  m->kcu_depower0 = dp;
  m->kcu_steering0 = sv;
  if (m->kcu_seg[1] >= 0 && m->kcu_st_neutral - m->kcu_st_range < 0.0)
    awe_warn(b->warn, &k->loc,
             "kcu: the steering tapes (%g m at 0 %%, %g m per 100 %%) reach 0 m at +-%.0f %% "
             "steering; beyond, the shorter tape is held at 0 m", m->kcu_st_neutral,
             m->kcu_st_range, 100.0 * m->kcu_st_neutral / m->kcu_st_range);
  /* the tapes start at the initial setting (placement and masses follow from these) */
  double l[3];
  awe_kcu_tapes(m, dp, sv, l);
  for (int j = 0; j < 3; j++)
    if (m->kcu_seg[j] >= 0) m->segment_l0[m->kcu_seg[j]] = l[j];
  return AWE_OK;
}


void awe_kcu_tapes(const awe_model *m, double depower, double steering, double l[3]) {
  double ds = m->kcu_st_range * steering / 100.0;
  l[0] = m->kcu_dp_zero + m->kcu_dp_range * depower / 100.0;
  l[1] = m->kcu_st_neutral - ds;
  l[2] = m->kcu_st_neutral + ds;
  for (int j = 0; j < 3; j++)
    if (l[j] < 0.0) l[j] = 0.0;
}


void awe_mb_check_l_tethers(awe_mb_builder *b) {
  const awe_model *m = b->m;
  const awe_settings *st = &b->s->settings;
  const char *file = b->s->scenario.settings_file;
  int idx = awe_settings_find("l_tethers");
  if (idx < 0 || !st->given[idx] || !file || !st->loc[idx].file ||
      strcmp(st->loc[idx].file, file) != 0)
    return; /* not from the model's settings file (a scenario's value is applied) */
  for (int w = 0; w < st->n_l_tethers && w < m->nwinch; w++) {
    double L = st->l_tethers[w];
    if (L == 0.0) continue;
    for (int j = 0; j < m->winch_tether_num[w]; j++) {
      int t = m->winch_tethers[m->winch_tether_adr[w] + j];
      if (b->s->structure.tethers[t].length_set) continue; /* the scenario's length */
      if (fabs(m->tether_len0[t] - L) <= 1e-6 * L) continue;
      awe_warn(b->warn, &st->loc[idx],
               "settings.initial.l_tethers[%d] = %g m is not used: tether '%s' is %g m long in "
               "the structure, which wins as in SymbolicAWEModels (it overwrites l_tethers from "
               "a structure file); set the length in the scenario (tethers: {%s: {length: L}} "
               "or settings.initial.l_tethers)", w + 1, L, m->tether_name[t], m->tether_len0[t],
               m->tether_name[t]);
    }
  }
}
