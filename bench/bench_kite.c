/* bench_kite.c: real-time factor of flying kites and the start-up time of `awesim simulate`.
 *
 * Cases (each in its own child process; the scenarios' stepper, trbdf2, and tolerances):
 *   2plate-25s    scenarios/2plate_parked.yaml: the rigid (QUATERNION) 2plate kite, VSM
 *                 linearized at every log step (20 Hz), parked flight for 25 s
 *   2plate-60s    the same for 60 s (held by the scenario's heading-hold pid; without it the
 *                 kite's unstable lateral mode makes it depart after ~30 s: see the scenario)
 *   parked-600s   the same for the scenario's full 600 s (the parked kite's acceptance run:
 *                 within 2 deg of elevation and 5 deg of azimuth, checked by
 *                 tests/control_cli.sh on 60 s)
 *   external-60s  scenarios/2plate_external.yaml: the same kite held by the Python
 *                 examples/controllers/heading_hold.py over a pipe at 20 Hz (the cost of an
 *                 external controller: compare with 2plate-60s)
 *   refine-60s    scenarios/2plate_refine.yaml: the particle (REFINE) 2plate kite, VSM solved and
 *                 shared out to the points at 20 Hz, 60 s
 *   v3-60s        scenarios/v3_kite.yaml: the TU Delft V3 particle (REFINE) kite, 272 states,
 *                 20 Hz VSM, 60 s after the scenario's steady state (as `awesim simulate` runs it)
 *   v3cold-60s    the same without the steady state (released from the structure's pose)
 *   v3fig8-120s   scenarios/v3_figure_eight.yaml: the V3 kite flying low figure eights under
 *                 the figure_eight controller, VSM (linearized loads) and controller at 20 Hz,
 *                 its full 120 s (11 figures; tests/v3_figure_eight.sh checks 40 s of it)
 *   v3pump-320s   scenarios/v3_pumping.yaml: the V3 kite in pumping cycles (figure eights in
 *                 reel-out, reel-in steered high; VSM at 100 Hz), its full 320 s (three full
 *                 cycles; tests/v3_pumping.sh checks the first 90 s)
 *   v3flight-600s scenarios/v3_2019.yaml: the V3 kite with the 2019 flight's set-points (KCU
 *                 depower and steering motors, square-root reel-out law, 239 -> 338 m), VSM at
 *                 20 Hz, its full 600 s (three full cycles; tests/v3_2019.sh checks 470 s)
 *   v3flight10-600s scenarios/v3_2019_10mm.yaml: the same with the flown 10 mm tether and
 *                 down-loops, its full 600 s (two full cycles; tests/v3_2019_10mm.sh checks 330 s)
 *   v3beamfig8-150s scenarios/v3_2019_beam.yaml for 150 s: the V3 as built (22 rigid bodies,
 *                 21 Timoshenko tubes, 11 kg wing) parked, released and flying the first
 *                 reel-out's figure eights (from 15 s) into its first reel-in
 *   v3beamflight-600s the same scenario's 600 s (two pumping cycles)
 *   NAME-msbdf    each case again with run.solver=msbdf (GSL's BDF, dense LU: the default
 *                 stepper of scenarios that name none)
 *   NAME-rosw     each case again with run.solver=ros34pw2 (the Rosenbrock-W stepper)
 * Columns: the steady-state march before t = 0 (wall), then the flight: simulated time, wall,
 * real-time factor (flight only), stepper statistics (steps, right-hand sides, Jacobians,
 * trbdf2's factorisations/solves), VSM refreshes and their wall share.
 *   startup       process start (fork/exec of ./awesim) until the first logged row arrives on
 *                 a pipe: `awesim simulate SCENARIO --no-hdf5 --csv=time --set run.duration=0`
 *                 (the row at t = 0 only; stdout to a pipe is block-buffered, so the row arrives
 *                 when the process ends), median of 21 runs,
 *                 for the pendulum, the 2plate kite without and with its steady state, the V3
 * Run from the repository root (make bench / tools/run-bench); `bench_kite startup` runs the
 * start-up rows only, `bench_kite NAME` the flight case NAME alone.
 */
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "control/controller.h"
#include "engine/aero_coupling.h"
#include "solve/sim.h"
#include "io/load.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


