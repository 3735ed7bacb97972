/* field_stats.h: what `awesim wind info` measures in a box (wind_box.h).
 *
 *   sigma_c      standard deviation of component c over the whole box [m/s]
 *   sigma_u(h)   of u over the horizontal plane nearest h (for the turbulence intensity)
 *   L_c          integral length scale along x: the integral of the autocorrelation of c along
 *                x (averaged over every line of the box, by FFT; periodic) up to its first zero
 */
#ifndef AWE_FIELD_STATS_H
#define AWE_FIELD_STATS_H

#include "turb/wind_box.h"
#include "util/status.h"

typedef struct {
  double mean[3], sigma[3];  /* u, v, w [m/s] */
  double cov_uw;             /* <u'w'> [m^2/s^2] */
  double sigma_u_ref;        /* sigma_u in the plane nearest h_ref (NAN without h_ref) [m/s] */
  double z_ref;              /* that plane's height [m] */
  double length[3];          /* integral length scales of u, v, w along x [m] */
} awe_field_stats;

awe_status awe_field_stats_compute(const awe_wind_box *b, awe_field_stats *st, awe_err *err);

#endif
