/* test_pump_reel_in.c: the pumping controller's reel-in on force (controller_pump.c,
 * reel_in_force) against a drum and kite whose steady state is known in closed form.
 *
 * Plant (explicit Euler at 0.1 ms, the controller sampled every 20 ms and held): a drum of
 * inertia J = 1 kg m^2 and radius r = 0.11 m with viscous friction c = 30 N s/m at the line,
 * J/r dv/dt = tau + F r - c v r (v paying out, tau the controller's torque), and a kite whose
 * pull falls as it is reeled in more slowly, F = F0 - D v with F0 = 500 N, D = 300 N s/m.
 *   force         reel_in_force 950 N, speed limit 3 m/s: the drum settles where the kite
 *                 pulls 950 N, v = (F0 - 950) / D = -1.5 m/s; after 40 s |F - 950| < 0.1 %
 *                 and v within 0.5 % (the force loop's integral takes up the friction)
 *   speed limit   the same with a 1 m/s limit: the speed loop holds v = -1 m/s (within 0.5 %)
 *                 and the kite pulls F0 + D = 800 N, less than the set-point
 *   ramp          ramp_time 2 s: the force set-point moves linearly from the force at the
 *                 switch; 1 s in, the drum is still paying out less than it would on a step
 *   law ramp      back to reel-out on the square-root law (kv 0.05) with ramp_time 2 s: the
 *                 law's speed set-point starts at the reel-in speed and moves linearly to
 *                 kv sqrt(F) (1e-12 at a quarter and at the end of the ramp), so the drum is
 *                 still reeling in 0.5 s after the switch
 */
#include <math.h>
#include <string.h>

#include "control/controller_internal.h"
#include "harness.h"

#define J 1.0
#define R 0.11
#define C_F 30.0
#define F0 500.0
#define D_K 300.0

typedef struct {
  double F, v, L;
} plant;


static void pump_cfg(awe_ctrl *c, int meas[3], double limit, double ramp) {
  memset(c, 0, sizeof(*c));
  awe_controller_spec *p = &c->cfg;
  p->kp = 20.0;
  p->ki = 10.0;
  p->limits[0] = -INFINITY;
  p->limits[1] = INFINITY;
  p->rate_limit = NAN;
  p->d_filter = NAN;
  p->reel_out_force = 4000.0;
  p->reel_in_speed = limit;
  p->reel_in_force = 950.0;
  p->min_length = 10.0;
  p->max_length = 100.0;   /* the plant starts beyond it: the first sample switches to reel-in */
  p->force_bandwidth = 3.0;
  p->force_kp = 1.0;
  p->ramp_time = ramp;
  c->period = 0.02;
  c->winch_ratio = R;
  meas[0] = 0;
  meas[1] = 1;
  meas[2] = 2;
  c->meas_y = meas;
}


/* run t_end seconds from v = 0 (kite pulling F0); returns the plant, and the speed at t_probe */
static plant run(const awe_ctrl *c, double t_end, double t_probe, double *v_probe) {
  awe_ctrl_state s;
  memset(&s, 0, sizeof(s));
  plant x = {F0, 0.0, 150.0};
  double tau = 0.0, dep = 0.0, h = 1e-4;
  long n = lround(t_end / h), every = lround(c->period / h);
  for (long k = 0; k <= n; k++) {
    double t = (double)k * h;
    if (k % every == 0) {
      double y[3] = {x.F, x.v, x.L};
      awe_pump_step(c, &s, t, y, &tau, &dep);
    }
    if (v_probe && fabs(t - t_probe) < 0.5 * h) *v_probe = x.v;
    double a = R * (tau + x.F * R - C_F * x.v * R) / J;
    x.v += h * a;
    x.L += h * x.v;
    x.F = F0 - D_K * x.v;
  }
  return x;
}


static void test_force(void) {
  awe_ctrl c;
  int meas[3];
  pump_cfg(&c, meas, 3.0, 0.0);
  plant x = run(&c, 40.0, -1.0, NULL);
  ENSURE(fabs(x.F - 950.0) < 0.95);
  ENSURE(fabs(x.v + 1.5) < 0.0075);
}


static void test_speed_limit(void) {
  awe_ctrl c;
  int meas[3];
  pump_cfg(&c, meas, 1.0, 0.0);
  plant x = run(&c, 40.0, -1.0, NULL);
  ENSURE(fabs(x.v + 1.0) < 0.005);
  ENSURE(fabs(x.F - 800.0) < 1.5);
}


static void test_ramp(void) {
  awe_ctrl c;
  int meas[3];
  double v_step = 0.0, v_ramp = 0.0;
  pump_cfg(&c, meas, 3.0, 0.0);
  run(&c, 1.0, 1.0, &v_step);
  pump_cfg(&c, meas, 3.0, 2.0);
  run(&c, 1.0, 1.0, &v_ramp);
  /* F0 = 500 N is below the set-point: the step pulls in harder at once */
  ENSURE(v_step < v_ramp);
  ENSURE(v_ramp < 0.0);
}


static void test_law_ramp(void) {
  awe_ctrl c;
  int meas[3];
  pump_cfg(&c, meas, 3.0, 2.0);
  c.cfg.kv = 0.05;
  c.cfg.max_length = 150.0;   /* starts there: reel in 1 m, then back to reel-out */
  c.cfg.min_length = 149.0;
  awe_ctrl_state s;
  memset(&s, 0, sizeof(s));
  plant x = {F0, 0.0, 150.0};
  double tau = 0.0, dep = 0.0, h = 1e-4, t_sw = -1.0, v_sw = 0.0;
  int checked = 0;
  long every = lround(c.period / h);
  for (long k = 0; k <= lround(20.0 / h); k++) {
    double t = (double)k * h;
    if (k % every == 0) {
      double y[3] = {x.F, x.v, x.L};
      int before = s.pphase;
      awe_pump_step(&c, &s, t, y, &tau, &dep);
      if (before == 1 && s.pphase == 0) {
        t_sw = t;
        v_sw = x.v;
      }
      if (t_sw >= 0.0) {
        double q = fmin(1.0, (t - t_sw) / 2.0), law = 0.05 * sqrt(x.F);
        if (fabs(q - 0.25) < 1e-9 || (fabs(q - 1.0) < 1e-12 && checked == 1)) {
          ENSURE_NEAR(s.sp, v_sw + (law - v_sw) * q, 1e-12);
          checked++;
        }
        if (fabs(t - t_sw - 0.5) < 1e-9) ENSURE(x.v < 0.0 && s.sp < 0.0);
      }
    }
    double a = R * (tau + x.F * R - C_F * x.v * R) / J;
    x.v += h * a;
    x.L += h * x.v;
    x.F = F0 - D_K * x.v;
    if (checked == 2) break;
  }
  ENSURE(t_sw > 0.0 && v_sw < -0.5);
  ENSURE(checked == 2);
}


int main(void) {
  RUN(test_force);
  RUN(test_speed_limit);
  RUN(test_ramp);
  RUN(test_law_ramp);
  return harness_report();
}
