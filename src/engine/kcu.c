/* kcu.c: the kite control unit's motors and tapes (equations in kcu.h). */
#include "engine/kcu.h"


static double clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }


void awe_kcu_unpack(const awe_model *m, awe_work *w, const double *y) {
  if (!m->has_kcu) return;
  static const double lo[2] = {0.0, -100.0};
  for (int j = 0; j < 2; j++) {
    if (w->kcu_x[j] < 0) continue; /* a motor without tapes stays at its initial setting */
    w->kcu_set[j] = clamp(w->u[w->kcu_u[j]], lo[j], 100.0);
    w->kcu_act[j] = y[w->kcu_x[j]];
  }
  awe_kcu_tapes(m, w->kcu_act[0], w->kcu_act[1], w->kcu_l0);
}


double awe_kcu_rest_length(const awe_model *m, const awe_work *w, int s, double base) {
  if (!m->has_kcu) return base;
  for (int j = 0; j < 3; j++)
    if (m->kcu_seg[j] == s) return w->kcu_l0[j];
  return base;
}


void awe_kcu_assemble(const awe_model *m, const awe_work *w, double *dydt) {
  if (!m->has_kcu) return;
  const double rate[2] = {m->kcu_dp_rate, m->kcu_st_rate};
  for (int j = 0; j < 2; j++) {
    if (w->kcu_x[j] < 0) continue;
    double v = m->kcu_gain[j] * (w->kcu_set[j] - w->kcu_act[j]);
    dydt[w->kcu_x[j]] = clamp(v, -rate[j], rate[j]);
  }
}
