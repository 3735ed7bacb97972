/* test_kcu.c: the kite control unit (engine/kcu.h) and the tether length from the scenario.
 *
 * - mapping: the V3's tapes from depower/steering in % (V3Kite.jl's documented mapping,
 *   depower 0.75 m + 5.0 m u_p (physics.md §15), steering 0.8 m (the structure's) -/+ 1.4 m u_s,
 *   held >= 0); the initial depower from the structure's 2.0 m power tape is 25 %;
 * - slew: a 10 % steering step followed at 20 %/s: 5 % after 0.25 s, 10 % after 0.5 s, the
 *   tapes 0.1 m per 100 % apart, and the motor's right-hand side is -gain at rest;
 * - tether length: tethers.main_tether.length 300 gives 6 segments of 50 m (V3, explicit
 *   tether) with the kcu 300 m from the ground point, and 6 generated segments of 50/6 m
 *   (2-plate) summing to 50 m.
 */
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "engine/rhs.h"
#include "io/load.h"
#include "solve/sim.h"

typedef struct {
  awe_spec *spec;
  awe_model *m;
} built;


static int build(built *b, const char *path) {
  awe_err err = {0};
  awe_diag warn = {0};
  memset(b, 0, sizeof(*b));
  b->spec = awe_spec_load(path, 0, NULL, &warn, &err);
  awe_diag_free(&warn);
  b->m = b->spec ? awe_model_build(b->spec, &b->spec->warnings, &err) : NULL;
  if (!b->m) HARNESS_FAIL("%s: %s", path, err.msg);
  return b->m != NULL;
}


static void unbuild(built *b) {
  awe_model_free(b->m);
  awe_spec_free(b->spec);
}


static int output(const awe_model *m, const char *name) {
  int k = awe_varlist_find(&m->reg.output, name);
  if (k < 0) HARNESS_FAIL("no output %s", name);
  return k < 0 ? 0 : m->reg.output.v[k].offset;
}


static void test_v3_mapping(void) {
  built b;
  if (!build(&b, "tests/data/kcu/v3_kcu.yaml")) return;
  const awe_model *m = b.m;
  ENSURE(m->has_kcu);
  ENSURE_STR(m->segment_name[m->kcu_seg[0]], "power_tape");
  ENSURE_STR(m->segment_name[m->kcu_seg[1]], "steering_tape_neg_y");
  ENSURE_STR(m->segment_name[m->kcu_seg[2]], "steering_tape_pos_y");
  ENSURE_NEAR(m->kcu_depower0, 25.0, 1e-12); /* (2.0 - 0.75) / 5.0 */
  ENSURE_NEAR(m->kcu_steering0, 0.0, 0.0);
  ENSURE_NEAR(m->kcu_st_neutral, 0.8, 1e-12);
  ENSURE_NEAR(m->kcu_dp_rate, 7.5, 0.0);
  ENSURE_NEAR(m->kcu_st_rate, 20.0, 0.0);
  ENSURE_NEAR(m->kcu_gain[0], 3.0, 0.0);
  ENSURE_NEAR(m->kcu_gain[1], 3.0, 0.0);
  /* depower %, steering % -> depower, left, right tape [m] */
  static const double table[][5] = {
      {0, 0, 0.75, 0.8, 0.8},       {22, 0, 1.85, 0.8, 0.8},    {25, 0, 2.0, 0.8, 0.8},
      {30, 0, 2.25, 0.8, 0.8},      {100, 0, 5.75, 0.8, 0.8},   {25, 10, 2.0, 0.66, 0.94},
      {25, -50, 2.0, 1.5, 0.1},     {25, 100, 2.0, 0.0, 2.2},   {25, -100, 2.0, 2.2, 0.0}};
  for (size_t k = 0; k < sizeof(table) / sizeof(table[0]); k++) {
    double l[3];
    awe_kcu_tapes(m, table[k][0], table[k][1], l);
    for (int j = 0; j < 3; j++) ENSURE_NEAR(l[j], table[k][2 + j], 1e-12);
  }
  /* the tapes start at the initial setting: the structure's own lengths */
  ENSURE_NEAR(m->segment_l0[m->kcu_seg[0]], 2.0, 1e-12);
  ENSURE_NEAR(m->segment_l0[m->kcu_seg[1]], 0.8, 1e-12);
  /* registry: two motor states, two inputs */
  ENSURE(awe_varlist_find(&m->reg.state, "kcu.depower_actual") >= 0);
  ENSURE(awe_varlist_find(&m->reg.state, "kcu.steering_actual") >= 0);
  ENSURE(awe_varlist_find(&m->reg.input, "kcu.depower") >= 0);
  ENSURE(awe_varlist_find(&m->reg.input, "kcu.steering") >= 0);
  /* tether 300 m: six explicit segments of 50 m, the kcu 300 m from the ground point */
  int t = awe_model_find_tether(m, "main_tether");
  ENSURE(t >= 0 && m->tether_seg_num[t] == 6);
  ENSURE_NEAR(m->tether_len0[t], 300.0, 1e-9);
  double sum = 0.0;
  for (int k = 0; k < m->tether_seg_num[t]; k++) {
    double l0 = m->segment_l0[m->tether_segs[m->tether_seg_adr[t] + k]];
    ENSURE_NEAR(l0, 50.0, 1e-9);
    sum += l0;
  }
  ENSURE_NEAR(sum, 300.0, 1e-9);
  int kcu = awe_model_find_point(m, "kcu"), gnd = awe_model_find_point(m, "ground");
  double d = 0.0;
  for (int k = 0; k < 3; k++) {
    double e = m->point_pos0[3 * kcu + k] - m->point_pos0[3 * gnd + k];
    d += e * e;
  }
  ENSURE_NEAR(sqrt(d), 300.0, 1e-9);
  unbuild(&b);
}


