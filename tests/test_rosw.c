/* test_rosw.c: the ROS34PW2 Rosenbrock-W stepper (step_rosw.h).
 *
 * The tableau against the order conditions of a Rosenbrock method up to order 3 and the
 * stiff accuracy (Hairer & Wanner II, IV.7, Table 7.1); the observed order of the global
 * error (3) and of the local error estimate (3) with fixed steps on a non-autonomous linear
 * problem (df/dt enters) and on a nonlinear one, against their closed forms; order 3 kept
 * with a Jacobian frozen over the whole run (the W property); Robertson's stiff kinetics
 * against Hairer & Wanner's reference at t = 40; Van der Pol with mu = 1000 against a tight
 * trbdf2 reference; the parked 2plate kite and a line swinging out in wind against trbdf2
 * at tight tolerances.
 */
#include <gsl/gsl_odeiv2.h>

#include "io/solver_names.h"
#include "solve/step_rosw.h"
#include "solve/step_trbdf2.h"
#include "test_physics_util.h"

static void test_tableau(void) {
  double a[16], g[16], b[4], bh[4];
  awe_rosw_tableau(a, g, b, bh);
  double al[4], be[4], bep[4]; /* alpha_i, beta_i = sum_j (alpha + gamma)_ij, beta'_i */
  for (int i = 0; i < 4; i++) {
    al[i] = be[i] = bep[i] = 0.0;
    for (int j = 0; j < 4; j++) {
      al[i] += a[i * 4 + j];
      be[i] += a[i * 4 + j] + g[i * 4 + j];
      if (j < i) bep[i] += a[i * 4 + j] + g[i * 4 + j];
    }
  }
  double gam = g[0];
  for (int p = 0; p < 2; p++) {
    const double *w = p ? bh : b;
    double s1 = 0, s2 = 0, s3 = 0, s4 = 0;
    for (int i = 0; i < 4; i++) {
      s1 += w[i];
      s2 += w[i] * bep[i];
      s3 += w[i] * al[i] * al[i];
      for (int j = 0; j < i; j++) s4 += w[i] * (a[i * 4 + j] + g[i * 4 + j]) * bep[j];
    }
    printf("  %s: sum b = %.17g, b.beta' = %.17g (1/2 - gamma = %.17g)\n", p ? "bhat" : "b", s1,
           s2, 0.5 - gam);
    ENSURE_NEAR(s1, 1.0, 1e-11); /* the published 17 digits satisfy them to 2e-12 */
    ENSURE_NEAR(s2, 0.5 - gam, 1e-11);
    if (!p) { /* order 3 (the main method only) */
      ENSURE_NEAR(s3, 1.0 / 3.0, 1e-11);
      ENSURE_NEAR(s4, 1.0 / 6.0 - gam + gam * gam, 1e-11);
    }
  }
  for (int j = 0; j < 4; j++) ENSURE_NEAR(b[j], a[12 + j] + g[12 + j], 1e-15); /* stiffly acc. */
  ENSURE_NEAR(al[3], 1.0, 1e-15);
}


/* ---- fixed steps: observed orders ---- */

#define LAM (-2.0)

/* y' = lam (y - cos t) - sin t: y = cos t + e^(lam t) from y(0) = 2 (df/dt != 0) */
static int lin(double t, const double y[], double f[], void *params) {
  (void)params;
  f[0] = LAM * (y[0] - cos(t)) - sin(t);
  return GSL_SUCCESS;
}


/* logistic y' = y (1 - y): y = 1/(1 + 9 e^-t) from y(0) = 0.1 (J changes along the way) */
static int logistic(double t, const double y[], double f[], void *params) {
  (void)t;
  (void)params;
  f[0] = y[0] * (1.0 - y[0]);
  return GSL_SUCCESS;
}


/* global error at T = 2 and the first step's estimate with n = 20, 40, 80, 160 steps; J is
 * renewed every max_age steps (0: J and df/dt of t = 0 for the whole run, the W property) */
