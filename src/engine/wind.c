/* wind.c: the wind at a point (equations in wind.h). */
#include "engine/wind.h"

#include <math.h>

#include "engine/atmosphere.h"


void awe_wind_update(const awe_model *m, awe_work *w, double t) {
  const awe_env *e = &m->env;
  awe_wind_now *n = &w->wind;
  n->v_ref = w->u_v_wind >= 0 ? w->u[w->u_v_wind] : e->v_wind;
  n->w = w->u_wind_w >= 0 ? w->u[w->u_wind_w] : 0.0;
  double dir = w->u_wind_dir >= 0 ? w->u[w->u_wind_dir] : e->upwind_dir;
  n->dv = n->gz = n->gy = 0.0;
  double theta = 0.0;
  for (int i = 0; i < e->ngust; i++) {
    const awe_gust_spec *g = &e->gusts[i];
    double zh = isnan(g->height) ? e->h_ref : g->height;
    double vh = awe_wind_factor(e, zh) * n->v_ref, dv = 0.0, k = 0.0;
    awe_gust_eval(g, t, vh, zh, &dv, &theta, &k);
    n->dv += dv;
    if (g->type != AWE_GUST_EWS) continue;
    if (g->horizontal) {
      n->gy += k;
    } else {
      n->gz += k; /* k (z - z_hub) */
      n->dv -= k * zh;
    }
  }
  n->dir_deg = dir + theta;
  /* turn the settings' direction by the change only: no rounding when there is none */
  double d = n->dir_deg - e->upwind_dir;
  if (d == 0.0) {
    for (int k = 0; k < 3; k++) n->dir[k] = e->wind_dir[k];
  } else {
    double c = cos(-d * M_PI / 180), s = sin(-d * M_PI / 180);
    n->dir[0] = c * e->wind_dir[0] - s * e->wind_dir[1];
    n->dir[1] = s * e->wind_dir[0] + c * e->wind_dir[1];
    n->dir[2] = e->wind_dir[2];
  }
  double h = hypot(n->dir[0], n->dir[1]);
  n->lat[0] = h > 0 ? -n->dir[1] / h : 0.0;
  n->lat[1] = h > 0 ? n->dir[0] / h : 1.0;
  n->lat[2] = 0.0;
  for (int k = 0; k < 3; k++) w->wind_gnd[k] = n->v_ref * n->dir[k];
}


void awe_wind_point(const awe_model *m, const awe_work *w, const double p[3], double out[3]) {
  const awe_wind_now *n = &w->wind;
  double f = m->env.profile_law != 0 ? awe_wind_factor(&m->env, p[2]) : 1.0;
  /* f wind_gnd as before the gusts: the same bits where there are none */
  double s = n->dv + n->gz * p[2] + n->gy * (n->lat[0] * p[0] + n->lat[1] * p[1]);
  out[0] = f * w->wind_gnd[0] + s * n->dir[0];
  out[1] = f * w->wind_gnd[1] + s * n->dir[1];
  out[2] = f * w->wind_gnd[2] + s * n->dir[2] + n->w;
}


void awe_wind_dz(const awe_model *m, const awe_work *w, const double p[3], double out[3]) {
  const awe_wind_now *n = &w->wind;
  double df = m->env.profile_law != 0 ? awe_wind_dfactor(&m->env, p[2]) : 0.0;
  for (int k = 0; k < 3; k++) out[k] = df * w->wind_gnd[k] + n->gz * n->dir[k];
}
