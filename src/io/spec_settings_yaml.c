/* spec_settings_yaml.c: settings.yaml (KiteUtils) and vsm_settings.yaml readers.
 *
 * settings.yaml: keys are matched by name within the sections KiteUtils reads, as KiteUtils
 * does. Keys KiteUtils knows but SymbolicAWEModels never uses are accepted silently; anything
 * else is a warning with a suggestion (a user's model must load unchanged), or an error for
 * the scenario's own `settings:` overrides, which are written for awesim.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/settings.h"
#include "io/spec_load.h"



static awe_status set_field(awe_spec *s, int idx, const awe_ynode *v, const char *what,
                            awe_err *err) {
  int n;
  const awe_setting_field *f = &awe_settings_fields(&n)[idx];
  char *p = (char *)&s->settings + f->offset;
  switch (f->type) {
    case AWE_SET_D: AWE_TRY(awe_ynode_double(v, what, (double *)p, err)); break;
    case AWE_SET_I: AWE_TRY(awe_ynode_int(v, what, (int *)p, err)); break;
    case AWE_SET_B: {
      /* KiteUtils files write booleans as true/false, sometimes as 0.0 */
      double d;
      if (awe_ynode_is_number(v)) {
        AWE_TRY(awe_ynode_double(v, what, &d, err));
        *(int *)p = d != 0.0;
      } else {
        AWE_TRY(awe_ynode_bool(v, what, (int *)p, err));
      }
      break;
    }
    case AWE_SET_S: {
      const char *str;
      AWE_TRY(awe_ynode_string(v, what, &str, err));
      if (strlen(str) > 63)
        return awe_err_at(err, AWE_EINVAL, &v->loc, "%s: text longer than 63 characters", what);
      strcpy(p, str);
      break;
    }
    case AWE_SET_V: {
      double *arr = (double *)p;
      int *cnt = (int *)(p + sizeof(double) * AWE_SET_VMAX);
      if (v->kind == AWE_Y_SCALAR) {
        AWE_TRY(awe_ynode_double(v, what, &arr[0], err));
        *cnt = 1;
        break;
      }
      if (v->kind != AWE_Y_SEQ)
        return awe_err_at(err, AWE_EINVAL, &v->loc, "%s: expected a list of numbers", what);
      if (v->n > AWE_SET_VMAX)
        return awe_err_at(err, AWE_EINVAL, &v->loc, "%s: at most %d values are supported", what,
                          AWE_SET_VMAX);
      for (int i = 0; i < v->n; i++) {
        char w[300];
        snprintf(w, sizeof(w), "%s[%d]", what, i);
        AWE_TRY(awe_ynode_double(v->items[i], w, &arr[i], err));
      }
      *cnt = v->n;
      if (!strcmp(f->key, "wind_vec") && v->n != 3)
        return awe_err_at(err, AWE_EINVAL, &v->loc, "%s: needs exactly 3 values (x, y, z)", what);
      break;
    }
  }
  if (idx < (int)sizeof(s->settings.given)) {
    s->settings.given[idx] = 1;
    s->settings.loc[idx] = v->loc;
  }
  return AWE_OK;
}


