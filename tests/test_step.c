/* test_step.c: step-response metrics, nonlinear and linear steps, calc_spring_props.
 *
 * Analytic second-order step response (unit step, y0 = 0, final 1):
 *   y(t) = 1 - e^(-zeta wn t) (cos wd t + zeta/sqrt(1-zeta^2) sin wd t),  wd = wn sqrt(1-zeta^2)
 *   peak time pi/wd, overshoot exp(-zeta pi/sqrt(1-zeta^2))
 * Model tests (tests/models/lin_damped: m = 1 kg, k = 1000 N/m, c = 12 N s/m, zeta 0.19):
 * a force step F on the mass gives gain 1/k, peak time pi/wd and that overshoot within 2 %;
 * the linear model agrees within 2 % of the step for F = 1 N and much worse for F = 300 N.
 * calc_spring_props on tests/models/lin_tether1 (one segment, EA 10000 N, 60 N s) recovers
 * unit_stiffness within 2 % and unit_damping within a factor 1.5.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "analysis/linearize.h"
#include "control/controller.h"
#include "io/load.h"
#include "analysis/step_metrics.h"

static double second_order(double t, double wn, double z) {
  double wd = wn * sqrt(1 - z * z);
  return 1.0 - exp(-z * wn * t) * (cos(wd * t) + z / sqrt(1 - z * z) * sin(wd * t));
}


static void test_metrics_analytic(void) {
  double wn = 10.0, z = 0.3, dt = 0.004, A = 2.0;
  long n = 2001;
  double *t = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
  for (long k = 0; k < n; k++) {
    t[k] = (double)k * dt;
    y[k] = 5.0 - 3.0 * second_order(t[k], wn, z); /* from 5 down to 2 */
  }
  awe_step_metrics m;
  awe_step_metrics_eval(t, y, 1, n, A, 5.0, &m);
  double wd = wn * sqrt(1 - z * z), os = 100.0 * exp(-z * AWE_PI / sqrt(1 - z * z));
  /* rise time by bisection on the analytic curve */
  double tr[2];
  for (int q = 0; q < 2; q++) {
    double target = q ? 0.9 : 0.1, lo = 0.0, hi = AWE_PI / wd;
    for (int it = 0; it < 100; it++) {
      double mid = 0.5 * (lo + hi);
      if (second_order(mid, wn, z) < target) lo = mid;
      else hi = mid;
    }
    tr[q] = lo;
  }
  printf("  analytic: peak %.6f s (exact %.6f), overshoot %.4f %% (%.4f), rise %.5f s (%.5f)\n",
         m.peak_time, AWE_PI / wd, m.overshoot, os, m.rise_time, tr[1] - tr[0]);
  ENSURE_NEAR(m.initial, 5.0, 1e-12);
  ENSURE_NEAR(m.final, 2.0, 1e-6);
  ENSURE_NEAR(m.gain, -1.5, 1e-6);
  ENSURE_REL(m.peak_time, AWE_PI / wd, 1e-4);
  ENSURE_REL(m.overshoot, os, 1e-3);
  ENSURE_REL(m.rise_time, tr[1] - tr[0], 1e-3);
  /* settling into 5 %: the envelope bound ln(20 / sqrt(1 - z^2)) / (z wn) is an upper limit,
   * one half period less a lower one */
  double ts_env = log(20.0 / sqrt(1 - z * z)) / (z * wn);
  ENSURE(m.settling_time <= ts_env + dt && m.settling_time > ts_env - AWE_PI / wd);
  /* a flat response has no metrics */
  for (long k = 0; k < n; k++) y[k] = 1.0;
  awe_step_metrics_eval(t, y, 1, n, A, 5.0, &m);
  ENSURE(m.gain == 0.0 && isnan(m.overshoot) && isnan(m.rise_time) && isnan(m.settling_time));
  free(t);
  free(y);
}