static int run_case(const char *label, const char *scenario, const char *const *sets) {
  int nset = 0;
  while (sets && sets[nset]) nset++;
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load(scenario, nset, sets, &warn, &err);
  awe_diag_free(&warn);
  awe_model *m = s ? awe_model_build_controlled(s, &s->warnings, &err) : NULL;
  awe_sim *sim = m ? awe_sim_alloc(m, NULL, &err) : NULL;
  if (!sim) {
    printf("%-17s error: %s\n", label, err.msg);
    return 1;
  }
  double t0 = now();
  int rc = awe_sim_start(sim, &err) ? 1 : 0;
  double t1 = now();
  unsigned long steps0 = sim->w->stats.steps, rhs0 = sim->w->stats.rhs, jac0 = sim->w->stats.jac;
  unsigned long lu0 = sim->w->stats.lu, sol0 = sim->w->stats.lu_solves;
  unsigned long ntr0 = sim->w->stats.newton_tr, nbdf0 = sim->w->stats.newton_bdf;
  unsigned long nfail0 = sim->w->stats.newton_fail, rej0 = sim->w->stats.rejected;
  long n = awe_sim_log_steps(m);
  for (long k = 1; k <= n && !rc; k++)
    if (awe_sim_step(sim, awe_sim_log_time(m, k), &err)) rc = 1;
  if (!rc && awe_sim_finish(sim, &err)) rc = 1;
  double wall = now() - t1;
  /* the refresh cost, measured on the final state */
  double tr = now();
  for (int k = 0; k < 20; k++) awe_sim_aero_refresh(sim);
  double per = (now() - tr) / 20.0;
  awe_aero_stats as = awe_aero_get_stats(sim->w);
  const awe_stats *st = &sim->w->stats;
  printf("%-17s %7.3f s  %6.1f s %8.3f s %7.0fx  steps %6lu  rhs %7lu  jac %5lu  lu %5lu/%7lu  "
         "VSM %5lu (%4.0f us, %3.0f%%)%s%s\n",
         label, t1 - t0, sim->t, wall, wall > 0 ? sim->t / wall : 0.0, st->steps - steps0,
         st->rhs - rhs0, st->jac - jac0, st->lu - lu0, st->lu_solves - sol0, as.refreshes - 20,
         per * 1e6,
         wall > 0 ? 100.0 * per * (double)(as.refreshes - 20) / wall : 0.0,
         rc ? "  FAILED: " : "", rc ? err.msg : "");
  /* where the Newton iterations go (trbdf2; zero for the other steppers) */
  unsigned long ns = st->steps - steps0 > 0 ? st->steps - steps0 : 1;
  printf("%-17s per step: newton TR %.2f + BDF2 %.2f, failed stages %.3f, rejected %.3f, "
         "rhs %.2f, jac %.3f, lu %.3f, solves %.2f\n",
         "", (double)(st->newton_tr - ntr0) / (double)ns, (double)(st->newton_bdf - nbdf0) / (double)ns,
         (double)(st->newton_fail - nfail0) / (double)ns, (double)(st->rejected - rej0) / (double)ns,
         (double)(st->rhs - rhs0) / (double)ns, (double)(st->jac - jac0) / (double)ns,
         (double)(st->lu - lu0) / (double)ns, (double)(st->lu_solves - sol0) / (double)ns);
  fflush(stdout);
  awe_sim_free(sim);
  awe_model_free(m);
  awe_spec_free(s);
  return rc;
}


/* run the case in a child process, unless only (not NULL) names another case */
static void spawn_case(const char *only, const char *label, const char *scenario,
                       const char *const *sets) {
  if (only && strcmp(label, only) != 0) return;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) _exit(run_case(label, scenario, sets));
  int st;
  waitpid(pid, &st, 0);
}


/* time from fork/exec to the first data row of the CSV on a pipe [s]; < 0 on failure */
static double startup_once(const char *const *argv) {
  int fd[2];
  if (pipe(fd)) return -1.0;
  double t0 = now();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    FILE *devnull = freopen("/dev/null", "w", stderr);
    (void)devnull;
    execv(argv[0], (char *const *)argv);
    _exit(127);
  }
  close(fd[1]);
  char buf[4096];
  int lines = 0;
  double t = -1.0;
  ssize_t r;
  while (t < 0.0 && (r = read(fd[0], buf, sizeof(buf))) > 0)
    for (ssize_t i = 0; i < r; i++)
      if (buf[i] == '\n' && ++lines == 2) {
        t = now() - t0; /* header, then the row at t = 0 */
        break;
      }
  close(fd[0]);
  int st;
  waitpid(pid, &st, 0);
  return t;
}


static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}


static void startup(const char *label, const char *const *argv) {
  double t[21];
  int n = 0;
  for (int k = 0; k < 21; k++) {
    double v = startup_once(argv);
    if (v >= 0.0) t[n++] = v;
  }
  if (n == 0) {
    printf("%-22s failed\n", label);
    return;
  }
  qsort(t, (size_t)n, sizeof(double), cmp);
  printf("%-22s %8.2f ms (median of %d, min %.2f ms)\n", label, 1e3 * t[n / 2], n, 1e3 * t[0]);
  fflush(stdout);
}


