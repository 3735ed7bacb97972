/* bench_simulate.c: real-time factor and peak memory of `awesim simulate`'s engine.
 *
 * Cases (each in its own child process, so that ru_maxrss is that case's peak):
 *   pendulum       scenarios/pendulum.yaml, 20 s, abs_tol = rel_tol = 1e-6
 *   tether60       scenarios/reel_out.yaml: 10-segment hanging tether reeling out, 60 s, 1e-6
 *   2plate         models/2plate_kite (particle and rigid structure), aero off, 10 s, 1e-6
 *   beam22         tests/data/bodies/beam22_scenario.yaml: a clamped beam of 21 Timoshenko tubes
 *                  (22 bodies), 10 s, with the analytic body columns and (beam22-fd) with
 *                  coloured finite differences (run.jacobian = fd), trbdf2, ros34pw2, msbdf
 *   memory         the reel-out for 60 s and for 3600 s, without and with the HDF5 log (the
 *                  simulation's peak RSS must not grow with the run length)
 * every stepper on the first three (the default stepper was chosen from this table).
 * Output: one line per case: name, stepper, simulated s, wall s, real-time factor, steps,
 * rejected, rhs and Jacobian calls, peak RSS in MiB.
 * Run from the repository root (make bench / tools/run-bench).
 */
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "control/controller.h"
#include "solve/sim.h"
#include "io/load.h"
#include "output/writer.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* run one case in this process; prints its line; returns 0 on success */
static int run_case(const char *label, const char *scenario, const char *solver,
                    const char *const *sets, const char *h5path) {
  int nset = 0;
  while (sets && sets[nset]) nset++;
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load(scenario, nset, sets, &warn, &err);
  awe_diag_free(&warn);
  if (!s) {
    printf("%-12s %-7s error: %s\n", label, solver, err.msg);
    return 1;
  }
  awe_model *m = awe_model_build_controlled(s, &s->warnings, &err);
  awe_sim *sim = m ? awe_sim_alloc(m, solver, &err) : NULL;
  if (!sim) {
    printf("%-12s %-7s error: %s\n", label, solver, err.msg);
    return 1;
  }
  awe_h5 *h5 = NULL;
  if (h5path) {
    awe_h5_info info = {.solver = solver, .command_line = "bench", .scenario = s->scenario_text};
    h5 = awe_h5_open(h5path, &m->reg.output, &info, &err);
  }
  double t0 = now();
  int rc = awe_sim_start(sim, &err) ? 1 : 0;
  if (!rc) awe_h5_write_row(h5, sim->t, sim->yout, &err);
  long n = awe_sim_log_steps(m);
  for (long k = 1; k <= n && !rc; k++) {
    if (awe_sim_step(sim, awe_sim_log_time(m, k), &err)) rc = 1;
    else awe_h5_write_row(h5, sim->t, sim->yout, &err);
  }
  awe_h5_close(h5, rc ? AWE_RUN_FAILED : AWE_RUN_COMPLETE, NULL, &err);
  double wall = now() - t0;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  const awe_stats *st = &sim->w->stats;
  printf("%-12s %-7s %8.1f s %8.4f s %9.0fx  steps %7lu (rej %6lu)  rhs %8lu  jac %5lu  "
         "%6.1f MiB%s%s\n",
         label, solver, sim->t, wall, wall > 0 ? sim->t / wall : 0.0, st->steps, st->rejected,
         st->rhs, st->jac, (double)ru.ru_maxrss / 1024.0, rc ? "  FAILED: " : "",
         rc ? err.msg : "");
  fflush(stdout);
  awe_sim_free(sim);
  awe_model_free(m);
  awe_spec_free(s);
  return rc;
}


/* fork, run the case in the child, wait */
static void spawn_case(const char *label, const char *scenario, const char *solver,
                       const char *const *sets, const char *h5path) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) _exit(run_case(label, scenario, solver, sets, h5path));
  int st;
  waitpid(pid, &st, 0);
}


int main(void) {
  gsl_set_error_handler_off();
  static const char *const steppers[] = {"rkf45", "rkck", "rk8pd", "msbdf", "rk4imp", "bsimp"};
  const int ns = 6;
  printf("case         stepper  simulated     wall   real-time  statistics"
         "                                        peak RSS\n");
  const char *pend[] = {"run.abs_tol=1e-6", "run.rel_tol=1e-6", NULL};
  for (int i = 0; i < ns; i++) spawn_case("pendulum", "scenarios/pendulum.yaml", steppers[i], pend, NULL);
  const char *teth[] = {"run.duration=60", "run.abs_tol=1e-6", "run.rel_tol=1e-6", NULL};
  for (int i = 0; i < ns; i++) spawn_case("tether60", "scenarios/reel_out.yaml", steppers[i], teth, NULL);
  const char *plate_p[] = {"model=../../models/2plate_kite/system_refine.yaml", NULL};
  const char *plate_r[] = {"model=../../models/2plate_kite/system.yaml", NULL};
  for (int i = 0; i < ns; i++) {
    if (!strcmp(steppers[i], "bsimp") || !strcmp(steppers[i], "rk4imp")) continue; /* minutes */
    spawn_case("2plate-part", "scenarios/tests/2plate_noaero.yaml", steppers[i], plate_p, NULL);
    spawn_case("2plate-rigid", "scenarios/tests/2plate_noaero.yaml", steppers[i], plate_r, NULL);
  }
  const char *beam_a[] = {"run.duration=10", NULL};
  const char *beam_f[] = {"run.duration=10", "run.jacobian=fd", NULL};
  static const char *const bsteppers[] = {"trbdf2", "ros34pw2", "msbdf"};
  for (int i = 0; i < 3; i++) {
    spawn_case("beam22", "tests/data/bodies/beam22_scenario.yaml", bsteppers[i], beam_a, NULL);
    spawn_case("beam22-fd", "tests/data/bodies/beam22_scenario.yaml", bsteppers[i], beam_f, NULL);
  }
  /* memory: the same run logged to HDF5 for 60 s and 3600 s, default stepper */
  char h5[64];
  snprintf(h5, sizeof(h5), "/tmp/awesim-bench-%d.h5", (int)getpid());
  const char *m60[] = {"run.duration=60", NULL};
  const char *m3600[] = {"run.duration=3600", NULL};
  spawn_case("mem-60s", "scenarios/reel_out.yaml", "msbdf", m60, NULL);
  spawn_case("mem-3600s", "scenarios/reel_out.yaml", "msbdf", m3600, NULL);
  spawn_case("mem-h5-60s", "scenarios/reel_out.yaml", "msbdf", m60, h5);
  spawn_case("mem-h5-3600s", "scenarios/reel_out.yaml", "msbdf", m3600, h5);
  remove(h5);
  return 0;
}
