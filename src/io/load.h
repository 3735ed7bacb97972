/* load.h: scenario or model file -> spec, the one reader every subcommand uses (the model is then
 * built from the spec by awe_model_build, model.h). */
#ifndef AWE_LOAD_H
#define AWE_LOAD_H

#include "io/spec.h"
#include "util/status.h"

/* Read a scenario and every model file it names, apply --set overrides ("a.b.c=VALUE"), parse
 * into a spec. On failure returns NULL with err set; warnings (also on success) go to
 * spec->warnings or, when no spec could be made, to warn. */
awe_spec *awe_spec_load(const char *scenario_path, int nset, const char *const *sets,
                        awe_diag *warn, awe_err *err);

/* A spec for a bare model (system.yaml or structure file) without a scenario, using the
 * default run options. */
awe_spec *awe_spec_load_model(const char *model_path, awe_diag *warn, awe_err *err);

/* Read only an aero geometry file (and optional vsm_settings.yaml) for `awesim polar`. */
awe_spec *awe_spec_load_aero(const char *aero_path, const char *vsm_settings_path,
                             awe_diag *warn, awe_err *err);

#endif
