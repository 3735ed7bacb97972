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
 * plus, with a wind box (scenario wind.field), its fluctuation scaled by wind.scale, looked up
 * trilinearly (turb/wind_box.h) at box coordinates x = p . dh - U t (dh the horizontal wind
 * direction; Taylor's frozen turbulence advected at U = wind.advection, default the settings'
 * mean wind at the box's middle height), y = p . lat, z = p_z, and turned into the world frame
 * as u' dh + v' lat + w' e_z. Outside the box in y or z the wind is NaN: the right-hand side
 * fails and the run stops with a message naming the point, the time and the box (solve/sim.c,
 * awe_wind_box_report); no clamping.
 *
 * awe_wind_update runs once per right-hand side (stage 3), so that every point's look-up is a
 * few multiplications; nothing here allocates.
 */
#ifndef AWE_WIND_H
#define AWE_WIND_H

#include "engine/work.h"
#include "turb/wind_box.h"

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
 * w->wind_gnd; t = 0 under AWE_CTX_BRAKE_ALL (the steady-state march's pseudo-time). */
void awe_wind_update(const awe_model *m, awe_work *w, double t);

/* The wind at point p [m/s]. */
void awe_wind_point(const awe_model *m, const awe_work *w, const double p[3], double out[3]);

/* Point p's coordinates in the wind box (x along the wind's horizontal direction minus the
 * advection U t, y lateral, z height); -1 without a box. */
int awe_wind_box_coords(const awe_model *m, const awe_work *w, const double p[3], double b[3]);

/* d wind / d z at point p [1/s] (the analytic Jacobian's height derivative; the box's
 * gradients are not in it). */
void awe_wind_dz(const awe_model *m, const awe_work *w, const double p[3], double out[3]);

/* The first point with drag, line-drag midpoint or wing origin outside the wind box at the workspace's
 * positions, as a message into buf (file, name, position, time t, the box's extent); 1 when
 * there is one, 0 otherwise (and without a box). */
int awe_wind_box_report(const awe_model *m, const awe_work *w, double t, char *buf, size_t n);

#endif
