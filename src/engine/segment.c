/* segment.c: spring-damper forces and line drag of segments.
 *
 * Equations and sources: see segment.h (physics.md §2).
 */
#include "engine/segment.h"

#include "engine/atmosphere.h"
#include "engine/wind.h"
#include "engine/kcu.h"
#include "engine/winch.h"


double awe_segment_rest_length(const awe_model *m, const awe_work *w, int s) {
  double l0 = awe_kcu_rest_length(m, w, s, m->segment_l0[s]);
  int t = m->segment_tether[s];
  if (t >= 0) l0 = w->tether_len[t] / m->tether_seg_num[t];
  int p = m->segment_pulley[s];
  if (p >= 0)
    l0 = m->segment_pulley_leg[s] == 0 ? w->pulley_len[p] : m->pulley_sum_len[p] - w->pulley_len[p];
  if (w->segment_u_l0[s] >= 0) l0 += w->u[w->segment_u_l0[s]];
  return l0;
}


int awe_segment_reeling(const awe_model *m, const awe_work *w, int s) {
  int t = m->segment_tether[s];
  if (t < 0 || w->tether_x[t] < 0) return 0;
  int wi = m->tether_winch[t];
  return wi >= 0 && !m->winch_endpoint_damping[wi] && !(w->flags & AWE_CTX_BRAKE_ALL) &&
         !awe_winch_braked(w, wi);
}


double awe_segment_l0_rate(const awe_model *m, const awe_work *w, int s) {
  if (!awe_segment_reeling(m, w, s)) return 0.0;
  int t = m->segment_tether[s];
  return w->winch_vel[m->tether_winch[t]] / m->tether_seg_num[t];
}


void awe_segment_rest_lengths(const awe_model *m, awe_work *w) {
  for (int s = 0; s < m->nsegment; s++) {
    w->seg_l0[s] = awe_segment_rest_length(m, w, s);
    w->seg_l0_rate[s] = awe_segment_l0_rate(m, w, s);
  }
}


double awe_segment_kappa(const awe_model *m, const awe_work *w, int s) {
  return w->seg_len[s] > w->seg_l0[s] ? 1.0 : m->segment_compression_frac[s];
}


double awe_segment_damping_factor(const awe_model *m, const awe_work *w, int s) {
  return w->seg_len[s] > w->seg_l0[s] ? 1.0 : m->segment_compression_damping_frac[s];
}


double awe_segment_dforce_dlen(const awe_model *m, const awe_work *w, int s) {
  /* F = kappa EA (1 - l0/len) - c ldot  =>  dF/dlen = kappa EA l0 / len^2 (spring part) */
  double len = w->seg_len[s];
  return awe_segment_kappa(m, w, s) * m->segment_unit_k[s] * w->seg_l0[s] / (len * len);
}


/* segment s with the packed constants h and rho_zt = rho(z) / fastexp(...) (atmosphere.h);
 * one division (1/len) and no branch on the component kind beyond the pulley leg */
static inline void eval(const awe_model *m, awe_work *w, const awe_seg_hot *h, int s,
                        double rho_zt) {
  const double *pa = w->pos + 3 * h->a, *pb = w->pos + 3 * h->b;
  const double *va = w->vel + 3 * h->a, *vb = w->vel + 3 * h->b;
  double d0 = pb[0] - pa[0], d1 = pb[1] - pa[1], d2 = pb[2] - pa[2];
  /* smooth norm: exact for any length above 1e-6 m, never divides by zero */
  double len = sqrt(d0 * d0 + d1 * d1 + d2 * d2 + 1e-24);
  double inv = 1.0 / len;
  double *u = w->seg_dir + 3 * s;
  u[0] = d0 * inv;
  u[1] = d1 * inv;
  u[2] = d2 * inv;
  double ldot_neg = (va[0] - vb[0]) * u[0] + (va[1] - vb[1]) * u[1] + (va[2] - vb[2]) * u[2];
  /* the damper acts on d(len - l0)/dt: the rope sliding over a pulley, a reeling tether */
  if (h->pulley >= 0) ldot_neg += h->leg_sign * w->pulley_vel[h->pulley];
  ldot_neg += w->seg_l0_rate[s];
  double l0 = w->seg_l0[s];
  int slack = !(len > l0);
  double kappa = slack ? h->comp_frac : 1.0, cfac = slack ? h->comp_damp_frac : 1.0;
  double f = (kappa * h->unit_k * (len - l0) - cfac * h->unit_c * ldot_neg) * inv;
  if (h->rigid) f = 0.0; /* inside a rigid wing: k = c = 0 */
  w->seg_len[s] = len;
  w->seg_force[s] = f;

  /* line drag at the midpoint */
  double *fd = w->seg_drag + 3 * s;
  if (h->drag == 0.0) {
    fd[0] = fd[1] = fd[2] = 0.0;
    return;
  }
  double zmid = 0.5 * (pa[2] + pb[2]);
  double wind[3], app[3], pm[3] = {0.5 * (pa[0] + pb[0]), 0.5 * (pa[1] + pb[1]), zmid};
  awe_wind_point(m, w, pm, wind);
  for (int k = 0; k < 3; k++) app[k] = wind[k] - 0.5 * (va[k] + vb[k]);
  double vpar = app[0] * u[0] + app[1] * u[1] + app[2] * u[2];
  double vabs = sqrt(app[0] * app[0] + app[1] * app[1] + app[2] * app[2]);
  double q = awe_density_at(&m->env, rho_zt, zmid) * h->drag * vabs * len;
  for (int k = 0; k < 3; k++) fd[k] = q * (app[k] - vpar * u[k]);
}


void awe_segment_eval(const awe_model *m, awe_work *w, int s) {
  eval(m, w, w->seg_hot + s, s, awe_density_scale(&m->env));
}


void awe_segment_forces(const awe_model *m, awe_work *w) {
  double rho_zt = awe_density_scale(&m->env);
  const awe_seg_hot *h = w->seg_hot;
  for (int s = 0; s < m->nsegment; s++) eval(m, w, h + s, s, rho_zt);
}
