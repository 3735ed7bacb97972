/* bench_speed.c: the speed cases -- cost of one right-hand side, real-time
 * factors per stepper and Jacobian kind, and how the cost grows with the model.
 *
 * Cases (each in its own child process, so that ru_maxrss is that case's peak):
 *   tether-wind   scenarios/reel_out.yaml with a 10 m/s wind (tether drag): the 5 kg load on
 *                 100 m of 4 mm Dyneema in 10 segments, 60 s, abs_tol = rel_tol = 1e-6, after
 *                 the scenario's steady state; the default stepper, then rkf45, msbdf and
 *                 trbdf2, the implicit ones with run.jacobian = analytic and fd, and ros34pw2
 *   swing-out     the same line started from rest in its structure's pose (run.steady_state =
 *                 false), swinging out into the 10 m/s wind: a transient, not a settled state;
 *                 60 s, 1e-6, the default stepper and ros34pw2
 *   rhs           the same model: wall time of one right-hand side (the fastest of 41 batches
 *                 of 2000 calls at the state after 1 s of flight: the machine is shared)
 *   tether-N      the same load on a tether of N = 10, 100, 1000 segments (a generated
 *                 structure in /tmp, 100 m long, 10 m/s wind, winch braked, released 20 m
 *                 to the side of the winch so the line swings and rings), 2 s, 1e-6, default
 *                 stepper; cost per simulated second per segment [us] and per step per
 *                 segment (finer tethers have faster modes, so the stepper takes more steps:
 *                 the per-step cost shows the implementation's growth)
 *   steady-N      the tether-N models' steady state (run.steady_state: the settling march
 *                 and the Newton polish, whose matrix is sparse: steady_jac.h): wall time,
 *                 residual, peak RSS and wall per segment
 *   net-N         a particle net of N = 20, 80, 320 points (a square grid of 5 g points tied
 *                 by 4 mm Dyneema, one corner on the tether), hanging in a 10 m/s wind,
 *                 2 s, 1e-6, default stepper; cost per simulated second per point [us]
 * Columns: name, stepper/Jacobian, simulated time, wall, real-time factor, statistics, peak
 * RSS; the scaling rows add the cost per simulated second per element and the growth ratio to
 * the row before (linear: the size ratio).
 * Run from the repository root (make bench / tools/run-bench); an argument runs only the cases
 * whose name starts with it (build/bench/bench_speed rhs).
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

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}


typedef struct {
  const char *label, *scenario;
  const char *const *sets;
  const char *solver;   /* NULL: the default */
  int rhs_only;         /* time the right-hand side instead of a run */
  int size;             /* elements for the per-element cost (0: none) */
  int steady;           /* time the steady state (awe_sim_start) instead of the flight */
} bcase;