static void test_slew(void) {
  built b;
  if (!build(&b, "tests/data/kcu/2plate_kcu.yaml")) return;
  const awe_model *m = b.m;
  awe_err err = {0};
  ENSURE(awe_varlist_find(&m->reg.state, "kcu.depower_actual") < 0); /* no depower tape */
  awe_sim *s = awe_sim_alloc(m, NULL, &err);
  if (!s || awe_sim_start(s, &err) != AWE_OK) {
    HARNESS_FAIL("start: %s", err.msg);
    awe_sim_free(s);
    unbuild(&b);
    return;
  }
  int o_act = output(m, "kcu.steering_actual"), o_set = output(m, "kcu.steering_set");
  int o_l = output(m, "kcu.steering_tape_left"), o_r = output(m, "kcu.steering_tape_right");
  double l_n = m->kcu_st_neutral;
  ENSURE(l_n > 0.0);
  ENSURE_NEAR(s->yout[o_act], 0.0, 1e-12);
  /* the motor at rest: d(ds/dt)/ds = -gain (the slope the linearization sees) */
  int x = s->w->kcu_x[1];
  double h = 1e-4, f[2];
  for (int k = 0; k < 2; k++) {
    s->y[x] += k ? -h : h;
    awe_rhs(0.0, s->y, s->dydt, &s->ctx);
    f[k] = s->dydt[x];
    s->y[x] += k ? h : -h;
  }
  ENSURE_NEAR((f[0] - f[1]) / (2 * h), -1000.0, 1e-6);
  /* the Jacobian's pattern holds every row the motor's column moves (the tapes' end points) */
  {
    int n = s->w->nx, moved = 0, missing = 0;
    double *fp = calloc((size_t)n, sizeof(double)), *fm = calloc((size_t)n, sizeof(double));
    const int *adr, *num, *rows;
    awe_integrator_pattern(s->it, &adr, &num, &rows);
    s->y[x] += h;
    awe_rhs(0.0, s->y, fp, &s->ctx);
    s->y[x] -= 2 * h;
    awe_rhs(0.0, s->y, fm, &s->ctx);
    s->y[x] += h;
    for (int i = 0; i < n; i++) {
      if (fp[i] == fm[i]) continue;
      moved++;
      int in = 0;
      for (int e = 0; e < num[x]; e++) in |= rows[adr[x] + e] == i;
      missing += !in;
    }
    ENSURE(moved >= 7); /* its own row and the velocities of the two tapes' ends */
    ENSURE(missing == 0);
    free(fp);
    free(fm);
  }
  static const double tt[] = {0.5, 0.75, 1.0, 1.5}, want[] = {0.0, 5.0, 10.0, 10.0};
  static const double tol[] = {1e-9, 1e-3, 0.03, 1e-6};
  for (int k = 0; k < 4; k++) {
    if (awe_sim_step(s, tt[k], &err) != AWE_OK) {
      HARNESS_FAIL("step to %g: %s", tt[k], err.msg);
      break;
    }
    double a = s->yout[o_act];
    ENSURE_NEAR(a, want[k], tol[k]);
    ENSURE_NEAR(s->yout[o_l], l_n - 0.1 * a / 100.0, 1e-12);
    ENSURE_NEAR(s->yout[o_r], l_n + 0.1 * a / 100.0, 1e-12);
    if (k > 0) ENSURE_NEAR(s->yout[o_set], 10.0, 0.0);
  }
  /* tether 50 m: six generated segments summing to 50 m */
  int t = awe_model_find_tether(m, "main_tether");
  double sum = 0.0;
  for (int k = 0; k < m->tether_seg_num[t]; k++)
    sum += m->segment_l0[m->tether_segs[m->tether_seg_adr[t] + k]];
  ENSURE(m->tether_seg_num[t] == 6);
  ENSURE_NEAR(sum, 50.0, 1e-9);
  awe_sim_free(s);
  unbuild(&b);
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_v3_mapping);
  RUN(test_slew);
  return harness_report();
}
