/* test_api.c: libawesim's C API (include/awesim.h) on the library objects, also under
 * ASan+UBSan: names and units, stepping to exact log times, inputs, whole runs, errors with
 * awesim's messages, trim and linearize, and two handles in two threads giving the numbers of
 * one handle alone. (tests/c_api.sh builds against the installed library and compares with
 * the CLI.) */
#include <pthread.h>
#include <stdlib.h>

#include "../include/awesim.h"
#include "harness.h"

#define PENDULUM "scenarios/pendulum.yaml"

static void test_names(void) {
  const char *sets[] = {"run.duration=1"};
  awesim_error e;
  awesim_sim *s = awesim_open(PENDULUM, 1, sets, &e);
  ENSURE(s != NULL);
  if (!s) return;
  ENSURE(awesim_time(s) == 0.0 && awesim_duration(s) == 1.0);
  int n = awesim_nchannels(s);
  ENSURE(n > 3);
  int z = awesim_channel_index(s, "points.bob.pos.z");
  ENSURE(z >= 0);
  ENSURE_STR(awesim_channel_name(s, z), "points.bob.pos.z");
  ENSURE_STR(awesim_channel_unit(s, z), "m");
  ENSURE(awesim_channel_index(s, "points.bob.pos") == -1);
  ENSURE(awesim_channel_name(s, n) == NULL && isnan(awesim_get(s, -1)));
  int f = awesim_input_index(s, "points.bob.force.x");
  ENSURE(f >= 0);
  ENSURE_STR(awesim_input_unit(s, f), "N");
  ENSURE(awesim_get_input(s, f) == 0.0);
  ENSURE(awesim_set_input(s, f, 3.0) == AWESIM_OK && awesim_get_input(s, f) == 3.0);
  awesim_close(s);
}


static void test_steps(void) {
  const char *sets[] = {"run.duration=2", "run.dt=0.05"};
  awesim_sim *s = awesim_open(PENDULUM, 2, sets, NULL);
  ENSURE(s != NULL);
  if (!s) return;
  for (int k = 0; k < 20; k++) ENSURE(awesim_step(s, 0.05) == AWESIM_OK);
  ENSURE(awesim_time(s) == 1.0); /* snapped to the log time 20 dt, no drift */
  ENSURE(awesim_step_to(s, 1.0) == AWESIM_EUSAGE); /* not after now */
  awesim_close(s);
}


/* a whole run from C, with a short buffer: every row stepped, maxrows written */
static void test_run(void) {
  const char *sets[] = {"run.duration=1", "run.dt=0.1"};
  awesim_sim *a = awesim_open(PENDULUM, 2, sets, NULL), *b = awesim_open(PENDULUM, 2, sets, NULL);
  ENSURE(a && b);
  if (!a || !b) return;
  int nc = awesim_nchannels(a) + 1;
  long left = awesim_rows_left(a), got = -1;
  ENSURE(left == 11);
  double *rows = calloc((size_t)(left * nc), sizeof(double));
  ENSURE(awesim_run(a, rows, left, &got) == AWESIM_OK && got == 11);
  ENSURE(rows[0] == 0.0 && rows[10 * nc] == 1.0);
  ENSURE(awesim_run(b, rows, 3, &got) == AWESIM_OK && got == 3 && awesim_time(b) == 1.0);
  ENSURE(awesim_rows_left(b) == 0);
  free(rows);
  awesim_close(a);
  awesim_close(b);
}