/* one case in this process; prints its line, writes the wall time per simulated s to *cost */
static int run_case(const bcase *c, int fd) {
  int nset = 0;
  while (c->sets && c->sets[nset]) nset++;
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load(c->scenario, nset, c->sets, &warn, &err);
  awe_diag_free(&warn);
  awe_model *m = s ? awe_model_build_controlled(s, &s->warnings, &err) : NULL;
  awe_sim *sim = m ? awe_sim_alloc(m, c->solver, &err) : NULL;
  if (!sim) {
    printf("%-14s error: %s\n", c->label, err.msg);
    return 1;
  }
  double ts = now();
  int rc = awe_sim_start(sim, &err) ? 1 : 0;
  if (c->steady) {
    double wall = now() - ts;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%-14s %-16s %8.4f s  residual %.2e N  %6.1f MiB  %8.2f us/elem%s%s\n", c->label,
           awe_integrator_name(sim->it), wall, sim->steady_residual,
           (double)ru.ru_maxrss / 1024.0, 1e6 * wall / c->size, rc ? "  FAILED: " : "",
           rc ? err.msg : "");
    fflush(stdout);
    if (fd >= 0 && write(fd, &wall, sizeof(wall)) != (ssize_t)sizeof(wall)) rc = 1;
    awe_sim_free(sim);
    awe_model_free(m);
    awe_spec_free(s);
    return rc;
  }
  const char *name = awe_integrator_name(sim->it);
  const char *jk = m->opt.jacobian_fd ? "fd" : "analytic";
  if (c->rhs_only) {
    if (!rc) rc = awe_sim_step(sim, 1.0, &err) ? 1 : 0;
    double t[41];
    for (int b = 0; b < 41 && !rc; b++) {
      double t0 = now();
      for (int k = 0; k < 2000; k++) awe_rhs(sim->t, sim->y, sim->dydt, &sim->ctx);
      t[b] = (now() - t0) / 2000.0;
    }
    qsort(t, 41, sizeof(double), cmp);
    printf("%-14s %-16s %6.3f us per right-hand side (%d states; median %.3f us)\n", c->label,
           "", 1e6 * t[0], sim->w->nx, 1e6 * t[20]);
  } else {
    double t0 = now();
    long n = awe_sim_log_steps(m);
    for (long k = 1; k <= n && !rc; k++)
      if (awe_sim_step(sim, awe_sim_log_time(m, k), &err)) rc = 1;
    double wall = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    const awe_stats *st = &sim->w->stats;
    char sj[40];
    snprintf(sj, sizeof(sj), "%s%s%s", name, awe_solver_implicit(name) == 1 ? "/" : "",
             awe_solver_implicit(name) == 1 ? jk : "");
    printf("%-14s %-16s %6.1f s %8.4f s %7.0fx  steps %7lu  rhs %8lu  jac %5lu  %6.1f MiB",
           c->label, sj, sim->t, wall, wall > 0 ? sim->t / wall : 0.0, st->steps, st->rhs, st->jac,
           (double)ru.ru_maxrss / 1024.0);
    double cost = sim->t > 0 ? wall / sim->t : 0.0;
    if (c->size > 0 && st->steps > 0)
      printf("  %8.2f us/s/elem  %6.3f us/step/elem", 1e6 * cost / c->size,
             1e6 * wall / (double)st->steps / c->size);
    if (rc) printf("  FAILED: %s", err.msg);
    printf("\n");
    if (fd >= 0 && write(fd, &cost, sizeof(cost)) != (ssize_t)sizeof(cost)) rc = 1;
  }
  fflush(stdout);
  awe_sim_free(sim);
  awe_model_free(m);
  awe_spec_free(s);
  return rc;
}


static const char *only; /* argv[1]: run only the cases whose label starts with it */

/* fork, run, wait; returns the child's wall time per simulated second (0 if none) */
static double spawn(const bcase *c) {
  if (only && strncmp(c->label, only, strlen(only))) return 0.0;
  int fd[2];
  if (pipe(fd)) return 0.0;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    _exit(run_case(c, fd[1]));
  }
  close(fd[1]);
  double cost = 0.0;
  if (read(fd[0], &cost, sizeof(cost)) != (ssize_t)sizeof(cost)) cost = 0.0;
  close(fd[0]);
  int st;
  waitpid(pid, &st, 0);
  return cost;
}


/* dir/STEMn.yaml: 2 s in 10 m/s wind, winch braked, on the structure dir/STEMn_structure.yaml */
static int write_scenario(const char *dir, const char *stem, int n) {
  char path[256], cwd[200];
  snprintf(path, sizeof(path), "%s/%s%d.yaml", dir, stem, n);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "awesim: 1\nmodel: {structure: %s%d_structure.yaml, settings: "
             "%s/models/hanging_tether/settings.yaml}\n"
             "settings: {environment: {v_wind: 10.0}}\n"
             "run: {duration: 2.0, dt: 0.05, abs_tol: 1.0e-6, rel_tol: 1.0e-6}\n"
             "inputs:\n  - {input: winches.main_winch.brake, type: constant, value: 1.0}\n",
          stem, n, getcwd(cwd, sizeof(cwd)) ? cwd : ".");
  return fclose(f);
}


