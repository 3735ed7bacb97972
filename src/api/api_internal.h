/* api_internal.h: the handle behind include/awesim.h (awesim_api.c, awesim_lin.c). */
#ifndef AWE_API_INTERNAL_H
#define AWE_API_INTERNAL_H

#include <signal.h>
#include <stdio.h>

#include "../../include/awesim.h" /* the public header lives outside src/ */
#include "analysis/linearize.h"
#include "io/spec.h"
#include "output/writer.h"
#include "solve/sim.h"

/* one scalar of a name table: its name, unit and element of y or u */
typedef struct {
  char *name;
  const char *unit;
  int k;
} awe_api_scalar;

struct awesim_sim {
  awe_spec *spec;          /* owned */
  awe_model *m;            /* owned */
  awe_sim *sim;            /* owned, started */
  awe_err err;             /* the last failed call's message */
  awe_api_scalar *chan;    /* [nchan] logged outputs, in the CSV's order */
  int nchan;
  awe_api_scalar *in;      /* [nin] every input scalar */
  int nin;
  long k;                  /* log rows done: the last log time passed is k run.dt */
  int dirty;               /* an input changed since the outputs were evaluated */
  FILE *csv_file;          /* the CSV log, or NULL */
  awe_csv *csv;
  awe_h5 *h5;              /* the HDF5 log, or NULL */
  char *csv_path, *h5_path;/* the logs' paths while open (the output guard compares them) */
  int failed;              /* a step failed: the HDF5 log closes as failed */
  awe_linsys lin;          /* the last linearization (nx = 0: none) */
  int have_lin;
  /* the stop flag of the run's guard: awesim_request_stop sets it (from a signal handler or
   * another thread), every loop of the run polls it */
  awe_stop_flag stop;
  atomic_flag busy;        /* a call is running on the handle (one at a time) */
};

/* AWE_TRY for the API's own status type */
#define API_TRY(x)                 \
  do {                             \
    awesim_status ast_ = (x);      \
    if (ast_) return ast_;         \
  } while (0)

/* The body of a public entry point: a NULL handle is refused, and one call at a time runs on a
 * handle (a second thread gets AWESIM_EBUSY at once; the message is left to the first). */
#define API_CALL(s, call)                                                 \
  do {                                                                    \
    if (!(s)) return AWESIM_EUSAGE;                                       \
    if (atomic_flag_test_and_set(&(s)->busy)) return AWESIM_EBUSY;        \
    awesim_status r_ = (call);                                            \
    atomic_flag_clear(&(s)->busy);                                        \
    return r_;                                                            \
  } while (0)

/* set s->err and return its code (the message as printf) */
awesim_status awe_api_fail(awesim_sim *s, awe_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* re-evaluate the outputs after an input changed (as the controllers' sample does) */
awesim_status awe_api_refresh(awesim_sim *s);

#endif