typedef struct {
  awe_spec *spec;
  awe_model *m;
  awe_sim *sim;
  awe_op op;
  int ok;
} fixture;


static void setup(fixture *f, const char *scenario) {
  memset(f, 0, sizeof(*f));
  awe_err err = {0};
  awe_diag warn = {0};
  f->spec = awe_spec_load(scenario, 0, NULL, &warn, &err);
  awe_diag_free(&warn);
  f->m = f->spec ? awe_model_build_controlled(f->spec, &f->spec->warnings, &err) : NULL;
  f->sim = f->m ? awe_sim_alloc(f->m, NULL, &err) : NULL;
  if (!f->sim || awe_op_find(f->sim, NAN, AWE_OP_HOLD_TORQUE, &f->op, &err)) {
    HARNESS_FAIL("%s: %s", scenario, err.msg);
    return;
  }
  f->ok = 1;
}


static void teardown(fixture *f) {
  awe_op_free(&f->op);
  awe_sim_free(f->sim);
  awe_model_free(f->m);
  awe_spec_free(f->spec);
}


/* step of points.mass.force.z by F; metrics of points.mass.pos.z; error of the linear model
 * relative to the largest change */
static void step_mass(fixture *f, double F, awe_step_metrics *met, double *rel_err) {
  const awe_model *m = f->m;
  awe_err err = {0};
  awe_lin_chan *uc = NULL, *yc = NULL;
  int nu = 0, ny = 0;
  ENSURE(awe_lin_select(&m->reg.input, "points.mass.force.z", 0, &uc, &nu, &err) == AWE_OK);
  ENSURE(awe_lin_select(&m->reg.output, "points.mass.pos.z", 0, &yc, &ny, &err) == AWE_OK);
  if (nu != 1 || ny != 1) {
    free(uc);
    free(yc);
    return;
  }
  double dt = m->opt.dt;
  long nsteps = (long)lround(m->opt.duration / dt), nt = nsteps + 1;
  double *Y = malloc(sizeof(double) * (size_t)nt), *Yl = malloc(sizeof(double) * (size_t)nt);
  double *t = malloc(sizeof(double) * (size_t)nt);
  double *u1 = malloc(sizeof(double) * (size_t)f->sim->w->nu);
  memcpy(u1, f->op.u, sizeof(double) * (size_t)f->sim->w->nu);
  u1[uc[0].scalar] += F;
  int ysel = yc[0].scalar;
  ENSURE(awe_step_simulate(f->sim, f->op.x, f->op.u, u1, 0, dt, nsteps, &ysel, 1, Y, NULL, NULL,
                           &err) == AWE_OK);
  for (long k = 0; k < nt; k++) t[k] = (double)k * dt;
  awe_step_metrics_eval(t, Y, 1, nt, F, 5.0, met);

  awe_lin_model lm;
  awe_lin_model_init(&lm, m, f->sim->w, 0);
  awe_lin_problem p = {.xl = &m->reg.state, .ul = &m->reg.input, .yl = &m->reg.output,
                       .eval = awe_lin_model_eval, .ctx = &lm, .uc = uc, .nu = 1, .yc = yc,
                       .ny = 1, .integrating = awe_lin_model_integrating};
  awe_linsys L;
  ENSURE(awe_linearize(&p, f->op.x, f->op.u, &L, &err) == AWE_OK);
  ENSURE(awe_step_linear(&L, &F, dt, nsteps, Yl, &err) == AWE_OK);
  double emax, erms, scale;
  awe_step_compare(Y, Yl, nt, 1, 0, &emax, &erms, &scale);
  *rel_err = emax / scale;
  /* the linear response itself is the analytic one */
  double k = -L.A[5 * L.nx + 2], c = -L.A[5 * L.nx + 5];
  double wn = sqrt(k), z = c / (2 * wn), amax = 0.0;
  for (long i = 0; i < nt; i++)
    amax = fmax(amax, fabs(Yl[i] - (L.y_op[0] + F / k * second_order(t[i], wn, z))));
  ENSURE(amax < 1e-9 * fabs(F / k) + 1e-12);
  awe_linsys_free(&L);
  free(uc);
  free(yc);
  free(Y);
  free(Yl);
  free(t);
  free(u1);
}


