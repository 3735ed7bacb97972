/* test_winch_async.c: the winch's asynchronous machine and the electrical power (physics.md §5,
 * model/winch_machine.h, engine/winch.h).
 *
 *   curve      the torque-slip curve with WinchModels.jl's AsyncMachine numbers (u_nom 400/sqrt 3
 *              V, omega_sn 1500 rpm, omega_mn 1460 rpm, tau_n 121 N m, tau_b 363 N m): tau_n at the
 *              rated slip, the peak tau_b at the breakdown slip R2/L, tau_b/4 at twice the
 *              synchronous speed (field weakening), and the inverse slip gives the torque back
 *   acc        the drum's acceleration in a simulation (Kitepower's winch: drum 0.1615 m, gear 6.2,
 *              J 0.204 kg m^2, f_coulomb 122 N, c_vf 30.6 N s/m) equals WinchModels' closed form
 *              calc_acceleration(wm, set_speed, speed, force), transcribed below from
 *              src/async_generator.jl @48ccb7d without its set-speed rate limit, to 1e-9
 *   energy     a 10 kg load pulled out by 1000 N against the machine at a 2 m/s set-point,
 *              efficiency 0.9: at every 1 ms log step P_el = 0.9 (-tau_m w_s) when generating
 *              (1e-9); the mechanical energy in, integrated over 3 s, equals the drum's kinetic
 *              energy + friction losses + rotor losses tau_m (w_s - w) + the drive power -tau_m
 *              w_s (trapezoids over the same steps, 1e-5 relative); in the steady part the
 *              electrical energy is 0.9 (F v - losses) over 1 s (1e-6)
 *   torque     the same balance for the torque-controlled machine (-95 N m against 100 N m of
 *              load torque, drum 0.1 m, J 0.1 kg m^2, f_coulomb 20 N, c_vf 500 N s/m: it settles
 *              at 0.06 m/s within 0.04 s), P_el = 0.9 (-tau w)
 */
#include <math.h>
#include <string.h>

#include "test_physics_util.h"
#include "engine/rhs.h"
#include "model/winch_machine.h"

#define U_NOM (400.0 / sqrt(3.0))
#define OMEGA_SN (1500.0 / 60.0 * 2.0 * M_PI)
#define OMEGA_MN (1460.0 / 60.0 * 2.0 * M_PI)
#define TAU_N 121.0
#define TAU_B 363.0
#define R_DRUM 0.1615
#define GEAR 6.2
#define J_TOT 0.204
#define F_COUL 122.0
#define C_VF 30.6

/* WinchModels.jl calc_acceleration (AsyncMachine), its own formulas; max_force = 4000 N makes
 * its force factor 4000/max_force 1 */
static double wm_acc(double set_speed, double speed, double force) {
  double u2 = U_NOM * U_NOM;
  double X = u2 / (2.0 * OMEGA_SN * TAU_B), L = X / OMEGA_SN;
  double R2 = (u2 * (OMEGA_SN - OMEGA_MN)) / (2.0 * OMEGA_SN * OMEGA_SN) *
              (1.0 / TAU_N + sqrt(1.0 / (TAU_N * TAU_N) - 1.0 / (TAU_B * TAU_B)));
  double omega = GEAR / R_DRUM * speed, omega_sync = GEAR / R_DRUM * set_speed;
  double delta = omega_sync - omega, odm;
  if (fabs(omega_sync) <= OMEGA_SN)
    odm = (u2 * R2 * delta) / (OMEGA_SN * OMEGA_SN * (R2 * R2 + L * L * delta * delta));
  else
    odm = (u2 * R2 * delta) / (omega_sync * omega_sync * (R2 * R2 + L * L * delta * delta));
  double tau = F_COUL * R_DRUM / GEAR * omega / sqrt(omega * omega + 36.0) +
               C_VF * omega * R_DRUM * R_DRUM / (GEAR * GEAR);
  odm += R_DRUM / GEAR * force - tau;
  return R_DRUM / GEAR * odm / J_TOT;
}