static void orders(int (*fn)(double, const double *, double *, void *), double y0,
                   double exact, int max_age, const char *what) {
  gsl_odeiv2_system sys = {fn, NULL, 1, NULL};
  gsl_odeiv2_step *st = gsl_odeiv2_step_alloc(awe_step_ros34pw2, 1);
  ENSURE_STR(gsl_odeiv2_step_name(st), "ros34pw2");
  awe_rosw_set_max_age(st, max_age);
  double err[4], est[4];
  for (int q = 0; q < 4; q++) {
    int n = 20 << q;
    double h = 2.0 / n, y[1] = {y0}, ye[1], t = 0.0;
    for (int k = 0; k < n; k++) {
      ENSURE(gsl_odeiv2_step_apply(st, t, h, y, ye, NULL, NULL, &sys) == GSL_SUCCESS);
      if (k == 0) est[q] = fabs(ye[0]);
      t = (k + 1) * h;
    }
    err[q] = fabs(y[0] - exact);
    gsl_odeiv2_step_reset(st);
  }
  for (int q = 0; q + 1 < 4; q++) {
    double p = log2(err[q] / err[q + 1]), pe = log2(est[q] / est[q + 1]);
    printf("  %s, J age %d: n = %d: global error %.3e (order %.3f), estimate %.3e (order "
           "%.3f)\n", what, max_age, 20 << q, err[q], p, est[q], pe);
    ENSURE_NEAR(p, 3.0, 0.25);
    ENSURE_NEAR(pe, 3.0, 0.25);
  }
  gsl_odeiv2_step_free(st);
}


static void test_order(void) {
  orders(lin, 2.0, cos(2.0) + exp(2.0 * LAM), 1, "linear, non-autonomous");
  orders(lin, 2.0, cos(2.0) + exp(2.0 * LAM), 0, "linear, non-autonomous");
  orders(logistic, 0.1, 1.0 / (1.0 + 9.0 * exp(-2.0)), 1, "logistic");
  orders(logistic, 0.1, 1.0 / (1.0 + 9.0 * exp(-2.0)), 0, "logistic");
}


/* ---- Robertson's chemical kinetics (stiff; Hairer & Wanner II, IV.1 and IV.10) ---- */

static int robertson(double t, const double y[], double f[], void *params) {
  (void)t;
  (void)params;
  f[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
  f[2] = 3e7 * y[1] * y[1];
  f[1] = -f[0] - f[2];
  return GSL_SUCCESS;
}


static void test_robertson(void) {
  gsl_odeiv2_system sys = {robertson, NULL, 3, NULL};
  gsl_odeiv2_driver *d =
      gsl_odeiv2_driver_alloc_y_new(&sys, awe_step_ros34pw2, 1e-6, 1e-12, 1e-6);
  double y[3] = {1.0, 0.0, 0.0}, t = 0.0;
  ENSURE(gsl_odeiv2_driver_apply(d, &t, 40.0, y) == GSL_SUCCESS);
  printf("  Robertson: %lu steps (%lu rejected) to t = 40, y = %.10g %.10g %.10g\n",
         d->e->count, d->e->failed_steps, y[0], y[1], y[2]);
  ENSURE_REL(y[0], 0.7158270687, 1e-4); /* reference at t = 40 (Hairer & Wanner) */
  ENSURE_REL(y[1], 9.185534765e-6, 1e-4);
  ENSURE_REL(y[2], 0.2841637457, 1e-4);
  ENSURE_NEAR(y[0] + y[1] + y[2], 1.0, 1e-12); /* linear invariants are kept exactly */
  gsl_odeiv2_driver *e = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rkf45, 1e-6, 1e-12,
                                                       1e-6);
  double ye[3] = {1.0, 0.0, 0.0}, te = 0.0;
  ENSURE(gsl_odeiv2_driver_apply(e, &te, 40.0, ye) == GSL_SUCCESS);
  printf("  rkf45: %lu steps\n", e->e->count);
  ENSURE(10 * d->e->count < e->e->count); /* stiff: far fewer steps than an explicit pair */
  gsl_odeiv2_driver_free(d);
  gsl_odeiv2_driver_free(e);
}


