/* atmosphere.c: air density with AtmosphericModels' fastexp, wind profile laws 0-3.
 *
 * Equations and sources: see atmosphere.h (physics.md §1).
 */
#include "engine/atmosphere.h"

#include <math.h>


double awe_fastexp(double x) {
  double r = 1.0 + x / 1024.0;
  for (int i = 0; i < 10; i++) r *= r;
  return r;
}


double awe_density_scale(const awe_env *e) {
  return (15.0 + 273.15) / (e->temp_ref + 273.15) * e->rho_0;
}


double awe_density_at(const awe_env *e, double rho_zero_temp, double z) {
  double h = z > 0.0 ? z : 0.0;
  return rho_zero_temp * awe_fastexp(-(h + e->height_gnd) / 8550.0);
}


double awe_density(const awe_env *e, double z) {
  return awe_density_at(e, awe_density_scale(e), z);
}


double awe_wind_factor(const awe_env *e, double z) {
  double zz = z > 1.0 ? z : 1.0;
  switch (e->profile_law) {
    case 1:
      return pow(zz / e->h_ref, e->alpha);
    case 2:
      return log(zz / e->z0) / log(e->h_ref / e->z0);
    case 3: {
      double log1 = log(zz / e->z0) / log(e->h_ref / e->z0);
      double exp1 = pow(zz / e->h_ref, e->alpha);
      return log1 + (log1 - exp1);
    }
    default:
      return 1.0;
  }
}


double awe_wind_dfactor(const awe_env *e, double z) {
  if (!(z > 1.0)) return 0.0; /* clamped at 1 m */
  switch (e->profile_law) {
    case 1:
      return e->alpha * pow(z / e->h_ref, e->alpha) / z;
    case 2:
      return 1.0 / (z * log(e->h_ref / e->z0));
    case 3:
      return 2.0 / (z * log(e->h_ref / e->z0)) - e->alpha * pow(z / e->h_ref, e->alpha) / z;
    default:
      return 0.0;
  }
}


double awe_density_dlog(const awe_env *e, double z) {
  if (!(z > 0.0)) return 0.0; /* clamped at the ground */
  double x = -(z + e->height_gnd) / 8550.0;
  return -1.0 / (8550.0 * (1.0 + x / 1024.0)); /* d/dz ln (1 + x/1024)^1024 */
}


void awe_wind_ground(const awe_env *e, double v_wind, double out[3]) {
  for (int k = 0; k < 3; k++) out[k] = v_wind * e->wind_dir[k];
}


void awe_wind_at(const awe_env *e, const double wind_gnd[3], double z, double out[3]) {
  if (e->profile_law == 0) {
    out[0] = wind_gnd[0];
    out[1] = wind_gnd[1];
    out[2] = wind_gnd[2];
    return;
  }
  double f = awe_wind_factor(e, z);
  for (int k = 0; k < 3; k++) out[k] = f * wind_gnd[k];
}
