/* test_control.c: closed-loop controllers (controller.h) against analytic discrete-time loops.
 *
 * Plant: scenarios/tests/ctl_spring.yaml, a 1 kg mass on a spring k = 1000 N/m (undamped,
 * x = z + 1000 m), force input u held over each period T (zero-order hold). Exact
 * discretisation, w = sqrt(k/m):
 *   x_{k+1} = cos(wT) x_k + sin(wT)/w v_k + (1 - cos(wT))/k u_k
 *   v_{k+1} = -w sin(wT) x_k + cos(wT) v_k + sin(wT)/(m w) u_k
 * and between samples the same with T -> tau. The controller recursion is written out here
 * from the equations of controller.h (not by calling the library's PID).
 *   zoh           the simulated position at every log time (also between samples: period
 *                 0.01 s, log 0.0025 s) equals the analytic closed loop within 1e-6 m (the
 *                 spring law's nonlinearity alone is ~1e-7 m at x = 1 cm)
 *   ramp          hold: ramp, the force linear from u_{k-1} to u_k over each period (exact:
 *                 x = (a + b t)/k + (x0 - a/k) cos wt + (v0 - b/k)/w sin wt), within 1e-6 m;
 *                 the logged output is u_k
 *   anti-windup   with limits [-11, 11] N (10 N hold the mass) the output is clamped for a
 *                 while and the loop still matches the recursion with conditional integration
 *                 (1e-6 m); the same loop without the integrator stop overshoots by more
 *   rate limit    |u_k - u_{k-1}| <= rate_limit T exactly (to rounding), and reached
 *   sample times  the logged output changes only at multiples of the period
 *   solvers       rk8pd, msbdf and trbdf2 give the same trajectory within their tolerances
 *   channels      setpoint/measure/error/output carry the measured channel's units
 */
#include <math.h>
#include <string.h>

#include "test_physics_util.h"

#define SPRING "scenarios/tests/ctl_spring.yaml"

typedef struct {
  double kp, ki, kd, Tf, lo, hi, rate, T, r;
  int stop_integrator;
  int ramp; /* hold: ramp, the applied force moves linearly from u_{k-1} to u_k over a period */
} pid_par;


/* analytic discrete closed loop; x[j] at times j*dt_log (dt_log = T/sub), n samples */
static void analytic(const pid_par *p, int sub, int n, double *x_out, double *u_out) {
  const double k = 1000.0, m = 1.0, w = sqrt(k / m);
  double x = 0.0, v = 0.0, I = 0.0, D = 0.0, yprev = 0.0, uprev = 0.0, u_applied = 0.0;
  int j = 0;
  for (int s = 0; j < n; s++) {
    double y = x - 1000.0;
    double e = p->r - y;
    double dy = s > 0 ? y - yprev : 0.0;
    D = p->kd > 0 ? p->Tf / (p->Tf + p->T) * D - p->kd / (p->Tf + p->T) * dy : 0.0;
    double In = I + p->ki * p->T * e;
    double vv = p->kp * e + In + D, u = vv;
    if (u < p->lo) u = p->lo;
    if (u > p->hi) u = p->hi;
    if (p->rate > 0) {
      if (u > uprev + p->rate * p->T) u = uprev + p->rate * p->T;
      if (u < uprev - p->rate * p->T) u = uprev - p->rate * p->T;
    }
    if (p->stop_integrator && u != vv && p->ki * e * (vv - u) > 0) In = I;
    I = In;
    yprev = y;
    uprev = u;
    if (u_out) u_out[s] = u;
    /* force a + b tau over the period: x = (a + b tau)/k + (x0 - a/k) cos(w tau)
     * + (v0 - b/k)/w sin(w tau) (the zero-order hold: a = u, b = 0) */
    double a = p->ramp ? u_applied : u, b = p->ramp ? (u - u_applied) / p->T : 0.0;
    for (int q = 0; q < sub && j < n; q++, j++) {
      double tau = q * p->T / sub;
      double c = cos(w * tau), sn = sin(w * tau);
      x_out[j] = (a + b * tau) / k + (x - a / k) * c + (v - b / k) / w * sn;
    }
    double c = cos(w * p->T), sn = sin(w * p->T);
    double xn = (a + b * p->T) / k + (x - a / k) * c + (v - b / k) / w * sn;
    double vn = b / k - w * (x - a / k) * sn + (v - b / k) * c;
    (void)m;
    u_applied = u;
    x = xn;
    v = vn;
  }
}


static double max_dev(const double *a, const double *b, int n) {
  double d = 0.0;
  for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i]));
  return d;
}


