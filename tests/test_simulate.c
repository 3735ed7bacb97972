/* test_simulate.c: the integrator and the life cycle through the library API.
 *
 * Coloured sparse Jacobian against a dense finite difference; every stepper on the damped
 * oscillator; events stop the integrator exactly at a scheduled step; a brake that engages
 * stops the drum; speed-controlled winch; rest-length input; non-finite state reported by
 * name; unknown stepper names; bit-identical reruns.
 */
#include "control/controller.h"
#include "solve/sim.h"
#include "solve/steady.h"
#include "test_physics_util.h"

#define G 9.81


/* max |J_colour - J_dense| / max |J| at the state reached after t_run; tol 1e-6, or 1e-3 with
 * quasi-static points (their Newton stops at 1e-11 relative, a finite-difference column sees
 * that noise) */
static void jac_case(const char *scenario, const char *const *sets, double t_run) {
  awe_spec *s = sp_load(scenario, sets);
  awe_sim *sim = sp_sim(s, "msbdf");
  if (!sim) return;
  sp_run(sim, t_run);
  int n = sim->w->nx;
  double *J = calloc((size_t)n * n, sizeof(double)), *Jd = calloc((size_t)n * n, sizeof(double));
  double *dfdt = calloc(n, sizeof(double)), *f0 = calloc(n, sizeof(double)),
         *f1 = calloc(n, sizeof(double)), *yp = calloc(n, sizeof(double));
  /* stir the state so that no entry vanishes by symmetry */
  for (int i = 0; i < n; i++) sim->y[i] += 1e-4 * ((i * 7919) % 13 - 6);
  unsigned long rhs0 = sim->w->stats.rhs;
  ENSURE(awe_jacobian_fd(sim->t, sim->y, J, dfdt, sim->it) == GSL_SUCCESS);
  int ncol = awe_integrator_ncolors(sim->it);
  /* one base evaluation, one per colour, one for df/dt when inputs depend on time */
  if (sim->w->stats.rhs - rhs0 != (unsigned long)ncol + 1 + (sim->ctx.nsig > 0))
    HARNESS_FAIL("%s: %lu rhs calls for %d colours", scenario, sim->w->stats.rhs - rhs0, ncol);
  ENSURE(ncol <= n);
  /* central differences, every column */
  for (int j = 0; j < n; j++) {
    double h = 1e-6 * (fabs(sim->y[j]) > 1 ? fabs(sim->y[j]) : 1);
    memcpy(yp, sim->y, sizeof(double) * n);
    yp[j] += h;
    awe_rhs(sim->t, yp, f1, &sim->ctx);
    yp[j] -= 2 * h;
    awe_rhs(sim->t, yp, f0, &sim->ctx);
    for (int i = 0; i < n; i++) Jd[i * n + j] = (f1[i] - f0[i]) / (2 * h);
  }
  double dmax = 0, jmax = 0;
  for (int i = 0; i < n * n; i++) {
    if (fabs(J[i] - Jd[i]) > dmax) dmax = fabs(J[i] - Jd[i]);
    if (fabs(Jd[i]) > jmax) jmax = fabs(Jd[i]);
  }
  ENSURE(dmax <= (sim->w->nqs ? 1e-3 : 1e-6) * jmax);
  printf("  %s: n %d, %d colours, max |J - J_dense| / max |J| = %.1e\n", scenario, n, ncol,
         dmax / jmax);
  free(J);
  free(Jd);
  free(dfdt);
  free(f0);
  free(f1);
  free(yp);
  sp_free(sim, s);
}


static void test_sparse_jacobian(void) {
  const char *reel[] = {"run.steady_state=false", NULL};
  jac_case("scenarios/reel_out.yaml", reel, 3.0);
  jac_case("scenarios/tests/pulley.yaml", NULL, 0.2);
  const char *mixed[] = {"model.structure=../../tests/models/chain_mixed.yaml",
                         "run.steady_state=false", NULL};
  jac_case("scenarios/tests/chain.yaml", mixed, 0.2);
  const char *qsp[] = {"model.structure=../../tests/models/pulley_qs.yaml", NULL};
  jac_case("scenarios/tests/pulley.yaml", qsp, 0.2);
}


