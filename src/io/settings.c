/* settings.c: the settings field table, defaults, and KiteUtils' known-but-unused keys. */
#include "io/settings.h"

#include <stddef.h>
#include <string.h>

#define NUMDEF_D(def) (double)(def)
#define NUMDEF_I(def) (double)(def)
#define NUMDEF_B(def) (double)(def)
#define NUMDEF_V(def) (double)(def)
#define NUMDEF_S(def) 0.0
#define STRDEF_D(def) NULL
#define STRDEF_I(def) NULL
#define STRDEF_B(def) NULL
#define STRDEF_V(def) NULL
#define STRDEF_S(def) def

static const awe_setting_field fields[] = {
#define X(sec, key, type, def, unit, doc)                                                \
  {#sec, #key, unit, doc, AWE_SET_##type, NUMDEF_##type(def), STRDEF_##type(def),        \
   offsetof(awe_settings, key)},
    AWE_SETTINGS_FIELDS(X)
#undef X
};


const awe_setting_field *awe_settings_fields(int *n) {
  *n = (int)(sizeof(fields) / sizeof(fields[0]));
  return fields;
}


void awe_settings_default(awe_settings *s) {
  memset(s, 0, sizeof(*s));
  int n;
  const awe_setting_field *f = awe_settings_fields(&n);
  for (int i = 0; i < n; i++) {
    char *p = (char *)s + f[i].offset;
    switch (f[i].type) {
      case AWE_SET_D: *(double *)p = f[i].def_num; break;
      case AWE_SET_I:
      case AWE_SET_B: *(int *)p = (int)f[i].def_num; break;
      case AWE_SET_S: strncpy(p, f[i].def_str, 63); break;
      case AWE_SET_V: *(double *)p = f[i].def_num; break;
    }
  }
  /* vector lengths: KiteUtils defaults are one-element lists, wind_vec has three */
#define X(sec, key, type, def, unit, doc) X_##type(key)
#define X_D(k)
#define X_I(k)
#define X_B(k)
#define X_S(k)
#define X_V(k) s->n_##k = 1;
  AWE_SETTINGS_FIELDS(X)
#undef X
#undef X_D
#undef X_I
#undef X_B
#undef X_S
#undef X_V
  s->n_wind_vec = 3;
}


const char *const awe_settings_transform_keys[AWE_SET_TRANSFORM_VECS] = {
    "elevations", "azimuths", "headings", "elevation_rates", "azimuth_rates"};


void awe_settings_transform_vectors(const awe_settings *s, const double *v[AWE_SET_TRANSFORM_VECS],
                                    int n[AWE_SET_TRANSFORM_VECS]) {
  v[0] = s->elevations;
  v[1] = s->azimuths;
  v[2] = s->headings;
  v[3] = s->elevation_rates;
  v[4] = s->azimuth_rates;
  n[0] = s->n_elevations;
  n[1] = s->n_azimuths;
  n[2] = s->n_headings;
  n[3] = s->n_elevation_rates;
  n[4] = s->n_azimuth_rates;
}


int awe_settings_find(const char *key) {
  int n;
  const awe_setting_field *f = awe_settings_fields(&n);
  for (int i = 0; i < n; i++)
    if (!strcmp(f[i].key, key)) return i;
  return -1;
}


/* Every other KiteUtils Settings field (v0.11): present in real files, unused by the physics. */
static const char *const ignored[] = {
    "log_file", "log_level", "time_lapse", "zoom", "kite_scale", "fixed_font", "linear_solver",
    "max_order", "c0", "c_s", "c2_cor", "k_ds", "delta_st", "max_steering", "cs_4p",
    "alpha_d_max", "depower_offset", "model", "foil_file", "version", "rel_side_area",
    "height_k", "height", "alpha_cl", "cl_list", "alpha_cd", "cd_list", "cms",
    "top_bridle_points", "crease_frac", "bridle_fracs", "fixed_index", "struc_geometry_path",
    "aero_geometry_path", "width", "alpha_zero", "alpha_ztip", "m_k", "rel_nose_mass",
    "rel_top_mass", "smc", "cmq", "cord_length", "axial_stiffness_kite", "axial_damping_kite",
    "rel_mass_p2", "rel_mass_p3", "rel_mass_p4", "d_line", "h_bridle", "l_bridle",
    "rel_compr_stiffness", "kcu_model", "kcu_mass", "kcu_diameter", "cd_kcu", "depower_zero",
    "degrees_per_percent_power", "power2steer_dist", "depower_drum_diameter", "tape_thickness",
    "damping", "c_spring",
    "bridle_tether_diameter", "power_tether_diameter", "steering_tether_diameter",
    "unit_damping", "unit_stiffness", "use_turbulence", "v_wind_gnds", "avg_height",
    "rel_turbs", "i_ref", "v_ref", "height_step", "grid_step", "grid", "heights", "speeds",
    "delta", "stiffness_factor", "elevation", "depower", "l_tether", "project", "sim_settings",
    "kite_distance", "v_reel_out", "azimuth", "heading", "elevation_rate", "azimuth_rate",
    "heading_rate", "steering", "tether_length", "v_wind_ref", "max_iterations",
};


int awe_settings_is_ignored_key(const char *key) {
  for (size_t i = 0; i < sizeof(ignored) / sizeof(*ignored); i++)
    if (!strcmp(ignored[i], key)) return 1;
  return 0;
}


/* the sections of settings.yaml awesim reads (the X-macro list's sections, and those it
 * accepts whole: steering, depower, kps4, kps5, bridle, kcu) */
static const char *const SECTIONS[] = {"system",  "solver",   "kite",    "tether", "environment",
                                       "initial", "steering", "depower", "kps4",   "kps5",
                                       "bridle",  "winch",    "kcu"};


const char *const *awe_settings_sections(int *n) {
  *n = (int)(sizeof(SECTIONS) / sizeof(*SECTIONS));
  return SECTIONS;
}


int awe_settings_is_section(const char *section) {
  for (size_t i = 0; i < sizeof(SECTIONS) / sizeof(*SECTIONS); i++)
    if (!strcmp(SECTIONS[i], section)) return 1;
  return 0;
}