/* the real-time-factor table */
static void flight_cases(const char *only) {
  printf("case              steady      flight     wall   real-time  statistics (flight)"
         "                  VSM refreshes (each, share)\n");
  const char *p25[] = {"run.duration=25", NULL};
  const char *p60[] = {"run.duration=60", NULL};
  const char *cold[] = {"run.duration=60", "run.steady_state=false", NULL};
  const char *p25m[] = {"run.duration=25", "run.solver=msbdf", NULL};
  const char *p60m[] = {"run.duration=60", "run.solver=msbdf", NULL};
  const char *coldm[] = {"run.duration=60", "run.steady_state=false", "run.solver=msbdf", NULL};
  spawn_case(only, "2plate-25s", "scenarios/2plate_parked.yaml", p25);
  spawn_case(only, "2plate-60s", "scenarios/2plate_parked.yaml", p60);
  spawn_case(only, "parked-600s", "scenarios/2plate_parked.yaml", NULL);
  spawn_case(only, "external-60s", "scenarios/2plate_external.yaml", p60);
  spawn_case(only, "refine-60s", "scenarios/2plate_refine.yaml", p60);
  spawn_case(only, "v3-60s", "scenarios/v3_kite.yaml", p60);
  spawn_case(only, "v3cold-60s", "scenarios/v3_kite.yaml", cold);
  spawn_case(only, "v3fig8-120s", "scenarios/v3_figure_eight.yaml", NULL);
  spawn_case(only, "v3pump-320s", "scenarios/v3_pumping.yaml", NULL);
  spawn_case(only, "v3flight-600s", "scenarios/v3_2019.yaml", NULL);
  spawn_case(only, "v3flight10-600s", "scenarios/v3_2019_10mm.yaml", NULL);
  /* the V3 as built (22 bodies, 21 tubes): its first reel-out's figure eights, then its 600 s */
  const char *beam_f8[] = {"run.duration=150", NULL};
  spawn_case(only, "v3beamfig8-150s", "scenarios/v3_2019_beam.yaml", beam_f8);
  spawn_case(only, "v3beamflight-600s", "scenarios/v3_2019_beam.yaml", NULL);
  spawn_case(only, "2plate-25s-msbdf", "scenarios/2plate_parked.yaml", p25m);
  spawn_case(only, "2plate-60s-msbdf", "scenarios/2plate_parked.yaml", p60m);
  spawn_case(only, "refine-60s-msbdf", "scenarios/2plate_refine.yaml", p60m);
  spawn_case(only, "v3-60s-msbdf", "scenarios/v3_kite.yaml", p60m);
  spawn_case(only, "v3cold-60s-msbdf", "scenarios/v3_kite.yaml", coldm);
  const char *p60r[] = {"run.duration=60", "run.solver=ros34pw2", NULL};
  const char *fullr[] = {"run.solver=ros34pw2", NULL};
  spawn_case(only, "2plate-60s-rosw", "scenarios/2plate_parked.yaml", p60r);
  spawn_case(only, "parked-600s-rosw", "scenarios/2plate_parked.yaml", fullr);
  spawn_case(only, "refine-60s-rosw", "scenarios/2plate_refine.yaml", p60r);
  spawn_case(only, "v3-60s-rosw", "scenarios/v3_kite.yaml", p60r);
  spawn_case(only, "v3fig8-120s-rosw", "scenarios/v3_figure_eight.yaml", fullr);

}


int main(int argc, char **argv) {
  gsl_set_error_handler_off();
  /* `startup`: the start-up rows only; another argument: the flight case whose label
   * is it (bench_kite v3fig8-120s), without the start-up rows */
  if (argc < 2 || strcmp(argv[1], "startup") != 0) flight_cases(argc > 1 ? argv[1] : NULL);
  if (argc > 1 && strcmp(argv[1], "startup") != 0) return 0;
  printf("\nstart-up: process start to the first logged row (CSV on a pipe)\n");
  const char *a1[] = {"./awesim", "simulate", "scenarios/pendulum.yaml", "--no-hdf5",
                      "--csv=time", "--set", "run.duration=0", NULL};
  const char *a2[] = {"./awesim", "simulate", "scenarios/2plate_parked.yaml", "--no-hdf5",
                      "--csv=time", "--set", "run.duration=0", "--set",
                      "run.steady_state=false", NULL};
  const char *a3[] = {"./awesim", "simulate", "scenarios/2plate_parked.yaml", "--no-hdf5",
                      "--csv=time", "--set", "run.duration=0", NULL};
  const char *a4[] = {"./awesim", "simulate", "scenarios/v3_kite.yaml", "--no-hdf5",
                      "--csv=time", "--set", "run.duration=0", "--set",
                      "run.steady_state=false", NULL};
  startup("pendulum", a1);
  startup("2plate", a2);
  startup("2plate + steady state", a3);
  startup("v3", a4);
  return 0;
}