/* the hanging tether: far fewer colours than states (the pattern is banded) */
static void test_coloring_is_sparse(void) {
  const char *sets[] = {"run.steady_state=false", NULL};
  awe_spec *s = sp_load("scenarios/reel_out.yaml", sets);
  awe_sim *sim = sp_sim(s, "msbdf");
  if (!sim) return;
  ENSURE(sim->w->nx == 62);
  ENSURE(awe_integrator_ncolors(sim->it) <= 21);
  sp_free(sim, s);
}


/* every stepper reproduces the damped oscillator to its tolerance */
static void test_all_steppers(void) {
  const char *names[] = {"rkf45", "rkck", "rk8pd", "msbdf", "rk4imp", "bsimp"};
  const char *sets[] = {"run.duration=0.5", "run.dt=0.01", "run.abs_tol=1e-9",
                        "run.rel_tol=1e-9", NULL};
  double ref = NAN;
  for (int k = 0; k < 6; k++) {
    awe_spec *s = sp_load("scenarios/tests/spring_mass.yaml", sets);
    awe_sim *sim = sp_sim(s, names[k]);
    if (!sim) return;
    ENSURE_STR(awe_integrator_name(sim->it), names[k]);
    sp_run(sim, 0.5);
    double z = sp_out(sim, "points.mass.pos.z");
    if (k == 0) ref = z;
    ENSURE_NEAR(z, ref, 2e-6);
    if (awe_solver_implicit(names[k])) ENSURE(sim->w->stats.jac > 0);
    else ENSURE(sim->w->stats.jac == 0);
    sp_free(sim, s);
  }
}


static void test_unknown_solver(void) {
  awe_spec *s = sp_load("scenarios/tests/spring_mass.yaml", NULL);
  awe_err err = {0};
  awe_model *m = s ? awe_model_build_controlled(s, &s->warnings, &err) : NULL;
  if (!m) return;
  awe_sim *sim = awe_sim_alloc(m, "rk45", &err);
  ENSURE(sim == NULL);
  ENSURE(err.code == AWE_EINVAL);
  ENSURE_CONTAINS(err.msg, "unknown solver 'rk45'");
  ENSURE_CONTAINS(err.msg, "msbdf");
  awe_model_free(m);
  awe_spec_free(s);
}


/* a torque step at t0 = 0.0123 s (between log steps) on a frictionless, unloaded drum:
 * v(t) = (r/I) tau (t - t0) exactly, which only an integrator stopped at t0 reproduces; v is
 * linear after t0, so the second-order trbdf2 integrates it exactly too */
static void test_event_exact(void) {
  const char *sets[] = {"run.duration=0.05", "run.dt=0.01", NULL};
  const char *solver[2] = {"rk8pd", "trbdf2"};
  const double tol[2] = {1e-13, 1e-10};
  awe_spec *s;
  for (int k0 = 0; k0 < 2; k0++) {
    s = sp_load("scenarios/tests/winch.yaml", sets);
    if (!s) return;
    awe_input_spec *in = &s->scenario.inputs[0];
    in->type = AWE_SIG_STEP;
    in->t0 = 0.0123;
    in->before = 0.0;
    in->after = 2.0;
    awe_sim *sim = sp_sim(s, solver[k0]);
    if (!sim) return;
    for (int k = 1; k <= 5; k++) {
      sp_run(sim, 0.01 * k);
      double t = sim->t, v = t > 0.0123 ? 0.1 / 0.1 * 2.0 * (t - 0.0123) : 0.0;
      ENSURE_NEAR(sp_out(sim, "winches.drum.vel"), v, tol[k0]);
      ENSURE_NEAR(sp_out(sim, "winches.drum.torque"), t >= 0.0123 ? 2.0 : 0.0, 0.0);
    }
    sp_free(sim, s);
  }
  /* a step exactly on a log time: the row at t0 shows the new value, the state the old one */
  s = sp_load("scenarios/tests/winch.yaml", sets);
  if (!s) return;
  awe_input_spec *in = &s->scenario.inputs[0];
  in->type = AWE_SIG_STEP;
  in->t0 = 0.02;
  in->before = 0.0;
  in->after = 2.0;
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  sp_run(sim, 0.02);
  /* 1e-13 m/s: the smooth norm sqrt(|F|^2 + 1e-24) of the unloaded line pulls 1e-12 N */
  ENSURE_NEAR(sp_out(sim, "winches.drum.vel"), 0.0, 1e-13);
  ENSURE_NEAR(sp_out(sim, "winches.drum.torque"), 2.0, 0.0);
  sp_run(sim, 0.05);
  ENSURE_NEAR(sp_out(sim, "winches.drum.vel"), 2.0 * 0.03, 1e-13);
  sp_free(sim, s);
}


