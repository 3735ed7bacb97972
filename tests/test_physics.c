/* test_physics.c: points and segments against closed-form answers.
 *
 * Free fall, world-frame damping, drag terminal speeds and drag acceleration
 * (SymbolicAWEModels test_point.jl @04eb886), the damped spring-mass oscillator (frequency and
 * logarithmic decrement), the hanging-mass stretch m g l0/(unit_k - m g) (test_segment.jl
 * @0689ba4), the small-angle pendulum period and energy conservation, the wind profile laws.
 * Every number comes from the simulation API (awe_sim_* outputs of the registry).
 */
#include "engine/atmosphere.h"
#include "test_physics_util.h"

#define G 9.81


static void test_free_fall(void) {
  awe_spec *s = sp_load("scenarios/tests/point_fall.yaml", NULL);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  for (int k = 1; k <= 10; k++) {
    sp_run(sim, 0.1 * k);
    double t = sim->t;
    ENSURE_NEAR(sp_out(sim, "points.fall.pos.z"), 100.0 - 0.5 * G * t * t, 1e-9);
    ENSURE_NEAR(sp_out(sim, "points.fall.vel.z"), -G * t, 1e-9);
    ENSURE_NEAR(sp_out(sim, "points.fall.pos.x"), 0.0, 1e-12);
  }
  sp_free(sim, s);
}


/* a falling point with world_frame_damping c: v(t) = -(g/c)(1 - exp(-c t)), terminal g/c */
static void test_world_frame_damping(void) {
  awe_spec *s = sp_load("scenarios/tests/point_fall.yaml", NULL);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  const double c = 0.7;
  sp_run(sim, 2.0);
  ENSURE_NEAR(sp_out(sim, "points.damped.vel.z"), -(G / c) * (1.0 - exp(-c * 2.0)), 1e-8);
  sp_run(sim, 30.0);
  ENSURE_NEAR(sp_out(sim, "points.damped.vel.z"), -G / c, 1e-4);
  ENSURE_NEAR(-sp_out(sim, "points.damped.vel.z"), 14.01, 0.01);
  sp_free(sim, s);
}


/* terminal speed under drag |v| = sqrt(2 m g/(rho(h) cd A)); the drag then carries the weight */
static void test_drag_terminal_velocity(void) {
  awe_spec *s = sp_load("scenarios/tests/point_fall.yaml", NULL);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  const double m = 2.3, cd = 0.33, A = 4.2;
  sp_run(sim, 20.0);
  /* from 5000 m: still in thin air, falling faster than at sea level */
  double z = sp_out(sim, "points.drag_high.pos.z");
  double rho_h = awe_density(&sim->m->env, z);
  double vt_h = sqrt(2 * m * G / (rho_h * cd * A));
  ENSURE(z > 4000.0);
  ENSURE(rho_h < awe_density(&sim->m->env, 0.0));
  ENSURE_REL(-sp_out(sim, "points.drag_high.vel.z"), vt_h, 0.01);
  ENSURE(-sp_out(sim, "points.drag_high.vel.z") > sqrt(2 * m * G / (1.225 * cd * A)));
  /* from 100 m: below the ground after 100 s, where rho = rho(0) (heights clamp at 0) */
  sp_run(sim, 100.0);
  z = sp_out(sim, "points.drag_low.pos.z");
  double vt = sqrt(2 * m * G / (awe_density(&sim->m->env, z) * cd * A));
  ENSURE(z < 0.0);
  ENSURE_REL(-sp_out(sim, "points.drag_low.vel.z"), vt, 1e-6);
  ENSURE_NEAR(sp_out(sim, "points.drag_low.vel.x"), 0.0, 0.01);
  /* total force ~ 0: the drag force is m g upward */
  ENSURE_NEAR(sp_out(sim, "points.drag_low.force.z"), 0.0, 1e-5);
  sp_free(sim, s);
}


/* a 50 kg point at rest in 15 m/s wind (g = 0): a = rho cd A v^2 / (2 m) = 1.378 m/s^2 */
static void test_drag_acceleration(void) {
  awe_spec *s = sp_load("scenarios/tests/point_wind.yaml", NULL);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  double rho = awe_density(&sim->m->env, 10.0);
  double a = 0.5 * rho * 1.0 * 0.5 * 15.0 * 15.0 / 50.0;
  ENSURE_REL(sp_out(sim, "points.sail.force.x") / 50.0, a, 1e-12);
  ENSURE_REL(a, 1.378, 0.01);
  ENSURE_NEAR(sp_out(sim, "points.sail.force.y"), 0.0, 1e-12);
  sp_run(sim, 0.01);
  ENSURE_REL(sp_out(sim, "points.sail.vel.x") / 0.01, a, 1e-3);
  sp_free(sim, s);
}


