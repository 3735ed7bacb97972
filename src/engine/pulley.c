/* pulley.c: rope travel over a pulley.
 *
 * Equations and sources: see pulley.h (physics.md §6).
 */
#include "engine/pulley.h"

#include <math.h>


double awe_pulley_friction(const awe_model *m, int i, double v, double tension, double *dv,
                           double *dt) {
  double t = tension > 0.0 ? tension : 0.0, loss = 1.0 - m->pulley_efficiency[i];
  double eps = m->pulley_friction_eps[i], den = v * v + eps * eps;
  double sgn = v / sqrt(den);
  if (dv) *dv = loss * t * eps * eps / (den * sqrt(den)) + m->pulley_damping[i];
  if (dt) *dt = tension > 0.0 ? loss * sgn : 0.0;
  return loss * t * sgn + m->pulley_damping[i] * v;
}


void awe_pulley_dynamics(const awe_model *m, awe_work *w) {
  for (int i = 0; i < m->npulley; i++) {
    if (w->pulley_x[i] < 0 || m->pulley_brake[i]) {
      w->pulley_acc[i] = 0.0;
      continue;
    }
    double f1 = w->seg_force[m->pulley_seg[2 * i]], f2 = w->seg_force[m->pulley_seg[2 * i + 1]];
    double v = w->pulley_vel[i];
    w->pulley_acc[i] = (f1 - f2 - awe_pulley_friction(m, i, v, 0.5 * (f1 + f2), NULL, NULL)) /
                           w->pulley_mass[i] -
                       m->pulley_damping_rate[i] * v;
  }
}