static void test_errors(void) {
  awesim_error e;
  const char *bad[] = {"run.duration=-1"};
  ENSURE(awesim_open(PENDULUM, 1, bad, &e) == NULL);
  ENSURE(e.code == AWESIM_EINVAL && strstr(e.msg, "run.duration") && strstr(e.msg, "range"));
  ENSURE(awesim_open("scenarios/no_such.yaml", 0, NULL, &e) == NULL);
  ENSURE(e.code == AWESIM_ENOFILE && strstr(e.msg, "no_such.yaml"));
  ENSURE(awesim_open(NULL, 0, NULL, &e) == NULL && e.code == AWESIM_EUSAGE);
  ENSURE(awesim_open(PENDULUM, 2, NULL, &e) == NULL && e.code == AWESIM_EUSAGE);
  const char *model_set[] = {"run.duration=1"};
  ENSURE(awesim_open("models/pendulum/system.yaml", 1, model_set, &e) == NULL &&
         e.code == AWESIM_EUSAGE && strstr(e.msg, "model file"));
  awesim_sim *m = awesim_open("models/pendulum/system.yaml", 0, NULL, &e);
  ENSURE(m != NULL && awesim_nchannels(m) > 0); /* a bare model runs with default options */
  awesim_close(m);
  awesim_sim *s = awesim_open(PENDULUM, 0, NULL, &e);
  ENSURE(s != NULL);
  if (!s) return;
  ENSURE_STR(awesim_message(s), "");
  ENSURE(awesim_set_input(s, 9999, 1.0) == AWESIM_EUSAGE && strstr(awesim_message(s), "9999"));
  ENSURE(awesim_set_input(s, 0, NAN) == AWESIM_EUSAGE && strstr(awesim_message(s), "finite"));
  ENSURE(awesim_step(s, -1.0) == AWESIM_EUSAGE);
  ENSURE(awesim_step(s, 0.1) == AWESIM_OK);
  ENSURE(awesim_step_to(s, 0.05) == AWESIM_EUSAGE && strstr(awesim_message(s), "not after"));
  int idx[1] = {-2};
  double out[1];
  ENSURE(awesim_read(s, idx, 1, out) == AWESIM_EUSAGE && strstr(awesim_message(s), "-2"));
  ENSURE(awesim_log_csv(s, "/nonexistent/dir/x.csv", NULL) == AWESIM_EIO &&
         strstr(awesim_message(s), "/nonexistent/dir/x.csv"));
  ENSURE(awesim_log_hdf5(s, "/nonexistent/dir/x.h5") == AWESIM_EIO &&
         strstr(awesim_message(s), "/nonexistent/dir/x.h5"));
  ENSURE(awesim_lin_matrices(s, NULL, NULL, NULL, NULL) == AWESIM_EUSAGE);
  ENSURE(awesim_lin_name(s, 'x', 0) == NULL);
  awesim_close(s);
}


static void test_linearize(void) {
  awesim_sim *s = awesim_open(PENDULUM, 0, NULL, NULL);
  ENSURE(s != NULL);
  if (!s) return;
  int nx = 0, nu = 0, ny = 0;
  ENSURE(awesim_linearize(s, &nx, &nu, &ny) == AWESIM_OK);
  ENSURE(nx == 6 && nu == 3 && ny == 3);
  double A[36], B[18];
  ENSURE(awesim_lin_matrices(s, A, B, NULL, NULL) == AWESIM_OK);
  ENSURE_STR(awesim_lin_name(s, 'x', 0), "points.bob.pos.x");
  ENSURE_STR(awesim_lin_name(s, 'x', 3), "points.bob.vel.x");
  ENSURE_STR(awesim_lin_unit(s, 'u', 0), "N");
  ENSURE(A[0 * 6 + 3] == 1.0);       /* d pos.x/dt = vel.x */
  ENSURE(B[3 * 3 + 0] > 0.0);        /* a force along x accelerates along x */
  ENSURE(awesim_lin_name(s, 'q', 0) == NULL && awesim_lin_name(s, 'y', 3) == NULL);
  awesim_close(s);
}