/* extrema of v[0..n) (local maxima if sign > 0, minima if < 0), parabolic interpolation:
 * times (in samples) and values */
static int extrema(const double *v, int n, int sign, double *tk, double *vk, int cap) {
  int c = 0;
  for (int i = 1; i + 1 < n && c < cap; i++) {
    double a = sign * v[i - 1], b = sign * v[i], d = sign * v[i + 1];
    if (b > a && b >= d) {
      double den = a - 2 * b + d, off = den != 0 ? 0.5 * (a - d) / den : 0.0;
      tk[c] = i + off;
      vk[c] = sign * (b - 0.25 * (a - d) * off);
      c++;
    }
  }
  return c;
}


/* damped oscillation of models/spring_mass: omega_d = omega_n sqrt(1 - zeta^2), zeta from the
 * logarithmic decrement, against k = 1000 N/m, m = 1 kg, c = 2 N s/m */
static void test_spring_mass(void) {
  awe_spec *s = sp_load("scenarios/tests/spring_mass.yaml", NULL);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  static double z[3100];
  int n = sp_series(sim, "points.mass.pos.z", 3.0, z, 3100);
  const double dt = 0.001, k = 1000.0, m = 1.0, c = 2.0, z_rest = -1.0;
  for (int i = 0; i < n; i++) z[i] -= z_rest;
  double tk[64], vk[64];
  int np = extrema(z, n, -1, tk, vk, 64); /* downward peaks, the first one at t = 0 is skipped */
  ENSURE(np >= 10);
  double wn = sqrt(k / m), zeta = c / (2 * sqrt(k * m)), wd = wn * sqrt(1 - zeta * zeta);
  double T = (tk[np - 1] - tk[0]) * dt / (np - 1);
  ENSURE_REL(2 * M_PI / T, wd, 0.003);
  double delta = log(vk[0] / vk[np - 1]) / (np - 1);
  double zeta_m = delta / sqrt(4 * M_PI * M_PI + delta * delta);
  ENSURE_REL(zeta_m, zeta, 0.03);
  printf("  spring-mass: omega_d %.5f rad/s (expected %.5f), zeta %.5f (expected %.5f)\n",
         2 * M_PI / T, wd, zeta_m, zeta);
  sp_free(sim, s);
}


/* 5 kg on a 10 m line: stretch m g l0/(unit_k - m g) with m = 5 + half the line mass; the
 * oscillation before it settles has the frequency and damping of the linearized line */
static void test_hanging_mass(void) {
  awe_spec *s = sp_load("scenarios/tests/hanging_mass.yaml", NULL);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  const double l0 = 10.0, EA = 1000.0, cu = 100.0, d = 0.005;
  const double m = 5.0 + 0.5 * 724.0 * M_PI * d * d / 4 * l0;
  ENSURE_REL(sim->w->mass[1], m, 1e-12);
  const double stretch = m * G * l0 / (EA - m * G);
  static double z[1000];
  int n = sp_series(sim, "points.mass.pos.z", 8.0, z, 1000);
  double len = l0 + stretch;
  for (int i = 0; i < n; i++) z[i] += len;
  double tk[32], vk[32];
  int np = extrema(z, n, -1, tk, vk, 32);
  ENSURE(np >= 3);
  /* F = EA (1 - l0/len): the stiffness about len is EA l0/len^2 (SymbolicAWEModels' test uses
   * unit_k/len, 5 % higher, within its 10 % tolerance) */
  double k = EA * l0 / (len * len), c = cu / len;
  double wn = sqrt(k / m), zeta = c / (2 * sqrt(k * m)), wd = wn * sqrt(1 - zeta * zeta);
  double T = (tk[np - 1] - tk[0]) * 0.01 / (np - 1);
  ENSURE_REL(2 * M_PI / T, wd, 0.01);
  ENSURE_REL(2 * M_PI / T, sqrt(EA / len / m) * sqrt(1 - zeta * zeta), 0.1);
  double delta = log(vk[0] / vk[1]);
  ENSURE_REL(delta / sqrt(4 * M_PI * M_PI + delta * delta), zeta, 0.05);
  sp_run(sim, 50.0);
  ENSURE_REL(-sp_out(sim, "points.mass.pos.z"), l0 + stretch, 1e-9);
  ENSURE_REL(sp_out(sim, "segments.line.force"), m * G, 1e-9);
  ENSURE_REL(sp_out(sim, "segments.line.len"), l0 + stretch, 1e-9);
  sp_free(sim, s);
}


