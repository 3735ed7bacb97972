/* settings_use.c: settings that awesim reads but that do not act, said where they are given.
 *
 * A key that is read and silently not used lets a user believe it acts. KiteUtils' keys that
 * SymbolicAWEModels ignores are accepted quietly by the reader (io/settings.c); the keys here
 * are ones SymbolicAWEModels or KiteModels do use, so a value that would change something
 * there gets a warning with the reason and what to set instead:
 *   initial.elevations, azimuths, headings, elevation_rates, azimuth_rates, v_reel_outs from
 *     the model's settings.yaml: SymbolicAWEModels overwrites them from the structure file it
 *     loads (its transforms and winches); from the scenario they are applied
 *     (io/spec_kcu_yaml.c). initial.l_tethers: model_build_kcu.c.
 *   initial.heading_rates, kite_distances: no counterpart (the turn rate of a transform is
 *     transforms.NAME.turn_rate; the kite's distance follows from the tether and bridle).
 *   solver.relaxation, solver.max_iter: SymbolicAWEModels' relaxed quasi-static and
 *     steady-state iterations; awesim solves quasi-static points by Newton's method and
 *     marches to the steady state with its own limits. Said only when the model has
 *     quasi-static points (relaxation) or always (max_iter).
 *   kite.quasi_static true: the point types come from the structure's type column.
 *   system.sim_time (where the scenario gives no run.duration), system.segments (a tether's
 *     segment count is the structure's), winch.winch_model on a structure whose winches are
 *     all speed-controlled (they have no machine; TorqueControlledMachine and AsyncMachine
 *     are both used otherwise, model_build_lines.c).
 * Labels and legacy values stay quiet (kite.physical_model, kite.mass and area: the structure
 * gives the masses; winch.v_ro_max/v_ro_min: no speed limit is modelled).
 */
#include <math.h>
#include <string.h>

#include "model/model_build_internal.h"


static int from_file(const awe_settings *st, int idx, const char *file) {
  return idx >= 0 && st->given[idx] && file && st->loc[idx].file &&
         !strcmp(st->loc[idx].file, file);
}


static const awe_loc *loc_of(const awe_settings *st, int idx) {
  return st->loc[idx].file ? &st->loc[idx] : NULL;
}


/* 1 when a line's property falls back to the settings value (no column, no material) */
static int falls_back(const awe_spec *s, const awe_line_props *p, int which) {
  const awe_material_spec *mat = NULL;
  for (int i = 0; p->material && i < s->structure.nmaterial; i++)
    if (!strcmp(s->structure.materials[i].name, p->material)) mat = &s->structure.materials[i];
  switch (which) {
  case 0: return isnan(p->diameter_mm) && (!mat || isnan(mat->diameter_mm));
  case 1: return isnan(p->density) && (!mat || isnan(mat->density));
  default:
    return isnan(p->unit_stiffness) && isnan(p->youngs_modulus) &&
           (!mat || (isnan(mat->unit_stiffness) && isnan(mat->youngs_modulus)));
  }
}


/* settings.tether.d_tether, rho_tether, e_tether given (a --set, the scenario or the model's
 * settings.yaml) but every segment and generated tether has its own value (a column or a
 * material): the structure wins, as in SymbolicAWEModels, and the setting changes nothing */
static void line_props_unused(awe_mb_builder *b) {
  const awe_spec *s = b->s;
  const awe_settings *st = &s->settings;
  const awe_struct_spec *ss = &s->structure;
  static const char *const key[3] = {"d_tether", "rho_tether", "e_tether"};
  static const char *const what[3] = {"diameter", "density", "stiffness"};
  const double val[3] = {st->d_tether, st->rho_tether, st->e_tether};
  for (int j = 0; j < 3; j++) {
    int idx = awe_settings_find(key[j]);
    /* the model's own settings.yaml is quiet: SymbolicAWEModels reads the structure there too */
    if (idx < 0 || !st->given[idx] || from_file(st, idx, s->scenario.settings_file)) continue;
    int lines = 0, used = 0;
    for (int i = 0; i < ss->nsegment; i++, lines++) used += falls_back(s, &ss->segments[i].props, j);
    for (int i = 0; i < ss->ntether; i++)
      if (ss->tethers[i].nseg == 0) lines++, used += falls_back(s, &ss->tethers[i].props, j);
    if (lines == 0 || used > 0) continue;
    awe_warn(b->warn, loc_of(st, idx), "settings.tether.%s = %g is not used: every one of the "
             "structure's %d segments and generated tethers has its own %s (a column or its "
             "material), which wins as in SymbolicAWEModels; change it in the structure file",
             key[j], val[j], lines, what[j]);
  }
}