/* awesim_linearize_select: the chosen channels' rows and columns, the same A */
static void test_linearize_select(void) {
  awesim_sim *s = awesim_open(PENDULUM, 0, NULL, NULL);
  ENSURE(s != NULL);
  if (!s) return;
  int nx = 0, nu = 0, ny = 0;
  double A0[36], B0[18], C0[18], A[36], B[18], C[18];
  ENSURE(awesim_linearize(s, &nx, &nu, &ny) == AWESIM_OK && ny == 3 && nu == 3);
  ENSURE(awesim_lin_matrices(s, A0, B0, C0, NULL) == AWESIM_OK);
  char y1[128], u1[128];
  snprintf(y1, sizeof(y1), "%s", awesim_lin_name(s, 'y', 1));
  snprintf(u1, sizeof(u1), "%s", awesim_lin_name(s, 'u', 2));
  int mx = 0, mu = 0, my = 0;
  ENSURE(awesim_linearize_select(s, u1, y1, &mx, &mu, &my) == AWESIM_OK);
  ENSURE(mx == 6 && mu == 1 && my == 1);
  ENSURE(awesim_lin_matrices(s, A, B, C, NULL) == AWESIM_OK);
  ENSURE_STR(awesim_lin_name(s, 'y', 0), y1);
  ENSURE_STR(awesim_lin_name(s, 'u', 0), u1);
  int same = 1;
  for (int i = 0; i < 36; i++) same &= A[i] == A0[i];
  for (int i = 0; i < 6; i++) same &= C[i] == C0[1 * 6 + i] && B[i] == B0[i * 3 + 2];
  ENSURE(same);
  ENSURE(awesim_linearize_select(s, NULL, "no_such_channel*", &mx, &mu, &my) == AWESIM_EUSAGE);
  ENSURE(strstr(awesim_message(s), "no_such_channel") != NULL);
  awesim_close(s);
}


static void test_trim(void) {
  const char *sets[] = {"run.duration=1", "run.steady_state=false"};
  awesim_sim *s = awesim_open("scenarios/2plate_parked.yaml", 2, sets, NULL);
  ENSURE(s != NULL);
  if (!s) return;
  double r[3] = {-1, -1, -1};
  ENSURE(awesim_trim(s, r) == AWESIM_OK);
  ENSURE(r[2] >= 0.0 && r[2] < 1e-6);
  ENSURE(awesim_time(s) == 0.0 && awesim_step(s, 0.05) == AWESIM_OK);
  int brake = awesim_input_index(s, "winches.main_winch.brake"); /* scheduled: constant 1 */
  ENSURE(brake >= 0 && awesim_set_input(s, brake, 0.0) == AWESIM_EUSAGE &&
         strstr(awesim_message(s), "winches.main_winch.brake is scheduled"));
  awesim_close(s);
}


/* thread-compatible: two handles in two threads = one handle alone */
typedef struct {
  double z;
  int ok;
} job;

static void *fly(void *arg) {
  job *j = arg;
  const char *sets[] = {"run.duration=2"};
  awesim_sim *s = awesim_open(PENDULUM, 1, sets, NULL);
  j->ok = s && awesim_set_input(s, awesim_input_index(s, "points.bob.force.y"), 1.5) == 0 &&
          awesim_run(s, NULL, 0, NULL) == AWESIM_OK;
  j->z = s ? awesim_get(s, awesim_channel_index(s, "points.bob.pos.y")) : NAN;
  awesim_close(s);
  return NULL;
}

static void test_threads(void) {
  job alone = {0.0, 0}, j[2] = {{0.0, 0}, {0.0, 0}};
  fly(&alone);
  pthread_t t[2];
  for (int k = 0; k < 2; k++) ENSURE(pthread_create(&t[k], NULL, fly, &j[k]) == 0);
  for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
  ENSURE(alone.ok && j[0].ok && j[1].ok);
  ENSURE(alone.z != 0.0 && j[0].z == alone.z && j[1].z == alone.z);
}


int main(void) {
  RUN(test_names);
  RUN(test_steps);
  RUN(test_run);
  RUN(test_errors);
  RUN(test_linearize);
  RUN(test_linearize_select);
  RUN(test_trim);
  RUN(test_threads);
  return harness_report();
}
