/* test_simulate_cli.c: `awesim simulate` as a process, its HDF5 log read back through the C API.
 *
 * SIGINT: exit 130, status "interrupted", readable, every row up to the interrupt present and
 * equal to a complete run of that length; SIGTERM: 143. A failing run: exit 1, status
 * "failed", the error names the variable, the rows before it kept. Reruns are bit-identical.
 * The layout: /time, /points/pos [T,P,3], /segments/force [T,S], /winches/force, names.
 * Runs ./awesim (built by `make test`), or $AWESIM.
 */
#include <hdf5.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static char dir[256];
static const char *awesim = "./awesim";


static void path_of(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }


/* start awesim with args (NULL-terminated), stdout/stderr to files in dir; returns the pid */
static pid_t spawn(const char *const *args, const char *tag) {
  pid_t pid = fork();
  if (pid == 0) {
    char out[300], err[300];
    snprintf(out, sizeof(out), "%s/%s.out", dir, tag);
    snprintf(err, sizeof(err), "%s/%s.err", dir, tag);
    if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr)) _exit(127);
    const char *argv[32];
    int n = 0;
    argv[n++] = awesim;
    for (int i = 0; args[i] && n < 31; i++) argv[n++] = args[i];
    argv[n] = NULL;
    execv(awesim, (char *const *)argv);
    _exit(127);
  }
  return pid;
}


static int wait_exit(pid_t pid) {
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}


static int run(const char *const *args, const char *tag) { return wait_exit(spawn(args, tag)); }


static void slurp(const char *tag, const char *ext, char *buf, size_t n) {
  char p[300];
  snprintf(p, sizeof(p), "%s/%s.%s", dir, tag, ext);
  FILE *f = fopen(p, "r");
  buf[0] = 0;
  if (!f) return;
  size_t k = fread(buf, 1, n - 1, f);
  buf[k] = 0;
  fclose(f);
}


static void str_attr(hid_t f, const char *name, char *buf, size_t n) {
  buf[0] = 0;
  if (H5Aexists(f, name) <= 0) return;
  hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  hid_t t = H5Aget_type(a);
  if (H5Tis_variable_str(t) > 0) {
    char *s = NULL;
    H5Aread(a, t, &s);
    snprintf(buf, n, "%s", s ? s : "");
    H5free_memory(s);
  } else {
    size_t sz = H5Tget_size(t);
    char *tmp = calloc(1, sz + 1);
    H5Aread(a, t, tmp);
    snprintf(buf, n, "%s", tmp);
    free(tmp);
  }
  H5Tclose(t);
  H5Aclose(a);
}


static double num_attr(hid_t f, const char *name) {
  double v = NAN;
  if (H5Aexists(f, name) <= 0) return v;
  hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  H5Aread(a, H5T_NATIVE_DOUBLE, &v);
  H5Aclose(a);
  return v;
}


/* read a whole dataset as doubles; returns the element count and the dims */
static double *read_ds(hid_t f, const char *name, hsize_t dims[3], int *rank) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return NULL;
  hid_t s = H5Dget_space(d);
  *rank = H5Sget_simple_extent_ndims(s);
  dims[0] = dims[1] = dims[2] = 1;
  H5Sget_simple_extent_dims(s, dims, NULL);
  size_t n = (size_t)(dims[0] * dims[1] * dims[2]);
  double *v = malloc(sizeof(double) * (n + 1));
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
  H5Sclose(s);
  H5Dclose(d);
  return v;
}


