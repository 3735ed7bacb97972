/* test_api_safety.c: libawesim never crashes its host and never destroys a user's file
 * (issue 35): every entry point refuses a NULL handle; steps past run.duration are refused;
 * the log calls refuse the scenario being run, its model files, the other log's path and a
 * FIFO (which blocked for ever); a second thread gets AWESIM_EBUSY instead of corrupting the
 * run; awesim_close during a run in another thread stops that run and waits for it.
 * Built a third time with ThreadSanitizer (build/tsan-tests, tests/tsan_api.sh). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../include/awesim.h"
#include "harness.h"

#define PENDULUM "scenarios/pendulum.yaml"

static void test_null_handle(void) {
  awesim_sim *s = NULL;
  double A[1], r3[3];
  int n;
  long rows;
  ENSURE(strstr(awesim_message(s), "NULL") != NULL);
  ENSURE(awesim_nwarnings(s) == 0 && awesim_warning(s, 0) == NULL);
  ENSURE(isnan(awesim_time(s)) && isnan(awesim_duration(s)) && isnan(awesim_dt(s)));
  ENSURE(awesim_nchannels(s) == 0 && awesim_channel_name(s, 0) == NULL);
  ENSURE(awesim_channel_unit(s, 0) == NULL && awesim_channel_index(s, "x") == -1);
  ENSURE(isnan(awesim_get(s, 0)) && awesim_read(s, NULL, 1, A) == AWESIM_EUSAGE);
  ENSURE(awesim_ninputs(s) == 0 && awesim_input_name(s, 0) == NULL);
  ENSURE(awesim_input_unit(s, 0) == NULL && awesim_input_index(s, "x") == -1);
  ENSURE(isnan(awesim_get_input(s, 0)) && awesim_set_input(s, 0, 1.0) == AWESIM_EUSAGE);
  ENSURE(awesim_step_to(s, 1.0) == AWESIM_EUSAGE && awesim_step(s, 1.0) == AWESIM_EUSAGE);
  ENSURE(awesim_crashed(s) == 0 && awesim_interrupted(s) == 0);
  awesim_request_stop(s);
  ENSURE(awesim_log_csv(s, "x.csv", NULL) == AWESIM_EUSAGE);
  ENSURE(awesim_log_csv_close(s) == AWESIM_EUSAGE);
  ENSURE(awesim_log_hdf5(s, "x.h5") == AWESIM_EUSAGE);
  ENSURE(awesim_log_hdf5_close(s) == AWESIM_EUSAGE);
  ENSURE(awesim_run(s, A, 1, &rows) == AWESIM_EUSAGE && awesim_rows_left(s) == 0);
  ENSURE(awesim_trim(s, r3) == AWESIM_EUSAGE);
  ENSURE(awesim_linearize(s, &n, &n, &n) == AWESIM_EUSAGE);
  ENSURE(awesim_linearize_select(s, "*", "*", &n, &n, &n) == AWESIM_EUSAGE);
  ENSURE(awesim_lin_matrices(s, A, A, A, A) == AWESIM_EUSAGE);
  ENSURE(awesim_lin_name(s, 'x', 0) == NULL && awesim_lin_unit(s, 'x', 0) == NULL);
  awesim_close(s);
  ENSURE(access("x.csv", F_OK) != 0 && access("x.h5", F_OK) != 0);
}

static void test_past_duration(void) {
  const char *sets[] = {"run.duration=2", "run.dt=0.5"};
  awesim_sim *s = awesim_open(PENDULUM, 2, sets, NULL);
  ENSURE(s != NULL);
  if (!s) return;
  ENSURE(awesim_step_to(s, 10.0) == AWESIM_EUSAGE);
  ENSURE(awesim_time(s) == 0.0);
  ENSURE(strstr(awesim_message(s), "past run.duration = 2 s") != NULL);
  ENSURE(awesim_step_to(s, 2.0) == AWESIM_OK && awesim_time(s) == 2.0);
  ENSURE(awesim_step(s, 0.5) == AWESIM_EUSAGE && awesim_time(s) == 2.0);
  awesim_close(s);
}

static long file_size(const char *p) {
  struct stat sb;
  return stat(p, &sb) == 0 ? (long)sb.st_size : -1;
}

static void test_logs_guarded(void) {
  char dir[] = "/tmp/awe_api_safety_XXXXXX";
  ENSURE(mkdtemp(dir) != NULL);
  char scen[128], model[128], cmd[512], log[128], fifo[128];
  snprintf(scen, sizeof(scen), "%s/pendulum.yaml", dir);
  snprintf(cmd, sizeof(cmd), "cp scenarios/pendulum.yaml %s/ && cp -r models %s/ && "
           "sed -i 's#\\.\\./models/#models/#' %s", dir, dir, scen);
  ENSURE(system(cmd) == 0);
  awesim_sim *s = awesim_open(scen, 0, NULL, NULL);
  ENSURE(s != NULL);
  if (!s) return;
  long before = file_size(scen);
  ENSURE(awesim_log_hdf5(s, scen) == AWESIM_EIO);
  ENSURE(strstr(awesim_message(s), "a file this run reads") != NULL);
  ENSURE(awesim_log_csv(s, scen, NULL) == AWESIM_EIO);
  ENSURE(file_size(scen) == before);
  /* a model file it reads, by another spelling */
  snprintf(model, sizeof(model), "%s/models/pendulum/../pendulum/system.yaml", dir);
  long mbefore = file_size(model);
  if (mbefore > 0) {
    ENSURE(awesim_log_csv(s, model, NULL) == AWESIM_EIO && file_size(model) == mbefore);
  }
  /* the two logs on one path */
  snprintf(log, sizeof(log), "%s/run.log", dir);
  ENSURE(awesim_log_hdf5(s, log) == AWESIM_OK);
  ENSURE(awesim_log_csv(s, log, NULL) == AWESIM_EIO);
  ENSURE(strstr(awesim_message(s), "other log") != NULL);
  ENSURE(awesim_log_hdf5_close(s) == AWESIM_OK);
  /* a FIFO without a reader: refused at once (it blocked for ever) */
  snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
  ENSURE(mkfifo(fifo, 0600) == 0);
  alarm(10); /* a hang fails the test instead of stalling the suite */
  ENSURE(awesim_log_csv(s, fifo, NULL) == AWESIM_EIO);
  ENSURE(awesim_log_hdf5(s, fifo) == AWESIM_EIO);
  alarm(0);
  awesim_close(s);
  snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
  ENSURE(system(cmd) == 0);
}

