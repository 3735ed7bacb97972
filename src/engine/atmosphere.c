/* atmosphere.c: air density with AtmosphericModels' fastexp, wind profile laws 0-6.
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


/* FAST_EXP, FAST_LOG, FAST_EXPLOG: AtmosphericModels.jl's rational fits in s = 1/z (numerator
 * degree 10, denominator degree 2) of laws 1-3 for its default site; 1 below 6 m. */
static const double FAST_NUM[3][11] = {
  {1.8427619589823305, 3617.0786194064476, 590119.886685333, -2.53435240735932e6,
   5.4120682033388115e7, -9.636216067310344e8, 1.2056636533430845e10, -9.962127083327875e10,
   5.1324465874649536e11, -1.4865348277628154e12, 1.8431054022301477e12},
  {1.7254692847178346, 3180.6368701426595, 489764.5131517146, -2.1080713892318057e6,
   4.227143439940046e7, -7.322154139158928e8, 9.013764300164715e9, -7.36716754548423e10,
   3.7658022380555835e11, -1.0842283673197954e12, 1.338030926540245e12},
  {1.6133163094857612, 2488.963179734051, 343230.7633444393, -1.450703528831999e6,
   2.6919154959563803e7, -4.4848947369166476e8, 5.387689053876384e9, -4.329358467994954e10,
   2.1854676308520227e11, -6.232058566966395e11, 7.632537480818357e11}};
static const double FAST_DEN[3][3] = {{1.0, 2487.0429567107535, 495940.74312868936},
                                      {1.0, 2200.4764287411545, 404389.8285052791},
                                      {1.0, 1735.2333827029918, 279373.0012683715}};


/* P(s)/Q(s) of fast law k (0..2) at s = 1/z, and its derivative over z in *dfdz */
static double fast_law(int k, double z, double *dfdz) {
  double s = 1.0 / z, p = 0.0, dp = 0.0, q = 0.0, dq = 0.0;
  for (int i = 10; i >= 0; i--) {
    dp = dp * s + p;
    p = p * s + FAST_NUM[k][i];
  }
  for (int i = 2; i >= 0; i--) {
    dq = dq * s + q;
    q = q * s + FAST_DEN[k][i];
  }
  *dfdz = -(dp * q - p * dq) / (q * q) * s * s; /* ds/dz = -1/z^2 */
  return p / q;
}


double awe_wind_factor(const awe_env *e, double z) {
  double zz = z > 1.0 ? z : 1.0, d;
  if (e->profile_law >= 4 && e->profile_law <= 6)
    return z >= AWE_FAST_LAW_MIN_Z ? fast_law(e->profile_law - 4, z, &d) : 1.0;
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
  if (e->profile_law >= 4 && e->profile_law <= 6) {
    double d = 0.0;
    if (z >= AWE_FAST_LAW_MIN_Z) fast_law(e->profile_law - 4, z, &d);
    return d;
  }
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
