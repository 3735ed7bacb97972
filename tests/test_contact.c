/* test_contact.c: the ground contact (engine/ground.h) and the crash check (solve/sim.h).
 *
 * Scenario: scenarios/tests/ground_contact.yaml (tests/models/ground_points.yaml), ground at
 * z = 0, 5 Hz (omega = 31.416 rad/s), damping ratio 0.7, friction 0.5 over 0.05 m/s.
 *   settle      the 2 kg ball dropped from 1 m comes to rest at z = -g/omega^2 = -m g/k
 *               (k = m omega^2): -9.9396 mm, within 1 %
 *   rebound     with damping ratio 0.1 and 0.3, the height the ball bounces back to equals the
 *               clamped spring-damper's closed form (below) within 0.5 %
 *   friction    the 3 kg slider, pushed to 15 m/s with 60 N for 1 s, then free: it
 *               decelerates at mu g = 4.905 m/s^2 within 0.1 % while |v| >> 0.05 m/s, and
 *               stops (|v| < 1e-3 m/s) at 1 s + v1/(mu g)
 *   no ground   ground.enabled = false: the ball falls through z = 0 as before (z(1 s) =
 *               1 - g/2)
 *   crash       the 2plate kite in 12 m/s of wind (it stalls and falls, scenarios/
 *               2plate_reel_out.yaml): awe_sim_step stops at the crash, with the wing, a
 *               time, a height just below the ground and an impact speed > 1 m/s; with
 *               run.on_crash = continue it is recorded and the run reaches its end
 * Closed form of the contact (d = -z the penetration, while the contact pushes):
 *   d'' = g - omega^2 d - 2 zeta omega d',  d(0) = 0, d'(0) = v0 = sqrt(2 g h)
 *   d = g/omega^2 + exp(-zeta omega t) (A cos(w t) + B sin(w t)),  w = omega sqrt(1 - zeta^2)
 *   A = -g/omega^2, B = (v0 + zeta omega A)/w;  the ball leaves when the push
 *   omega^2 d + 2 zeta omega d' reaches 0 (the ground does not pull), at height -d with
 *   speed -d', and rises to -d + d'^2/(2 g).
 */
#include <math.h>

#include "test_physics_util.h"

#define G 9.81
#define SCEN "scenarios/tests/ground_contact.yaml"


static void test_settle(void) {
  awe_spec *s = sp_load(SCEN, NULL);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  sp_run(sim, 5.0);
  double omega = 2.0 * M_PI * 5.0, pen = G / (omega * omega);
  double z = sp_out(sim, "points.ball.pos.z");
  printf("    ball at rest: z = %.6f mm (m g/k = %.6f mm)\n", 1e3 * z, -1e3 * pen);
  ENSURE_REL(-z, pen, 0.01);
  ENSURE_NEAR(sp_out(sim, "points.ball.vel.z"), 0.0, 1e-6);
  /* the contact carries the weight: total force 0 */
  ENSURE_NEAR(sp_out(sim, "points.ball.force.z"), 0.0, 1e-6);
  sp_free(sim, s);
}


/* the closed form's rebound height for damping ratio zeta after a drop from h */
static double rebound_height(double zeta, double h) {
  double omega = 2.0 * M_PI * 5.0, w = omega * sqrt(1.0 - zeta * zeta), v0 = sqrt(2.0 * G * h);
  double A = -G / (omega * omega), B = (v0 + zeta * omega * A) / w;
  double d = 0.0, dd = 0.0;
  double t_lo = 1e-6, t_hi = 0.0;
  /* the push omega^2 d + 2 zeta omega d' (positive at impact) */
  for (double t = 1e-6; t < 1.0; t += 1e-5) {
    double e = exp(-zeta * omega * t), c = cos(w * t), sn = sin(w * t);
    d = G / (omega * omega) + e * (A * c + B * sn);
    dd = -zeta * omega * e * (A * c + B * sn) + e * w * (-A * sn + B * c);
    if (omega * omega * d + 2.0 * zeta * omega * dd <= 0.0) {
      t_hi = t;
      break;
    }
    t_lo = t;
  }
  for (int k = 0; k < 60 && t_hi > 0.0; k++) {
    double t = 0.5 * (t_lo + t_hi);
    double e = exp(-zeta * omega * t), c = cos(w * t), sn = sin(w * t);
    d = G / (omega * omega) + e * (A * c + B * sn);
    dd = -zeta * omega * e * (A * c + B * sn) + e * w * (-A * sn + B * c);
    if (omega * omega * d + 2.0 * zeta * omega * dd > 0.0) t_lo = t;
    else t_hi = t;
  }
  return -d + dd * dd / (2.0 * G);
}


