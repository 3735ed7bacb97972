/* atmosphere.h: air density, wind profile and wind vector (physics.md §1).
 *
 * Source: OpenSourceAWE/AtmosphericModels.jl src/AtmosphericModels.jl @03014f6 and
 * SymbolicAWEModels src/generate_system/helpers.jl @394ead8.
 *
 *   rho(z)   = rho_zero_temp * fastexp(-(max(0, z) + height_gnd) / 8550)          [kg/m^3]
 *   rho_zero_temp = (15 + 273.15) / (temp_ref + 273.15) * rho_0
 *   fastexp(x) = (1 + x/1024)^1024   (ten squarings, as in AtmosphericModels; not libm exp)
 *
 *   wind factor f(z), evaluated at zz = max(1, z):
 *     law 0  f = 1
 *     law 1  f = (zz/h_ref)^alpha                                  (EXP)
 *     law 2  f = ln(zz/z0) / ln(h_ref/z0)                          (LOG)
 *     law 3  f = log1 + K (log1 - exp1), K = 1                     (EXPLOG)
 *   laws 4-6 (FAST_EXP, FAST_LOG, FAST_EXPLOG; AtmosphericModels.jl before v0.3, which dropped
 *   them, and KiteUtils' settings): f = P(1/z) / Q(1/z), rational fits of laws 1-3 for that
 *   package's default site (h_ref 6 m, alpha 0.08163, z0 0.0002 m) with fixed coefficients,
 *   so h_ref, alpha and z0 do not enter; f = 1 below 6 m (the fits' floor, as there).
 *   wind at a point  v_w(z) = f(z) * wind_gnd,   wind_gnd = v_wind * wind_dir   [m/s]
 */
#ifndef AWE_ATMOSPHERE_H
#define AWE_ATMOSPHERE_H

#include "model/model.h"

/* the fast laws (4-6) are 1 below this height [m] */
#define AWE_FAST_LAW_MIN_Z 6.0

/* (1 + x/1024)^1024 */
double awe_fastexp(double x);

/* Air density at height z [m] (clamped at the ground). */
double awe_density(const awe_env *e, double z);

/* rho_zero_temp, to hoist out of loops, and the density from it (= awe_density). */
double awe_density_scale(const awe_env *e);
double awe_density_at(const awe_env *e, double rho_zero_temp, double z);

/* Wind profile factor at height z [m]. */
double awe_wind_factor(const awe_env *e, double z);

/* d f/d z of the wind profile factor (0 below 1 m and for law 0) [1/m]. */
double awe_wind_dfactor(const awe_env *e, double z);

/* d ln(rho)/d z of awe_density (0 below the ground) [1/m]. */
double awe_density_dlog(const awe_env *e, double z);

/* Wind vector at h_ref for a wind speed v_wind [m/s]. */
void awe_wind_ground(const awe_env *e, double v_wind, double out[3]);

/* Wind vector at height z given the ground (h_ref) wind vector. */
void awe_wind_at(const awe_env *e, const double wind_gnd[3], double z, double out[3]);

#endif
