/* model_build.c: spec -> immutable model.
 *
 * Steps (SymbolicAWEModels' SystemStructure constructor):
 *   1. name tables and duplicate checks; auto-generated tethers expanded into points/segments
 *      named <tether>_point_<k> and <tether>_segment_<k>;
 *   2. references resolved to 0-based indices (forward references allowed);
 *   3. line properties: row value, else material, else settings defaults;
 *      unit_stiffness = E*pi*(d/2)^2, unit_damping = damping_per_stiffness*unit_stiffness;
 *   4. rest lengths (missing/0 -> CAD distance), masses (extra + half of each segment);
 *   5. placement (init_place.c), state layout (layout.c), input signals, validation.
 *
 * This file runs the steps (build) and resolves names; the steps are in model_build_lines.c,
 * model_build_wing.c and model_build_run.c (model_build_internal.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/wind_box_read.h"
#include "model/model_build_internal.h"
#include "model/solver_default.h"
#include "util/pool.h"

/* ---- name lookup -------------------------------------------------------------------------- */

awe_status awe_mb_resolve(const awe_ref *r, const char *const *names, int n, const char *kind,
                          const char *owner, int *out, awe_err *err) {
  if (r->name) {
    for (int i = 0; i < n; i++)
      if (!strcmp(names[i], r->name)) {
        *out = i;
        return AWE_OK;
      }
    const char *best = awe_closest(r->name, names, n);
    if (best)
      return awe_err_at(err, AWE_EINVAL, &r->loc, "%s: unknown %s '%s' (did you mean '%s'?)",
                        owner, kind, r->name, best);
    return awe_err_at(err, AWE_EINVAL, &r->loc, "%s: unknown %s '%s'%s", owner, kind, r->name,
                      n ? "" : " (none are defined)");
  }
  if (r->index >= 1 && r->index <= n) {
    *out = r->index - 1;
    return AWE_OK;
  }
  return awe_err_at(err, AWE_EINVAL, &r->loc, "%s: %s index %d is out of range (1 ... %d)", owner,
                    kind, r->index, n);
}


/* FNV-1a: spreads the generated names (tether_point_1, _2, ...) well */
static size_t name_hash(const char *c) {
  size_t h = (size_t)14695981039346656037ULL;
  for (; *c; c++) h = (h ^ (unsigned char)*c) * (size_t)1099511628211ULL;
  return h;
}


/* Names must be unique: an open-addressing hash table of indices (linear in n; a pairwise
 * comparison took a minute for a 100000-segment tether). */
awe_status awe_mb_check_unique(const char *const *names, int n, const awe_loc *const *locs,
                               const char *kind, awe_err *err) {
  size_t cap = 16;
  while (cap < 2 * (size_t)n) cap *= 2;
  int *tab = malloc(cap * sizeof(*tab));
  if (!tab) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (size_t k = 0; k < cap; k++) tab[k] = -1;
  for (int i = 0; i < n; i++) {
    size_t k = name_hash(names[i]) & (cap - 1);
    for (; tab[k] >= 0; k = (k + 1) & (cap - 1)) {
      int j = tab[k];
      if (strcmp(names[i], names[j])) continue;
      free(tab);
      char first[512];
      awe_loc_format(locs[j], first, sizeof(first));
      return awe_err_at(err, AWE_EINVAL, locs[i], "duplicate %s name '%s' (first defined at %s)",
                        kind, names[i], first);
    }
    tab[k] = i;
  }
  free(tab);
  return AWE_OK;
}


int awe_model_find_point(const awe_model *m, const char *name) {
  for (int i = 0; i < m->npoint; i++)
    if (!strcmp(m->point_name[i], name)) return i;
  return -1;
}

int awe_model_find_segment(const awe_model *m, const char *name) {
  for (int i = 0; i < m->nsegment; i++)
    if (!strcmp(m->segment_name[i], name)) return i;
  return -1;
}

int awe_model_find_winch(const awe_model *m, const char *name) {
  for (int i = 0; i < m->nwinch; i++)
    if (!strcmp(m->winch_name[i], name)) return i;
  return -1;
}

int awe_model_find_tether(const awe_model *m, const char *name) {
  for (int i = 0; i < m->ntether; i++)
    if (!strcmp(m->tether_name[i], name)) return i;
  return -1;
}


double awe_model_total_mass(const awe_model *m) {
  double t = 0;
  for (int i = 0; i < m->npoint; i++)
    if (m->point_type[i] != AWE_PT_STATIC) t += m->point_mass0[i];
  for (int j = 0; j < m->nbody; j++) /* their own: the riders' are counted above */
    if (!m->body_static[j]) t += m->body_mass0[j];
  return t;
}



static awe_status build(awe_mb_builder *b, awe_err *err) {
  AWE_TRY(awe_mb_points_segments(b, err));
  AWE_TRY(awe_mb_tethers(b, err));
  AWE_TRY(awe_mb_winches(b, err));
  AWE_TRY(awe_mb_pulleys(b, err));
  AWE_TRY(awe_mb_wings_groups(b, err));
  AWE_TRY(awe_mb_transforms(b, err));
  AWE_TRY(awe_mb_derive(b, err));
  AWE_TRY(awe_mb_bodies(b, err));
  AWE_TRY(awe_mb_kcu(b, err));
  AWE_TRY(awe_mb_aero(b, err));
  awe_mb_env_opt(b);
  AWE_TRY(awe_model_validate(b->m, b->s, b->warn, err));
  AWE_TRY(awe_model_place(b->m, b->s, b->warn, err));
  AWE_TRY(awe_mb_body_points_place(b, err));
  awe_mb_check_l_tethers(b);
  awe_mb_settings_unused(b);
  AWE_TRY(awe_model_plausible(b->m, b->s, b->warn, err));
  AWE_TRY(awe_model_ground_stations(b->m, b->s, err));
  AWE_TRY(awe_model_layout(b->m, err));
  AWE_TRY(awe_mb_signals(b, err));
  AWE_TRY(awe_model_layout_inputs(b->m, err));
  return AWE_OK;  /* the controllers come after, from the layer above: awe_model_build_controlled */
}


awe_model *awe_model_build(const awe_spec *s, awe_diag *warn, awe_err *err) {
  awe_model *m = calloc(1, sizeof(*m));
  if (!m || !(m->pool = awe_pool_new())) {
    free(m);
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  m->name = awe_pool_strdup(m->pool, s->scenario.name ? s->scenario.name : "model");
  awe_mb_builder b = {.s = s, .m = m, .warn = warn};
  if (build(&b, err)) {
    awe_model_free(m);
    return NULL;
  }
  return m;
}


void awe_model_free(awe_model *m) {
  if (!m) return;
  if (m->env.box) {
    awe_wind_box_free(m->env.box);
    free(m->env.box);
  }
  awe_registry_free(&m->reg);
  awe_pool_free(m->pool);
  free(m);
}
