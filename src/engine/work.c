/* work.c: what every component may do with the workspace: default inputs, warnings. */
#include "engine/work.h"

#include <string.h>


void awe_input_default(const awe_model *m, const awe_work *w, double *u) {
  memset(u, 0, sizeof(double) * (size_t)(w->nu > 0 ? w->nu : 0));
  for (int i = 0; i < m->nwinch; i++) {
    if (w->winch_u_brake[i] >= 0) u[w->winch_u_brake[i]] = m->winch_brake0[i] ? 1.0 : 0.0;
    if (w->winch_u_speed[i] >= 0) u[w->winch_u_speed[i]] = m->winch_init_vel[i];
  }
  if (w->u_v_wind >= 0) u[w->u_v_wind] = m->env.v_wind;
  if (w->u_wind_dir >= 0) u[w->u_wind_dir] = m->env.upwind_dir;
  if (w->kcu_u[0] >= 0) u[w->kcu_u[0]] = m->kcu_depower0;
  if (w->kcu_u[1] >= 0) u[w->kcu_u[1]] = m->kcu_steering0;
}


void awe_work_warn(awe_work *w, int kind, double t, int index) {
  awe_warning *wn = &w->warn[kind];
  if (wn->count++ == 0) {
    wn->t = t;
    wn->index = index;
  }
}