static void test_zoh(void) {
  awe_spec *s = sp_load(SPRING, (const char *[]){"run.dt=0.0025", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  static double z[500], xa[500];
  int n = sp_series(sim, "points.mass.pos.z", 1.0, z, 500);
  ENSURE(n == 401);
  pid_par p = {1000, 10000, 30, 0.01, -INFINITY, INFINITY, 0, 0.01, -999.99, 1, 0};
  analytic(&p, 4, n, xa, NULL);
  for (int i = 0; i < n; i++) z[i] += 1000.0;
  double d = max_dev(z, xa, n);
  printf("    zoh: max |x - x_analytic| = %.2e m over 1 s (x(1 s) = %.6f m)\n", d, z[n - 1]);
  ENSURE(d < 1e-6);
  ENSURE_NEAR(z[n - 1], 0.01, 2e-5); /* the integrator removes the steady-state error */
  sp_free(sim, s);
}


/* hold: ramp, against the closed loop with a force that is linear over each period */
static void test_ramp(void) {
  /* gentler gains than the held loop's: the ramp's half-period delay would make that loop
   * ring at several cm, where the spring law's nonlinearity (~1e-7 m at 1 cm, quadratic) is
   * above the tolerance */
  static const char *const sets[] = {"run.dt=0.0025", "controllers[0].hold=ramp",
                                     "controllers[0].kp=300", "controllers[0].ki=3000",
                                     "controllers[0].kd=10", NULL};
  awe_spec *s = sp_load(SPRING, (const char **)sets);
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  static double z[500], xa[500], xz[500], u[500], ua[200];
  int n = sp_series(sim, "points.mass.pos.z", 1.0, z, 500);
  ENSURE(n == 401);
  pid_par p = {300, 3000, 10, 0.01, -INFINITY, INFINITY, 0, 0.01, -999.99, 1, 1};
  analytic(&p, 4, n, xa, ua);
  pid_par pz = p;
  pz.ramp = 0;
  analytic(&pz, 4, n, xz, NULL);
  for (int i = 0; i < n; i++) z[i] += 1000.0;
  double d = max_dev(z, xa, n), dz = max_dev(z, xz, n);
  double xmax = 0.0;
  for (int i = 0; i < n; i++) xmax = fmax(xmax, fabs(xa[i]));
  printf("    ramp: max |x - x_analytic| = %.2e m over 1 s, |x| <= %.4f m (%.2e m from the "
         "zero-order hold's)\n", d, xmax, dz);
  ENSURE(d < 1e-6);
  ENSURE(dz > 1e-4); /* a different loop, not the held one */
  sp_free(sim, s);
  /* the logged output is the new command at each sample (0.01 s = 4 log steps) */
  s = sp_load(SPRING, (const char **)sets);
  sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  int nu = sp_series(sim, "controllers.hold.output", 1.0, u, 500);
  ENSURE(nu == 401);
  double du = 0.0;
  for (int i = 0; i + 4 < nu && i / 4 < 100; i += 4) du = fmax(du, fabs(u[i] - ua[i / 4]));
  printf("    ramp: logged output vs the recursion's u_k: max diff %.2e N\n", du);
  /* the loop turns the position difference d into at most (kp + ki T + 2 kd/(Tf + T)) d =
   * 1330 d N; the value applied at a sample (the ramp's start) differs from u_k by the whole
   * step u_k - u_{k-1} */
  ENSURE(du < 1330.0 * d + 1e-9);
  double step = 0.0;
  for (int k = 1; k < 100; k++) step = fmax(step, fabs(ua[k] - ua[k - 1]));
  ENSURE(step > 1e3 * du);
  sp_free(sim, s);
}


static void test_antiwindup(void) {
  awe_spec *s = sp_load(SPRING, (const char *[]){"controllers[0].limits=[-11, 11]",
                                                 "run.duration=3", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  static double z[400], xa[400], xw[400], ua[400];
  int n = sp_series(sim, "points.mass.pos.z", 3.0, z, 400);
  ENSURE(n == 301);
  pid_par p = {1000, 10000, 30, 0.01, -11, 11, 0, 0.01, -999.99, 1, 0};
  analytic(&p, 1, n, xa, ua);
  pid_par pw = p;
  pw.stop_integrator = 0;
  analytic(&pw, 1, n, xw, NULL);
  for (int i = 0; i < n; i++) z[i] += 1000.0;
  int clamped = 0;
  for (int i = 0; i < n; i++) clamped += fabs(ua[i]) == 11.0;
  double d = max_dev(z, xa, n), os = 0, osw = 0;
  for (int i = 0; i < n; i++) {
    os = fmax(os, z[i] - 0.01);
    osw = fmax(osw, xw[i] - 0.01);
  }
  printf("    anti-windup: %d samples clamped, max |x - x_analytic| = %.2e m, overshoot %.4f m "
         "(%.4f m with a winding-up integrator)\n", clamped, d, os, osw);
  ENSURE(clamped > 5);
  ENSURE(d < 1e-6);
  ENSURE(os < osw);
  ENSURE_NEAR(z[n - 1], 0.01, 1e-5);
  sp_free(sim, s);
}


static void test_rate_limit(void) {
  awe_spec *s = sp_load(SPRING, (const char *[]){"controllers[0].rate_limit=100",
                                                 "run.duration=0.5", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  static double u[100], z[100], xa[100];
  awe_sim *s2 = sim;
  int n = sp_series(s2, "controllers.hold.output", 0.5, u, 100);
  ENSURE(n == 51);
  double dmax = 0;
  int at = 0;
  for (int i = 1; i < n; i++) {
    double du = fabs(u[i] - u[i - 1]);
    dmax = fmax(dmax, du);
    at += fabs(du - 1.0) < 1e-12;
  }
  ENSURE(fabs(u[0]) <= 1.0); /* from the initial 0 */
  printf("    rate limit: max |du| per sample %.15g N (limit 1 N), at the limit %d times\n", dmax,
         at);
  ENSURE(dmax <= 1.0 + 1e-12);
  ENSURE(at > 5);
  sp_free(sim, s);
  /* and the loop is still the analytic one */
  s = sp_load(SPRING, (const char *[]){"controllers[0].rate_limit=100", "run.duration=0.5", NULL});
  sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  n = sp_series(sim, "points.mass.pos.z", 0.5, z, 100);
  pid_par p = {1000, 10000, 30, 0.01, -INFINITY, INFINITY, 100, 0.01, -999.99, 1, 0};
  analytic(&p, 1, n, xa, NULL);
  for (int i = 0; i < n; i++) z[i] += 1000.0;
  ENSURE(max_dev(z, xa, n) < 1e-6);
  sp_free(sim, s);
}


static void test_sample_times(void) {
  awe_spec *s = sp_load(SPRING, (const char *[]){"run.dt=0.001", "controllers[0].period=0.013",
                                                 "run.duration=0.5", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  static double u[600];
  int n = sp_series(sim, "controllers.hold.output", 0.5, u, 600);
  ENSURE(n == 501);
  int changes = 0, off = 0;
  for (int i = 1; i < n; i++) {
    if (u[i] == u[i - 1]) continue;
    changes++;
    double t = i * 0.001, q = t / 0.013;
    if (fabs(q - nearbyint(q)) > 1e-9) off++;
  }
  printf("    sample times: output changed %d times, %d of them off the 0.013 s grid\n", changes,
         off);
  ENSURE(changes == 38); /* 0.013, ..., 0.494 */
  ENSURE(off == 0);
  sp_free(sim, s);
}


static void test_solvers(void) {
  static const char *sv[3] = {"rk8pd", "msbdf", "trbdf2"};
  static double z[3][200];
  for (int k = 0; k < 3; k++) {
    awe_spec *s = sp_load(SPRING, (const char *[]){"run.abs_tol=1e-10", "run.rel_tol=1e-10",
                                                   NULL});
    awe_sim *sim = sp_sim(s, sv[k]);
    if (!sim) {
    sp_free(sim, s);
    return;
  }
    int n = sp_series(sim, "points.mass.pos.z", 1.0, z[k], 200);
    ENSURE(n == 101);
    sp_free(sim, s);
  }
  double d1 = max_dev(z[0], z[1], 101), d2 = max_dev(z[0], z[2], 101);
  printf("    solvers: msbdf - rk8pd %.2e m, trbdf2 - rk8pd %.2e m\n", d1, d2);
  ENSURE(d1 < 1e-6);
  ENSURE(d2 < 1e-6);
}


static void test_channels(void) {
  awe_spec *s = sp_load(SPRING, (const char *[]){"run.duration=0.02", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  const awe_varlist *l = &sim->m->reg.output;
  int found = 0;
  for (int k = 0; k < l->n; k++) {
    if (strcmp(l->v[k].group, "controllers")) continue;
    found++;
    ENSURE_STR(l->v[k].comp, "hold");
    ENSURE_STR(l->v[k].unit, strcmp(l->v[k].var, "output") ? "m" : "N");
  }
  ENSURE(found == 4);
  /* at t = 0 the row shows the first sample: e = 0.01 m, u = kp e + ki T e */
  ENSURE_NEAR(sp_out(sim, "controllers.hold.error"), 0.01, 1e-9);
  ENSURE_NEAR(sp_out(sim, "controllers.hold.output"), 1000 * 0.01 + 10000 * 0.01 * 0.01, 1e-6);
  ENSURE_NEAR(sp_out(sim, "controllers.hold.setpoint"), -999.99, 1e-12);
  sp_free(sim, s);
}


int main(void) {
  RUN(test_zoh);
  RUN(test_ramp);
  RUN(test_antiwindup);
  RUN(test_rate_limit);
  RUN(test_sample_times);
  RUN(test_solvers);
  RUN(test_channels);
  return harness_report();
}
