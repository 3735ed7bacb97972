/* settings.h: settings.yaml (KiteUtils Settings) as used by SymbolicAWEModels.
 *
 * One X-macro list defines every key: its section, type, default (the KiteUtils struct
 * default, so a file that omits a key behaves as in SymbolicAWEModels), unit and meaning. The
 * parser, the defaults and the unknown-key check all come from this list.
 *
 * Types: D double, I int, B bool, S string (max 63 chars), V list of up to AWE_SET_VMAX doubles.
 */
#ifndef AWE_SETTINGS_H
#define AWE_SETTINGS_H

#include <stddef.h>

#include "util/status.h"

#define AWE_SET_VMAX 8

/* X(section, key, type, default, unit, description) */
#define AWE_SETTINGS_FIELDS(X)                                                              \
  X(system, sample_freq, D, 0, "Hz", "output and step frequency; dt = 1/sample_freq")       \
  X(system, g_earth, D, 0, "m/s^2", "gravitational acceleration (KiteUtils default 0)")     \
  X(system, sim_time, D, 0, "s", "simulation time of the examples")                         \
  X(system, segments, I, 0, "-", "tether segments of KPS models")                           \
  X(initial, elevations, V, 70, "deg", "initial elevation per kite")                        \
  X(initial, elevation_rates, V, 0, "deg/s", "initial elevation rate")                      \
  X(initial, azimuths, V, 0, "deg", "initial azimuth")                                      \
  X(initial, azimuth_rates, V, 0, "deg/s", "initial azimuth rate")                          \
  X(initial, headings, V, 0, "deg", "initial heading")                                      \
  X(initial, heading_rates, V, 0, "deg/s", "initial heading rate")                          \
  X(initial, l_tethers, V, 0, "m", "initial tether lengths")                                \
  X(initial, kite_distances, V, 0, "m", "initial kite distances")                           \
  X(initial, v_reel_outs, V, 0, "m/s", "initial reel-out speeds")                           \
  X(initial, depowers, V, 0, "%", "initial depower")                                        \
  X(initial, steerings, V, 0, "%", "initial steering")                                      \
  X(solver, solver, S, "DFBDF", "-", "Julia solver name (awesim: see run.solver)")          \
  X(solver, abs_tol, D, 0, "-", "Julia's absolute tolerance; not used (run.abs_tol)")       \
  X(solver, rel_tol, D, 0, "-", "Julia's relative tolerance; not used (run.rel_tol)")       \
  X(solver, relaxation, D, 0, "-", "relaxation of the quasi-static Newton solver")          \
  X(solver, max_iter, I, 1, "-", "max iterations of the steady-state solver")               \
  X(solver, dtmax, D, 0, "s", "max internal step (0 = unlimited)")                          \
  X(kite, physical_model, S, "", "-", "model name (2plate, ram, v3, KPS4)")                 \
  X(kite, mass, D, 0, "kg", "kite mass (legacy models)")                                    \
  X(kite, area, D, 0, "m^2", "projected area (legacy models)")                              \
  X(kite, quasi_static, B, 0, "-", "quasi-static kite points (legacy)")                     \
  X(tether, d_tether, D, 0, "mm", "default segment diameter")                               \
  X(tether, cd_tether, D, 0, "-", "tether drag coefficient")                                \
  X(tether, axial_damping, D, 0, "N s", "unit damping (legacy)")                            \
  X(tether, axial_stiffness, D, 0, "N", "unit stiffness EA (legacy)")                       \
  X(tether, rho_tether, D, 0, "kg/m^3", "default segment density")                          \
  X(tether, e_tether, D, 0, "Pa", "default Young's modulus")                                \
  X(bridle, rel_damping, D, 0, "s", "unit_damping = rel_damping * unit_stiffness")          \
  X(winch, winch_model, S, "", "-", "TorqueControlledMachine or AsyncMachine")              \
  X(winch, max_force, D, 4000, "N", "nominal maximum force")                                \
  X(winch, v_ro_max, D, 8, "m/s", "maximum reel-out speed")                                 \
  X(winch, v_ro_min, D, -8, "m/s", "minimum reel-out speed")                                \
  X(winch, max_acc, D, 0, "m/s^2", "maximum acceleration")                                  \
  X(winch, drum_radius, D, 0.1615, "m", "drum radius")                                      \
  X(winch, gear_ratio, D, 6.2, "-", "gear ratio")                                           \
  X(winch, inertia_total, D, 0, "kg m^2", "inertia seen from the motor")                    \
  X(winch, f_coulomb, D, 122.0, "N", "Coulomb friction")                                    \
  X(winch, c_vf, D, 30.6, "N s/m", "viscous friction coefficient")                          \
  X(winch, p_speed, D, 0, "-", "speed controller P gain (unused: speed winches follow input)")\
  X(winch, i_speed, D, 0, "-", "speed controller I gain (unused: speed winches follow input)")\
  X(winch, v_min, D, 0.1, "m/s", "speed below which the brake acts")                        \
  X(winch, u_nom, D, 230.94010767585033, "V", "AsyncMachine: nominal phase voltage 400/sqrt 3") \
  X(winch, omega_sn, D, 157.07963267948966, "rad/s", "AsyncMachine: rated synchronous speed")  \
  X(winch, omega_mn, D, 152.89084247, "rad/s", "AsyncMachine: rated nominal speed (1460 rpm)")\
  X(winch, tau_n, D, 121, "N m", "AsyncMachine: rated torque at omega_mn")                    \
  X(winch, tau_b, D, 363, "N m", "AsyncMachine: breakdown (maximum) torque")                  \
  X(winch, efficiency, D, 1, "-", "drive efficiency (awesim): P_el = eta P (generating)")     \
  X(kcu, v_depower, D, 0.075, "1/s", "depower motor speed limit (full range 1 = 100 %)")     \
  X(kcu, v_steering, D, 0.2, "1/s", "steering motor speed limit (full range 2 = 200 %)")     \
  X(kcu, depower_gain, D, 3.0, "1/s", "depower motor speed per unit of error")               \
  X(kcu, steering_gain, D, 3.0, "1/s", "steering motor speed per unit of error")             \
  X(environment, v_wind, D, 0, "m/s", "wind speed at h_ref")                                \
  X(environment, upwind_dir, D, 0, "deg", "upwind direction (-90 = wind toward +x)")        \
  X(environment, upwind_elevation, D, 0, "deg", "upwind elevation")                         \
  X(environment, wind_vec, V, 0, "m/s", "ENU wind vector at h_ref (with use_wind_vec)")     \
  X(environment, use_wind_vec, B, 0, "-", "take the wind from wind_vec")                    \
  X(environment, temp_ref, D, 0, "degC", "temperature at h_ref")                            \
  X(environment, height_gnd, D, 0, "m", "ground altitude")                                  \
  X(environment, h_ref, D, 0, "m", "reference height of v_wind")                            \
  X(environment, rho_0, D, 0, "kg/m^3", "air density at sea level")                         \
  X(environment, alpha, D, 0, "-", "power-law exponent")                                    \
  X(environment, z0, D, 0, "m", "roughness length")                                         \
  X(environment, profile_law, I, 0, "-", "0 uniform, 1 EXP, 2 LOG, 3 EXPLOG, 4-6 FAST_*")

