/* load.c: scenario -> model files -> spec (see load.h).
 *
 * Order: scenario YAML, --set overrides applied to its tree, then the model named by
 * `model:` (a system.yaml "project file", a structure file, or a mapping of files), then
 * settings (KiteUtils defaults, the model's settings.yaml, the scenario's overrides), VSM
 * settings, structure, aero geometry, and finally the scenario's run/inputs/output.
 */
#include "io/load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/pool.h"
#include "io/awesio_read.h"
#include "io/spec_load.h"
#include "io/yaml_doc.h"




/* Load a YAML file and keep it alive in the spec. from/what: the YAML value that named the file
 * and its key, so that a file that cannot be opened is reported at the line that asked for it. */
static awe_status load_doc(awe_spec *s, const char *path, const awe_loc *from, const char *what,
                           awe_ynode **root, awe_err *err) {
  if (s->ndocs >= (int)(sizeof(s->docs) / sizeof(s->docs[0])))
    return awe_err_set(err, AWE_EINTERNAL, "too many files");
  awe_ydoc *d = awe_ydoc_load_file(path, err);
  if (!d && err && err->code == AWE_ENOFILE && from && from->file && from->line > 0) {
    char msg[sizeof(err->msg)];
    snprintf(msg, sizeof(msg), "%s", err->msg);
    return awe_err_at(err, AWE_ENOFILE, from, "%s: %s", what, msg);
  }
  if (!d) return err ? err->code : AWE_EPARSE;
  s->docs[s->ndocs++] = d;
  *root = awe_ydoc_root(d);
  return awe_spec_note_file(s, path, err);
}


static awe_status path_value(awe_spec *s, const awe_ynode *n, const char *what, const char *base,
                             const char **out, awe_loc *where, awe_err *err) {
  const char *p;
  *where = n->loc;
  AWE_TRY(awe_ynode_string(n, what, &p, err));
  if (!p[0]) return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: empty file name", what);
  /* SymbolicAWEModels strips a leading data/ only for its data path; paths here are relative
     to the file that names them */
  *out = awe_spec_path_join(s, base, p);
  return *out ? AWE_OK : awe_err_set(err, AWE_ENOMEM, "out of memory");
}


/* A system.yaml (project file): system: {sim_settings, structural_geometry, aero_geometry,
 * vsm_settings}. Older models name the geometry in settings.yaml (kite.struc_geometry_path). */
/* A file given where a scenario or system.yaml belongs: name what it is and how it is used
   (a settings or vsm_settings file is named from a system.yaml or a scenario's model:). */
static const char *other_file_kind(const awe_ynode *root) {
  if (awe_ymap_get(root, "wings") || awe_ymap_get(root, "solver_settings"))
    return "a VSM settings file (vsm_settings.yaml): name it from a system.yaml "
           "(system.vsm_settings) or a scenario's model: {vsm_settings: ...}, then check the "
           "scenario or system.yaml";
  if (awe_ymap_get(root, "wing_sections"))
    return "an aero geometry (wing_sections): name it from a system.yaml (system.aero_geometry) "
           "or a scenario's model: {aero: ...}; `awesim polar` reads it with a vsm_settings file";
  if (awe_ymap_get(root, "tether") || awe_ymap_get(root, "environment") ||
      awe_ymap_get(root, "solver") || awe_ymap_get(root, "kite") || awe_ymap_get(root, "winch"))
    return "a settings file (settings.yaml: system, environment, tether, winch, ...): name it "
           "from a system.yaml (system.sim_settings) or a scenario's model: {settings: ...}, "
           "then check the scenario or system.yaml";
  return NULL;
}

