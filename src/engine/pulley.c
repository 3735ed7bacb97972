/* pulley.c: rope travel over a pulley.
 *
 * Equations and sources: see pulley.h (physics.md §6).
 */
#include "engine/pulley.h"


void awe_pulley_dynamics(const awe_model *m, awe_work *w) {
  for (int i = 0; i < m->npulley; i++) {
    if (w->pulley_x[i] < 0) {
      w->pulley_acc[i] = 0.0;
      continue;
    }
    double fp = w->seg_force[m->pulley_seg[2 * i]] - w->seg_force[m->pulley_seg[2 * i + 1]];
    w->pulley_acc[i] = fp / w->pulley_mass[i] - AWE_PULLEY_DAMP * w->pulley_vel[i];
  }
}
