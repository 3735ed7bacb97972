/* bench_vsm.c: wall time of the VSM solver.
 *
 * Case V9 of vsm.md §13-14 (the VortexStepMethod.jl timing anchor):
 * rectangular wing, span 20 m, chord 1 m, 2 sections refined LINEAR, INVISCID, VSM,
 * va = 20 [cos 30 deg, 0, sin 30 deg] m/s, rtol 1e-6. For 20, 40, 80, 160 panels and both solvers:
 *   cold  median time of a solve from Gamma = 0 (warm start disabled);
 *   warm  median time of a solve warm-started from the previous one while alpha moves by
 *         0.01 deg and omega_z = 0.1 rad/s is applied (a simulation time step);
 * and the time of one full linearization (6 + 2 inputs, central differences).
 * Second table: the TU Delft V3 kite of vsm.md V6 (10 sections, Breukels t 0.1, kappa 0.095,
 * 36 panels SPLIT_PROVIDED, alpha 8 deg), the case the simulator runs; linearization 16 inputs.
 * Julia reference (Ryzen 7950X): solve_base! 0.42-0.45 ms for 20 panels, LOOP.
 * Third: `awesim polar` through the command line, whole process (start-up, reading, 200 cold
 * starts, CSV) divided by its 200 angles: the rectangular wing of tests/data/polar, 20 panels,
 * alpha 0:19.9:0.1 (target set when the VSM was compared with the Python one: <= 50 us per
 * angle; the Python VSM: ~165 ms per solve).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aero/vsm.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9*(double)ts.tv_nsec;
}


static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}


static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof(double), cmp_double);
  return n % 2 ? t[n/2] : 0.5*(t[n/2 - 1] + t[n/2]);
}


enum { MAXSAMPLES = 4000 };

/* Median time [s] of solves; warm = warm start with a slowly moving inflow. */
static double time_solves(awe_vsm_wing *w, int warm, double budget, double alpha0, int *iters,
                          int *fails) {
  static double t[MAXSAMPLES];
  const double om[3] = {0.0, 0.0, 0.1};
  awe_vsm_result r;
  int n = 0;
  long itsum = 0;
  *fails = 0;
  awe_vsm_wing_reset_gamma(w);
  double va[3];
  awe_vsm_va_from_angles(20.0, alpha0, 0.0, va);
  awe_vsm_solve(w, va, warm ? om : NULL, NULL, &r);
  const double t_end = now() + budget;
  while (n < MAXSAMPLES && (n < 20 || now() < t_end)) {
    const double alpha = alpha0 + 0.01*(n % 200);
    awe_vsm_va_from_angles(20.0, alpha, 0.0, va);
    if (!warm) awe_vsm_wing_reset_gamma(w);
    const double t0 = now();
    int st = awe_vsm_solve(w, va, warm ? om : NULL, NULL, &r);
    t[n] = now() - t0;
    if (st != AWE_VSM_OK) (*fails)++;
    itsum += r.iterations;
    n++;
  }
  *iters = (int)(itsum/n);
  return median(t, n);
}


/* wall time [s] of one ./awesim process with stdout to /dev/null; < 0 on failure */
static double process_once(const char *const *argv) {
  const double t0 = now();
  const pid_t pid = fork();
  if (pid < 0) return -1.0;
  if (pid == 0) {
    const int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    execv(argv[0], (char *const *)argv);
    _exit(127);
  }
  int st;
  if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return -1.0;
  return now() - t0;
}


/* median of 21 runs of a process [s]; < 0 if any run failed (no ./awesim, say) */
static double process_median(const char *const *argv) {
  double t[21];
  for (int k = 0; k < 21; k++)
    if ((t[k] = process_once(argv)) < 0.0) return -1.0;
  return median(t, 21);
}


static void polar_cli(void) {
  static const char *const polar[] = {"./awesim", "polar", "tests/data/polar/rect_inviscid.yaml",
    "--vsm-settings", "tests/data/polar/vsm_settings.yaml", "--panels", "20",
    "--alpha", "0:19.9:0.1", NULL};
  static const char *const version[] = {"./awesim", "--version", NULL};
  printf("\nawesim polar through the command line (whole process, median of 21; "
         "from the repository root)\n");
  const double tp = process_median(polar), tv = process_median(version);
  if (tp < 0.0 || tv < 0.0) {
    printf("  skipped: ./awesim or tests/data/polar not found or failed (run from the root)\n");
    return;
  }
  printf("  rect 20 panels, alpha 0:19.9:0.1 (200 angles): %8.2f ms = %6.1f us per angle\n",
         1e3*tp, 1e6*tp/200.0);
  printf("  awesim --version (process start-up):            %8.2f ms\n", 1e3*tv);
}


