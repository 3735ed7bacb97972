/* bench_log.c: what the HDF5 log costs a whole `awesim simulate` process.
 *
 * Case: scenarios/2plate_parked.yaml for 300 s (6,000 logged rows of 246 channels, ~12 MB),
 * the whole process (fork/exec of ./awesim: start-up, steady state, flight, log), once with its
 * HDF5 log (-o in a temporary folder), with it compressed (output.compression deflate and
 * shuffle+deflate, level 4; their sizes against the plain log's) and with --no-hdf5; median of 3
 * runs each.
 * Columns: wall time and the real-time factor (simulated / wall), the CPU time of the child
 * (user + system, from getrusage(RUSAGE_CHILDREN): steadier than wall on a shared machine), and the log's share of
 * the run. Targets: >= 1000x real time with the log, and the log <= 10 % of the run's CPU time.
 * On a machine shared with other work, wall time includes waiting for a core: read the
 * real-time factor from the CPU column there.
 * Run from the repository root (make bench / tools/run-bench).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { RUNS = 3 };
static const double SIM_SECONDS = 300.0;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* one run of argv with stdout and stderr to /dev/null; wall and child CPU seconds; 0 or -1 */
static double children_cpu(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_CHILDREN, &ru) != 0) return 0;
  return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}


static int run_once(char *const *argv, double *wall, double *cpu) {
  fflush(NULL);
  double c0 = children_cpu();
  double t0 = now();
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
    execv(argv[0], argv);
    _exit(127);
  }
  int st = 0;
  if (waitpid(pid, &st, 0) != pid) return -1;
  *wall = now() - t0;
  *cpu = children_cpu() - c0;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}


static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}


/* medians of RUNS runs; 0 or -1 */
static int median_run(char *const *argv, double *wall, double *cpu) {
  double w[RUNS], c[RUNS];
  for (int i = 0; i < RUNS; i++)
    if (run_once(argv, &w[i], &c[i])) return -1;
  qsort(w, RUNS, sizeof(double), cmp);
  qsort(c, RUNS, sizeof(double), cmp);
  *wall = w[RUNS / 2];
  *cpu = c[RUNS / 2];
  return 0;
}


int main(void) {
  char dir[] = "/tmp/awesim-bench-log-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  char path[sizeof(dir) + 16];
  snprintf(path, sizeof(path), "%s/p.h5", dir);
  char dur[64];
  snprintf(dur, sizeof(dur), "run.duration=%g", SIM_SECONDS);
  /* the log uncompressed (the default), deflate and shuffle+deflate at the default level 4
     and shuffle+deflate at level 1 (output.compression), and no log */
  static const char *const comp[] = {"output.compression=none", "output.compression=deflate",
                                     "output.compression=shuffle+deflate",
                                     "output.compression=shuffle+deflate"};
  static const char *const level[] = {"output.compression=none", "output.compression_level=4",
                                      "output.compression_level=4",
                                      "output.compression_level=1"};
  static const char *const label[] = {"with log", "deflate", "shuffle+deflate",
                                      "shuffle+deflate 1"};
  enum { NC = 4 };
  double wl[NC], cl[NC], w0, c0;
  long size[NC];
  int bad = 0;
  for (int k = 0; k < NC && !bad; k++) {
    char *with[] = {"./awesim", "simulate", "scenarios/2plate_parked.yaml", "--set", dur,
                    "--set", (char *)comp[k], "--set", (char *)level[k], "-o", path, NULL};
    bad = median_run(with, &wl[k], &cl[k]);
    FILE *f = fopen(path, "rb");
    size[k] = -1;
    if (f && fseek(f, 0, SEEK_END) == 0) size[k] = ftell(f);
    if (f) fclose(f);
    unlink(path);
  }
  char *without[] = {"./awesim", "simulate", "scenarios/2plate_parked.yaml", "--set", dur,
                     "--no-hdf5", NULL};
  if (!bad) bad = median_run(without, &w0, &c0);
  rmdir(dir);
  if (bad) {
    fprintf(stderr, "bench_log: ./awesim simulate failed (run `make` first)\n");
    return 1;
  }
  printf("2plate_parked.yaml, %g s, whole process, median of %d\n", SIM_SECONDS, RUNS);
  printf("%-18s %9s %11s %9s %11s %9s %9s\n", "case", "wall [s]", "x real time", "cpu [s]",
         "x real (cpu)", "log [MB]", "log cpu");
  for (int k = 0; k < NC; k++)
    printf("%-18s %9.3f %11.0f %9.3f %11.0f %9.1f %8.1f%%\n", label[k], wl[k],
           SIM_SECONDS / wl[k], cl[k], SIM_SECONDS / cl[k], size[k] / 1e6,
           100.0 * (cl[k] - c0) / cl[k]);
  printf("%-18s %9.3f %11.0f %9.3f %11.0f %9s %9s\n", "--no-hdf5", w0, SIM_SECONDS / w0, c0,
         SIM_SECONDS / c0, "-", "-");
  printf("log share of the run: %.1f %% of cpu, %.1f %% of wall (targets: >= 1000x real time "
         "with the log, log <= 10 %%; compressed logs are opt-in, output.compression)\n",
         100.0 * (cl[0] - c0) / cl[0], 100.0 * (wl[0] - w0) / wl[0]);
  return 0;
}
