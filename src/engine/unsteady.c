/* unsteady.c: the Wagner lift lag's states (equations and sources in unsteady.h). */
#include "engine/unsteady.h"

#include <math.h>

#include "engine/wind.h"


void awe_wagner_rhs(double V, double c, double alpha, const double A[2], const double b[2],
                    const double x[2], double dx[2], double *d) {
  double rate = c > 0.0 ? 2.0 * V / c : 0.0, dd = 0.0;
  for (int i = 0; i < 2; i++) {
    double e = alpha - b[i] * x[i];
    dx[i] = rate * e;
    dd += A[i] * e;
  }
  *d = dd;
}


void awe_wagner_inflow(const awe_model *m, const awe_work *w, int j, double *V, double *alpha) {
  double s[3] = {0.0, 0.0, 0.0}, va[3];
  int n = 0, adr = m->wing_point_adr[j];
  for (int k = 0; k < m->wing_point_num[j]; k++) {
    int p = m->wing_points[adr + k];
    if (m->point_type[p] != AWE_PT_WING || m->point_wing[p] != j) continue;
    double wind[3];
    awe_wind_point(m, w, w->pos + 3 * p, wind);
    for (int i = 0; i < 3; i++) s[i] += wind[i] - w->vel[3 * p + i];
    n++;
  }
  if (n > 0) {
    for (int i = 0; i < 3; i++) s[i] /= n;
    awe_mat3_tvec(w->wing_R + 9 * j, s, va);
  } else {
    for (int i = 0; i < 3; i++) va[i] = w->wing_va_b[3 * j + i];
  }
  *V = awe_v3_norm(va);
  *alpha = atan2(va[2], va[0]);
}


void awe_unsteady_eval(const awe_model *m, awe_work *w, const double *y) {
  for (int j = 0; j < m->nwing; j++) {
    int o = w->wing_wag_x[j];
    if (o < 0) continue;
    w->wing_wag_xs[2 * j] = y[o];
    w->wing_wag_xs[2 * j + 1] = y[o + 1];
    if (w->flags & AWE_CTX_NO_LAG) { /* the steady-state march: no lag in steady flow */
      w->wing_wag_d[j] = w->wing_wag_dx[2 * j] = w->wing_wag_dx[2 * j + 1] = 0.0;
      continue;
    }
    double V, al;
    awe_wagner_inflow(m, w, j, &V, &al);
    awe_wagner_rhs(V, w->wing_wag_chord[j], al, m->wing_wagner_gains + 2 * j,
                   m->wing_wagner_rates + 2 * j, y + o, w->wing_wag_dx + 2 * j, &w->wing_wag_d[j]);
  }
}


void awe_unsteady_assemble(const awe_model *m, const awe_work *w, double *dydt) {
  for (int j = 0; j < m->nwing; j++) {
    int o = w->wing_wag_x[j];
    if (o < 0) continue;
    dydt[o] = w->wing_wag_dx[2 * j];
    dydt[o + 1] = w->wing_wag_dx[2 * j + 1];
  }
}


void awe_wagner_settle(const awe_model *m, awe_work *w, double *y) {
  for (int j = 0; j < m->nwing; j++) {
    int o = w->wing_wag_x[j];
    if (o < 0) continue;
    double V, al;
    awe_wagner_inflow(m, w, j, &V, &al);
    for (int i = 0; i < 2; i++) {
      y[o + i] = w->wing_wag_xs[2 * j + i] = al / m->wing_wagner_rates[2 * j + i];
      w->wing_wag_dx[2 * j + i] = 0.0;
    }
    w->wing_wag_d[j] = 0.0;
  }
}