static awe_status read_system(awe_spec *s, const char *path, const awe_ynode *root,
                              awe_err *err) {
  awe_scenario_spec *sc = &s->scenario;
  const awe_ynode *sys = awe_ymap_get(root, "system");
  const char *kind = other_file_kind(root);
  if (kind) return awe_err_at(err, AWE_EINVAL, &root->loc, "%s is %s", path, kind);
  static const char *const top[] = {"system"};
  AWE_TRY(awe_ymap_check_keys(root, path, top, 1, err));
  if (!sys || sys->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, sys ? &sys->loc : &root->loc,
                      "system: expected a mapping naming sim_settings, structural_geometry, ...");
  sc->model_loc = sys->loc;
  static const char *const keys[] = {"sim_settings", "structural_geometry", "aero_geometry",
                                     "vsm_settings", "project"};
  AWE_TRY(awe_ymap_check_keys(sys, "system", keys, 5, err));
  const awe_ynode *n;
  if ((n = awe_ymap_get(sys, "sim_settings")) || (n = awe_ymap_get(sys, "project")))
    AWE_TRY(path_value(s, n, "system.sim_settings", path, &sc->settings_file,
                       &sc->settings_loc, err));
  if ((n = awe_ymap_get(sys, "structural_geometry")))
    AWE_TRY(path_value(s, n, "system.structural_geometry", path, &sc->structure_file,
                       &sc->structure_loc, err));
  if ((n = awe_ymap_get(sys, "aero_geometry")))
    AWE_TRY(path_value(s, n, "system.aero_geometry", path, &sc->aero_file, &sc->aero_loc, err));
  if ((n = awe_ymap_get(sys, "vsm_settings")))
    AWE_TRY(path_value(s, n, "system.vsm_settings", path, &sc->vsm_settings_file,
                       &sc->vsm_settings_loc, err));
  return AWE_OK;
}


/* The model named by a scenario (or given directly on the command line). */
static awe_status read_model_ref(awe_spec *s, const awe_ynode *model, const awe_ynode *owner,
                                 const char *base, awe_err *err) {
  awe_scenario_spec *sc = &s->scenario;
  if (!model || model->kind == AWE_Y_NULL)
    return awe_err_at(err, AWE_EINVAL, model ? &model->loc : &owner->loc,
                      "scenario: 'model' is required (a system.yaml or a mapping with structure, "
                      "aero, settings, vsm_settings)");
  sc->model_loc = model->loc;
  if (model->kind == AWE_Y_MAP) {
    static const char *const keys[] = {"structure", "aero", "settings", "vsm_settings",
                                       "system"};
    AWE_TRY(awe_ymap_check_keys(model, "model", keys, 5, err));
    const awe_ynode *n;
    if ((n = awe_ymap_get(model, "system"))) {
      const char *sp;
      AWE_TRY(path_value(s, n, "model.system", base, &sp, &sc->system_loc, err));
      awe_ynode *r;
      AWE_TRY(load_doc(s, sp, &sc->system_loc, "model.system", &r, err));
      sc->system_file = sp;
      AWE_TRY(read_system(s, sp, r, err));
    }
    if ((n = awe_ymap_get(model, "structure")))
      AWE_TRY(path_value(s, n, "model.structure", base, &sc->structure_file,
                         &sc->structure_loc, err));
    if ((n = awe_ymap_get(model, "aero")))
      AWE_TRY(path_value(s, n, "model.aero", base, &sc->aero_file, &sc->aero_loc, err));
    if ((n = awe_ymap_get(model, "settings")))
      AWE_TRY(path_value(s, n, "model.settings", base, &sc->settings_file, &sc->settings_loc, err));
    if ((n = awe_ymap_get(model, "vsm_settings")))
      AWE_TRY(path_value(s, n, "model.vsm_settings", base, &sc->vsm_settings_file,
                         &sc->vsm_settings_loc, err));
    return AWE_OK;
  }
  const char *mp;
  AWE_TRY(path_value(s, model, "model", base, &mp, &sc->system_loc, err));
  awe_ynode *r;
  awe_status st = load_doc(s, mp, NULL, NULL, &r, err);
  if (st == AWE_ENOFILE) {
    char msg[sizeof(err->msg)];
    snprintf(msg, sizeof(msg), "%s", err->msg);
    return awe_err_at(err, AWE_ENOFILE, &model->loc, "model: %s", msg);
  }
  if (st) return st;
  if (awe_ymap_get(r, "system")) {
    sc->system_file = mp;
    return read_system(s, mp, r, err);
  }
  if (awe_ymap_get(r, "points")) {
    sc->structure_file = mp;
    /* a bare structure file: take the model's other files from beside it, as a system.yaml in
       that folder would name them */
    static const char *const sib[3] = {"settings.yaml", "aero_geometry.yaml", "vsm_settings.yaml"};
    const char **dst[3] = {&sc->settings_file, &sc->aero_file, &sc->vsm_settings_file};
    for (int k = 0; k < 3; k++) {
      const char *p = awe_spec_path_join(s, mp, sib[k]);
      struct stat sb;  /* stat, not fopen: a FIFO of that name must not block */
      if (p && !stat(p, &sb) && S_ISREG(sb.st_mode)) *dst[k] = p;
    }
    return AWE_OK;
  }
  return awe_err_at(err, AWE_EINVAL, &model->loc,
                    "model: '%s' is neither a system.yaml (with 'system:') nor a structural "
                    "geometry (with 'points:')", mp);
}