int main(void) {
  const awe_vsm_section sec[2] = {{{0.0, 10.0, 0.0}, {1.0, 10.0, 0.0}, -1},
                                  {{0.0, -10.0, 0.0}, {1.0, -10.0, 0.0}, -1}};
  const int npan[4] = {20, 40, 80, 160};
  printf("VSM solve, rectangular wing 20 m x 1 m, inviscid, VSM model, 20 m/s at 30 deg, "
         "rtol 1e-6 (median wall time)\n");
  printf("panels  solver   cold [us]  (iters)   warm [us]  (iters)   linearize [ms]\n");
  for (int k = 0; k < 4; k++) {
    for (int solver = 0; solver < 2; solver++) {
      awe_vsm_settings s;
      awe_vsm_settings_default(&s);
      s.n_panels = npan[k];
      s.distribution = AWE_DIST_LINEAR;
      s.rtol = 1e-6;
      s.solver = solver ? AWE_VSM_SOLVER_NEWTON : AWE_VSM_SOLVER_LOOP;
      s.use_gamma_prev = 1;
      char err[256];
      awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 2, NULL, 0, &s, err, sizeof err);
      if (!w) {
        fprintf(stderr, "%s\n", err);
        return 1;
      }
      const double budget = npan[k] >= 160 ? 1.0 : 0.4;
      int it_cold, it_warm, f_cold, f_warm;
      const double tc = time_solves(w, 0, budget, 30.0, &it_cold, &f_cold);
      const double tw = time_solves(w, 1, budget, 30.0, &it_warm, &f_warm);

      // one full linearization (8 inputs: va, omega, 2 section twists)
      double x0[8], jac[64], tl[9];
      double va[3];
      awe_vsm_va_from_angles(20.0, 30.0, 0.0, va);
      for (int rep = 0; rep < 9; rep++) {
        const double t0 = now();
        awe_vsm_linearize(w, va, NULL, NULL, x0, jac, NULL);
        tl[rep] = now() - t0;
      }
      const double tlin = median(tl, 9);
      printf("%6d  %-7s  %9.1f  (%5d)   %9.1f  (%5d)   %8.3f%s\n", npan[k],
             solver ? "Newton" : "loop", 1e6*tc, it_cold, 1e6*tw, it_warm, 1e3*tlin,
             (f_cold || f_warm) ? "  (some solves did not converge)" : "");
      awe_vsm_wing_free(w);
    }
  }

  // V3 kite, Breukels sections (vsm.md V6), mm -> m, mirrored
  static const double le[5][3] = {{859.580, 4139.660, 5654.227}, {-17.623, 3967.978, 6471.622},
                                  {-237.683, 3134.335, 7476.759}, {-383.733, 1959.729, 8078.914},
                                  {-456.562, 664.252, 8339.101}};
  static const double te[5][3] = {{1538.773, 4113.307, 5530.496}, {1703.467, 3955.506, 6467.819},
                                  {2002.516, 3116.753, 7454.254}, {2110.145, 1946.587, 8041.739},
                                  {2158.559, 660.721, 8294.064}};
  awe_vsm_section v3[10];
  for (int k = 0; k < 10; k++) {
    const int src = k < 5 ? k : 9 - k;
    for (int c = 0; c < 3; c++) {
      const double sy = (c == 1 && k >= 5) ? -1.0 : 1.0;
      v3[k].le[c] = 1e-3*le[src][c]*sy;
      v3[k].te[c] = 1e-3*te[src][c]*sy;
    }
    v3[k].airfoil = 0;
  }
  const awe_airfoil lei = {AWE_AIRFOIL_BREUKELS, 1, 0, NULL, NULL, NULL, NULL, 0.1, 0.095};
  printf("\nV3 kite, Breukels, 36 panels SPLIT_PROVIDED, 20 m/s at 8 deg, rtol 1e-6\n");
  printf("panels  solver   cold [us]  (iters)   warm [us]  (iters)   linearize [ms]\n");
  for (int solver = 0; solver < 2; solver++) {
    awe_vsm_settings s;
    awe_vsm_settings_default(&s);
    s.n_panels = 36;
    s.distribution = AWE_DIST_SPLIT_PROVIDED;
    s.rtol = 1e-6;
    s.solver = solver ? AWE_VSM_SOLVER_NEWTON : AWE_VSM_SOLVER_LOOP;
    awe_vsm_wing *w = awe_vsm_wing_alloc(v3, 10, &lei, 1, &s, NULL, 0);
    if (!w) return 1;
    int it_cold, it_warm, f_cold, f_warm;
    const double tc = time_solves(w, 0, 0.4, 8.0, &it_cold, &f_cold);
    const double tw = time_solves(w, 1, 0.4, 8.0, &it_warm, &f_warm);
    double x0[16], jac[256], tl[9], va[3];
    awe_vsm_va_from_angles(20.0, 8.0, 0.0, va);
    for (int rep = 0; rep < 9; rep++) {
      const double t0 = now();
      awe_vsm_linearize(w, va, NULL, NULL, x0, jac, NULL);
      tl[rep] = now() - t0;
    }
    printf("%6d  %-7s  %9.1f  (%5d)   %9.1f  (%5d)   %8.3f%s\n", 36,
           solver ? "Newton" : "loop", 1e6*tc, it_cold, 1e6*tw, it_warm, 1e3*median(tl, 9),
           (f_cold || f_warm) ? "  (some solves did not converge)" : "");
    awe_vsm_wing_free(w);
  }
  polar_cli();
  return 0;
}
