/* bench_lines.c: the stepper per model class on the shipped lines-only scenarios (no wing):
 * trbdf2 against ros34pw2 (and rk8pd, the undamped class's default, on the pendulum).
 *
 * Cases: scenarios/reel_out.yaml (10-segment damped tether reeling out, 60 s),
 * hanging_tether_winch.yaml (the same line on a braked then released winch, 20 s),
 * aerostat.yaml (a balloon on a damped tether in wind, 20 s) and pendulum.yaml (an undamped
 * stiff rod, 20 s), each at its own tolerances with run.solver set. Wall time of the flight
 * after awe_sim_start (the steady state is the same for every stepper): the fastest of 5 runs
 * (of up to 50 while they add up to less than 0.5 s), the machine being shared; the counts
 * (steps, right-hand sides, Jacobians, factorisations / solves of the iteration matrix) are
 * exact. docs/speed.md has the results and the accuracy against tight references. Run from
 * the repository root: build/bench/bench_lines [NAME].
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "control/controller.h"
#include "io/load.h"
#include "solve/sim.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* one run; the wall time of the flight in *wall, the counts in *st */
static int run_once(const char *scenario, const char *solver, double *wall, double *t_end,
                    awe_stats *st) {
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load(scenario, 0, NULL, &warn, &err);
  awe_diag_free(&warn);
  awe_model *m = s ? awe_model_build_controlled(s, &s->warnings, &err) : NULL;
  awe_sim *sim = m ? awe_sim_alloc(m, solver, &err) : NULL;
  int rc = !sim || awe_sim_start(sim, &err);
  if (!rc) {
    awe_stats s0 = sim->w->stats;
    double t0 = now();
    long n = awe_sim_log_steps(m);
    for (long k = 1; k <= n && !rc; k++)
      if (awe_sim_step(sim, awe_sim_log_time(m, k), &err)) rc = 1;
    *wall = now() - t0;
    *t_end = sim->t;
    *st = sim->w->stats;
    st->steps -= s0.steps;
    st->rhs -= s0.rhs;
    st->jac -= s0.jac;
    st->lu -= s0.lu;
    st->lu_solves -= s0.lu_solves;
  }
  if (rc) printf("%s %s: %s\n", scenario, solver, err.msg);
  awe_sim_free(sim);
  awe_model_free(m);
  awe_spec_free(s);
  return rc;
}


static int run_case(const char *only, const char *name, const char *solver) {
  if (only && strcmp(only, name) != 0) return 0;
  char path[128];
  snprintf(path, sizeof(path), "scenarios/%s.yaml", name);
  double best = 1e30, t_end = 0.0;
  awe_stats st = {0};
  double total = 0.0;
  for (int r = 0; r < 50 && (r < 5 || total < 0.5); r++) {
    double wall;
    if (run_once(path, solver, &wall, &t_end, &st)) return 1;
    if (wall < best) best = wall;
    total += wall;
  }
  printf("%-21s %-9s %5.1f s %8.4f s %7.0fx  steps %6lu  rhs %7lu  jac %5lu  lu %5lu/%7lu\n",
         name, solver, t_end, best, best > 0 ? t_end / best : 0.0, st.steps, st.rhs, st.jac,
         st.lu, st.lu_solves);
  fflush(stdout);
  return 0;
}


int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : NULL;
  const char *lines[] = {"reel_out", "hanging_tether_winch", "aerostat"};
  int rc = 0;
  for (int k = 0; k < 3; k++) {
    rc |= run_case(only, lines[k], "trbdf2");
    rc |= run_case(only, lines[k], "ros34pw2");
  }
  rc |= run_case(only, "pendulum", "rk8pd");
  rc |= run_case(only, "pendulum", "trbdf2");
  rc |= run_case(only, "pendulum", "ros34pw2");
  return rc;
}
