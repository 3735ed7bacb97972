/* wind.h: the wind at a point and a time: the mean profile turned by wind.direction, the
 * vertical wind wind.w and IEC 61400-1's deterministic gusts (physics.md §1).
 *
 *   wind(p, t) = (f(z) v_ref + dv(t) + gz(t) z + gy(t) (p . lat)) dir(t) + w e_z
 *
 *   f       the profile law (atmosphere.h), v_ref = wind.v_wind [m/s] at h_ref
 *   dir(t)  the settings' wind direction turned about e_z to the upwind direction
 *           wind.direction [deg, clockwise from north = +y, where the wind comes from;
 *           -90: from west, blowing toward +x] plus the gusts' direction change theta(t)
 *   lat     e_z x dir, normalised: the lateral axis of the horizontal shear
 *   dv, gz, gy  the gusts' speed change (wind_gust.c); w = wind.w [m/s], not scaled by f
 *
 * awe_wind_update runs once per right-hand side (stage 3), so that every point's look-up is a
 * few multiplications; nothing here allocates.
 */
#ifndef AWE_WIND_H
#define AWE_WIND_H

#include "engine/work.h"

/* The gusts' effect at time t for a mean speed v_hub at the gust's height z_hub (its height,
 * else h_ref) [m/s]: uniform
 * speed change *dv [m/s], direction change *theta [deg, clockwise seen from above], and the
 * shear *k [1/s] (EWS: speed change per metre of height above z_hub, or of y). Adds to the
 * outputs (several gusts sum). */
void awe_gust_eval(const awe_gust_spec *g, double t, double v_hub, double z_hub, double *dv,
                   double *theta, double *k);

/* The parameters a gust uses at v_hub, the formula's when not given: V_gust (EOG) [m/s],
 * theta_e (EDC) or theta_cg (ECD) [deg], V_cg (ECD) [m/s], the EWS amplitude [m/s] into
 * *amp; *period [s], *lambda1 [m]. */
void awe_gust_params(const awe_gust_spec *g, double v_hub, double z_hub, double *amp,
                     double *period, double *lambda1);

/* The wind of time t from the inputs in w->u and the scenario's gusts into w->wind and
 * w->wind_gnd. */
void awe_wind_update(const awe_model *m, awe_work *w, double t);

/* The wind at point p [m/s]. */
void awe_wind_point(const awe_model *m, const awe_work *w, const double p[3], double out[3]);

/* d wind / d z at point p [1/s] (the analytic Jacobian's height derivative). */
void awe_wind_dz(const awe_model *m, const awe_work *w, const double p[3], double out[3]);

#endif
