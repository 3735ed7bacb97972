/* test_guard.c: the run's guard (guard.h) on the 1 m pendulum (models/pendulum: one 1 kg bob
 * on a 1e6 N rod, released at 10 degrees; undamped, so it swings at 0.55 m/s at most).
 *   - bounds: the model's size is 1 m (the bob's distance from the pivot at the origin), so
 *     positions are bounded by 1000 m and speeds by 3430 m/s;
 *   - the step-size floor is 1e-12 max(1, |t|), or run.min_step;
 *   - a stop flag raised before a step ends it at once with AWE_EINTR, the state untouched;
 *   - run.max_steps ends the run after exactly that many steps plus one, with the counts;
 *   - a state set beyond the bounds is caught after the next accepted step, naming it;
 *   - the wall-time limit trips on a forced poll once exceeded.
 * The CLI side (exit codes, messages, the log's status and phase, signals sent to the process)
 * is tests/reliability.sh.
 */
#include <signal.h>
#include <string.h>

#include "test_physics_util.h"

static awe_sim *pendulum(const char *const *sets, awe_spec **s) {
  *s = sp_load("scenarios/pendulum.yaml", sets);
  return sp_sim(*s, NULL);
}


static void test_bounds(void) {
  awe_spec *s;
  awe_sim *sim = pendulum(NULL, &s);
  if (!sim) return;
  int nx = sim->w->nx;
  double *xmax = calloc((size_t)nx + 1, sizeof(double));
  double size = awe_guard_bounds(sim->m, xmax);
  ENSURE_NEAR(size, 1.0, 1e-12);
  int o = sim->w->point_x[1]; /* the bob: pos, then vel */
  for (int k = 0; k < 3; k++) {
    ENSURE_NEAR(xmax[o + k], 1000.0, 1e-9);
    ENSURE_NEAR(xmax[o + 3 + k], 3430.0, 1e-9);
  }
  free(xmax);
  ENSURE_NEAR(awe_guard_step_floor(&sim->guard, 0.0), 1e-12, 1e-27);
  ENSURE_NEAR(awe_guard_step_floor(&sim->guard, -1e4), 1e-8, 1e-23);
  sim->guard.min_step = 1e-3;
  ENSURE_NEAR(awe_guard_step_floor(&sim->guard, 1e4), 1e-3, 1e-18);
  sp_free(sim, s);
}


static void test_stop_flag(void) {
  awe_spec *s;
  awe_sim *sim = pendulum(NULL, &s);
  if (!sim) return;
  awe_stop_flag flag = 0; /* what the CLI's handler would set */
  awe_err err = {0};
  awe_sim_set_stop(sim, &flag);
  ENSURE(awe_sim_step(sim, 0.01, &err) == AWE_OK);
  double t = sim->t, z = sim->y[sim->w->point_x[1] + 2];
  flag = SIGTERM;
  ENSURE(awe_sim_step(sim, 0.02, &err) == AWE_EINTR);
  ENSURE(strstr(err.msg, "interrupted by SIGTERM") != NULL);
  ENSURE(strstr(err.msg, "in the simulation") != NULL);
  ENSURE_NEAR(sim->t, t, 0.0);
  ENSURE_NEAR(sim->y[sim->w->point_x[1] + 2], z, 0.0);
  ENSURE(sim->guard.why == AWE_GUARD_SIGNAL);
  flag = 0;
  sp_free(sim, s);
}


static void test_max_steps(void) {
  const char *sets[] = {"run.max_steps=100", NULL};
  awe_spec *s;
  awe_sim *sim = pendulum(sets, &s);
  if (!sim) return;
  awe_err err = {0};
  awe_status st = AWE_OK;
  for (long k = 1; k <= awe_sim_log_steps(sim->m) && !st; k++)
    st = awe_sim_step(sim, awe_sim_log_time(sim->m, k), &err);
  ENSURE(st == AWE_EINTEG);
  ENSURE(strstr(err.msg, "step limit run.max_steps = 100 reached") != NULL);
  ENSURE(sim->w->stats.steps + sim->w->stats.rejected == 101);
  ENSURE(sim->t > 0.0 && sim->t < 20.0);
  sp_free(sim, s);
}


static void test_range(void) {
  awe_spec *s;
  awe_sim *sim = pendulum(NULL, &s);
  if (!sim) return;
  awe_err err = {0};
  /* throw the bob at 5000 m/s along the rod's normal: beyond 10 x the speed of sound */
  int o = sim->w->point_x[1];
  sim->y[o + 3] = 5000.0;
  awe_integrator_reset(sim->it);
  ENSURE(awe_sim_step(sim, 0.01, &err) == AWE_EINTEG);
  ENSURE(strstr(err.msg, "points.bob.vel.x = ") != NULL);
  ENSURE(strstr(err.msg, "is beyond the physically possible range (|points.bob.vel.x| <= 3430 "
                         "m/s: 10 x the speed of sound)") != NULL);
  ENSURE(sim->guard.why == AWE_GUARD_RANGE);
  sp_free(sim, s);
}


static void test_wall_time(void) {
  awe_spec *s;
  awe_sim *sim = pendulum(NULL, &s);
  if (!sim) return;
  ENSURE(awe_guard_poll(&sim->guard, 0.0, 1) == AWE_GUARD_OK);
  sim->guard.max_wall = 1e-9; /* already spent: the loading took longer */
  ENSURE(awe_guard_poll(&sim->guard, 1.5, 1) == AWE_GUARD_WALL);
  ENSURE(strstr(sim->guard.msg, "run.max_wall_time = 1e-09 s reached at t = 1.5 s") != NULL);
  /* sticky: the first reason stays */
  awe_guard_trip(&sim->guard, AWE_GUARD_STEPS, "later");
  ENSURE(sim->guard.why == AWE_GUARD_WALL);
  ENSURE(sim->guard.code == AWE_EINTEG);
  sp_free(sim, s);
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_bounds);
  RUN(test_stop_flag);
  RUN(test_max_steps);
  RUN(test_range);
  RUN(test_wall_time);
  return harness_report();
}
