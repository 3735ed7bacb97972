/* segment.c: spring-damper forces and line drag of segments.
 *
 * Equations and sources: see segment.h (physics.md §2).
 */
#include "segment.h"

#include "atmosphere.h"


double awe_segment_rest_length(const awe_model *m, const awe_work *w, int s) {
  double l0 = m->segment_l0[s];
  int t = m->segment_tether[s];
  if (t >= 0) l0 = w->tether_len[t] / m->tether_seg_num[t];
  int p = m->segment_pulley[s];
  if (p >= 0)
    l0 = m->segment_pulley_leg[s] == 0 ? w->pulley_len[p] : m->pulley_sum_len[p] - w->pulley_len[p];
  if (w->segment_u_l0[s] >= 0) l0 += w->u[w->segment_u_l0[s]];
  return l0;
}


void awe_segment_rest_lengths(const awe_model *m, awe_work *w) {
  for (int s = 0; s < m->nsegment; s++) w->seg_l0[s] = awe_segment_rest_length(m, w, s);
}


double awe_segment_kappa(const awe_model *m, const awe_work *w, int s) {
  return w->seg_len[s] > w->seg_l0[s] ? 1.0 : m->segment_compression_frac[s];
}


double awe_segment_dforce_dlen(const awe_model *m, const awe_work *w, int s) {
  /* F = kappa EA (1 - l0/len) - c ldot  =>  dF/dlen = kappa EA l0 / len^2 (spring part) */
  double len = w->seg_len[s];
  return awe_segment_kappa(m, w, s) * m->segment_unit_k[s] * w->seg_l0[s] / (len * len);
}


void awe_segment_eval(const awe_model *m, awe_work *w, int s) {
  int a = m->segment_p[2 * s], b = m->segment_p[2 * s + 1];
  const double *pa = w->pos + 3 * a, *pb = w->pos + 3 * b;
  const double *va = w->vel + 3 * a, *vb = w->vel + 3 * b;
  double d[3], dv[3];
  awe_v3_sub(d, pb, pa);
  /* smooth norm: exact for any length above 1e-6 m, never divides by zero */
  double len = sqrt(awe_v3_dot(d, d) + 1e-24);
  double *u = w->seg_dir + 3 * s;
  for (int k = 0; k < 3; k++) u[k] = d[k] / len;
  awe_v3_sub(dv, va, vb);
  double ldot_neg = awe_v3_dot(dv, u);
  int pu = m->segment_pulley[s];
  if (pu >= 0) /* the rope slides: the damper acts on d(len - l0)/dt */
    ldot_neg += m->segment_pulley_leg[s] == 0 ? w->pulley_vel[pu] : -w->pulley_vel[pu];
  double l0 = w->seg_l0[s];
  double kappa = len > l0 ? 1.0 : m->segment_compression_frac[s];
  double f = kappa * m->segment_unit_k[s] / len * (len - l0) - m->segment_unit_c[s] / len * ldot_neg;
  if (w->seg_rigid[s]) f = 0.0; /* inside a rigid wing: k = c = 0 */
  w->seg_len[s] = len;
  w->seg_force[s] = f;

  /* line drag at the midpoint */
  double *fd = w->seg_drag + 3 * s;
  double cd = m->env.cd_tether, dia = m->segment_diameter[s];
  if (m->segment_wing_internal[s] || cd == 0.0 || dia <= 0.0) {
    fd[0] = fd[1] = fd[2] = 0.0;
    return;
  }
  double zmid = 0.5 * (pa[2] + pb[2]);
  double wind[3], app[3];
  awe_wind_at(&m->env, w->wind_gnd, zmid, wind);
  for (int k = 0; k < 3; k++) app[k] = wind[k] - 0.5 * (va[k] + vb[k]);
  double vpar = awe_v3_dot(app, u);
  double vabs = awe_v3_norm(app);
  double q = 0.5 * awe_density(&m->env, zmid) * cd * vabs * len * dia;
  for (int k = 0; k < 3; k++) fd[k] = q * (app[k] - vpar * u[k]);
}


void awe_segment_forces(const awe_model *m, awe_work *w) {
  for (int s = 0; s < m->nsegment; s++) awe_segment_eval(m, w, s);
}
