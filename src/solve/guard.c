/* guard.c: run limits, the stop flag and the physically possible range (see guard.h). */
#include "solve/guard.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>


static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


void awe_guard_init(awe_guard *g, const awe_opt *o) {
  memset(g, 0, sizeof(*g));
  g->max_wall = o ? o->max_wall_time : 0.0;
  g->max_steps = o ? o->max_steps : AWE_GUARD_MAX_STEPS;
  g->min_step = o ? o->min_step : 0.0;
  g->phase = "start";
  g->wall0 = wall_now();
}


const char *awe_guard_phase_text(const char *phase) {
  if (!phase) return "the run";
  if (!strcmp(phase, "settling")) return "the steady-state settling";
  if (!strcmp(phase, "simulation")) return "the simulation";
  if (!strcmp(phase, "start")) return "the initialization";
  if (!strcmp(phase, "step-response")) return "the step response";
  if (!strcmp(phase, "linearization")) return "the linearization";
  return phase;
}


void awe_guard_trip(awe_guard *g, awe_guard_reason why, const char *fmt, ...) {
  if (!g || g->why != AWE_GUARD_OK) return;
  g->why = why;
  g->code = why == AWE_GUARD_SIGNAL ? AWE_EINTR : AWE_EINTEG;
  g->trip_phase = g->phase;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->msg, sizeof(g->msg), fmt, ap);
  va_end(ap);
}


awe_guard_reason awe_guard_poll(awe_guard *g, double t, int force) {
  if (!g) return AWE_GUARD_OK;
  if (g->why != AWE_GUARD_OK) return g->why;
  if (g->stop && *g->stop) {
    int sig = (int)*g->stop;
    awe_guard_trip(g, AWE_GUARD_SIGNAL, "interrupted by %s at t = %.9g s in %s",
                   sig == SIGINT                   ? "SIGINT"
                   : sig == SIGTERM                ? "SIGTERM"
                   : sig == AWE_GUARD_STOP_REQUEST ? "a stop request"
                                                   : "a signal",
                   t,
                   awe_guard_phase_text(g->phase));
    return g->why;
  }
  if (g->max_wall > 0.0 && (force || ++g->npoll >= 64)) {
    g->npoll = 0;
    double used = wall_now() - g->wall0;
    if (used > g->max_wall)
      awe_guard_trip(g, AWE_GUARD_WALL,
                     "wall-time limit run.max_wall_time = %g s reached at t = %.9g s in %s "
                     "(%.3g s of wall time used)",
                     g->max_wall, t, awe_guard_phase_text(g->phase), used);
  }
  return g->why;
}


double awe_guard_step_floor(const awe_guard *g, double t) {
  if (g && g->min_step > 0.0) return g->min_step;
  return AWE_GUARD_MIN_STEP * (fabs(t) > 1.0 ? fabs(t) : 1.0);
}


awe_status awe_guard_error(const awe_guard *g, awe_err *err) {
  if (!g || g->why == AWE_GUARD_OK) return AWE_OK;
  return awe_err_set(err, g->code, "%s", g->msg);
}


double awe_guard_bounds(const awe_model *m, double *xmax) {
  /* size: the farthest initial point from the origin, or all tethers laid end to end */
  double size = 1.0, tl = 0.0;
  for (int i = 0; i < m->npoint; i++) {
    const double *p = m->point_pos0 + 3 * i;
    double r = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    if (r > size) size = r;
  }
  for (int t = 0; t < m->ntether; t++) tl += fabs(m->tether_len0[t]);
  if (tl > size) size = tl;
  const awe_varlist *x = &m->reg.state;
  for (int k = 0; k < x->n; k++) {
    const awe_var *v = &x->v[k];
    double lim = INFINITY;
    if (!strcmp(v->unit, "m")) lim = AWE_GUARD_SIZE_FACTOR * size;
    else if (!strcmp(v->unit, "m/s")) lim = AWE_GUARD_MAX_SPEED;
    for (int j = 0; j < v->dim; j++) xmax[v->offset + j] = lim;
  }
  return size;
}
