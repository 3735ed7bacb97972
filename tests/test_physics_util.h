/* test_physics_util.h: helpers of the physics and simulate tests (header-only, static).
 *
 *   awe_spec *s = sp_load("scenarios/tests/winch.yaml", NULL);    // spec, may be edited
 *   s->settings.inertia_total = 0.5;
 *   awe_sim *sim = sp_sim(s, NULL);                              // model built, sim started
 *   sp_run(sim, 0.02);                                           // through the log steps
 *   double v = sp_out(sim, "winches.drum.vel");                  // an output at sim->t
 *   sp_free(sim, s);
 *
 * Tests run from the repository root (tests/run.sh cds there).
 */
#ifndef AWE_TEST_PHYSICS_UTIL_H
#define AWE_TEST_PHYSICS_UTIL_H

#include <gsl/gsl_errno.h>
#include <stdlib.h>

#include "harness.h"
#include "control/controller.h"
#include "solve/sim.h"
#include "io/load.h"

/* Load a scenario with --set style overrides (NULL-terminated list or NULL). */
static inline awe_spec *sp_load(const char *path, const char *const *sets) {
  int n = 0;
  while (sets && sets[n]) n++;
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load(path, n, sets, &warn, &err);
  awe_diag_free(&warn);
  if (!s) HARNESS_FAIL("cannot load %s: %s", path, err.msg);
  return s;
}


/* Build the model and start a simulation (steady state included); NULL on failure. */
static inline awe_sim *sp_sim(awe_spec *s, const char *solver) {
  if (!s) return NULL;
  awe_err err = {0};
  awe_model *m = awe_model_build_controlled(s, &s->warnings, &err);
  if (!m) {
    HARNESS_FAIL("cannot build the model: %s", err.msg);
    return NULL;
  }
  awe_sim *sim = awe_sim_alloc(m, solver, &err);
  if (!sim) {
    HARNESS_FAIL("cannot allocate the simulation: %s", err.msg);
    awe_model_free(m);
    return NULL;
  }
  if (awe_sim_start(sim, &err)) HARNESS_FAIL("start failed: %s", err.msg);
  return sim;
}


static inline void sp_free(awe_sim *sim, awe_spec *s) {
  if (sim) {
    awe_model *m = (awe_model *)sim->m;
    awe_sim_free(sim);
    awe_model_free(m);
  }
  awe_spec_free(s);
}


/* Index of the output scalar called name ("points.bob.pos.z"), -1 if none. */
static inline int sp_index(const awe_model *m, const char *name) {
  char buf[512];
  const awe_varlist *l = &m->reg.output;
  for (int k = 0; k < l->n; k++)
    for (int j = 0; j < l->v[k].dim; j++) {
      awe_var_scalar_name(&l->v[k], j, buf, sizeof(buf));
      if (!strcmp(buf, name)) return l->v[k].offset + j;
    }
  return -1;
}


static inline double sp_out(const awe_sim *sim, const char *name) {
  int k = sp_index(sim->m, name);
  if (k < 0) {
    HARNESS_FAIL("no output %s", name);
    return NAN;
  }
  return sim->yout[k];
}


/* One log step; returns 0 or fails the test. */
static inline int sp_step(awe_sim *sim, long step) {
  awe_err err = {0};
  if (awe_sim_step(sim, awe_sim_log_time(sim->m, step), &err)) {
    HARNESS_FAIL("step %ld failed: %s", step, err.msg);
    return -1;
  }
  return 0;
}


/* Run through the log steps up to time t (a log time), from the current one on (a step already
 * passed is not stepped again: awe_sim_step would refresh the aerodynamics there once more). */
static inline int sp_run(awe_sim *sim, double t) {
  long n = awe_sim_log_steps(sim->m);
  for (long k = 1; k <= n; k++) {
    if (awe_sim_log_time(sim->m, k) <= sim->t + 1e-9) continue;
    if (awe_sim_log_time(sim->m, k) > t + 1e-9) break;
    if (sp_step(sim, k)) return -1;
  }
  return 0;
}


/* Record output `name` at every log step up to t into v[0..] (v[0] at t = 0); returns count. */
static inline int sp_series(awe_sim *sim, const char *name, double t, double *v, int cap) {
  int k = sp_index(sim->m, name), n = 0;
  if (k < 0) {
    HARNESS_FAIL("no output %s", name);
    return 0;
  }
  v[n++] = sim->yout[k];
  long ns = awe_sim_log_steps(sim->m);
  for (long j = 1; j <= ns && n < cap; j++) {
    if (awe_sim_log_time(sim->m, j) > t + 1e-9) break;
    if (sp_step(sim, j)) break;
    v[n++] = sim->yout[k];
  }
  return n;
}

#endif