/* a tether of n segments: models/hanging_tether with n_segments = n, written to dir */
static int write_tether(const char *dir, int n) {
  char path[256];
  if (write_scenario(dir, "tether", n) != 0) return -1;
  snprintf(path, sizeof(path), "%s/tether%d_structure.yaml", dir, n);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "materials:\n  headers: [name, youngs_modulus, density, damping_per_stiffness]\n"
             "  data:\n    - [dyneema, 55000000000.0, 724.0, 0.00077]\n"
             "points:\n  headers: [name, pos_cad, type, extra_mass, area, drag_coeff]\n"
             "  data:\n    - [winch, [0.0, 0.0, 0.0], STATIC, 0.0, 0.0, 0.0]\n"
             "    - [end_mass, [20.0, 0.0, -98.0], DYNAMIC, 5.0, 0.0, 0.0]\n"
             "tethers:\n  headers: [name, start_point, end_point, n_segments, material, "
             "diameter_mm]\n  data:\n    - [main_tether, end_mass, winch, %d, dyneema, 4.0]\n"
             "winches:\n  headers: [name, tether_idxs, winch_point]\n"
             "  data:\n    - [main_winch, [main_tether], winch]\n", n);
  fclose(f);
  return 0;
}


/* a square net of about n points (k x k grid, 1 m spacing, in the vertical x-z plane) hung
 * from the tether's end by one corner */
static int write_net(const char *dir, int n) {
  int k = 1;
  while ((k + 1) * (k + 1) <= n) k++;
  char path[256];
  if (write_scenario(dir, "net", n) != 0) return -1;
  snprintf(path, sizeof(path), "%s/net%d_structure.yaml", dir, n);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "materials:\n  headers: [name, youngs_modulus, density, damping_per_stiffness]\n"
             "  data:\n    - [dyneema, 55000000000.0, 724.0, 0.00077]\n"
             "points:\n  headers: [name, pos_cad, type, extra_mass, area, drag_coeff]\n"
             "  data:\n    - [winch, [0.0, 0.0, 0.0], STATIC, 0.0, 0.0, 0.0]\n");
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++)
      fprintf(f, "    - [n%d_%d, [%d.0, 0.0, %d.0], DYNAMIC, 0.005, 0.01, 1.0]\n", i, j, i,
              -20 - j);
  fprintf(f, "segments:\n  headers: [name, point_i, point_j, type, l0, diameter_mm, material]\n"
             "  data:\n");
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++) {
      if (i + 1 < k)
        fprintf(f, "    - [h%d_%d, n%d_%d, n%d_%d, BRIDLE, 1.0, 4.0, dyneema]\n", i, j, i, j,
                i + 1, j);
      if (j + 1 < k)
        fprintf(f, "    - [v%d_%d, n%d_%d, n%d_%d, BRIDLE, 1.0, 4.0, dyneema]\n", i, j, i, j, i,
                j + 1);
    }
  fprintf(f, "tethers:\n  headers: [name, start_point, end_point, n_segments, material, "
             "diameter_mm]\n  data:\n    - [main_tether, n0_0, winch, 4, dyneema, 4.0]\n"
             "winches:\n  headers: [name, tether_idxs, winch_point]\n"
             "  data:\n    - [main_winch, [main_tether], winch]\n");
  fclose(f);
  return k * k;
}


