/* spec_load.h: the per-file readers behind awe_spec_load (internal to the input layer). */
#ifndef AWE_SPEC_LOAD_H
#define AWE_SPEC_LOAD_H

#include <stdio.h>

#include "io/spec.h"
#include "io/yaml_doc.h"

/* A point's body that names no body but a wing (SAM's rigid-wing files: the wing is their
 * rigid body) becomes that point's wing (spec_struct_yaml.c; also for awesIO documents). */
void awe_spec_body_refs_to_wings(awe_spec *s);

/* structural geometry (spec_struct_yaml.c) */
awe_status awe_spec_read_structure(awe_spec *s, const awe_ynode *root, const char *path,
                                   awe_err *err);
/* a wing's aero_mode (AeroNone/none, AeroDirect, AeroLinearized; case and underscores free);
 * an absent or null node gives AWE_AERO_DEFAULT (spec_struct_yaml.c) */
awe_status awe_spec_parse_aero_mode(const awe_ynode *n, const char *what, awe_aero_mode *out,
                                    awe_err *err);
/* a wing's unsteady: {apparent_mass: SCALE (0 ... 100), wagner: BOOL, wagner_gains: [A1, A2],
 * wagner_rates: [b1, b2]} mapping into x, key by key (absent or null: unchanged); what names it
 * in messages (spec_struct_yaml.c) */
awe_status awe_spec_parse_unsteady(const awe_ynode *n, const char *what, awe_wing_spec *x,
                                   awe_err *err);
/* aero geometry and its polar CSV files (spec_aero_yaml.c) */
awe_status awe_spec_read_aero(awe_spec *s, const awe_ynode *root, const char *path,
                              awe_err *err);
/* settings.yaml sections into s->settings. strict: unknown keys are errors (scenario
 * overrides) rather than warnings (a user's model file, which must load unchanged). */
awe_status awe_spec_read_settings(awe_spec *s, const awe_ynode *root, const char *what,
                                  int strict, awe_err *err);
/* vsm_settings.yaml into s->vsm (spec_settings_yaml.c) */
awe_status awe_spec_read_vsm_settings(awe_spec *s, const awe_ynode *root, const char *path,
                                      awe_err *err);
/* scenario run/inputs/output (spec_scenario_yaml.c); model paths are handled by load.c */
awe_status awe_spec_read_scenario(awe_spec *s, const awe_ynode *root, awe_err *err);
/* The scenario's top-level keys against the one list of them, with did-you-mean (load.c checks
 * them before opening model files, so a typo is reported first; spec_scenario_yaml.c). */
awe_status awe_spec_check_scenario_keys(const awe_ynode *root, awe_err *err);

/* Load a polar CSV (alpha in degrees unless the header says rad; columns alpha, cl, cd, cm in
 * any order, matched case-insensitively, cm also as CmPitch) into a, arrays in the spec pool. */
awe_status awe_polar_csv_read(awe_spec *s, const char *path, awe_airfoil *a, awe_err *err);
/* The same from an open stream (path names it in messages; the fuzzing harness reads memory). */
awe_status awe_polar_csv_read_stream(awe_spec *s, FILE *f, const char *path, awe_airfoil *a,
                                     awe_err *err);

/* Join dir of base with rel (rel absolute -> rel). Result in the spec pool. */
const char *awe_spec_path_join(awe_spec *s, const char *base_file, const char *rel);

/* The signal part of an input (type and its parameters) from mapping n; sec names it in
 * messages (spec_scenario_yaml.c). */
awe_status awe_spec_read_signal(awe_spec *s, const awe_ynode *n, const char *sec,
                                awe_input_spec *in, awe_err *err);

/* The scenario's `kcu:` section into s->scenario.kcu (NULL node: no kite control unit; the
 * structure must be read) (spec_kcu_yaml.c). */
awe_status awe_spec_read_kcu(awe_spec *s, const awe_ynode *n, awe_err *err);
/* The scenario's `tethers:` lengths and settings.initial.l_tethers (root: the scenario) into
 * the structure's tethers (spec_kcu_yaml.c). */
awe_status awe_spec_read_tethers(awe_spec *s, const awe_ynode *root, awe_err *err);

/* The scenario's `wind:` section (spec_wind_yaml.c); NULL node: the settings' wind alone. */
awe_status awe_spec_read_wind(awe_spec *s, const awe_ynode *n, awe_err *err);

/* The scenario's `controllers:` list (spec_controller_yaml.c); NULL node: none. */
awe_status awe_spec_read_controllers(awe_spec *s, const awe_ynode *list, awe_err *err);

#endif
