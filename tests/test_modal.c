/* test_modal.c: classes of modes (zero, undamped, stable, unstable; modal.h) and the
 * eigen-analysis and linear step response in a child process that a guard trip ends at once
 * (util/offload.h). */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "analysis/modal.h"
#include "analysis/step_metrics.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* block-diagonal A from 2x2 blocks [[0, 1], [-k, -c]] (n = 2 nb) */
static double *blocks(const double *k, const double *c, int nb) {
  int n = 2 * nb;
  double *A = calloc((size_t)n * (size_t)n, sizeof(double));
  for (int b = 0; b < nb; b++) {
    int i = 2 * b;
    A[i * n + i + 1] = 1.0;
    A[(i + 1) * n + i] = -k[b];
    A[(i + 1) * n + i + 1] = -c[b];
  }
  return A;
}


/* a free coordinate whose A entry carries a difference error of -5e-10 (+-2.2e-5 i, as the
 * spring-mass at its rest length), a damped oscillator (|lambda| 31.6), an undamped one with
 * noise in its real part, and an unstable one */
static void test_classes(void) {
  const double k[] = {5e-10, 1000.0, 4.0, 9.0}, c[] = {0.0, 2.0, 1e-8, -1.0};
  double *A = blocks(k, c, 4);
  awe_mode *md = NULL;
  int nm = 0;
  awe_err err = {0};
  ENSURE(awe_modal(A, 8, &md, &nm, &err) == AWE_OK);
  ENSURE(nm == 4);
  if (nm == 4) {
    ENSURE(md[0].cls == AWE_MODE_ZERO);
    ENSURE_NEAR(md[0].im, sqrt(5e-10), 1e-9);
    ENSURE(md[0].freq == 0.0 && isnan(md[0].zeta) && isnan(md[0].tau));
    ENSURE(md[1].cls == AWE_MODE_UNDAMPED);           /* 2 1/s, zeta 2.5e-9 */
    ENSURE(md[2].cls == AWE_MODE_UNSTABLE);           /* 3 1/s, Re +0.5 */
    ENSURE_NEAR(md[2].re, 0.5, 1e-12);
    ENSURE(md[3].cls == AWE_MODE_STABLE);             /* 31.6 1/s */
    ENSURE_REL(md[3].zeta, 1.0 / sqrt(1000.0), 1e-9);
    ENSURE(!strcmp(awe_mode_class_name(md[0].cls), "zero"));
  }
  free(md);
  /* a tighter tolerance: 2.2e-5 <= 1e-7 x 31.6 no longer holds, the pair is undamped */
  ENSURE(awe_modal_guarded(A, 8, 1e-7, NULL, &md, &nm, &err) == AWE_OK);
  ENSURE(nm == 4 && md[0].cls == AWE_MODE_UNDAMPED && md[0].freq > 0.0);
  free(md);
  free(A);
}


/* a stiff model (|lambda| up to 5.6e7 1/s, as tether400): the relative bound alone (560 1/s)
 * would swallow its pendulum of 0.316 1/s; the cap of 1e-3 1/s keeps it */
static void test_stiff(void) {
  const double k[] = {0.1, 5.6e7 * 10.0}, c[] = {1e-3, 5.6e7 + 10.0};
  double *A = blocks(k, c, 2);
  awe_mode *md = NULL;
  int nm = 0;
  awe_err err = {0};
  ENSURE(awe_modal(A, 4, &md, &nm, &err) == AWE_OK);
  int nzero = 0;
  for (int i = 0; i < nm; i++) nzero += md[i].cls == AWE_MODE_ZERO;
  ENSURE(nzero == 0);
  ENSURE(nm >= 1 && md[0].cls == AWE_MODE_STABLE && fabs(md[0].im - sqrt(0.1)) < 1e-3);
  free(md);
  free(A);
}


/* a random dense matrix of n states */
static double *random_matrix(int n) {
  double *A = malloc(sizeof(double) * (size_t)n * (size_t)n);
  unsigned s = 12345u;
  for (long i = 0; i < (long)n * n; i++) {
    s = s * 1103515245u + 12345u;
    A[i] = ((double)(s >> 8) / 16777216.0 - 0.5) - (i % (n + 1) == 0 ? 2.0 : 0.0);
  }
  return A;
}


