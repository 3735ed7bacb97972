/* test_vsm_panel_wind.c: the VSM with its own wind on each panel (awe_vsm_wing_set_panel_wind).
 *
 * Each panel's wake legs follow its own inflow (as VortexStepMethod.jl's frozen wake), so at a
 * trailing-edge point two legs of different directions meet. These checks hold that model to
 * what the physics asks:
 *   - a zero panel wind gives the uniform solve's loads (to 1e-12 relative);
 *   - a linear shear along the span converges and rolls the wing towards the slower side:
 *     M_x > 0 with more wind on +y, odd in the shear and linear in it (2 %);
 *   - a tiny turn of one panel's inflow moves the loads by a tiny amount, linearly (no jump):
 *     the change for 2 eps is twice the change for eps within 1 %.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "aero/vsm.h"

enum { NSEC = 21, NPAN = 20 };


/* Rectangular wing, span 10 m, chord 1 m, +y -> -y, inviscid sections. */
static awe_vsm_wing *make_wing(void) {
  awe_vsm_section sec[NSEC];
  for (int k = 0; k < NSEC; k++) {
    const double y = 5.0 - 10.0*k/(NSEC - 1);
    sec[k] = (awe_vsm_section){{0.0, y, 0.0}, {1.0, y, 0.0}, -1};
  }
  awe_vsm_settings s;
  awe_vsm_settings_default(&s);
  s.n_panels = NPAN;
  s.distribution = AWE_DIST_LINEAR;
  s.rtol = 1e-10;
  s.max_iterations = 20000;
  return awe_vsm_wing_alloc(sec, NSEC, NULL, 0, &s, NULL, 0);
}


/* Solve at 20 m/s, 5 deg with the panel wind dva (NULL: none); status into *st. */
static void solve(awe_vsm_wing *w, const double *dva, awe_vsm_result *r, int *st) {
  double va[3];
  awe_vsm_va_from_angles(20.0, 5.0, 0.0, va);
  awe_vsm_wing_reset_gamma(w);
  awe_vsm_wing_set_panel_wind(w, dva);
  *st = awe_vsm_solve(w, va, NULL, NULL, r);
}


/* dva_i = k y_i along x (the wind the wing flies into grows towards +y for k > 0). */
static void shear(const awe_vsm_wing *w, double k, double *dva) {
  awe_vsm_geometry g;
  awe_vsm_wing_geometry(w, &g);
  for (int i = 0; i < g.n_panels; i++) {
    dva[3*i] = k*g.control_point[3*i + 1];
    dva[3*i + 1] = dva[3*i + 2] = 0.0;
  }
}


static void test_zero_panel_wind(void) {
  awe_vsm_wing *w = make_wing();
  ENSURE(w != NULL);
  if (!w) return;
  awe_vsm_result r;
  int st;
  solve(w, NULL, &r, &st);
  ENSURE(st == AWE_VSM_OK);
  double f0[3], m0[3];
  memcpy(f0, r.force, sizeof f0);
  memcpy(m0, r.moment, sizeof m0);
  double dva[3*NPAN] = {0};
  solve(w, dva, &r, &st);
  ENSURE(st == AWE_VSM_OK);
  for (int c = 0; c < 3; c++) {
    ENSURE_NEAR(r.force[c], f0[c], 1e-12*fabs(f0[2]));
    ENSURE_NEAR(r.moment[c], m0[c], 1e-12*fabs(f0[2])*5.0);
  }
  awe_vsm_wing_free(w);
}


static void test_linear_shear(void) {
  awe_vsm_wing *w = make_wing();
  ENSURE(w != NULL);
  if (!w) return;
  double dva[3*NPAN];
  awe_vsm_result r;
  int st;
  double mx[3];
  const double ks[3] = {0.1, -0.1, 0.2};  // [1/s]: +-0.5 m/s at the tips, then +-1 m/s
  for (int q = 0; q < 3; q++) {
    shear(w, ks[q], dva);
    solve(w, dva, &r, &st);
    ENSURE(st == AWE_VSM_OK);
    ENSURE(r.residual < 1e-10);
    mx[q] = r.moment[0];
  }
  printf("  M_x = %.4f, %.4f, %.4f N m for k = 0.1, -0.1, 0.2 1/s (lift %.1f N)\n", mx[0], mx[1],
         mx[2], r.force[2]);
  ENSURE(mx[0] > 0.0);                      // more lift on +y rolls about +x
  ENSURE_REL(mx[1], -mx[0], 1e-6);          // odd in the shear
  ENSURE_REL(mx[2], 2.0*mx[0], 0.02);       // linear in it
  // strip theory's size: a wind dV along x adds rho c V dV (2 cl - ...) per span: with
  // L' = 1/2 rho c V^2 2 pi alpha, d(V^2) = 2 V cos(a) dV and d(alpha) = -sin(a) dV/V give
  // dL' = rho c V dV pi (2 alpha cos(a) - sin(a)); M_x = int y dL' = that with dV = k y over
  // b^3/12. The induced velocities take a part away: AR/(AR + 4) ~ 0.7 for a rolling load.
  const double a = 5.0*M_PI/180.0;
  const double strip = 1.225*1.0*20.0*0.1*M_PI*(2.0*a*cos(a) - sin(a))*1000.0/12.0;
  printf("  strip theory without induction: %.4f N m (ratio %.3f)\n", strip, mx[0]/strip);
  ENSURE(mx[0] > 0.55*strip && mx[0] < 0.85*strip);
  awe_vsm_wing_free(w);
}


static void test_smooth_in_one_panel(void) {
  awe_vsm_wing *w = make_wing();
  ENSURE(w != NULL);
  if (!w) return;
  double dva[3*NPAN];
  awe_vsm_result r;
  int st;
  shear(w, 0.1, dva);
  solve(w, dva, &r, &st);
  ENSURE(st == AWE_VSM_OK);
  double f0[3], m0[3], df[2][3];
  memcpy(f0, r.force, sizeof f0);
  memcpy(m0, r.moment, sizeof m0);
  const int p = NPAN/2 + 3;
  const double eps = 1e-4;  // [m/s] turns panel p's inflow by 5e-6 rad
  for (int q = 0; q < 2; q++) {
    shear(w, 0.1, dva);
    dva[3*p + 2] += (q + 1)*eps;
    solve(w, dva, &r, &st);
    ENSURE(st == AWE_VSM_OK);
    for (int c = 0; c < 3; c++) df[q][c] = r.force[c] - f0[c];
  }
  printf("  dF_z = %.6g N for eps, %.6g N for 2 eps (F_z %.1f N)\n", df[0][2], df[1][2], f0[2]);
  ENSURE(fabs(df[0][2]) < 1e-2);  // 5e-6 rad on one of 20 panels: ~1e-3 N
  ENSURE(fabs(df[0][2]) > 0.0);
  ENSURE_REL(df[1][2], 2.0*df[0][2], 0.01);
  awe_vsm_wing_free(w);
}


int main(void) {
  RUN(test_zero_panel_wind);
  RUN(test_linear_shear);
  RUN(test_smooth_in_one_panel);
  return harness_report();
}