static void test_rebound(void) {
  static const char *const z01[] = {"ground.damping_ratio=0.1", NULL};
  static const char *const z03[] = {"ground.damping_ratio=0.3", NULL};
  const char *const *sets[2] = {z01, z03};
  const double zeta[2] = {0.1, 0.3};
  for (int k = 0; k < 2; k++) {
    awe_spec *s = sp_load(SCEN, sets[k]);
    awe_sim *sim = sp_sim(s, "rk8pd");
    if (!sim) return;
    /* impact at sqrt(2/g) = 0.4515 s, contact ~0.1 s, apex ~0.3 s later: the highest point
     * after the contact, logged every 1 ms */
    double zmax = -INFINITY;
    int left = 0;
    for (int i = 1; i <= 1200; i++) {
      sp_run(sim, 0.001 * i);
      double z = sp_out(sim, "points.ball.pos.z"), v = sp_out(sim, "points.ball.vel.z");
      if (sim->t > 0.46 && v > 0.0 && z > 0.0) left = 1;
      if (left) zmax = fmax(zmax, z);
    }
    double h1 = rebound_height(zeta[k], 1.0);
    double e = sqrt(h1); /* restitution v_out/v_in, nearly: the drop is 1 m */
    printf("    damping ratio %.1f: rebound %.5f m (closed form %.5f m, e ~ %.3f)\n", zeta[k],
           zmax, h1, e);
    ENSURE(left);
    ENSURE_REL(zmax, h1, 0.005);
    sp_free(sim, s);
  }
}


static void test_friction(void) {
  awe_spec *s = sp_load(SCEN, NULL);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  sp_run(sim, 1.5);
  double v1 = sp_out(sim, "points.slider.vel.x");
  sp_run(sim, 2.5);
  double v2 = sp_out(sim, "points.slider.vel.x");
  double mug = 0.5 * G;
  printf("    slider: v = %.4f -> %.4f m/s in 1 s: deceleration %.5f m/s^2 (mu g = %.5f)\n", v1,
         v2, v1 - v2, mug);
  ENSURE(v2 > 1.0);
  ENSURE_REL(v1 - v2, mug, 1e-3);
  ENSURE_NEAR(sp_out(sim, "points.slider.vel.y"), 0.0, 1e-9);
  /* at rest after v(1.5 s)/mu g more (plus the regularisation's slow tail) */
  sp_run(sim, 1.5 + v1 / mug + 0.2);
  ENSURE(fabs(sp_out(sim, "points.slider.vel.x")) < 1e-3);
  sp_free(sim, s);
}


static void test_no_ground(void) {
  static const char *const off[] = {"ground.enabled=false", NULL};
  awe_spec *s = sp_load(SCEN, off);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  sp_run(sim, 1.0);
  ENSURE_NEAR(sp_out(sim, "points.ball.pos.z"), 1.0 - 0.5 * G, 1e-8);
  ENSURE(!sim->crash.happened);
  sp_free(sim, s);
}


static void test_crash(void) {
  for (int cont = 0; cont < 2; cont++) {
    const char *sets[] = {"settings.environment.v_wind=12", "run.duration=8",
                          cont ? "run.on_crash=continue" : "run.on_crash=stop", NULL};
    awe_spec *s = sp_load("scenarios/2plate_reel_out.yaml", sets);
    awe_sim *sim = sp_sim(s, NULL);
    if (!sim) return;
    awe_err err = {0};
    long n = awe_sim_log_steps(sim->m);
    for (long k = 1; k <= n; k++) {
      ENSURE(awe_sim_step(sim, awe_sim_log_time(sim->m, k), &err) == AWE_OK);
      if (sim->crash.happened && !cont) break;
    }
    const awe_crash *c = &sim->crash;
    ENSURE(c->happened);
    if (!c->happened) {
      sp_free(sim, s);
      return;
    }
    printf("    on_crash %s: wing %s at t = %.4f s, %s z = %.2e m, impact %.2f m/s (vertical "
           "%.2f); run ended at %.4f s\n", cont ? "continue" : "stop",
           sim->m->wing_name[c->wing], c->t, c->point >= 0 ? sim->m->point_name[c->point] :
           "origin", c->z, c->v_total, c->v_vertical, sim->t);
    ENSURE(!strcmp(sim->m->wing_name[c->wing], "main_wing"));
    ENSURE(c->t > 1.0 && c->t < 8.0);
    ENSURE(c->z < 0.0 && c->z > -0.5);
    ENSURE(c->v_total > 1.0 && c->v_vertical < 0.0);
    if (cont) {
      ENSURE_NEAR(sim->t, 8.0, 1e-9);
    } else {
      ENSURE_NEAR(sim->t, c->t, 1e-12);
      /* the outputs are those at the crash */
      ENSURE(sp_out(sim, "wings.main_wing.pos.z") < 5.0);
    }
    sp_free(sim, s);
  }
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_settle);
  RUN(test_rebound);
  RUN(test_friction);
  RUN(test_no_ground);
  RUN(test_crash);
  return harness_report();
}
