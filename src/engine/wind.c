/* wind.c: the wind at a point (equations in wind.h). */
#include "engine/wind.h"

#include <math.h>
#include <stdio.h>

#include "engine/atmosphere.h"


void awe_wind_update(const awe_model *m, awe_work *w, double t) {
  const awe_env *e = &m->env;
  /* the steady-state march settles in the wind of t = 0: its pseudo-time moves no gust, no box */
  if (w->flags & AWE_CTX_BRAKE_ALL) t = 0.0;
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
  n->dh[0] = n->lat[1];
  n->dh[1] = -n->lat[0];
  n->box_shift = 0.0;
  if (e->box) {
    double U = e->box_advection;
    if (isnan(U)) {
      const awe_wind_box *b = e->box;
      double zc = b->x0[2] + 0.5 * (b->n[2] - 1) * b->d[2];
      U = (e->profile_law != 0 ? awe_wind_factor(e, zc) : 1.0) * e->v_wind;
    }
    n->box_shift = U * t;
  }
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
  if (m->env.box) {
    double b[3];
    if (awe_wind_box_coords(m, w, p, b) || awe_wind_box_at(m->env.box, b[0], b[1], b[2], b)) {
      out[0] = out[1] = out[2] = NAN; /* outside the box: the run stops and says where (sim.c) */
      return;
    }
    double k = m->env.box_scale;
    for (int c = 0; c < 2; c++) out[c] += k * (b[0] * n->dh[c] + b[1] * n->lat[c]);
    out[2] += k * b[2];
  }
}


int awe_wind_box_coords(const awe_model *m, const awe_work *w, const double p[3], double b[3]) {
  const awe_wind_now *n = &w->wind;
  if (!m->env.box) return -1;
  b[0] = p[0] * n->dh[0] + p[1] * n->dh[1] - n->box_shift;
  b[1] = p[0] * n->lat[0] + p[1] * n->lat[1];
  b[2] = p[2];
  return 0;
}


void awe_wind_dz(const awe_model *m, const awe_work *w, const double p[3], double out[3]) {
  const awe_wind_now *n = &w->wind;
  double df = m->env.profile_law != 0 ? awe_wind_dfactor(&m->env, p[2]) : 0.0;
  for (int k = 0; k < 3; k++) out[k] = df * w->wind_gnd[k] + n->gz * n->dir[k];
}


/* is box position p inside the box (the look-up succeeds)? */
static int inside(const awe_model *m, const awe_work *w, const double p[3]) {
  double b[3], o[3];
  return !awe_wind_box_coords(m, w, p, b) && !awe_wind_box_at(m->env.box, b[0], b[1], b[2], o);
}


int awe_wind_box_report(const awe_model *m, const awe_work *w, double t, char *buf, size_t n) {
  if (!m->env.box) return 0;
  const awe_wind_box *b = m->env.box;
  char what[200] = "";
  const double *at = NULL;
  double pm[3];
  for (int i = 0; i < m->npoint && !at; i++)
    if (m->point_area[i] != 0.0 && m->point_cd[i] != 0.0 && !inside(m, w, w->pos + 3 * i)) {
      at = w->pos + 3 * i;
      snprintf(what, sizeof(what), "point '%s'", m->point_name[i]);
    }
  for (int s = 0; s < m->nsegment && !at; s++) {
    const awe_seg_hot *h = &w->seg_hot[s];
    if (h->drag == 0.0) continue;
    for (int k = 0; k < 3; k++) pm[k] = 0.5 * (w->pos[3 * h->a + k] + w->pos[3 * h->b + k]);
    if (!inside(m, w, pm)) {
      at = pm;
      snprintf(what, sizeof(what), "the middle of segment '%s'", m->segment_name[s]);
    }
  }
  for (int j = 0; j < m->nwing && !at; j++)
    if (!inside(m, w, w->wing_pos + 3 * j)) {
      at = w->wing_pos + 3 * j;
      snprintf(what, sizeof(what), "the origin of wing '%s'", m->wing_name[j]);
    }
  if (!at) return 0;
  double c[3] = {0, 0, 0};
  awe_wind_box_coords(m, w, at, c);
  snprintf(buf, n, "%s: %s at (%.3f, %.3f, %.3f) m leaves the wind box at t = %.6g s: box "
           "coordinates y = %.3f m, z = %.3f m; the box spans y %g ... %g m, z %g ... %g m%s",
           m->env.box_path ? m->env.box_path : "wind box", what, at[0], at[1], at[2], t, c[1],
           c[2], b->x0[1], b->x0[1] + (b->n[1] - 1) * b->d[1], b->x0[2],
           b->x0[2] + (b->n[2] - 1) * b->d[2],
           b->periodic_x ? " (x repeats)" : "");
  return 1;
}