/* settings.environment.v_wind (a --set or the scenario's settings) while the scenario's
 * inputs: schedule the wind speed: the signal sets wind.v_wind at every time, so the setting
 * never acts (the scheduled value wins) */
static void wind_speed_scheduled(awe_mb_builder *b) {
  const awe_settings *st = &b->s->settings;
  int idx = awe_settings_find("v_wind");
  if (idx < 0 || !st->given[idx] || !st->loc[idx].file ||
      strncmp(st->loc[idx].file, "--set", 5) != 0)
    return; /* said only of an override: the scenario's own value is its author's choice */
  const awe_scenario_spec *sc = &b->s->scenario;
  for (int j = 0; j < sc->ninput; j++) {
    const awe_input_spec *g = &sc->inputs[j];
    if (!g->channel || strcmp(g->channel, "wind.v_wind") != 0) continue;
    char where[600];
    awe_loc_format(&g->loc, where, sizeof(where));
    awe_warn(b->warn, loc_of(st, idx), "settings.environment.v_wind = %g m/s is not used: the "
             "scenario's inputs[%d] schedules wind.v_wind (%s), which sets the wind speed at "
             "every time and wins; to fly another wind, change or remove that input (e.g. "
             "--set 'inputs[%d].to=%g'%s)", st->v_wind, j, where, j, st->v_wind,
             g->type == AWE_SIG_RAMP ? " for a ramp's final value" : "");
    return;
  }
}


