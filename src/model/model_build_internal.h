/* model_build_internal.h: what the model builder's files share (model_build.c runs the steps
 * in order; model_build_lines.c, model_build_wing.c and model_build_run.c hold them). */
#ifndef AWE_MODEL_BUILD_INTERNAL_H
#define AWE_MODEL_BUILD_INTERNAL_H

#include "model/model.h"

#define AWE_MB_ALLOC(ptr, n)                                                           \
  do {                                                                                 \
    (ptr) = awe_pool_array(m->pool, (size_t)((n) > 0 ? (n) : 1), sizeof(*(ptr)));      \
    if (!(ptr)) return awe_err_set(err, AWE_ENOMEM, "out of memory");                  \
  } while (0)

/* Everything the builder needs while it works; freed at the end. */
typedef struct {
  const awe_spec *s;
  awe_model *m;
  awe_diag *warn;
  /* counts including generated components */
  int np, ns;
  /* per point/segment: source spec index (declared) or generated info */
  const awe_loc **point_loc, **segment_loc;
  int *point_transform;       /* resolved transform (-1) */
} awe_mb_builder;

/* Resolve a reference (name or 1-based index) among n names; kind and owner name the place
 * in messages (model_build.c). */
awe_status awe_mb_resolve(const awe_ref *r, const char *const *names, int n, const char *kind,
                          const char *owner, int *out, awe_err *err);

/* Fail on a repeated name among n (locs: where each was given) (model_build.c). */
awe_status awe_mb_check_unique(const char *const *names, int n, const awe_loc *const *locs,
                               const char *kind, awe_err *err);

/* The build steps, in the order model_build.c runs them. */
/* model_build_lines.c: points and segments (with generated tethers), tethers, winches */
awe_status awe_mb_points_segments(awe_mb_builder *b, awe_err *err);
awe_status awe_mb_tethers(awe_mb_builder *b, awe_err *err);
awe_status awe_mb_winches(awe_mb_builder *b, awe_err *err);
/* model_build_wing.c: pulleys, wings and groups, derived quantities, transforms */
awe_status awe_mb_pulleys(awe_mb_builder *b, awe_err *err);
awe_status awe_mb_wings_groups(awe_mb_builder *b, awe_err *err);
awe_status awe_mb_derive(awe_mb_builder *b, awe_err *err);
awe_status awe_mb_transforms(awe_mb_builder *b, awe_err *err);
/* model_build_body.c: rigid bodies and the tubes between them */
awe_status awe_mb_bodies(awe_mb_builder *b, awe_err *err);
/* riding points at their bodies' initial poses, and the DYNAMIC bodies' mass and inertia
 * with them (after the placement, which sets the points' masses) */
awe_status awe_mb_body_points_place(awe_mb_builder *b, awe_err *err);
/* model_build_kcu.c: the kite control unit (its tapes' initial rest lengths); the model's
 * settings.initial.l_tethers against the structure */
awe_status awe_mb_kcu(awe_mb_builder *b, awe_err *err);
void awe_mb_check_l_tethers(awe_mb_builder *b);
/* settings_use.c: settings read but not acting here, said where they are given */
void awe_mb_settings_unused(awe_mb_builder *b);
/* model_build_run.c: aerodynamics, environment and run options, input signals */
awe_status awe_mb_aero(awe_mb_builder *b, awe_err *err);
void awe_mb_env_opt(awe_mb_builder *b);
awe_status awe_mb_signals(awe_mb_builder *b, awe_err *err);

#endif