/* SymbolicAWEModels' settings-only models (KPS4, base/beam, RamAirKites.jl, V3Kite.jl's
   settings-built variants) are assembled by a Julia builder function from the settings */
#define SETTINGS_ONLY_HINT                                                                    \
  ": it names only a settings file, as SymbolicAWEModels' settings-built models (KPS4, "      \
  "base/beam, RamAirKites.jl) do, whose structure that package builds in Julia code (a "      \
  "SystemStructure builder such as SymbolicAWEModels' create_ram_sys_struct or "             \
  "create_simple_ram_sys_struct, or V3Kite.jl's load_sys_struct_from_yaml of a "             \
  "struc_geometry.yaml); awesim reads the structure from a struc_geometry.yaml (points, "    \
  "segments, tethers, wings, ...): export it from the Julia SystemStructure, or start from "  \
  "models/v3_kite, models/v3kite_jl or models/2plate_kite"

/* the settings-only hint, and when the model's folder holds SymbolicAWEModels' usual structure
   file (V3Kite.jl's data/ does: its Julia code loads data/struc_geometry.yaml itself), how to
   fly that one */
static const char *settings_only_hint(awe_spec *s, const char *near) {
  const char *p = near ? awe_spec_path_join(s, near, "struc_geometry.yaml") : NULL;
  struct stat sb;
  if (!p || stat(p, &sb) || !S_ISREG(sb.st_mode)) return SETTINGS_ONLY_HINT;
  size_t n = strlen(SETTINGS_ONLY_HINT) + 2 * strlen(p) + 400;
  char *h = awe_spec_alloc(s, n);
  if (!h) return SETTINGS_ONLY_HINT;
  snprintf(h, n, "%s. Beside it is %s, the structure such a package loads in code (V3Kite.jl "
           "does): `awesim check %s` reads it with the settings.yaml, aero_geometry.yaml and "
           "vsm_settings.yaml of its folder", SETTINGS_ONLY_HINT, p, p);
  return h;
}

/* Read every model file named in sc; scenario_settings (may be NULL) overrides settings. */
static awe_status read_model_files(awe_spec *s, const awe_ynode *scenario_settings,
                                   awe_err *err) {
  awe_scenario_spec *sc = &s->scenario;
  awe_ynode *r;
  if (sc->settings_file) {
    AWE_TRY(load_doc(s, sc->settings_file, &sc->settings_loc, "sim_settings", &r, err));
    AWE_TRY(awe_spec_read_settings(s, r, sc->settings_file, 0, err));
    /* older models name their geometry in settings.yaml */
    const awe_ynode *kite = awe_ymap_get(r, "kite");
    const awe_ynode *n;
    if (!sc->structure_file && (n = awe_ymap_get(kite, "struc_geometry_path")) &&
        n->kind == AWE_Y_SCALAR && n->str[0])
      AWE_TRY(path_value(s, n, "kite.struc_geometry_path", sc->settings_file, &sc->structure_file,
                         &sc->structure_loc, err));
    if (!sc->aero_file && (n = awe_ymap_get(kite, "aero_geometry_path")) &&
        n->kind == AWE_Y_SCALAR && n->str[0])
      AWE_TRY(path_value(s, n, "kite.aero_geometry_path", sc->settings_file, &sc->aero_file,
                         &sc->aero_loc, err));
  }
  if (scenario_settings)
    AWE_TRY(awe_spec_read_settings(s, scenario_settings, "settings", 1, err));
  if (sc->vsm_settings_file) {
    AWE_TRY(load_doc(s, sc->vsm_settings_file, &sc->vsm_settings_loc, "vsm_settings", &r, err));
    AWE_TRY(awe_spec_read_vsm_settings(s, r, sc->vsm_settings_file, err));
  }
  if (!sc->structure_file) {
    const char *hint = sc->settings_file ? settings_only_hint(s, sc->settings_file) : "";
    if (sc->model_loc.file)
      return awe_err_at(err, AWE_EINVAL, &sc->model_loc, "the model names no structural "
                        "geometry (system.structural_geometry or model.structure)%s", hint);
    return awe_err_set(err, AWE_EINVAL,
                       "%s: the model names no structural geometry (system.structural_geometry)%s",
                       sc->system_file ? sc->system_file : sc->path, hint);
  }
  AWE_TRY(load_doc(s, sc->structure_file, &sc->structure_loc, "structural_geometry", &r, err));
  /* an awesIO structure document is recognised by its content (awesio_read.h) */
  if (awe_awesio_is_doc(r))
    AWE_TRY(awe_spec_read_awesio(s, r, sc->structure_file, err));
  else
    AWE_TRY(awe_spec_read_structure(s, r, sc->structure_file, err));
  if (sc->aero_file) {
    AWE_TRY(load_doc(s, sc->aero_file, &sc->aero_loc, "aero_geometry", &r, err));
    AWE_TRY(awe_spec_read_aero(s, r, sc->aero_file, err));
  }
  return AWE_OK;
}


