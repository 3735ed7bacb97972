/* wind_gust.c: IEC 61400-1 (ed. 3, 2005; ed. 4, 2019) §6.3.3 deterministic extreme events,
 * with the turbine class replaced by stated parameters. tau = t - start, T the period:
 *
 *   Lambda1 = 0.7 z_hub (z_hub <= 60 m), 42 m above          longitudinal turbulence scale
 *   EOG  V_gust = min(1.35 (V_e1 - V_hub), 3.3 sigma1 / (1 + 0.1 D / Lambda1))   (V_e1 optional)
 *        dv = -0.37 V_gust sin(3 pi tau / T) (1 - cos(2 pi tau / T)),  0 <= tau <= T, T = 10.5 s
 *   EDC  theta_e = 4 atan(sigma1 / (V_hub (1 + 0.1 D / Lambda1)))                  (deg)
 *        theta = 0.5 theta_e (1 - cos(pi tau / T)) for 0 <= tau <= T, theta_e after; T = 6 s
 *   ECD  V_cg = 15 m/s; theta_cg = 180 deg (V_hub < 4 m/s), 720 deg m/s / V_hub above
 *        dv = 0.5 V_cg (1 - cos(pi tau / T)), theta = 0.5 theta_cg (1 - cos(pi tau / T)) for
 *        0 <= tau <= T, V_cg and theta_cg after; T = 10 s
 *   EWS  A = 2.5 m/s + 0.2 beta sigma1 (D / Lambda1)^(1/4), beta = 6.4
 *        dv = (z - z_hub) / D A (1 - cos(2 pi tau / T))   (vertical; y for horizontal)
 *        0 <= tau <= T, T = 12 s
 *
 * sign (+1 or -1) chooses the sense of theta (EDC, ECD) and of the shear (EWS), IEC's "±".
 * D is the rotor diameter there: a kite's span or the size its loads are wanted over here.
 */
#include <math.h>

#include "engine/wind.h"


static double period_default(awe_gust_type t) {
  switch (t) {
    case AWE_GUST_EOG: return 10.5;
    case AWE_GUST_EDC: return 6.0;
    case AWE_GUST_ECD: return 10.0;
    case AWE_GUST_EWS: return 12.0;
  }
  return 10.0;
}


void awe_gust_params(const awe_gust_spec *g, double v_hub, double zh, double *amp,
                     double *period, double *lambda1) {
  double L = !isnan(g->lambda1) ? g->lambda1 : zh <= 60.0 ? 0.7 * zh : 42.0;
  double D = g->diameter;
  *period = !isnan(g->period) ? g->period : period_default(g->type);
  *lambda1 = L;
  switch (g->type) {
    case AWE_GUST_EOG:
      if (!isnan(g->v_gust)) {
        *amp = g->v_gust;
      } else {
        *amp = 3.3 * g->sigma1 / (1.0 + 0.1 * D / L);
        if (!isnan(g->v_e1) && 1.35 * (g->v_e1 - v_hub) < *amp) *amp = 1.35 * (g->v_e1 - v_hub);
      }
      break;
    case AWE_GUST_EDC:
      *amp = !isnan(g->theta_e) ? g->theta_e
                                : 4.0 * atan2(g->sigma1, v_hub * (1.0 + 0.1 * D / L)) * 180 / M_PI;
      break;
    case AWE_GUST_ECD:
      *amp = !isnan(g->theta_cg) ? g->theta_cg : v_hub < 4.0 ? 180.0 : 720.0 / v_hub;
      break;
    case AWE_GUST_EWS:
      *amp = !isnan(g->shear) ? g->shear : 2.5 + 0.2 * 6.4 * g->sigma1 * pow(D / L, 0.25);
      break;
  }
}


void awe_gust_eval(const awe_gust_spec *g, double t, double v_hub, double z_hub, double *dv,
                   double *theta, double *k) {
  double tau = t - g->start;
  if (!(tau > 0.0)) return; /* before the start every shape is 0 */
  double amp, T, L;
  awe_gust_params(g, v_hub, z_hub, &amp, &T, &L);
  int during = tau <= T;
  double x = during ? tau / T : 1.0;
  switch (g->type) {
    case AWE_GUST_EOG:
      if (during) *dv += -0.37 * amp * sin(3 * M_PI * x) * (1.0 - cos(2 * M_PI * x));
      break;
    case AWE_GUST_EDC:
      *theta += g->sign * 0.5 * amp * (1.0 - cos(M_PI * x));
      break;
    case AWE_GUST_ECD: {
      double v_cg = !isnan(g->v_cg) ? g->v_cg : 15.0;
      *dv += 0.5 * v_cg * (1.0 - cos(M_PI * x));
      *theta += g->sign * 0.5 * amp * (1.0 - cos(M_PI * x));
      break;
    }
    case AWE_GUST_EWS:
      if (during) *k += g->sign * amp / g->diameter * (1.0 - cos(2 * M_PI * x));
      break;
  }
}