/* in a child process: the same modes; a raised stop flag or a spent wall time ends it at once */
static void test_guarded(void) {
  int n = 60;
  double *A = random_matrix(n);
  awe_mode *m0 = NULL, *m1 = NULL;
  int n0 = 0, n1 = 0;
  awe_err err = {0};
  awe_guard g;
  awe_guard_init(&g, NULL);
  awe_stop_flag flag = 0;
  g.stop = &flag;
  g.phase = "the eigen-analysis";
  ENSURE(awe_modal(A, n, &m0, &n0, &err) == AWE_OK);
  ENSURE(awe_modal_guarded(A, n, 0.0, &g, &m1, &n1, &err) == AWE_OK);
  ENSURE(n0 == n1 && n0 > 0);
  if (n0 == n1) ENSURE(memcmp(m0, m1, sizeof(awe_mode) * (size_t)n0) == 0);
  free(m0);
  free(m1);
  free(A);

  /* 700 states take seconds (AWE_MODAL_SEC_PER_N3: 3.4 s); a wall limit of 0.2 s ends it */
  n = 700;
  A = random_matrix(n);
  awe_guard_init(&g, NULL);
  g.max_wall = 0.2;
  g.phase = "the eigen-analysis";
  double t0 = now();
  awe_status st = awe_modal_guarded(A, n, 0.0, &g, &m1, &n1, &err);
  double used = now() - t0;
  printf("  wall limit 0.2 s: %s after %.3f s (%s)\n", awe_strerror(st), used, err.msg);
  ENSURE(st == AWE_EINTEG && m1 == NULL && n1 == 0);
  ENSURE(strstr(err.msg, "run.max_wall_time = 0.2 s") && strstr(err.msg, "eigen-analysis"));
  ENSURE(used < 1.0);
  /* a raised flag: AWE_EINTR before any work */
  awe_guard_init(&g, NULL);
  flag = SIGTERM;
  g.stop = &flag;
  t0 = now();
  ENSURE(awe_modal_guarded(A, n, 0.0, &g, &m1, &n1, &err) == AWE_EINTR);
  ENSURE(strstr(err.msg, "SIGTERM") != NULL && now() - t0 < 0.5);
  free(A);
}


/* the linear step response from the child equals the one in this process */
static void test_step_guarded(void) {
  const double k[] = {1000.0, 4.0}, c[] = {60.0, 4.0}; /* both (near) critically damped */
  awe_linsys L;
  memset(&L, 0, sizeof(L));
  L.nx = 4;
  L.nu = 1;
  L.ny = 2;
  L.A = blocks(k, c, 2);
  double B[4] = {0.0, 1.0, 0.0, 2.0}, C[8] = {1, 0, 0, 0, 0, 0, 1, 0}, D[2] = {0.0, 0.0};
  double yop[2] = {1.0, 2.0};
  L.B = B;
  L.C = C;
  L.D = D;
  L.y_op = yop;
  double du = 0.5, Y0[2 * 1001], Y1[2 * 1001];
  awe_err err = {0};
  awe_guard g;
  awe_guard_init(&g, NULL);
  ENSURE(awe_step_linear(&L, &du, 0.01, 1000, Y0, &err) == AWE_OK);
  ENSURE(awe_step_linear_guarded(&L, &du, 0.01, 1000, Y1, &g, &err) == AWE_OK);
  ENSURE(memcmp(Y0, Y1, sizeof(Y0)) == 0);
  ENSURE_NEAR(Y1[2 * 1000 + 0], 1.0 + 0.5 * 1.0 / 1000.0, 1e-9); /* settled: y_op + B du / k */
  ENSURE_NEAR(Y1[2 * 1000 + 1], 2.0 + 0.5 * 2.0 / 4.0, 1e-6);
  free(L.A);
}


int main(void) {
  RUN(test_classes);
  RUN(test_stiff);
  RUN(test_guarded);
  RUN(test_step_guarded);
  return harness_report();
}