static const char *basename_noext(awe_spec *s, const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  char buf[256];
  snprintf(buf, sizeof(buf), "%s", b);
  char *dot = strrchr(buf, '.');
  if (dot && dot != buf) *dot = 0;
  return awe_spec_strdup(s, buf);
}


static awe_status apply_sets(awe_ydoc *doc, int nset, const char *const *sets,
                             awe_err *err) {
  for (int i = 0; i < nset; i++) {
    const char *eq = strchr(sets[i], '=');
    if (!eq || eq == sets[i])
      return awe_err_set(err, AWE_EUSAGE, "--set '%s': expected KEY.PATH=VALUE", sets[i]);
    char key[512];
    size_t kl = (size_t)(eq - sets[i]);
    if (kl >= sizeof(key)) return awe_err_set(err, AWE_EUSAGE, "--set: key too long");
    memcpy(key, sets[i], kl);
    key[kl] = 0;
    char where[600];
    snprintf(where, sizeof(where), "--set %s", key);
    awe_ynode *v = awe_ydoc_parse_value(doc, eq + 1, where, err);
    if (!v) return err ? err->code : AWE_EPARSE;
    AWE_TRY(awe_ydoc_set_path(doc, key, v, err));
  }
  return AWE_OK;
}


static awe_status load_scenario(awe_spec *s, const char *path, int nset,
                                const char *const *sets, awe_err *err) {
  awe_scenario_spec *sc = &s->scenario;
  sc->path = awe_spec_strdup(s, path);
  awe_ynode *root;
  AWE_TRY(load_doc(s, path, NULL, NULL, &root, err));
  awe_ydoc *doc = s->docs[s->ndocs - 1];
  if (root->kind == AWE_Y_NULL && nset == 0)
    return awe_err_at(err, AWE_EINVAL, &root->loc, "the scenario file is empty");
  if (root->kind != AWE_Y_MAP && root->kind != AWE_Y_NULL)
    return awe_err_at(err, AWE_EINVAL, &root->loc,
                      "a scenario must be a mapping (awesim: 1, model: ..., run: ...)");
  AWE_TRY(apply_sets(doc, nset, sets, err));
  root = awe_ydoc_root(doc);
  const awe_ynode *ver = awe_ymap_get(root, "awesim");
  const char *kind = ver ? NULL : other_file_kind(root);
  if (kind)
    return awe_err_at(err, AWE_EINVAL, &root->loc, "%s is not a scenario: it is %s", path, kind);
  if (!ver)
    return awe_err_at(err, AWE_EINVAL, &root->loc,
                      "scenario: 'awesim: 1' (schema version) is required as the first key");
  AWE_TRY(awe_ynode_int(ver, "awesim (schema version)", &sc->version, err));
  if (sc->version != 1)
    return awe_err_at(err, AWE_EINVAL, &ver->loc,
                      "awesim: schema version %d is not supported (this awesim reads 1)",
                      sc->version);
  const awe_ynode *nm = awe_ymap_get(root, "name");
  if (nm && nm->kind != AWE_Y_NULL) {
    const char *n;
    AWE_TRY(awe_ynode_string(nm, "name", &n, err));
    sc->name = awe_spec_strdup(s, n);
  } else {
    sc->name = basename_noext(s, path);
  }
  /* check the keys before opening model files, so a typo is reported first */
  AWE_TRY(awe_spec_check_scenario_keys(root, err));
  const awe_ynode *desc = awe_ymap_get(root, "description");
  if (desc && desc->kind != AWE_Y_SCALAR && desc->kind != AWE_Y_NULL) {
    char d[64];
    awe_ynode_describe(desc, d, sizeof(d));
    return awe_err_at(err, AWE_EINVAL, &desc->loc, "description: expected free text, got %s", d);
  }
  AWE_TRY(read_model_ref(s, awe_ymap_get(root, "model"), root, path, err));
  AWE_TRY(read_model_files(s, awe_ymap_get(root, "settings"), err));
  AWE_TRY(awe_spec_read_scenario(s, root, err));
  s->scenario_text = awe_ynode_emit(root);
  if (!s->scenario_text) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  return AWE_OK;
}