/* kinetic + gravity + line energy of the pendulum bob (segment law integrated) */
static double pendulum_energy(const awe_sim *sim) {
  double vx = sp_out(sim, "points.bob.vel.x"), vy = sp_out(sim, "points.bob.vel.y"),
         vz = sp_out(sim, "points.bob.vel.z"), z = sp_out(sim, "points.bob.pos.z");
  double len = sp_out(sim, "segments.rod.len"), l0 = 1.0, EA = 1e6;
  double kappa = len > l0 ? 1.0 : 0.1;
  double V = kappa * EA * (len - l0 - l0 * log(len / l0));
  return 0.5 * (vx * vx + vy * vy + vz * vz) + G * z + V;
}


/* small-angle period 2 pi sqrt(L/g) within 0.5 %, the 10-degree period within 0.05 %, and
 * the energy constant within 1e-5 of the swing energy m g L (1 - cos 10 deg) over 10 periods */
static void pendulum_case(const char *solver, double tol) {
  char a1[64], a2[64];
  snprintf(a1, sizeof(a1), "run.abs_tol=%g", tol);
  snprintf(a2, sizeof(a2), "run.rel_tol=%g", tol);
  const char *sets[] = {a1, a2, NULL};
  awe_spec *s = sp_load("scenarios/pendulum.yaml", sets);
  awe_sim *sim = sp_sim(s, solver);
  if (!sim) return;
  const double L = 1.0, th0 = 10.0 * M_PI / 180;
  double E0 = pendulum_energy(sim), Eswing = G * L * (1 - cos(th0)), dEmax = 0.0;
  double xprev = sp_out(sim, "points.bob.pos.x"), tprev = 0.0, tc[32];
  int nc = 0;
  long ns = awe_sim_log_steps(sim->m);
  for (long k = 1; k <= ns; k++) {
    if (sp_step(sim, k)) break;
    double x = sp_out(sim, "points.bob.pos.x");
    if ((xprev > 0) != (x > 0) && nc < 32) tc[nc++] = tprev + (sim->t - tprev) * xprev / (xprev - x);
    xprev = x;
    tprev = sim->t;
    double dE = fabs(pendulum_energy(sim) - E0);
    if (dE > dEmax) dEmax = dE;
  }
  ENSURE(nc >= 19);
  double T = 2 * (tc[nc - 1] - tc[0]) / (nc - 1);
  double T0 = 2 * M_PI * sqrt(L / G);
  ENSURE_REL(T, T0, 0.005);
  ENSURE_REL(T, 2.00989, 5e-4);
  ENSURE(dEmax / Eswing < 1e-5);
  printf("  pendulum (%s, tol %g): period %.5f s (small-angle %.5f s), max |dE|/E_swing %.2e\n",
         solver, tol, T, T0, dEmax / Eswing);
  sp_free(sim, s);
}


static void test_pendulum_rk8pd(void) { pendulum_case("rk8pd", 1e-9); }
static void test_pendulum_msbdf(void) { pendulum_case("msbdf", 1e-10); }


