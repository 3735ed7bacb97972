/* test_physics_winch.c: winch drum dynamics and tethers on a winch.
 *
 * The cases of SymbolicAWEModels test_tether_winch.jl @0689ba4 (physics.md §14): a braked winch
 * holds; acceleration (r/n) tau/I; Coulomb friction; terminal reel-out speed tau n/(c_vf r);
 * the held load's stretch; steady torque; the 4-segment hanging tether's heights
 * z = -sum l0 unit_k/(unit_k - m_cum g). Models in tests/models/winch_*.yaml, tether4.yaml,
 * tether400.yaml.
 */
#include "test_physics_util.h"
#include "engine/winch.h"

#define G 9.81

/* winch scenario with the given model file, settings and torque; brake as in the model */
static awe_sim *winch_sim(awe_spec **sp, const char *model, double inertia, double fc, double cvf,
                          double torque, int brake, double duration) {
  char m[128], d[64];
  snprintf(m, sizeof(m), "model.structure=../../tests/models/%s", model);
  snprintf(d, sizeof(d), "run.duration=%g", duration);
  const char *sets[] = {m, d, NULL};
  awe_spec *s = sp_load("scenarios/tests/winch.yaml", sets);
  *sp = s;
  if (!s) return NULL;
  s->settings.inertia_total = inertia;
  s->settings.f_coulomb = fc;
  s->settings.c_vf = cvf;
  s->scenario.inputs[0].value = torque;
  s->structure.winches[0].brake = brake;
  return sp_sim(s, "rk8pd");
}


static void test_braked_winch_holds(void) {
  awe_spec *s;
  awe_sim *sim = winch_sim(&s, "winch_line.yaml", 0.1, 0.0, 0.0, 5.0, 1, 0.1);
  if (!sim) return;
  sp_run(sim, 0.1);
  ENSURE(fabs(sp_out(sim, "winches.drum.vel")) < 1e-10);
  ENSURE_NEAR(sp_out(sim, "tethers.main.len"), 50.0, 0.0);
  ENSURE_NEAR(sp_out(sim, "winches.drum.torque"), 5.0, 0.0);
  sp_free(sim, s);
}


/* no line force, no friction: a = (r/n) tau / I */
static void test_winch_acceleration(void) {
  const double I[3] = {0.1, 0.5, 1.0}, r = 0.1;
  for (int i = 0; i < 3; i++) {
    awe_spec *s;
    awe_sim *sim = winch_sim(&s, "winch_line.yaml", I[i], 0.0, 0.0, 1.0, 0, 0.02);
    if (!sim) return;
    sp_run(sim, 0.02);
    double a = r * 1.0 / I[i];
    ENSURE_REL(sp_out(sim, "winches.drum.vel") / 0.02, a, 1e-9);
    ENSURE_REL(sp_out(sim, "tethers.main.len") - 50.0, 0.5 * a * 0.02 * 0.02, 1e-9);
    sp_free(sim, s);
  }
}