#define AWE_SET_TYPE_D double
#define AWE_SET_TYPE_I int
#define AWE_SET_TYPE_B int
#define AWE_SET_TYPE_S char
#define AWE_SET_TYPE_V double

typedef struct {
#define AWE_SET_DECL_D(name) double name;
#define AWE_SET_DECL_I(name) int name;
#define AWE_SET_DECL_B(name) int name;
#define AWE_SET_DECL_S(name) char name[64];
#define AWE_SET_DECL_V(name) double name[AWE_SET_VMAX]; int n_##name;
#define X(sec, key, type, def, unit, doc) AWE_SET_DECL_##type(key)
  AWE_SETTINGS_FIELDS(X)
#undef X
  /* which keys a file set (index in the field list), to warn about defaults that bite, and
   * where (borrowed from the spec's documents: valid while the spec lives) */
  unsigned char given[128];
  awe_loc loc[128];
} awe_settings;

typedef enum { AWE_SET_D, AWE_SET_I, AWE_SET_B, AWE_SET_S, AWE_SET_V } awe_set_type;

typedef struct {
  const char *section, *key, *unit, *doc;
  awe_set_type type;
  double def_num;
  const char *def_str;
  size_t offset;
} awe_setting_field;

/* The field table (in list order) and its length. */
const awe_setting_field *awe_settings_fields(int *n);

/* Fill s with the KiteUtils defaults. */
void awe_settings_default(awe_settings *s);

/* Index of a field by key (any section), or -1. */
int awe_settings_find(const char *key);

/* The settings.initial vectors that place each transform's kite, in the order of a
 * transform's elevation, azimuth, heading, elevation rate and azimuth rate [deg, deg/s]:
 * their keys, and s's values and counts. */
#define AWE_SET_TRANSFORM_VECS 5
extern const char *const awe_settings_transform_keys[AWE_SET_TRANSFORM_VECS];
void awe_settings_transform_vectors(const awe_settings *s, const double *v[AWE_SET_TRANSFORM_VECS],
                                    int n[AWE_SET_TRANSFORM_VECS]);

/* Keys KiteUtils knows but SymbolicAWEModels does not use: accepted without a warning. */
int awe_settings_is_ignored_key(const char *key);

/* Sections KiteUtils reads. */
int awe_settings_is_section(const char *section);

/* The section names (for did-you-mean); n receives their count. */
const char *const *awe_settings_sections(int *n);

#endif