int main(int argc, char **argv) {
  gsl_set_error_handler_off();
  only = argc > 1 ? argv[1] : NULL;
  char host[64] = "?";
  gethostname(host, sizeof(host));
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  printf("machine: %s, %ld cores; abs_tol = rel_tol = 1e-6\n", host, ncpu);
  printf("case           stepper/jacobian  simulated     wall  real-time  statistics"
         "                           peak RSS\n");
  const char *sc = "scenarios/reel_out.yaml";
  const char *w[] = {"settings.environment.v_wind=10", "run.duration=60", NULL};
  const char *wa[] = {"settings.environment.v_wind=10", "run.duration=60", "run.jacobian=analytic",
                      NULL};
  const char *wf[] = {"settings.environment.v_wind=10", "run.duration=60", "run.jacobian=fd",
                      NULL};
  const char *so[] = {"settings.environment.v_wind=10", "run.duration=60", "run.steady_state=false",
                      NULL};
  bcase tw[] = {
      {"tether-wind", sc, w, NULL, 0, 0, 0},    {"tether-wind", sc, w, "rkf45", 0, 0, 0},
      {"tether-wind", sc, wa, "msbdf", 0, 0, 0}, {"tether-wind", sc, wf, "msbdf", 0, 0, 0},
      {"tether-wind", sc, wa, "trbdf2", 0, 0, 0}, {"tether-wind", sc, wf, "trbdf2", 0, 0, 0},
      {"tether-wind", sc, wa, "ros34pw2", 0, 0, 0},
      {"swing-out", sc, so, NULL, 0, 0, 0},     {"swing-out", sc, so, "ros34pw2", 0, 0, 0},
      {"rhs", sc, w, "rkf45", 1, 0, 0},
  };
  for (size_t i = 0; i < sizeof(tw) / sizeof(tw[0]); i++) spawn(&tw[i]);

  char dir[] = "/tmp/awesim-bench-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  printf("\nscaling (default stepper; growth = cost ratio to the row before, linear = size "
         "ratio)\n");
  static const int nt[] = {10, 100, 1000}, nn[] = {20, 80, 320};
  double prev = 0.0;
  for (int i = 0; i < 3; i++) {
    char path[300], label[32];
    if (write_tether(dir, nt[i])) return 1;
    snprintf(path, sizeof(path), "%s/tether%d.yaml", dir, nt[i]);
    snprintf(label, sizeof(label), "tether-%d", nt[i]);
    bcase c = {label, path, NULL, NULL, 0, nt[i], 0};
    double cost = spawn(&c);
    if (prev > 0.0 && cost > 0.0) printf("%-14s growth %.1f for size x%d\n", "", cost / prev,
                                         nt[i] / nt[i - 1]);
    prev = cost;
  }
  printf("\nsteady state (run.steady_state: the settling march and the sparse Newton polish; "
         "wall, residual, peak RSS, wall per segment)\n");
  prev = 0.0;
  for (int i = 0; i < 3; i++) {
    char path[300], label[32];
    snprintf(path, sizeof(path), "%s/tether%d.yaml", dir, nt[i]);
    snprintf(label, sizeof(label), "steady-%d", nt[i]);
    static const char *const ss[] = {"run.steady_state=true", "run.duration=0.05", NULL};
    bcase c = {label, path, ss, NULL, 0, nt[i], 1};
    double cost = spawn(&c);
    if (prev > 0.0 && cost > 0.0) printf("%-14s growth %.1f for size x%d\n", "", cost / prev,
                                         nt[i] / nt[i - 1]);
    prev = cost;
  }
  prev = 0.0;
  int prevn = 0;
  for (int i = 0; i < 3; i++) {
    char path[300], label[32];
    int np = write_net(dir, nn[i]);
    if (np < 0) return 1;
    snprintf(path, sizeof(path), "%s/net%d.yaml", dir, nn[i]);
    snprintf(label, sizeof(label), "net-%d", np);
    bcase c = {label, path, NULL, NULL, 0, np, 0};
    double cost = spawn(&c);
    if (prev > 0.0 && cost > 0.0) printf("%-14s growth %.1f for size x%.1f\n", "", cost / prev,
                                         (double)np / prevn);
    prev = cost;
    prevn = np;
  }
  char cmd[400];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  if (system(cmd) != 0) return 1;
  return 0;
}