/* a brake that engages while the drum turns stops it (discrete update) and holds the length */
static void test_brake_engages(void) {
  const char *sets[] = {"run.duration=0.1", "run.dt=0.01", NULL};
  awe_spec *s = sp_load("scenarios/tests/winch.yaml", sets);
  if (!s) return;
  /* the torque input becomes the brake: engaged at 0.05 s */
  awe_input_spec *in = &s->scenario.inputs[0];
  in->channel = "winches.drum.brake";
  in->type = AWE_SIG_STEP;
  in->t0 = 0.05;
  in->before = 0.0;
  in->after = 1.0;
  s->structure.winches[0].init_vel = 1.0;
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  sp_run(sim, 0.05);
  ENSURE_NEAR(sp_out(sim, "tethers.main.len"), 50.05, 1e-12);
  sp_run(sim, 0.1);
  ENSURE_NEAR(sp_out(sim, "winches.drum.vel"), 0.0, 0.0);
  ENSURE_NEAR(sp_out(sim, "tethers.main.len"), 50.05, 1e-12);
  sp_free(sim, s);
}


/* speed-controlled winch: the reel-out speed is the input winches.NAME.speed */
static void test_speed_controlled(void) {
  const char *sets[] = {"run.duration=1", "run.dt=0.1", NULL};
  awe_spec *s = sp_load("scenarios/tests/winch.yaml", sets);
  if (!s) return;
  s->structure.winches[0].speed_controlled = 1;
  awe_input_spec *in = &s->scenario.inputs[0];
  in->channel = "winches.drum.speed";
  in->type = AWE_SIG_RAMP;
  in->t_start = 0.0;
  in->t_end = 1.0;
  in->from = 0.0;
  in->to = 2.0;
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  ENSURE(awe_varlist_find(&sim->m->reg.state, "winches.drum.vel") < 0);
  sp_run(sim, 0.5);
  ENSURE_NEAR(sp_out(sim, "winches.drum.vel"), 1.0, 1e-14);
  ENSURE_NEAR(sp_out(sim, "tethers.main.len"), 50.0 + 0.25, 1e-12); /* integral of 2 t */
  sp_free(sim, s);
}


/* segments.NAME.l0 is a change of the rest length: with +1 m the mass settles at
 * z = -(l0 + 1) unit_k/(unit_k - m g), m including half of the now longer line (base inputs
 * changed before the steady-state march) */
static void test_rest_length_input(void) {
  double z[2];
  for (int k = 0; k < 2; k++) {
    awe_spec *s = sp_load("scenarios/tests/hanging_mass.yaml", NULL);
    if (!s) return;
    awe_sim *sim = sp_sim(s, "rk8pd");
    if (!sim) return;
    int v = awe_varlist_find(&sim->m->reg.input, "segments.line.l0");
    ENSURE(v >= 0);
    if (v < 0) return;
    sim->u[sim->m->reg.input.v[v].offset] = k;
    awe_err err = {0};
    ENSURE(awe_sim_steady_state(sim, 20.0, &err) == AWE_OK);
    ENSURE(sim->steady_residual < 1e-6);
    awe_rhs(0.0, sim->y, sim->dydt, &sim->ctx);
    z[k] = sim->w->pos[5];
    ENSURE_NEAR(sim->w->seg_l0[0], 10.0 + k, 1e-15);
    sp_free(sim, s);
  }
  double lam = 724.0 * M_PI * 0.005 * 0.005 / 4;
  for (int k = 0; k < 2; k++) {
    double l0 = 10.0 + k, m = 5.0 + 0.5 * lam * l0;
    ENSURE_REL(z[k], -l0 * 1000.0 / (1000.0 - m * G), 1e-9);
  }
}