typedef struct {
  awesim_sim *s;
  awesim_status rc;
} runner;

static void *run_long(void *arg) {
  runner *r = arg;
  r->rc = awesim_step_to(r->s, awesim_duration(r->s));
  return NULL;
}

static void sleep_ms(long ms) {
  struct timespec d = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&d, NULL);
}

static void test_threads(void) {
  const char *sets[] = {"run.duration=100000", "run.dt=1"};
  awesim_sim *s = awesim_open(PENDULUM, 2, sets, NULL);
  ENSURE(s != NULL);
  if (!s) return;
  runner r = {s, AWESIM_OK};
  pthread_t th;
  ENSURE(pthread_create(&th, NULL, run_long, &r) == 0);
  sleep_ms(100);
  /* a second thread's call is refused while the run is in progress, the run goes on */
  ENSURE(awesim_step(s, 1.0) == AWESIM_EBUSY);
  ENSURE(awesim_set_input(s, 0, 0.0) == AWESIM_EBUSY);
  ENSURE(isnan(awesim_get(s, 0)));
  /* close from here: the run is asked to stop, and close waits for it to return */
  awesim_close(s);
  pthread_join(th, NULL);
  ENSURE(r.rc == AWESIM_EINTR);
}

int main(void) {
  RUN(test_null_handle);
  RUN(test_past_duration);
  RUN(test_logs_guarded);
  RUN(test_threads);
  return harness_report();
}
