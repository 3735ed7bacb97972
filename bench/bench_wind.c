/* bench_wind.c: the cost of turbulent wind.
 *
 * Cases:
 *   generate   `awe_mann_generate` of the default box, 4096 x 64 x 64 points of 2 m (the spec's
 *              defaults), in a child process: wall time and the child's peak resident memory
 *              (getrusage); limits 20 s and 1 GiB
 *   lookup     awe_wind_box_at (trilinear, periodic x) at 1e7 pseudo-random points of that box
 *              (every look-up a cache miss: reported), and at the 100 points of a line through
 *              it as a run asks them (1e5 times, the box advected): ns per point; limit 100 ns
 * Times are CPU times (the machine may be shared); the wall time of generate is shown too.
 * Prints one line per case; exit 1 when a limit is exceeded.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "turb/mann.h"
#include "turb/wind_box.h"


static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* this process's CPU time [s]: on a shared machine the wall clock measures the neighbours */
static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


static int generate(awe_mann_spec *s, awe_wind_box *b) {
  size_t n = (size_t)s->n[0] * s->n[1] * s->n[2];
  b->u = malloc(sizeof(float) * n);
  b->v = malloc(sizeof(float) * n);
  b->w = malloc(sizeof(float) * n);
  awe_err err = {0};
  double ae;
  if (!b->u || !b->v || !b->w || awe_mann_generate(s, b->u, b->v, b->w, &ae, &err)) {
    fprintf(stderr, "bench_wind: %s\n", err.msg);
    return -1;
  }
  for (int a = 0; a < 3; a++) {
    b->n[a] = s->n[a];
    b->d[a] = s->d[a];
    b->x0[a] = 0.0;
  }
  b->periodic_x = 1;
  return 0;
}


int main(void) {
  awe_mann_spec s;
  awe_mann_defaults(&s);
  int fail = 0;
  double t0 = now();
  pid_t pid = fork();
  if (pid == 0) {
    awe_wind_box b;
    _exit(generate(&s, &b) ? 1 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  double wall = now() - t0;
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  double gib = (double)ru.ru_maxrss / 1048576.0; /* kB -> GiB */
  double ct = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
              (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
  int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && ct <= 20.0 && gib <= 1.0;
  printf("generate  %d x %d x %d points: %.1f s CPU (%.1f s wall), peak %.2f GiB (limits 20 s, "
         "1 GiB) %s\n", s.n[0], s.n[1], s.n[2], ct, wall, gib, ok ? "ok" : "OVER");
  fail |= !ok;

  awe_wind_box b = {0};
  if (generate(&s, &b) || awe_wind_box_interleave(&b)) return 1;
  const int n = 10000000;
  double acc = 0.0, o[3];
  unsigned long long r = 88172645463325252ull;
  double Lx = b.n[0] * b.d[0], Ly = (b.n[1] - 1) * b.d[1], Lz = (b.n[2] - 1) * b.d[2];
  t0 = cpu();
  for (int i = 0; i < n; i++) {
    r ^= r << 13;
    r ^= r >> 7;
    r ^= r << 17;
    double x = (double)(r & 0xffff) / 65536.0 * 3 * Lx, y = (double)((r >> 16) & 0xffff) /
                                                            65536.0 * Ly,
           z = (double)((r >> 32) & 0xffff) / 65536.0 * Lz;
    if (awe_wind_box_at(&b, x, y, z, o) == 0) acc += o[0] + o[1] + o[2];
  }
  double ns = (cpu() - t0) / n * 1e9;
  printf("lookup    random points over the box (cache-cold): %.1f ns per point [%g]\n", ns,
         acc > 0 ? 1.0 : 0.0);
  /* a kite's look-ups: 100 points on a 250 m line from the ground to 150 m up, at 1e5 times
   * 1 ms apart with the box advected at 10 m/s (what a run asks) */
  const int np = 100, nt = 100000;
  acc = 0.0;
  t0 = cpu();
  for (int k = 0; k < nt; k++) {
    double shift = 10.0 * 1e-3 * k;
    for (int i = 0; i < np; i++) {
      double f = (double)i / (np - 1);
      if (awe_wind_box_at(&b, 200.0 * f - shift, 30.0 + 5.0 * f, 120.0 * f, o) == 0)
        acc += o[0] + o[1] + o[2];
    }
  }
  ns = (cpu() - t0) / ((double)np * nt) * 1e9;
  ok = ns <= 100.0;
  printf("lookup    a tether's 100 points, advected: %.1f ns per point (limit 100 ns) %s [%g]\n",
         ns, ok ? "ok" : "OVER", acc != 0 ? 1.0 : 0.0);
  fail |= !ok;
  free(b.uvw);
  return fail;
}