static void test_damped_step(void) {
  fixture f;
  setup(&f, "scenarios/tests/lin_damped.yaml");
  if (!f.ok) {
    teardown(&f);
    return;
  }
  const awe_model *m = f.m;
  double k = m->segment_unit_k[0] / 1.0, c = m->segment_unit_c[0] / 1.0, mass = 1.0;
  double wn = sqrt(k / mass), z = c / (2 * sqrt(k * mass)), wd = wn * sqrt(1 - z * z);
  double os = 100.0 * exp(-z * AWE_PI / sqrt(1 - z * z));
  awe_step_metrics met;
  double rel_small = NAN, rel_large = NAN;
  step_mass(&f, 1.0, &met, &rel_small);
  printf("  1 N step: gain %.6g m/N (1/k %.6g), peak %.6g s (pi/wd %.6g), overshoot %.4g %% "
         "(%.4g), settling %.4g s; linear error %.3g %% of the step\n",
         met.gain, 1.0 / k, met.peak_time, AWE_PI / wd, met.overshoot, os, met.settling_time,
         100 * rel_small);
  ENSURE_REL(met.gain, 1.0 / k, 0.02);
  ENSURE_REL(met.peak_time, AWE_PI / wd, 0.02);
  ENSURE_REL(met.overshoot, os, 0.02);
  ENSURE(rel_small < 0.02);
  step_mass(&f, 300.0, &met, &rel_large);
  printf("  300 N step: gain %.6g m/N, overshoot %.4g %%; linear error %.3g %% of the step\n",
         met.gain, met.overshoot, 100 * rel_large);
  ENSURE(rel_large > 5.0 * rel_small);
  ENSURE(rel_large > 0.05);
  teardown(&f);
}


static void test_spring_props(void) {
  fixture f;
  setup(&f, "scenarios/tests/lin_tether1.yaml");
  if (!f.ok) {
    teardown(&f);
    return;
  }
  const awe_model *m = f.m;
  double dt = m->opt.dt;
  long nsteps = (long)lround(m->opt.duration / dt);
  awe_spring_props sp;
  awe_err err = {0};
  ENSURE(awe_spring_props_eval(f.sim, &f.op, 0, 0.1, dt, nsteps, 5.0, &sp, &err) == AWE_OK);
  printf("  spring props: L0 %.6g m, dL %.4g m, k %.6g N/m, unit_stiffness %.6g N (YAML %g), "
         "T_s %.4g s, zeta %.4g, unit_damping %.4g N s (YAML %g)%s\n",
         sp.L0, sp.dL, sp.k, sp.unit_stiffness, sp.model_unit_stiffness, sp.settling_time,
         sp.zeta, sp.unit_damping, sp.model_unit_damping, sp.fallback ? " (fallback)" : "");
  ENSURE_STR(m->point_name[sp.end], "end");
  ENSURE_STR(m->point_name[sp.anchor], "ground");
  ENSURE_NEAR(sp.model_unit_stiffness, 10000.0, 1e-9);
  ENSURE_REL(sp.unit_stiffness, 10000.0, 0.02);
  ENSURE(sp.unit_damping > 60.0 / 1.5 && sp.unit_damping < 60.0 * 1.5);
  ENSURE(!sp.fallback);
  /* no free end: a tether index out of range */
  ENSURE(awe_spring_props_eval(f.sim, &f.op, 3, 0.1, dt, nsteps, 5.0, &sp, &err) ==
         AWE_EINVAL);
  teardown(&f);
}


int main(void) {
  RUN(test_metrics_analytic);
  RUN(test_damped_step);
  RUN(test_spring_props);
  return harness_report();
}