/* the wind profile laws (test_profile_law.jl @0689ba4) */
static void test_wind_profile_laws(void) {
  awe_env e;
  memset(&e, 0, sizeof(e));
  e.h_ref = 6.0;
  e.alpha = 0.08163;
  e.z0 = 2e-4;
  const double hs[5] = {10, 50, 100, 200, 500};
  for (int law = 0; law <= 3; law++) {
    e.profile_law = law;
    double prev = 0.0;
    for (int i = 0; i < 5; i++) {
      double z = hs[i], f = awe_wind_factor(&e, z);
      double fe = 1.0;
      double lg = log(z / e.z0) / log(e.h_ref / e.z0), ex = pow(z / e.h_ref, e.alpha);
      if (law == 1) fe = ex;
      if (law == 2) fe = lg;
      if (law == 3) fe = lg + (lg - ex);
      ENSURE_REL(f, fe, 1e-14);
      if (law > 0) ENSURE(f > prev);
      prev = f;
    }
    ENSURE_NEAR(awe_wind_factor(&e, e.h_ref), 1.0, 1e-14);
    ENSURE_NEAR(awe_wind_factor(&e, -5.0), awe_wind_factor(&e, 1.0), 0.0); /* clamped at 1 m */
  }
  /* hand values at 100 m: EXP exp(0.08163 ln(100/6)) = 1.25817,
   * LOG ln(100/2e-4)/ln(6/2e-4) = 13.12236/10.30895 = 1.27291, EXPLOG 2 LOG - EXP = 1.28765 */
  e.profile_law = 1;
  ENSURE_NEAR(awe_wind_factor(&e, 100.0), pow(100.0 / 6.0, 0.08163), 1e-15);
  ENSURE_NEAR(awe_wind_factor(&e, 100.0), 1.25817, 1e-5);
  e.profile_law = 2;
  ENSURE_NEAR(awe_wind_factor(&e, 100.0), 1.27291, 1e-5);
  e.profile_law = 3;
  ENSURE_NEAR(awe_wind_factor(&e, 100.0), 1.28765, 1e-5);
  /* density: fastexp is AtmosphericModels' (1 + x/1024)^1024 */
  ENSURE_REL(awe_fastexp(-1.0), pow(1.0 - 1.0 / 1024, 1024), 1e-13);
  ENSURE_REL(awe_fastexp(-0.5), exp(-0.5), 1e-3);
  e.rho_0 = 1.225;
  e.temp_ref = 15.0;
  ENSURE_NEAR(awe_density(&e, -10.0), 1.225, 0.0);
  ENSURE_REL(awe_density(&e, 1000.0), 1.225 * pow(1 - 1000.0 / 8550 / 1024, 1024), 1e-13);
}


/* the same through the model: drag on fixed probes, F = rho cd A |v| v / 2, v = f(z) v_wind
 * toward +x, for every law (scenario settings switched with --set) */
static void test_wind_profile_probes(void) {
  const char *names[5] = {"h10", "h50", "h100", "h200", "h500"};
  const double hs[5] = {10, 50, 100, 200, 500};
  for (int law = 0; law <= 3; law++) {
    char set[64];
    snprintf(set, sizeof(set), "settings.environment.profile_law=%d", law);
    const char *sets[] = {set, NULL};
    awe_spec *s = sp_load("scenarios/tests/probes.yaml", sets);
    awe_sim *sim = sp_sim(s, NULL);
    if (!sim) return;
    double prev = 0.0;
    for (int i = 0; i < 5; i++) {
      char nm[64];
      snprintf(nm, sizeof(nm), "points.%s.force.x", names[i]);
      double v = 10.0 * awe_wind_factor(&sim->m->env, hs[i]);
      double rho = awe_density(&sim->m->env, hs[i]);
      double F = sp_out(sim, nm);
      ENSURE_REL(F, 0.5 * rho * v * v, 1e-9);
      snprintf(nm, sizeof(nm), "points.%s.force.y", names[i]);
      ENSURE_NEAR(sp_out(sim, nm), 0.0, 1e-9);
      if (law == 0) ENSURE_REL(v, 10.0, 1e-15);
      else ENSURE(v > prev);
      prev = v;
    }
    sp_free(sim, s);
  }
  /* no wind: no force */
  const char *sets0[] = {"settings.environment.v_wind=0", "settings.environment.profile_law=3",
                         NULL};
  awe_spec *s = sp_load("scenarios/tests/probes.yaml", sets0);
  awe_sim *sim = sp_sim(s, NULL);
  if (sim) ENSURE_NEAR(sp_out(sim, "points.h500.force.x"), 0.0, 1e-9);
  sp_free(sim, s);
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_free_fall);
  RUN(test_world_frame_damping);
  RUN(test_drag_terminal_velocity);
  RUN(test_drag_acceleration);
  RUN(test_spring_mass);
  RUN(test_hanging_mass);
  RUN(test_pendulum_rk8pd);
  RUN(test_pendulum_msbdf);
  RUN(test_wind_profile_laws);
  RUN(test_wind_profile_probes);
  return harness_report();
}
