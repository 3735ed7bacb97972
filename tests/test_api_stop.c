/* test_api_stop.c: awesim_request_stop from a second thread ends a long awesim_step_to /
 * awesim_run within ~100 ms with AWESIM_EINTR; the handle still reads channels, further steps
 * are refused, and the HDF5 log closes as "interrupted" with its rows up to the stop. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "../include/awesim.h"
#include "harness.h"
#include "output/log_read.h"

#define PENDULUM "scenarios/pendulum.yaml"
#define LOG "build/tests/test_api_stop.h5"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


typedef struct {
  awesim_sim *s;
  double at; /* when the request was made (CLOCK_MONOTONIC) */
} stopper;

static void *stop_later(void *arg) {
  stopper *st = arg;
  struct timespec d = {0, 50000000}; /* 50 ms */
  nanosleep(&d, NULL);
  st->at = now();
  awesim_request_stop(st->s);
  return NULL;
}


/* the pendulum runs ~600x real time: 1e5 s of it would take minutes of wall time */
static awesim_sim *open_long(void) {
  const char *sets[] = {"run.duration=100000", "run.dt=1"};
  awesim_error e;
  awesim_sim *s = awesim_open(PENDULUM, 2, sets, &e);
  ENSURE(s != NULL);
  return s;
}


static void test_step_to(void) {
  awesim_sim *s = open_long();
  if (!s) return;
  ENSURE(awesim_log_hdf5(s, LOG) == AWESIM_OK);
  ENSURE(awesim_interrupted(s) == 0);
  stopper st = {s, 0.0};
  pthread_t th;
  double t0 = now();
  ENSURE(pthread_create(&th, NULL, stop_later, &st) == 0);
  awesim_status rc = awesim_step_to(s, awesim_duration(s));
  double t1 = now();
  pthread_join(th, NULL);
  double t = awesim_time(s);
  printf("  step_to: status %d after %.1f ms (%.2f ms after the request), t = %.3f s: %s\n",
         (int)rc, 1e3 * (t1 - t0), 1e3 * (t1 - st.at), t, awesim_message(s));
  ENSURE(rc == AWESIM_EINTR);
  ENSURE(t1 - t0 < 0.15 && t1 - st.at < 0.1);
  ENSURE(t > 1.0 && t < awesim_duration(s));
  ENSURE(awesim_interrupted(s) == 1);
  ENSURE(strstr(awesim_message(s), "interrupted by a stop request") != NULL);
  /* the channels of the last accepted state: the bob on its 1 m rod */
  int x = awesim_channel_index(s, "points.bob.pos.x");
  int z = awesim_channel_index(s, "points.bob.pos.z");
  double px = awesim_get(s, x), pz = awesim_get(s, z);
  ENSURE(isfinite(px) && isfinite(pz) && px * px + pz * pz > 0.0);
  /* the run is over: later steps are refused at once */
  ENSURE(awesim_step(s, 1.0) == AWESIM_EINTR && awesim_time(s) == t);
  ENSURE(awesim_log_hdf5_close(s) == AWESIM_OK);
  awe_log_data d = {0};
  awe_err e = {0};
  ENSURE(awe_log_read(LOG, NULL, NULL, 0, &d, &e) == AWE_OK);
  ENSURE_STR(d.status, "interrupted");
  /* rows 0, 1, ... every log time (run.dt = 1 s) passed before the stop */
  ENSURE(d.T == (long)floor(t) + 1 && d.t[d.T - 1] == floor(t));
  printf("  log: status %s, %ld rows, last t = %g s\n", d.status ? d.status : "?", d.T,
         d.T ? d.t[d.T - 1] : -1.0);
  awe_log_data_free(&d);
  awesim_close(s);
}


static void test_run(void) {
  awesim_sim *s = open_long();
  if (!s) return;
  long maxrows = 1000, got = -1;
  int nc = awesim_nchannels(s) + 1;
  double *rows = calloc((size_t)(maxrows * nc), sizeof(double));
  stopper st = {s, 0.0};
  pthread_t th;
  double t0 = now();
  ENSURE(pthread_create(&th, NULL, stop_later, &st) == 0);
  awesim_status rc = awesim_run(s, rows, maxrows, &got);
  double t1 = now();
  pthread_join(th, NULL);
  printf("  run: status %d after %.1f ms, %ld rows, t = %.3f s\n", (int)rc, 1e3 * (t1 - t0), got,
         awesim_time(s));
  ENSURE(rc == AWESIM_EINTR && t1 - st.at < 0.1);
  ENSURE(got >= 2 && got <= maxrows && rows[(got - 1) * nc] == (double)(got - 1));
  free(rows);
  awesim_close(s);
}


/* a request before the call: the call returns at once, nothing stepped */
static void test_before(void) {
  awesim_sim *s = open_long();
  if (!s) return;
  awesim_request_stop(s);
  awesim_request_stop(NULL); /* harmless */
  ENSURE(awesim_step_to(s, 10.0) == AWESIM_EINTR && awesim_time(s) == 0.0);
  awesim_close(s);
}


int main(void) {
  RUN(test_step_to);
  RUN(test_run);
  RUN(test_before);
  return harness_report();
}