static void move_warnings(awe_spec *s, awe_diag *warn) {
  if (!warn) return;
  for (int i = 0; i < s->warnings.n; i++) awe_warn(warn, NULL, "%s", s->warnings.msg[i]);
}


awe_spec *awe_spec_load(const char *path, int nset, const char *const *sets, awe_diag *warn,
                        awe_err *err) {
  awe_spec *s = awe_spec_new();
  if (!s) {
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  if (load_scenario(s, path, nset, sets, err)) {
    move_warnings(s, warn);
    awe_spec_free(s);
    return NULL;
  }
  return s;
}


awe_spec *awe_spec_load_model(const char *path, awe_diag *warn, awe_err *err) {
  awe_spec *s = awe_spec_new();
  if (!s) {
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  awe_scenario_spec *sc = &s->scenario;
  sc->path = awe_spec_strdup(s, path);
  sc->name = basename_noext(s, path);
  sc->version = 1;
  sc->bare_model = 1;
  awe_status st;
  /* reuse the scenario's `model:` logic with a synthetic node naming the file */
  awe_ydoc *tmp = awe_ydoc_load_string("x", 1, "<command line>", err);
  if (!tmp) {
    awe_spec_free(s);
    return NULL;
  }
  s->docs[s->ndocs++] = tmp;
  awe_ynode *node = awe_ydoc_parse_value(tmp, "x", "<command line>", err);
  if (!node) {
    awe_spec_free(s);
    return NULL;
  }
  node->str = awe_ydoc_strdup(tmp, path);
  node->quoted = 1;
  /* the model path is relative to the cwd: use a base without a directory */
  st = read_model_ref(s, node, node, "", err);
  if (!st) st = read_model_files(s, NULL, err);
  if (!st) {
    awe_ydoc *empty = awe_ydoc_load_string("{}", 2, path, err);
    if (!empty) {
      st = AWE_ENOMEM;
    } else {
      s->docs[s->ndocs++] = empty;
      st = awe_spec_read_scenario(s, awe_ydoc_root(empty), err);
      s->scenario_text = awe_ynode_emit(awe_ydoc_root(empty));
    }
  }
  if (st) {
    move_warnings(s, warn);
    awe_spec_free(s);
    return NULL;
  }
  return s;
}


awe_spec *awe_spec_load_aero(const char *aero_path, const char *vsm_path, awe_diag *warn,
                             awe_err *err) {
  awe_spec *s = awe_spec_new();
  if (!s) {
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  awe_ynode *r;
  awe_status st = AWE_OK;
  if (vsm_path) {
    st = load_doc(s, vsm_path, NULL, NULL, &r, err);
    if (!st) st = awe_spec_read_vsm_settings(s, r, vsm_path, err);
  }
  if (!st) st = load_doc(s, aero_path, NULL, NULL, &r, err);
  if (!st) st = awe_spec_read_aero(s, r, aero_path, err);
  if (st) {
    move_warnings(s, warn);
    awe_spec_free(s);
    return NULL;
  }
  return s;
}