/* reference: dv/dt = (r/I)(tau - f_c r s(v/r)), s(x) = x/sqrt(x^2 + eps^2), classic RK4 */
static double coulomb_ref(double fc, double I, double t_end) {
  const double r = 0.1, tau = 1.0, eps = 0.01;
  double v = 0.0, h = 1e-6;
  for (long k = 0; k < (long)(t_end / h + 0.5); k++) {
#define F(x) (r / I * (tau - fc * r * ((x) / r) / sqrt(((x) / r) * ((x) / r) + eps * eps)))
    double k1 = F(v), k2 = F(v + 0.5 * h * k1), k3 = F(v + 0.5 * h * k2), k4 = F(v + h * k3);
#undef F
    v += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return v;
}


/* Coulomb friction (eps = 0.01 rad/s): a = (r/n)/I (tau - f_c r/n) once moving */
static void test_winch_coulomb(void) {
  const double fc[3] = {0.5, 2.0, 5.0}, r = 0.1, I = 0.1;
  for (int i = 0; i < 3; i++) {
    awe_spec *s;
    awe_sim *sim = winch_sim(&s, "winch_line.yaml", I, fc[i], 0.0, 1.0, 0, 0.02);
    if (!sim) return;
    sp_run(sim, 0.01);
    double v1 = sp_out(sim, "winches.drum.vel");
    sp_run(sim, 0.02);
    double v2 = sp_out(sim, "winches.drum.vel");
    double a = r / I * (1.0 - fc[i] * r);
    /* the smooth sign is not yet 1 at these speeds (0.99 at 0.0075 m/s for f_c = 5) */
    ENSURE_REL((v2 - v1) / 0.01, a, 0.01);
    ENSURE_REL(v2, coulomb_ref(fc[i], I, 0.02), 1e-7);
    sp_free(sim, s);
  }
}


/* viscous friction: terminal speed tau n/(c_vf r), time constant I/(c_vf r^2) */
static void test_winch_viscous(void) {
  const double cvf[3] = {50.0, 100.0, 200.0}, r = 0.1, I = 0.01, tau = 1.0;
  for (int i = 0; i < 3; i++) {
    double tc = I / (cvf[i] * r * r);
    awe_spec *s;
    awe_sim *sim = winch_sim(&s, "winch_line.yaml", I, 0.0, cvf[i], tau, 0, 10 * tc);
    if (!sim) return;
    sp_run(sim, 10 * tc);
    double vt = tau / (cvf[i] * r);
    ENSURE_REL(sp_out(sim, "winches.drum.vel"), vt * (1 - exp(-10.0)), 1e-6);
    ENSURE_REL(sp_out(sim, "winches.drum.vel"), vt, 0.05);
    sp_free(sim, s);
  }
}


/* a braked winch holds the 10 kg load: z = -(l0 + m g l0/(unit_k - m g)), m = 10 + line/2 */
static void test_winch_held_load(void) {
  const double l0 = 50.0, EA = 5e4, d = 0.001;
  const double m = 10.0 + 724.0 * M_PI * d * d / 4 * l0 / 2;
  const double z = -(l0 + m * G * l0 / (EA - m * G));
  awe_spec *s;
  awe_sim *sim = winch_sim(&s, "winch_held.yaml", 0.1, 0.0, 0.0, 0.0, 1, 5.0);
  if (!sim) return;
  sp_run(sim, 5.0);
  ENSURE_REL(sp_out(sim, "points.load.pos.z"), z, 1e-3);
  ENSURE_NEAR(sp_out(sim, "tethers.main.len"), 50.0, 0.0);
  sp_free(sim, s);
  /* settled before t = 0 by the steady-state march: exact */
  sim = winch_sim(&s, "winch_held.yaml", 0.1, 0.0, 0.0, 0.0, 1, 5.0);
  sp_free(sim, NULL);
  s->scenario.run.steady_state = 1;
  sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  ENSURE_REL(sp_out(sim, "points.load.pos.z"), z, 1e-9);
  ENSURE_REL(sp_out(sim, "winches.drum.force"), m * G, 1e-9);
  ENSURE(sim->steady_residual < 1e-6);
  sp_free(sim, s);
}


/* reeling out against the load at constant torque: the drum acceleration vanishes and the
 * steady torque -r|F_w| + tau_friction equals the set torque */
static void test_winch_steady_torque(void) {
  awe_spec *s;
  awe_sim *sim = winch_sim(&s, "winch_steady.yaml", 0.01, 0.0, 100.0, 0.5, 0, 10.0);
  if (!sim) return;
  sp_run(sim, 10.0);
  double acc = sim->w->winch_acc[0];
  ENSURE_NEAR(acc, 0.0, 0.01);
  ENSURE_REL(awe_winch_steady_torque(sim->m, sim->w, 0), 0.5, 0.01);
  /* at steady reel-out the line carries the weight: v = (tau + r m g)/(c_vf r) */
  double m = sim->w->mass[1];
  ENSURE_REL(sp_out(sim, "winches.drum.vel"), (0.5 + 0.1 * m * G) / (100.0 * 0.1), 0.01);
  sp_free(sim, s);
}


/* 4 segments of 25 m below a braked winch: heights after the steady-state march */
static void test_tether4_heights(void) {
  awe_spec *s = sp_load("scenarios/tests/tether4.yaml", NULL);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  const double EA = 5e4, l0 = 25.0, d = 0.001;
  const double mseg = 724.0 * M_PI * d * d / 4 * l0;
  /* before settling: 5 points, l0 = 25 each, straight down in 25 m steps */
  ENSURE(sim->m->npoint == 5);
  for (int k = 0; k < 4; k++) ENSURE_NEAR(sim->w->seg_l0[k], 25.0, 1e-12);
  const char *names[4] = {"points.main_point_1.pos.z", "points.main_point_2.pos.z",
                          "points.main_point_3.pos.z", "points.load.pos.z"};
  for (int k = 0; k < 3; k++)
    ENSURE_NEAR(sim->m->point_pos0[3 * (2 + k) + 2], -25.0 * (k + 1), 1e-12);
  /* settled: segment j from the top carries m_cum g, m_cum = 5 + mseg/2 + (3 - j) mseg */
  double z = 0.0;
  for (int j = 0; j < 4; j++) {
    double mcum = 5.0 + 0.5 * mseg + (3 - j) * mseg;
    z -= l0 * EA / (EA - mcum * G);
    ENSURE_NEAR(sp_out(sim, names[j]), z, 1e-6);
    ENSURE_REL(sp_out(sim, names[j]), z, 1e-8);
  }
  ENSURE(sim->steady_residual < 1e-6);
  printf("  tether4: load at z = %.9f m (expected %.9f), steady residual %.2e N\n",
         sp_out(sim, "points.load.pos.z"), z, sim->steady_residual);
  /* and it stays there */
  sp_run(sim, 1.0);
  ENSURE_REL(sp_out(sim, "points.load.pos.z"), z, 1e-8);
  sp_free(sim, s);
}


/* the same line in 400 segments of 0.25 m: 1200 coordinates for the steady state's Newton,
 * whose matrix stays sparse (steady_jac.h; with the dense matrix this case took 7.7 s and 64 MB
 * to settle, sparse 0.28 s and 8 MB). Every settled height against the closed form. */
static void test_tether400_heights(void) {
  awe_spec *s = sp_load("scenarios/tests/tether400.yaml", NULL);
  awe_sim *sim = sp_sim(s, "trbdf2");
  if (!sim) return;
  const int nseg = 400;
  const double EA = 5e4, l0 = 0.25, d = 0.001;
  const double mseg = 724.0 * M_PI * d * d / 4 * l0;
  ENSURE(sim->m->npoint == nseg + 1);
  double z = 0.0, worst = 0.0;
  for (int j = 0; j < nseg; j++) {
    double mcum = 5.0 + 0.5 * mseg + (nseg - 1 - j) * mseg;
    z -= l0 * EA / (EA - mcum * G);
    char name[64];
    if (j < nseg - 1)
      snprintf(name, sizeof(name), "points.main_point_%d.pos.z", j + 1);
    else
      snprintf(name, sizeof(name), "points.load.pos.z");
    double e = fabs(sp_out(sim, name) - z);
    if (e > worst) worst = e;
  }
  ENSURE(worst < 1e-6);
  ENSURE_REL(sp_out(sim, "points.load.pos.z"), z, 1e-8);
  ENSURE(sim->steady_residual < 1e-6);
  printf("  tether400: load at z = %.9f m (expected %.9f), worst height error %.2e m, steady "
         "residual %.2e N\n", sp_out(sim, "points.load.pos.z"), z, worst, sim->steady_residual);
  sp_free(sim, s);
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_braked_winch_holds);
  RUN(test_winch_acceleration);
  RUN(test_winch_coulomb);
  RUN(test_winch_viscous);
  RUN(test_winch_held_load);
  RUN(test_winch_steady_torque);
  RUN(test_tether4_heights);
  RUN(test_tether400_heights);
  return harness_report();
}