/* a NaN external force: the run stops with AWE_EINTEG naming the variable and the time */
static void test_nonfinite_reported(void) {
  const char *sets[] = {"run.duration=1", "run.dt=0.1", NULL};
  awe_spec *s = sp_load("scenarios/tests/winch.yaml", sets);
  if (!s) return;
  awe_input_spec *in = &s->scenario.inputs[0];
  in->channel = "points.load.force.z";
  in->type = AWE_SIG_STEP;
  in->t0 = 0.25;
  in->before = 0.0;
  in->after = NAN;
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  awe_err err = {0};
  awe_status st = AWE_OK;
  long k;
  for (k = 1; k <= 10 && st == AWE_OK; k++) st = awe_sim_step(sim, awe_sim_log_time(sim->m, k), &err);
  ENSURE(st == AWE_EINTEG);
  ENSURE(k == 4); /* steps 1, 2 fine; step 3 (0.2 -> 0.3) fails */
  ENSURE_CONTAINS(err.msg, "points.load.vel.z");
  ENSURE_CONTAINS(err.msg, "non-finite");
  ENSURE_NEAR(sim->t, 0.25, 1e-12); /* the last accepted state is at the breakpoint */
  ENSURE(awe_first_nonfinite(sim->y, sim->w->nx) < 0);
  sp_free(sim, s);
}


/* two runs of the same scenario give bit-identical outputs */
static void test_bit_identical(void) {
  double *rows[2] = {NULL, NULL};
  int ny = 0, n = 0;
  for (int r = 0; r < 2; r++) {
    const char *sets[] = {"run.duration=5", "run.steady_state=false", NULL};
    awe_spec *s = sp_load("scenarios/reel_out.yaml", sets);
    awe_sim *sim = sp_sim(s, "msbdf");
    if (!sim) return;
    ny = sim->w->ny;
    long ns = awe_sim_log_steps(sim->m);
    rows[r] = calloc((size_t)(ns + 1) * ny, sizeof(double));
    memcpy(rows[r], sim->yout, sizeof(double) * ny);
    for (long k = 1; k <= ns; k++) {
      if (sp_step(sim, k)) break;
      memcpy(rows[r] + k * ny, sim->yout, sizeof(double) * ny);
    }
    n = (int)ns + 1;
    sp_free(sim, s);
  }
  if (rows[0] && rows[1]) ENSURE(memcmp(rows[0], rows[1], sizeof(double) * n * ny) == 0);
  free(rows[0]);
  free(rows[1]);
}


/* log times: k dt, the last clamped to the duration */
static void test_log_times(void) {
  const char *sets[] = {"run.duration=1.05", "run.dt=0.1", NULL};
  awe_spec *s = sp_load("scenarios/tests/spring_mass.yaml", sets);
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) return;
  ENSURE(awe_sim_log_steps(sim->m) == 11);
  ENSURE_NEAR(awe_sim_log_time(sim->m, 3), 0.3, 1e-15);
  ENSURE_NEAR(awe_sim_log_time(sim->m, 11), 1.05, 0.0);
  sp_free(sim, s);
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_sparse_jacobian);
  RUN(test_coloring_is_sparse);
  RUN(test_all_steppers);
  RUN(test_unknown_solver);
  RUN(test_event_exact);
  RUN(test_brake_engages);
  RUN(test_speed_controlled);
  RUN(test_rest_length_input);
  RUN(test_nonfinite_reported);
  RUN(test_bit_identical);
  RUN(test_log_times);
  return harness_report();
}