awe_status awe_spec_read_settings(awe_spec *s, const awe_ynode *root, const char *what,
                                  int strict, awe_err *err) {
  if (!root || root->kind == AWE_Y_NULL) return AWE_OK;
  if (root->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &root->loc,
                      "%s: expected a mapping of sections (system, environment, ...)", what);
  int nf;
  const awe_setting_field *f = awe_settings_fields(&nf);
  for (int i = 0; i < root->n; i++) {
    const char *sec = root->keys[i]->str;
    const awe_ynode *body = root->items[i];
    if (!awe_settings_is_section(sec)) {
      int nsec;
      const char *const *secs = awe_settings_sections(&nsec);
      const char *best = awe_closest(sec, secs, nsec);
      if (strict)
        return awe_err_at(err, AWE_EINVAL, &root->keys[i]->loc,
                          "%s: unknown settings section '%s'%s%s%s", what, sec,
                          best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
      if (best && strcmp(sec, "kps4_3l"))
        awe_warn(&s->warnings, &root->keys[i]->loc,
                 "%s: section '%s' is not read (did you mean '%s'?)", what, sec, best);
      continue;
    }
    if (body->kind == AWE_Y_NULL) continue;
    if (body->kind != AWE_Y_MAP)
      return awe_err_at(err, AWE_EINVAL, &body->loc, "%s: section '%s' must be a mapping", what,
                        sec);
    for (int j = 0; j < body->n; j++) {
      const char *key = body->keys[j]->str;
      int idx = awe_settings_find(key);
      char w[300];
      snprintf(w, sizeof(w), "%s.%s", sec, key);
      if (idx < 0) {
        if (!strict && awe_settings_is_ignored_key(key)) continue;
        const char *cands[128];
        for (int k = 0; k < nf && k < 128; k++) cands[k] = f[k].key;
        const char *best = awe_closest(key, cands, nf < 128 ? nf : 128);
        if (strict || best) {
          if (strict)
            return awe_err_at(err, AWE_EINVAL, &body->keys[j]->loc,
                              "%s: unknown setting '%s'%s%s%s", what, w,
                              best ? " (did you mean '" : "", best ? best : "",
                              best ? "'?)" : "");
          awe_warn(&s->warnings, &body->keys[j]->loc,
                   "%s: unknown setting '%s' is ignored (did you mean '%s'?)", what, w, best);
        } else {
          awe_warn(&s->warnings, &body->keys[j]->loc, "%s: unknown setting '%s' is ignored",
                   what, w);
        }
        continue;
      }
      /* KiteUtils ignores null values' sections only if the field is a vector; be strict */
      AWE_TRY(set_field(s, idx, body->items[j], w, err));
    }
  }
  return AWE_OK;
}


/* ---- vsm_settings.yaml ---------------------------------------------------------------------- */

static awe_status opt_num(const awe_ynode *map, const char *key, const char *sec, double *out,
                          awe_err *err) {
  const awe_ynode *v = awe_ymap_get(map, key);
  if (!v || v->kind == AWE_Y_NULL) return AWE_OK;
  char w[128];
  snprintf(w, sizeof(w), "%s.%s", sec, key);
  return awe_ynode_double(v, w, out, err);
}


static awe_status opt_intv(const awe_ynode *map, const char *key, const char *sec, int *out,
                           awe_err *err) {
  const awe_ynode *v = awe_ymap_get(map, key);
  if (!v || v->kind == AWE_Y_NULL) return AWE_OK;
  char w[128];
  snprintf(w, sizeof(w), "%s.%s", sec, key);
  return awe_ynode_int(v, w, out, err);
}


static awe_status opt_boolv(const awe_ynode *map, const char *key, const char *sec, int *out,
                            awe_err *err) {
  const awe_ynode *v = awe_ymap_get(map, key);
  if (!v || v->kind == AWE_Y_NULL) return AWE_OK;
  char w[128];
  snprintf(w, sizeof(w), "%s.%s", sec, key);
  return awe_ynode_bool(v, w, out, err);
}


static awe_status opt_enum(const awe_ynode *map, const char *key, const char *sec,
                           const char *const *names, int n, int *out, awe_err *err) {
  const awe_ynode *v = awe_ymap_get(map, key);
  if (!v || v->kind == AWE_Y_NULL) return AWE_OK;
  if (v->kind == AWE_Y_SCALAR)
    for (int i = 0; i < n; i++)
      if (names[i] && !strcmp(v->str, names[i])) {
        *out = i;
        return AWE_OK;
      }
  char list[256] = "";
  size_t off = 0;
  for (int i = 0; i < n; i++) {
    if (!names[i]) continue;
    int w = snprintf(list + off, sizeof(list) - off, "%s%s", off ? ", " : "", names[i]);
    if (w > 0 && (size_t)w < sizeof(list) - off) off += (size_t)w;
  }
  char d[64];
  awe_ynode_describe(v, d, sizeof(d));
  return awe_err_at(err, AWE_EINVAL, &v->loc, "%s.%s: unknown value %s (allowed: %s)", sec, key,
                    d, list);
}


static void warn_unknown(awe_spec *s, const awe_ynode *map, const char *sec,
                         const char *const *keys, int n) {
  if (!map || map->kind != AWE_Y_MAP) return;
  for (int i = 0; i < map->n; i++) {
    const char *k = map->keys[i]->str;
    int ok = 0;
    for (int j = 0; j < n && !ok; j++) ok = !strcmp(k, keys[j]);
    if (ok) continue;
    const char *best = awe_closest(k, keys, n);
    awe_warn(&s->warnings, &map->keys[i]->loc, "%s: unknown key '%s' is ignored%s%s%s", sec, k,
             best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
  }
}


/* Range checks of the VSM settings a file gave, at their positions (model_validate.c repeats
 * them for settings that were not read from a file). */
static awe_status vsm_ranges(const awe_vsm_settings *v, const awe_ynode *w0, const awe_ynode *ss,
                             awe_err *err) {
  const awe_ynode *n;
  if ((n = awe_ymap_get(w0, "n_panels")) && (v->n_panels < 1 || v->n_panels > 10000))
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "wings[1].n_panels = %d is out of range (1 ... 10000)", v->n_panels);
  if ((n = awe_ymap_get(ss, "relaxation_factor")) &&
      !(v->relaxation_factor > 0 && v->relaxation_factor <= 1))
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "solver_settings.relaxation_factor = %s is out of range (0, 1]",
                      awe_num_str(v->relaxation_factor).s);
  if ((n = awe_ymap_get(ss, "rtol")) && !(v->rtol > 0 && v->rtol < 1))
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "solver_settings.rtol = %s is out of range (0, 1)",
                      awe_num_str(v->rtol).s);
  if ((n = awe_ymap_get(ss, "max_iterations")) && v->max_iterations < 1)
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "solver_settings.max_iterations = %d must be >= 1", v->max_iterations);
  if ((n = awe_ymap_get(ss, "density")) && !(v->density > 0))
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "solver_settings.density = %g kg/m^3 must be > 0", v->density);
  if ((n = awe_ymap_get(ss, "core_radius_fraction")) && v->core_radius_fraction < 0)
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "solver_settings.core_radius_fraction = %g must be >= 0",
                      v->core_radius_fraction);
  return AWE_OK;
}