static void test_curve(void) {
  awe_async_machine a;
  ENSURE(awe_async_init(&a, U_NOM, OMEGA_SN, OMEGA_MN, TAU_N, TAU_B) == 0);
  double rated = awe_async_torque(&a, OMEGA_SN, OMEGA_MN, NULL);
  double peak = awe_async_torque(&a, OMEGA_SN, OMEGA_SN - a.R2 / a.L, NULL);
  double weak = awe_async_torque(&a, 2.0 * OMEGA_SN, 2.0 * OMEGA_SN + a.R2 / a.L, NULL);
  printf("    R2 %.6g Ohm, L %.6g H, breakdown slip %.6g rad/s; tau(rated slip) %.9g, "
         "tau(R2/L) %.9g, at 2 omega_sn %.9g N m\n", a.R2, a.L, a.R2 / a.L, rated, peak, weak);
  ENSURE_REL(rated, TAU_N, 1e-12);
  ENSURE_REL(peak, TAU_B, 1e-12);
  ENSURE_REL(weak, -TAU_B / 4.0, 1e-12);
  ENSURE_REL(awe_async_tau_max(&a, 2.0 * OMEGA_SN), TAU_B / 4.0, 1e-12);
  /* the peak is the maximum: a little off the breakdown slip either way is less */
  ENSURE(awe_async_torque(&a, OMEGA_SN, OMEGA_SN - 1.01 * a.R2 / a.L, NULL) < peak);
  ENSURE(awe_async_torque(&a, OMEGA_SN, OMEGA_SN - 0.99 * a.R2 / a.L, NULL) < peak);
  for (double tau = -340.0; tau <= 340.0; tau += 68.0) {
    double d = awe_async_slip(&a, 100.0, tau, 0.95);
    ENSURE_NEAR(awe_async_torque(&a, 100.0, 100.0 - d, NULL), tau, 1e-9);
    ENSURE(fabs(d) <= a.R2 / a.L);
  }
  /* clamped at 0.95 tau_b */
  ENSURE_NEAR(awe_async_torque(&a, 100.0, 100.0 - awe_async_slip(&a, 100.0, 1e4, 0.95), NULL),
              0.95 * TAU_B, 1e-9);
  /* derivative */
  double dt, h = 1e-6;
  awe_async_torque(&a, 100.0, 97.0, &dt);
  ENSURE_REL(dt, (awe_async_torque(&a, 100.0, 97.0 + h, NULL) -
                  awe_async_torque(&a, 100.0, 97.0 - h, NULL)) / (2.0 * h), 1e-7);
  ENSURE(awe_async_init(&a, U_NOM, OMEGA_SN, OMEGA_SN, TAU_N, TAU_B) != 0);
  ENSURE(awe_async_init(&a, U_NOM, OMEGA_SN, OMEGA_MN, TAU_B, TAU_N) != 0);
}


/* winch_pull with the Kitepower winch as an AsyncMachine (or torque-controlled: async 0) */
static awe_sim *pull_sim(awe_spec **sp, const char *inputs, double v0, int async, double eta,
                         int steady) {
  const char *sets[] = {inputs, steady ? "run.steady_state=true" : "run.steady_state=false",
                        NULL};
  awe_spec *s = sp_load("scenarios/tests/winch_pull.yaml", sets);
  *sp = s;
  if (!s) return NULL;
  s->structure.winches[0].speed_controlled = 0;
  s->structure.winches[0].init_vel = v0;
  s->settings.drum_radius = async ? R_DRUM : 0.1;
  s->settings.gear_ratio = async ? GEAR : 1.0;
  s->settings.inertia_total = async ? J_TOT : 0.1;
  s->settings.f_coulomb = async ? F_COUL : 20.0;
  s->settings.c_vf = async ? C_VF : 500.0;
  s->settings.efficiency = eta;
  snprintf(s->settings.winch_model, sizeof(s->settings.winch_model), "%s",
           async ? "AsyncMachine" : "TorqueControlledMachine");
  return sp_sim(s, "rk8pd");
}


static void test_acc(void) {
  const double cases[][2] = {{0.5, 0.0}, {2.0, 1.5}, {-3.0, -2.2}, {1.0, 1.8},
                             {8.0, 7.5}, {-7.0, -7.4}, {0.0, 0.3}};
  for (size_t k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
    char in[160];
    snprintf(in, sizeof(in), "inputs=[{input: winches.drum.speed, type: constant, value: %g}]",
             cases[k][0]);
    awe_spec *s;
    awe_sim *sim = pull_sim(&s, in, cases[k][1], 1, 1.0, 0);
    if (!sim) return;
    awe_rhs(sim->t, sim->y, sim->dydt, &sim->ctx);
    double a = sim->dydt[sim->w->winch_x[0]], F = sp_out(sim, "winches.drum.force");
    double ref = wm_acc(cases[k][0], cases[k][1], F);
    printf("    set %+.1f m/s, speed %+.1f m/s: acc %.12g m/s^2 (WinchModels %.12g)\n",
           cases[k][0], cases[k][1], a, ref);
    ENSURE_NEAR(sp_out(sim, "winches.drum.vel"), cases[k][1], 1e-15);
    ENSURE_REL(a, ref, 1e-9);
    sp_free(sim, s);
  }
}