void awe_mb_settings_unused(awe_mb_builder *b) {
  const awe_model *m = b->m;
  const awe_spec *s = b->s;
  const awe_settings *st = &s->settings;
  const awe_struct_spec *ss = &s->structure;
  const char *file = s->scenario.settings_file;

  const char *const *tk = awe_settings_transform_keys;
  const double *tv[AWE_SET_TRANSFORM_VECS];
  int tn[AWE_SET_TRANSFORM_VECS];
  awe_settings_transform_vectors(st, tv, tn);
  for (int j = 0; j < AWE_SET_TRANSFORM_VECS; j++) {
    int idx = awe_settings_find(tk[j]);
    if (idx < 0 || !st->given[idx]) continue;
    int scen = !from_file(st, idx, file); /* the scenario's, applied unless transforms: won */
    for (int k = 0; k < tn[j]; k++) {
      double used = 0.0;
      const char *name = NULL;
      if (k < ss->ntransform) {
        const awe_transform_spec *T = &ss->transforms[k];
        const double v[] = {T->elevation, T->azimuth, T->heading, T->elevation_vel,
                            T->azimuth_vel};
        used = v[j] * 180.0 / M_PI;
        name = T->name;
      }
      if (name && fabs(used - tv[j][k]) <= 1e-9 * (1.0 + fabs(used))) continue;
      if (!name && tv[j][k] == 0.0) continue;
      if (scen && name) {
        awe_warn(b->warn, loc_of(st, idx), "settings.initial.%s[%d] = %g is not used: the "
                 "scenario's transforms.%s gives %g", tk[j], k + 1, tv[j][k], name, used);
        continue;
      }
      awe_warn(b->warn, loc_of(st, idx),
               "settings.initial.%s[%d] = %g is not used: %s%s%s places the kite (as in "
               "SymbolicAWEModels, which overwrites initial.%s from the structure file); set "
               "it in the scenario (transforms: or settings.initial.%s)", tk[j], k + 1,
               tv[j][k], name ? "the structure's transform '" : "the structure has no such "
               "transform; its transforms", name ? name : "", name ? "'" : "", tk[j], tk[j]);
    }
  }
  int iv = awe_settings_find("v_reel_outs");
  if (from_file(st, iv, file))
    for (int k = 0; k < st->n_v_reel_outs; k++) {
      double used = k < m->nwinch ? m->winch_init_vel[k] : 0.0;
      if (st->v_reel_outs[k] == used) continue;
      awe_warn(b->warn, loc_of(st, iv),
               "settings.initial.v_reel_outs[%d] = %g m/s is not used: %s (the structure wins "
               "as in SymbolicAWEModels); set it in the scenario (settings.initial.v_reel_outs)",
               k + 1, st->v_reel_outs[k],
               k < m->nwinch ? "the winch's init_vel in the structure sets the reel-out speed"
                             : "the structure has no such winch");
    }
  static const char *const nk[] = {"heading_rates", "kite_distances"};
  const int nn[] = {st->n_heading_rates, st->n_kite_distances};
  const double *nv[] = {st->heading_rates, st->kite_distances};
  static const char *const why[] = {
      "give the turn rate of a transform as transforms.NAME.turn_rate [deg/s]",
      "the kite's distance follows from the tether length (tethers.NAME.length) and the bridle"};
  for (int j = 0; j < 2; j++) {
    int idx = awe_settings_find(nk[j]);
    int nonzero = 0;
    for (int k = 0; k < nn[j]; k++) nonzero |= nv[j][k] != 0.0;
    if (idx >= 0 && st->given[idx] && nonzero)
      awe_warn(b->warn, loc_of(st, idx), "settings.initial.%s is not used: %s", nk[j], why[j]);
  }
  int qs = 0;
  for (int i = 0; i < m->npoint; i++) qs |= m->point_type[i] == AWE_PT_QUASI_STATIC;
  for (int i = 0; i < m->npulley; i++) qs |= m->pulley_type[i] == AWE_DYN_QUASI_STATIC;
  int ir = awe_settings_find("relaxation"), im = awe_settings_find("max_iter");
  if (qs && ir >= 0 && st->given[ir])
    awe_warn(b->warn, loc_of(st, ir), "solver.relaxation = %g is not used: awesim solves "
             "quasi-static points and pulleys by Newton's method without relaxation",
             st->relaxation);
  if (im >= 0 && st->given[im])
    awe_warn(b->warn, loc_of(st, im), "solver.max_iter = %d is not used: awesim's steady-state "
             "march has its own limits (run.steady_state)", st->max_iter);
  int it = awe_settings_find("sim_time");
  if (it >= 0 && st->given[it] && !s->scenario.bare_model && !s->scenario.run.duration_given)
    awe_warn(b->warn, loc_of(st, it), "system.sim_time = %g s is not used: the run lasts "
             "run.duration = %g s (set it in the scenario's run: section)", st->sim_time,
             m->opt.duration);
  int is = awe_settings_find("segments");
  if (is >= 0 && st->given[is])
    awe_warn(b->warn, loc_of(st, is), "system.segments = %d is not used: a tether's segments "
             "are listed in the structure or generated from its n_segments", st->segments);
  int iw = awe_settings_find("winch_model"), torque = 0;
  for (int i = 0; i < m->nwinch; i++) torque |= !m->winch_speed_controlled[i];
  if (iw >= 0 && st->given[iw] && m->nwinch > 0 && !torque)
    awe_warn(b->warn, loc_of(st, iw), "winch.winch_model '%s' is not used: the structure's "
             "winches are speed_controlled (no machine)", st->winch_model);
  line_props_unused(b);
  wind_speed_scheduled(b);
  int iq = awe_settings_find("quasi_static");
  if (iq >= 0 && st->given[iq] && st->quasi_static)
    awe_warn(b->warn, loc_of(st, iq), "kite.quasi_static = true is not used: the point types "
             "(DYNAMIC, QUASI_STATIC, ...) come from the structure's type column");
}