static int file_equal(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  int eq = fa && fb;
  while (eq) {
    int ca = fgetc(fa), cb = fgetc(fb);
    if (ca != cb) eq = 0;
    if (ca == EOF || cb == EOF) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return eq;
}


/* SIGINT (or SIGTERM) in the middle of a long run */
static void interrupt_case(int sig, int expect) {
  char h5[300], h5ref[300], b[256];
  path_of(h5, sizeof(h5), sig == SIGINT ? "int.h5" : "term.h5");
  path_of(h5ref, sizeof(h5ref), "int_ref.h5");
  const char *args[] = {"simulate", "scenarios/reel_out.yaml", "--set", "run.duration=100000",
                        "--set", "run.solver=rk8pd", "-o", h5, NULL};
  remove(h5);
  pid_t pid = spawn(args, "int");
  /* wait until the log exists (the handlers are installed before it is created), then let a
   * few blocks of rows go by */
  struct timespec ts = {0, 20 * 1000 * 1000};
  struct stat sb;
  for (int i = 0; i < 1000 && stat(h5, &sb) != 0; i++) nanosleep(&ts, NULL);
  ts.tv_nsec = 400 * 1000 * 1000;
  nanosleep(&ts, NULL);
  kill(pid, sig);
  ENSURE(wait_exit(pid) == expect);
  char err[4096];
  slurp("int", "err", err, sizeof(err));
  ENSURE_CONTAINS(err, "interrupted");
  hid_t f = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
  ENSURE(f >= 0);
  if (f < 0) return;
  str_attr(f, "status", b, sizeof(b));
  ENSURE_STR(b, "interrupted");
  hsize_t dims[3];
  int rank;
  double *t = read_ds(f, "time", dims, &rank);
  long nrow = (long)dims[0];
  ENSURE(t && nrow >= 2);
  double t_end = num_attr(f, "t_end");
  /* every row up to the interrupt: t_k = k dt without a gap, the last one at t_end */
  for (long k = 0; t && k < nrow; k++)
    if (t[k] != (double)k * 0.05) {
      HARNESS_FAIL("time[%ld] = %.17g, expected %.17g", k, t[k], (double)k * 0.05);
      break;
    }
  if (t) ENSURE_NEAR(t[nrow - 1], t_end, 0.0);
  double *pos = read_ds(f, "points/pos", dims, &rank);
  ENSURE(rank == 3 && (long)dims[0] == nrow && dims[2] == 3);
  H5Fclose(f);
  /* the same rows as a complete run that ends there */
  if (sig == SIGINT && t && pos) {
    char dur[64];
    snprintf(dur, sizeof(dur), "run.duration=%.17g", t_end);
    const char *a2[] = {"simulate", "scenarios/reel_out.yaml", "--set", dur, "--set",
                        "run.solver=rk8pd", "-o", h5ref, NULL};
    ENSURE(run(a2, "ref") == 0);
    hid_t g = H5Fopen(h5ref, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (g >= 0) {
      hsize_t d2[3];
      int r2;
      double *p2 = read_ds(g, "points/pos", d2, &r2);
      ENSURE((long)d2[0] == nrow);
      if (p2 && (long)d2[0] == nrow)
        ENSURE(memcmp(pos, p2, sizeof(double) * (size_t)(dims[0] * dims[1] * dims[2])) == 0);
      str_attr(g, "status", b, sizeof(b));
      ENSURE_STR(b, "complete");
      free(p2);
      H5Fclose(g);
    }
  }
  free(t);
  free(pos);
}


static void test_sigint_partial_log(void) { interrupt_case(SIGINT, 130); }
static void test_sigterm(void) { interrupt_case(SIGTERM, 143); }


static void test_failure_keeps_rows(void) {
  char h5[300], b[512];
  path_of(h5, sizeof(h5), "fail.h5");
  const char *args[] = {"simulate", "scenarios/tests/nonfinite.yaml", "-o", h5, NULL};
  ENSURE(run(args, "fail") == 1);
  char err[4096];
  slurp("fail", "err", err, sizeof(err));
  ENSURE_CONTAINS(err, "points.kite.vel.x");
  ENSURE_CONTAINS(err, "t = 0.5");
  hid_t f = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
  ENSURE(f >= 0);
  if (f < 0) return;
  str_attr(f, "status", b, sizeof(b));
  ENSURE_STR(b, "failed");
  str_attr(f, "error", b, sizeof(b));
  ENSURE_CONTAINS(b, "non-finite");
  ENSURE_CONTAINS(b, "points.kite.vel.x");
  hsize_t dims[3];
  int rank;
  double *t = read_ds(f, "time", dims, &rank);
  ENSURE(dims[0] == 6); /* 0, 0.1, ..., 0.5: the wind blows up just after 0.5 s */
  if (t && dims[0] == 6) ENSURE_NEAR(t[5], 0.5, 1e-15);
  free(t);
  H5Fclose(f);
}


/* the same command twice: the HDF5 files and the CSV streams are byte for byte identical */
static void test_rerun_bit_identical(void) {
  char a[300], first[300], csv1[300], csv2[300];
  path_of(a, sizeof(a), "rerun.h5");
  path_of(first, sizeof(first), "rerun_first.h5");
  path_of(csv1, sizeof(csv1), "rerun_1.out");
  path_of(csv2, sizeof(csv2), "rerun_2.out");
  const char *args[] = {"simulate", "scenarios/hanging_tether_winch.yaml", "-o", a, "--csv",
                        NULL};
  ENSURE(run(args, "rerun_1") == 0);
  ENSURE(rename(a, first) == 0);
  ENSURE(run(args, "rerun_2") == 0);
  ENSURE(file_equal(first, a));
  ENSURE(file_equal(csv1, csv2));
  struct stat st;
  ENSURE(stat(csv1, &st) == 0 && st.st_size > 10000);
}


static void test_layout(void) {
  char h5[300], b[512];
  path_of(h5, sizeof(h5), "layout.h5");
  const char *args[] = {"simulate", "scenarios/hanging_tether_winch.yaml", "--set",
                        "run.duration=1", "-o", h5, "-q", NULL};
  ENSURE(run(args, "layout") == 0);
  char err[4096];
  slurp("layout", "err", err, sizeof(err));
  ENSURE_STR(err, ""); /* -q: nothing on stderr */
  hid_t f = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
  ENSURE(f >= 0);
  if (f < 0) return;
  hsize_t dims[3];
  int rank;
  double *v = read_ds(f, "points/pos", dims, &rank);
  ENSURE(rank == 3 && dims[0] == 21 && dims[1] == 11 && dims[2] == 3);
  free(v);
  v = read_ds(f, "segments/force", dims, &rank);
  ENSURE(rank == 2 && dims[0] == 21 && dims[1] == 10);
  /* tension positive: from the load (5 kg + half a segment) up to the winch (the whole line
   * but the winch's half segment) */
  const double g = 9.81, mseg = 0.0909805;
  if (v) ENSURE_NEAR(v[20 * 10 + 0], (5.0 + 0.5 * mseg) * g, 0.01);
  if (v) ENSURE_NEAR(v[20 * 10 + 9], (5.0 + 9.5 * mseg) * g, 0.01);
  free(v);
  v = read_ds(f, "winches/force", dims, &rank);
  ENSURE(rank == 2 && dims[1] == 1);
  if (v) ENSURE_NEAR(v[0], (5.0 + 9.5 * mseg) * g, 0.01);
  free(v);
  v = read_ds(f, "tethers/stretched_len", dims, &rank);
  ENSURE(rank == 2 && dims[1] == 1);
  free(v);
  v = read_ds(f, "pulleys/len", dims, &rank);
  ENSURE(v == NULL || dims[1] == 0);
  free(v);
  str_attr(f, "solver", b, sizeof(b));
  ENSURE(b[0] != 0);
  str_attr(f, "status", b, sizeof(b));
  ENSURE_STR(b, "complete");
  H5Fclose(f);
}


int main(void) {
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  if (getenv("AWESIM")) awesim = getenv("AWESIM");
  snprintf(dir, sizeof(dir), "/tmp/awesim-simcli-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  RUN(test_sigint_partial_log);
  RUN(test_sigterm);
  RUN(test_failure_keeps_rows);
  RUN(test_rerun_bit_identical);
  RUN(test_layout);
  char cmd[400];
  snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
  if (system(cmd)) fprintf(stderr, "cannot remove %s\n", dir);
  return harness_report();
}