static double fric(double ratio, double fc, double cvf, double w) {
  return fc * ratio * w / sqrt(w * w + 36.0) + cvf * w * ratio * ratio;
}


/* energy balance over 3 s at 1 ms steps */
static void balance(int async) {
  const double eta = 0.9, dt = 0.001;
  const char *in = async ? "inputs=[{input: winches.drum.speed, type: constant, value: 2.0}, "
                           "{input: points.load.force.z, type: constant, value: -1000.0}]"
                         : "inputs=[{input: winches.drum.torque, type: constant, value: -95.0}, "
                           "{input: points.load.force.z, type: constant, value: -1000.0}]";
  awe_spec *s;
  awe_sim *sim = pull_sim(&s, in, 0.0, async, eta, 1);
  if (!sim) return;
  const awe_model *m = sim->m;
  double ratio = async ? R_DRUM / GEAR : 0.1, J = async ? J_TOT : 0.1;
  double fc = async ? F_COUL : 20.0, cvf = async ? C_VF : 500.0, ws = 2.0 / ratio;
  double E_loss = 0.0, E_drive = 0.0, P_prev[2] = {0.0, 0.0}, e2 = 0.0, el2 = 0.0, worst = 0.0;
  for (int k = 0; k <= 3000; k++) {
    if (k > 0 && sp_run(sim, k * dt)) return;
    double w = sp_out(sim, "winches.drum.vel") / ratio;
    double tau = async ? awe_async_torque(&m->winch_machine[0], ws, w, NULL) : -95.0;
    double Pd = async ? tau * ws : tau * w; /* power the drive puts into the shaft */
    double Pl = fric(ratio, fc, cvf, w) * w + (async ? tau * (ws - w) : 0.0);
    double Pel = Pd <= 0.0 ? -eta * Pd : -Pd / eta;
    double e = fabs(sp_out(sim, "winches.drum.power_electrical") - Pel) / (fabs(Pel) + 1.0);
    if (e > worst) worst = e;
    if (k > 0) {
      E_loss += 0.5 * dt * (P_prev[0] + Pl);
      E_drive += 0.5 * dt * (P_prev[1] - Pd);
    }
    P_prev[0] = Pl;
    P_prev[1] = -Pd;
    if (k == 2000) {
      e2 = sp_out(sim, "winches.drum.energy");
      el2 = sp_out(sim, "winches.drum.energy_electrical");
    }
  }
  double w = sp_out(sim, "winches.drum.vel") / ratio, v = w * ratio;
  double F = sp_out(sim, "winches.drum.force");
  double E = sp_out(sim, "winches.drum.energy");
  double Eel = sp_out(sim, "winches.drum.energy_electrical");
  double KE = 0.5 * J * w * w;
  double tau = async ? awe_async_torque(&m->winch_machine[0], ws, w, NULL) : -95.0;
  double Pl = fric(ratio, fc, cvf, w) * w + (async ? tau * (ws - w) : 0.0);
  printf("    %s: v(3 s) %.6g m/s, F %.6g N; mechanical in %.6f J = kinetic %.6f + losses %.6f "
         "+ drive %.6f (sum %.6f); electrical %.6f J; worst P_el error %.3g; steady part: "
         "E_el %.6f J against eta (F v - losses) 1 s = %.6f J\n", async ? "AsyncMachine" :
         "TorqueControlledMachine", v, F, E, KE, E_loss, E_drive, KE + E_loss + E_drive, Eel,
         worst, Eel - el2, eta * (F * v - Pl));
  ENSURE(worst < 1e-9);
  ENSURE_REL(E, KE + E_loss + E_drive, 1e-5);
  ENSURE(Eel < E);
  ENSURE_REL(Eel - el2, eta * (F * v - Pl), 1e-6);
  ENSURE_REL(E - e2, F * v, 1e-6);
  /* steady: the drum no longer accelerates, r F - tau_f + tau_m = 0 */
  ENSURE_NEAR(ratio * F - fric(ratio, fc, cvf, w) + tau, 0.0, 1e-6 * ratio * F);
  sp_free(sim, s);
}


static void test_energy_async(void) { balance(1); }
static void test_energy_torque(void) { balance(0); }


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_curve);
  RUN(test_acc);
  RUN(test_energy_async);
  RUN(test_energy_torque);
  return harness_report();
}