/* ---- Van der Pol, mu = 1000 in Hairer & Wanner's scaled form (II, IV.1: eps = 1/mu^2,
 * t in units of mu, y(0) = (2, -0.66)), against a tight trbdf2 run ---- */

static int vdp(double t, const double y[], double f[], void *params) {
  (void)t;
  (void)params;
  f[0] = y[1];
  f[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / 1e-6;
  return GSL_SUCCESS;
}


static void test_vdp(void) {
  gsl_odeiv2_system sys = {vdp, NULL, 2, NULL};
  const double T = 1.5; /* on the second slow branch, after the first jump (t ~ 0.81) */
  double yr[2] = {2.0, -0.66}, tr = 0.0;
  gsl_odeiv2_driver *r = gsl_odeiv2_driver_alloc_y_new(&sys, awe_step_trbdf2, 1e-6, 1e-10, 1e-10);
  ENSURE(gsl_odeiv2_driver_apply(r, &tr, T, yr) == GSL_SUCCESS);
  double tol[2] = {1e-4, 1e-6}, e_r[2], e_t[2];
  unsigned long n_r[2], n_t[2];
  for (int k = 0; k < 2; k++) {
    for (int m = 0; m < 2; m++) {
      const gsl_odeiv2_step_type *ty = m ? awe_step_trbdf2 : awe_step_ros34pw2;
      gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, ty, 1e-6, tol[k], tol[k]);
      double y[2] = {2.0, -0.66}, t = 0.0;
      ENSURE(gsl_odeiv2_driver_apply(d, &t, T, y) == GSL_SUCCESS);
      (m ? e_t : e_r)[k] = fabs(y[0] - yr[0]);
      (m ? n_t : n_r)[k] = d->e->count;
      gsl_odeiv2_driver_free(d);
    }
    printf("  Van der Pol mu = 1000, tol %.0e: |y0 - ref| at t = %.1f: ros34pw2 %.2e (%lu "
           "steps), trbdf2 %.2e (%lu steps)\n", tol[k], T, e_r[k], n_r[k], e_t[k], n_t[k]);
    ENSURE(e_r[k] <= e_t[k]); /* as accurate as trbdf2 at the same tolerance */
  }
  gsl_odeiv2_driver_free(r);
}


/* ---- the parked 2plate kite: ros34pw2 against trbdf2 ---- */

static double com_dev(awe_sim *a, awe_sim *b) {
  double d = 0.0;
  const awe_model *m = a->m;
  for (int j = 0; j < m->nwing; j++) {
    int o = a->w->wing_x[j];
    if (o < 0) continue;
    for (int e = 0; e < 3; e++) d = fmax(d, fabs(a->y[o + e] - b->y[o + e]));
  }
  return d;
}


/* 1 s from the transform pose (test_stepper.c's rigid wing): at 1e-8 both agree with each
 * other; at 1e-6 ros34pw2's deviation from the 1e-8 reference is of trbdf2's size */