awe_status awe_spec_read_vsm_settings(awe_spec *s, const awe_ynode *root, const char *path,
                                      awe_err *err) {
  awe_vsm_settings *v = &s->vsm;
  s->has_vsm_settings = 1;
  if (!root || root->kind == AWE_Y_NULL) return AWE_OK;
  if (root->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &root->loc,
                      "%s: expected a mapping with condition, wings, solver_settings", path);
  static const char *const top[] = {"condition", "wings", "solver_settings",
                                    "Model", "PanelDistribution", "InitialGammaDistribution"};
  warn_unknown(s, root, "vsm_settings", top, AWE_ARRLEN(top));

  const awe_ynode *c = awe_ymap_get(root, "condition");
  static const char *const ckeys[] = {"wind_speed", "alpha", "beta", "yaw_rate"};
  warn_unknown(s, c, "condition", ckeys, AWE_ARRLEN(ckeys));
  AWE_TRY(opt_num(c, "wind_speed", "condition", &v->wind_speed, err));
  AWE_TRY(opt_num(c, "alpha", "condition", &v->alpha_deg, err));
  AWE_TRY(opt_num(c, "beta", "condition", &v->beta_deg, err));
  AWE_TRY(opt_num(c, "yaw_rate", "condition", &v->yaw_rate_deg, err));

  const awe_ynode *w = awe_ymap_get(root, "wings");
  if (w && w->kind != AWE_Y_NULL) {
    if (w->kind != AWE_Y_SEQ)
      return awe_err_at(err, AWE_EINVAL, &w->loc, "wings: expected a list of wings");
    if (w->n > 1)
      awe_warn(&s->warnings, &w->loc, "wings: only the first wing's settings are used");
    if (w->n > 0) {
      const awe_ynode *w0 = w->items[0];
      static const char *const wkeys[] = {
          "name", "geometry_file", "n_panels", "spanwise_panel_distribution",
          "spanwise_direction", "remove_nan", "n_groups", "grouping_method", "obj_file",
          "dat_file", "use_prior_polar", "billowing_percentage", "crease_frac", "mesh",
          "airfoil"};
      warn_unknown(s, w0, "wings[1]", wkeys, AWE_ARRLEN(wkeys));
      AWE_TRY(opt_intv(w0, "n_panels", "wings[1]", &v->n_panels, err));
      static const char *const dist[] = {"LINEAR", "COSINE", "COSINE_VAN_GARREL",
                                         "SPLIT_PROVIDED", "UNCHANGED", "BILLOWING"};
      int d = (int)v->distribution;
      AWE_TRY(opt_enum(w0, "spanwise_panel_distribution", "wings[1]", dist, AWE_ARRLEN(dist), &d, err));
      v->distribution = (awe_vsm_distribution)d;
      const awe_ynode *sd = awe_ymap_get(w0, "spanwise_direction");
      if (sd && sd->kind != AWE_Y_NULL)
        AWE_TRY(awe_ynode_vec(sd, "wings[1].spanwise_direction", 3, v->spanwise_direction, err));
      AWE_TRY(opt_boolv(w0, "remove_nan", "wings[1]", &v->remove_nan, err));
      const awe_ynode *bp = awe_ymap_get(w0, "billowing_percentage");
      if (bp && bp->kind != AWE_Y_NULL) {
        AWE_TRY(awe_ynode_double(bp, "wings[1].billowing_percentage", &v->billowing_percentage,
                                 err));
        if (!(v->billowing_percentage >= 0.0 && v->billowing_percentage < 100.0))
          return awe_err_at(err, AWE_EINVAL, &bp->loc,
                            "wings[1].billowing_percentage = %g must be in [0, 100)",
                            v->billowing_percentage);
        if (v->billowing_percentage > 0.0 && v->distribution != AWE_DIST_BILLOWING)
          awe_warn(&s->warnings, &bp->loc,
                   "wings[1].billowing_percentage is used only with spanwise_panel_distribution: "
                   "BILLOWING (ignored)");
      }
      // VortexStepMethod.jl wing options awesim does not have: said once, not silently dropped
      static const char *const unused[] = {"n_groups", "grouping_method", "dat_file",
                                           "use_prior_polar", "crease_frac", "mesh",
                                           "airfoil"};
      for (size_t k = 0; k < AWE_ARRLEN(unused); k++) {
        const awe_ynode *u = awe_ymap_get(w0, unused[k]);
        if (u && u->kind != AWE_Y_NULL && !strcmp(unused[k], "use_prior_polar"))
          awe_warn(&s->warnings, &u->loc, "wings[1].use_prior_polar is not needed by awesim "
                   "(ignored): a particle wing keeps the aero geometry's own sections and polars "
                   "whatever the number of its LE/TE point pairs (awesim(1), Wings)");
        else if (u && u->kind != AWE_Y_NULL)
          awe_warn(&s->warnings, &u->loc, "wings[1].%s is not used by awesim (ignored)",
                   unused[k]);
      }
      const awe_ynode *ob = awe_ymap_get(w0, "obj_file");
      if (ob && ob->kind == AWE_Y_SCALAR && ob->str[0])
        return awe_err_at(err, AWE_EINVAL, &ob->loc,
                          "wings[1].obj_file: .obj wing geometry is not supported yet; give an "
                          "aero geometry YAML");
    }
  }

  const awe_ynode *ss = awe_ymap_get(root, "solver_settings");
  static const char *const skeys[] = {
      "n_panels", "aerodynamic_model_type", "solver_type", "density", "mu", "max_iterations",
      "rtol", "tol_reference_error", "relaxation_factor", "artificial_damping", "k2", "k4",
      "core_radius_fraction", "type_initial_gamma_distribution", "use_gamma_prev",
      "use_gamme_prev", "calc_only_f_and_gamma", "is_with_artificial_viscosity",
      "artificial_viscosity_factor", "correct_aoa", "flow_curvature", "atol"};
  warn_unknown(s, ss, "solver_settings", skeys, AWE_ARRLEN(skeys));
  static const char *const models[] = {"VSM", "LLT"};
  int mdl = (int)v->model;
  AWE_TRY(opt_enum(ss, "aerodynamic_model_type", "solver_settings", models, 2, &mdl, err));
  v->model = (awe_vsm_model)mdl;
  static const char *const solvers[] = {"LOOP", "NONLIN", "NEWTON"};
  int sol = v->solver == AWE_VSM_SOLVER_NEWTON ? 1 : 0;
  AWE_TRY(opt_enum(ss, "solver_type", "solver_settings", solvers, 3, &sol, err));
  v->solver = sol ? AWE_VSM_SOLVER_NEWTON : AWE_VSM_SOLVER_LOOP;
  if (awe_ymap_get(ss, "solver_type")) v->solver_given = 1;
  AWE_TRY(opt_num(ss, "density", "solver_settings", &v->density, err));
  AWE_TRY(opt_num(ss, "mu", "solver_settings", &v->mu, err));
  AWE_TRY(opt_intv(ss, "max_iterations", "solver_settings", &v->max_iterations, err));
  AWE_TRY(opt_num(ss, "rtol", "solver_settings", &v->rtol, err));
  AWE_TRY(opt_num(ss, "tol_reference_error", "solver_settings", &v->tol_reference_error, err));
  AWE_TRY(opt_num(ss, "relaxation_factor", "solver_settings", &v->relaxation_factor, err));
  AWE_TRY(opt_boolv(ss, "artificial_damping", "solver_settings", &v->artificial_damping, err));
  if (v->artificial_damping) {
    const awe_ynode *ad = awe_ymap_get(ss, "artificial_damping");
    return awe_err_at(err, AWE_EINVAL, &ad->loc,
                      "solver_settings.artificial_damping: true is not supported (the k2/k4 "
                      "damping of the circulation is not implemented; allowed: false). For "
                      "post-stall regularisation use is_with_artificial_viscosity: true");
  }
  AWE_TRY(opt_num(ss, "k2", "solver_settings", &v->k2, err));
  AWE_TRY(opt_num(ss, "k4", "solver_settings", &v->k4, err));
  AWE_TRY(opt_num(ss, "core_radius_fraction", "solver_settings", &v->core_radius_fraction, err));
  static const char *const g0[] = {"ELLIPTIC", "ZEROS"};
  int gi = (int)v->gamma0;
  AWE_TRY(opt_enum(ss, "type_initial_gamma_distribution", "solver_settings", g0, 2, &gi, err));
  v->gamma0 = (awe_vsm_gamma0)gi;
  AWE_TRY(opt_boolv(ss, "use_gamma_prev", "solver_settings", &v->use_gamma_prev, err));
  AWE_TRY(opt_boolv(ss, "use_gamme_prev", "solver_settings", &v->use_gamma_prev, err));
  AWE_TRY(opt_boolv(ss, "correct_aoa", "solver_settings", &v->correct_aoa, err));
  int only_f = 0;
  AWE_TRY(opt_boolv(ss, "calc_only_f_and_gamma", "solver_settings", &only_f, err));
  if (only_f)
    awe_warn(&s->warnings, &awe_ymap_get(ss, "calc_only_f_and_gamma")->loc,
             "solver_settings.calc_only_f_and_gamma: awesim always computes all outputs "
             "(ignored)");
  static const char *const unused[] = {"n_panels", "flow_curvature", "atol"};
  for (size_t k = 0; k < AWE_ARRLEN(unused); k++) {
    const awe_ynode *u = awe_ymap_get(ss, unused[k]);
    if (u && u->kind != AWE_Y_NULL)
      awe_warn(&s->warnings, &u->loc, "solver_settings.%s is not used by awesim (ignored%s)",
               unused[k], k == 0 ? "; the panel count is wings[1].n_panels" : "");
  }
  AWE_TRY(opt_boolv(ss, "is_with_artificial_viscosity", "solver_settings",
                &v->is_with_artificial_viscosity, err));
  AWE_TRY(opt_num(ss, "artificial_viscosity_factor", "solver_settings",
              &v->artificial_viscosity_factor, err));
  return vsm_ranges(v, w && w->kind == AWE_Y_SEQ && w->n > 0 ? w->items[0] : NULL, ss, err);
}