static void test_2plate(void) {
  const char *tight[] = {"run.duration=1", "run.abs_tol=1e-8", "run.rel_tol=1e-8",
                         "run.steady_state=false", NULL};
  const char *loose[] = {"run.duration=1", "run.abs_tol=1e-6", "run.rel_tol=1e-6",
                         "run.steady_state=false", NULL};
  awe_spec *sr = sp_load("scenarios/2plate_parked.yaml", tight);
  awe_spec *sa = sp_load("scenarios/2plate_parked.yaml", tight);
  awe_spec *sb = sp_load("scenarios/2plate_parked.yaml", loose);
  awe_spec *sc = sp_load("scenarios/2plate_parked.yaml", loose);
  awe_sim *r = sp_sim(sr, "trbdf2"), *a = sp_sim(sa, "ros34pw2");
  awe_sim *b = sp_sim(sb, "ros34pw2"), *c = sp_sim(sc, "trbdf2");
  ENSURE(r && a && b && c);
  if (r && a && b && c) {
    double da = 0.0, db = 0.0, dc = 0.0;
    for (int k = 1; k <= 20; k++) {
      double t = 0.05 * k;
      ENSURE(sp_run(r, t) == 0 && sp_run(a, t) == 0 && sp_run(b, t) == 0 && sp_run(c, t) == 0);
      da = fmax(da, com_dev(a, r));
      db = fmax(db, com_dev(b, r));
      dc = fmax(dc, com_dev(c, r));
    }
    printf("  2plate 1 s, max |d com| from trbdf2 at 1e-8: ros34pw2 1e-8 %.2e m, 1e-6 %.2e m; "
           "trbdf2 1e-6 %.2e m\n", da, db, dc);
    ENSURE(a->t == 1.0);
    ENSURE(da < 1e-5);
    ENSURE(db < 3.0 * dc + 1e-6);
  }
  sp_free(r, sr);
  sp_free(a, sa);
  sp_free(b, sb);
  sp_free(c, sc);
}


/* the 10-segment line of scenarios/reel_out.yaml released from rest into a 10 m/s wind (the
 * swing-out case of bench_speed), 10 s: at 1e-6 ros34pw2's largest state deviation from
 * trbdf2 at 1e-9 is no larger than trbdf2's own at 1e-6 (measured: 60 s, positions, 8.4e-6 m
 * against 1.2e-4 m) */
static void test_swing_out(void) {
  const char *tight[] = {"settings.environment.v_wind=10", "run.steady_state=false",
                         "run.abs_tol=1e-9", "run.rel_tol=1e-9", NULL};
  const char *loose[] = {"settings.environment.v_wind=10", "run.steady_state=false",
                         "run.abs_tol=1e-6", "run.rel_tol=1e-6", NULL};
  awe_spec *sr = sp_load("scenarios/reel_out.yaml", tight);
  awe_spec *sa = sp_load("scenarios/reel_out.yaml", loose);
  awe_spec *sb = sp_load("scenarios/reel_out.yaml", loose);
  awe_sim *r = sp_sim(sr, "trbdf2"), *a = sp_sim(sa, "ros34pw2"), *b = sp_sim(sb, "trbdf2");
  ENSURE(r && a && b);
  if (r && a && b) {
    double da = 0.0, db = 0.0;
    for (int k = 1; k <= 20; k++) {
      double t = 0.5 * k;
      ENSURE(sp_run(r, t) == 0 && sp_run(a, t) == 0 && sp_run(b, t) == 0);
      for (int i = 0; i < r->w->nx; i++) {
        da = fmax(da, fabs(a->y[i] - r->y[i]));
        db = fmax(db, fabs(b->y[i] - r->y[i]));
      }
    }
    printf("  swing-out 10 s, max |dy| from trbdf2 at 1e-9: ros34pw2 %.2e, trbdf2 %.2e (1e-6); "
           "steps %lu, %lu\n", da, db, a->w->stats.steps, b->w->stats.steps);
    ENSURE(da > 0.0 && da <= db);
  }
  sp_free(r, sr);
  sp_free(a, sa);
  sp_free(b, sb);
}


static void test_names(void) {
  ENSURE(awe_solver_implicit("ros34pw2") == 1);
  ENSURE(awe_solver_index("ros34pw2") >= 0);
  ENSURE_CONTAINS(awe_solver_names(), "ros34pw2");
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_tableau);
  RUN(test_order);
  RUN(test_robertson);
  RUN(test_vdp);
  RUN(test_2plate);
  RUN(test_swing_out);
  RUN(test_names);
  return harness_report();
}
