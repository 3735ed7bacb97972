/* test_vsm.c: Vortex Step Method solver core.
 *
 *   - Biot-Savart check of three horseshoes (vsm.md §5), semi-infinite and 100 m legs, 1e-4;
 *   - elliptic wing AR 20 vs lifting-line theory CL = 2 pi a AR/(AR+2), CDi = CL^2/(pi AR)
 *     (vsm.md V1): LLT within 1 % / 3 %, VSM within 5 % / 15 %;
 *   - VortexStepMethod.jl regression numbers at 5 deg (vsm.md V2);
 *   - symmetry at beta = 0, Newton vs loop, unconverged reporting, zero wind, twist sign,
 *     refinement, Jacobian vs perturbed solves (2e-3 relative);
 *   - the fast (incremental, shared-filament) geometry path against the reference build on the
 *     2plate kite's wing (vsm_fastpath.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vsm_kites.h"
#include "aero/vsm.h"
#include "aero/vsm_filament.h"
#include "vsm_fastpath.h"

static const double PI = 3.14159265358979323846;


static double norm3_of(const double v[3]) {
  return sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]);
}


/* ---- geometry generators (VortexStepMethod.jl test/utils.jl) ------------------------------- */

/* Elliptic wing: y = cosspace(-b/2 + b 1e-5, b/2 - b 1e-5, N), c = cmax sqrt(1 - (2y/b)^2),
 * LE = [-c/4, y, 0], TE = [3c/4, y, 0]; sections ordered -y -> +y as the generator does. */
static void elliptic_wing(double cmax, double b, int nsec, awe_vsm_section *sec) {
  const double lo = -0.5*b + b*1e-5, hi = 0.5*b - b*1e-5;
  const double mid = 0.5*(lo + hi), amp = 0.5*(hi - lo);
  for (int k = 0; k < nsec; k++) {
    const double th = PI - PI*k/(nsec - 1);
    const double y = mid + amp*cos(th);
    const double c = cmax*sqrt(1.0 - (2.0*y/b)*(2.0*y/b));
    sec[k] = (awe_vsm_section){{-0.25*c, y, 0.0}, {0.75*c, y, 0.0}, -1};
  }
}


/* Rectangular wing of span b and chord c with nsec sections, +y -> -y. */
static void rect_wing(double c, double b, int nsec, awe_vsm_section *sec, int airfoil) {
  for (int k = 0; k < nsec; k++) {
    const double y = 0.5*b - b*k/(nsec - 1);
    sec[k] = (awe_vsm_section){{0.0, y, 0.0}, {c, y, 0.0}, airfoil};
  }
}


static awe_vsm_settings base_settings(void) {
  awe_vsm_settings s;
  awe_vsm_settings_default(&s);
  return s;
}


/* ---- airfoil models ---------------------------------------------------------------------------- */

static void test_airfoils(void) {
  double cl, cd, cm;
  const double d2r = PI/180.0;

  // inviscid
  const awe_airfoil inv = {AWE_AIRFOIL_INVISCID, 0, 0, NULL, NULL, NULL, NULL, 0.0, 0.0};
  awe_airfoil_eval(&inv, 0.1, &cl, &cd, &cm);
  ENSURE_NEAR(cl, 0.2*PI, 1e-15);
  ENSURE(cd == 0.0 && cm == 0.0);

  // Breukels, values from an independent evaluation of the regression (vsm.md §8)
  const awe_airfoil br = {AWE_AIRFOIL_BREUKELS, 0, 0, NULL, NULL, NULL, NULL, 0.1, 0.095};
  awe_airfoil_eval(&br, 5.0*d2r, &cl, &cd, &cm);
  ENSURE_NEAR(cl, 1.0528830765, 1e-9);
  ENSURE_NEAR(cd, 0.05156449775, 1e-10);
  ENSURE_NEAR(cm, -0.105537356, 1e-9);
  awe_airfoil_eval(&br, -3.0*d2r, &cl, &cd, &cm);
  ENSURE_NEAR(cl, -0.4368443087, 1e-9);
  ENSURE_NEAR(cd, 0.04590089759, 1e-10);
  ENSURE_NEAR(cm, 0.00712566, 1e-9);
  awe_airfoil_eval(&br, 25.0*d2r, &cl, &cd, &cm);  // flat-plate branch beyond 20 deg
  ENSURE_NEAR(cl, 0.323744370967065, 1e-12);
  ENSURE_NEAR(cd, 0.150964479466515, 1e-12);
  ENSURE_NEAR(cm, -4.330400456, 1e-8);

  // polar: interpolation inside, end rows held outside (numpy.interp, the Python VSM), NULL
  // outputs allowed
  double a[3] = {-0.1, 0.0, 0.2}, l[3] = {-0.5, 0.1, 1.3}, d[3] = {0.02, 0.01, 0.05};
  double m[3] = {0.0, -0.1, -0.2};
  const awe_airfoil pol = {AWE_AIRFOIL_POLARS, 0, 3, a, l, d, m, 0.0, 0.0};
  awe_airfoil_eval(&pol, 0.1, &cl, &cd, &cm);
  ENSURE_NEAR(cl, 0.7, 1e-15);
  ENSURE_NEAR(cd, 0.03, 1e-15);
  ENSURE_NEAR(cm, -0.15, 1e-15);
  awe_airfoil_eval(&pol, 0.3, &cl, NULL, NULL);
  ENSURE_NEAR(cl, 1.3, 1e-15);
  awe_airfoil_eval(&pol, -0.2, NULL, &cd, NULL);
  ENSURE_NEAR(cd, 0.02, 1e-15);
}


/* Spanwise blending: a panel between sections with different polars averages them; Breukels
 * sections blend their (t, kappa); a mixed panel blends the coefficients. Two panels, UNCHANGED. */
static void test_airfoil_blending(void) {
  double a[2] = {-1.0, 1.0}, l1[2] = {-1.0, 1.0}, l2[2] = {-3.0, 3.0}, z[2] = {0.0, 0.0};
  const awe_airfoil af[4] = {
      {AWE_AIRFOIL_POLARS, 1, 2, a, l1, z, z, 0.0, 0.0},
      {AWE_AIRFOIL_POLARS, 2, 2, a, l2, z, z, 0.0, 0.0},
      {AWE_AIRFOIL_BREUKELS, 3, 0, NULL, NULL, NULL, NULL, 0.08, 0.06},
      {AWE_AIRFOIL_BREUKELS, 4, 0, NULL, NULL, NULL, NULL, 0.12, 0.10}};
  awe_vsm_section sec[3] = {{{0, 1, 0}, {1, 1, 0}, 0}, {{0, 0, 0}, {1, 0, 0}, 1},
                            {{0, -1, 0}, {1, -1, 0}, 1}};
  awe_vsm_settings s = base_settings();
  s.distribution = AWE_DIST_UNCHANGED;
  s.solver = AWE_VSM_SOLVER_NEWTON;
  // polar 1 | polar 2 | polar 2: panel 0 averages the two tables
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 3, af, 4, &s, NULL, 0);
  ENSURE(w != NULL);
  if (!w) return;
  double va[3];
  awe_vsm_va_from_angles(10.0, 6.0, 0.0, va);
  awe_vsm_result r;
  ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r) == AWE_VSM_OK);
  ENSURE_NEAR(r.cl[0], 2.0*r.alpha[0], 1e-12);
  ENSURE_NEAR(r.cl[1], 3.0*r.alpha[1], 1e-12);
  awe_vsm_wing_free(w);

  // polar 1 | Breukels (0.08, 0.06) | Breukels (0.12, 0.10)
  sec[1].airfoil = 2;
  sec[2].airfoil = 3;
  w = awe_vsm_wing_alloc(sec, 3, af, 4, &s, NULL, 0);
  ENSURE(w != NULL);
  if (!w) return;
  ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r) == AWE_VSM_OK);
  // panel 0: mean of polar 1 and Breukels (0.08, 0.06); panel 1: Breukels (0.10, 0.08)
  double c1, c2;
  const awe_airfoil mid = {AWE_AIRFOIL_BREUKELS, 0, 0, NULL, NULL, NULL, NULL, 0.10, 0.08};
  awe_airfoil_eval(&af[0], r.alpha[0], &c1, NULL, NULL);
  awe_airfoil_eval(&af[2], r.alpha[0], &c2, NULL, NULL);
  ENSURE_NEAR(r.cl[0], 0.5*(c1 + c2), 1e-12);
  awe_airfoil_eval(&mid, r.alpha[1], &c1, NULL, NULL);
  ENSURE_NEAR(r.cl[1], c1, 1e-12);
  awe_vsm_wing_free(w);
}


/* ---- Biot-Savart ----------------------------------------------------------------------------- */

/* Horseshoe with legs at y_left and y_right (x = 0), bound from right to left, wake along +x. */
static void horseshoe(double gamma, double yl, double yr, const double p[3], int finite_legs,
                      double v[3]) {
  const double xl[3] = {0.0, yl, 0.0}, xr[3] = {0.0, yr, 0.0}, u[3] = {1.0, 0.0, 0.0};
  double vb[3], v1[3], v2[3];
  awe_vsm_vel_segment(xr, xl, p, 1e-5*fabs(yl - yr), vb);
  if (finite_legs) {
    const double fl[3] = {100.0, yl, 0.0}, fr[3] = {100.0, yr, 0.0};
    awe_vsm_vel_segment(xl, fl, p, awe_vsm_trailing_core(xl, fl, p, 1.0), v1);
    awe_vsm_vel_segment(fr, xr, p, awe_vsm_trailing_core(fr, xr, p, 1.0), v2);
  } else {
    // filament_direction +1 at the left leg (Gamma' = -Gamma), -1 at the right leg
    awe_vsm_vel_semiinf(xl, u, p, 1.0, v1);
    awe_vsm_vel_semiinf(xr, u, p, 1.0, v2);
    for (int c = 0; c < 3; c++) v1[c] = -v1[c];
  }
  for (int c = 0; c < 3; c++) v[c] = gamma*(vb[c] + v1[c] + v2[c]);
}


static void test_three_horseshoes(void) {
  const double p[3] = {0.0, 0.0, 0.0};
  const double g[3] = {2.0, 10.0, 5.0};
  const double yl[3] = {-1.0, 1.0, 3.0}, yr[3] = {-3.0, -1.0, 1.0};
  const double vz[3] = {0.1061, -1.5915, 0.2653};
  for (int legs = 0; legs < 2; legs++) {
    for (int h = 0; h < 3; h++) {
      double v[3];
      horseshoe(g[h], yl[h], yr[h], p, legs, v);
      printf("  horseshoe %d (%s legs): v = [%.6f, %.6f, %.6f], expected z %.4f\n", h,
             legs ? "100 m" : "semi-inf.", v[0], v[1], v[2], vz[h]);
      ENSURE_NEAR(v[0], 0.0, 1e-4);
      ENSURE_NEAR(v[1], 0.0, 1e-4);
      ENSURE_NEAR(v[2], vz[h], 1e-4);
    }
  }
}


/* A segment and its core: continuous at the core radius, zero on the axis, 1/(2 pi d) far field
 * of a long segment; a semi-infinite leg gives half of that. */
static void test_filament_cores(void) {
  const double x1[3] = {0.0, -1000.0, 0.0}, x2[3] = {0.0, 1000.0, 0.0};
  double v[3], vin[3], vout[3];
  const double p[3] = {0.0, 0.0, 2.0};
  awe_vsm_vel_segment(x1, x2, p, 0.0, v);
  ENSURE_REL(norm3_of(v), 1.0/(2.0*PI*2.0), 1e-5);
  const double pin[3] = {0.0, 0.0, 0.1 - 1e-12}, pout[3] = {0.0, 0.0, 0.1 + 1e-12};
  awe_vsm_vel_segment(x1, x2, pin, 0.1, vin);
  awe_vsm_vel_segment(x1, x2, pout, 0.1, vout);
  ENSURE_NEAR(vin[0], vout[0], 1e-9);
  ENSURE_NEAR(vin[2], vout[2], 1e-9);
  const double pax[3] = {0.0, 3.0, 0.0};
  awe_vsm_vel_segment(x1, x2, pax, 0.1, v);
  ENSURE_NEAR(norm3_of(v), 0.0, 1e-15);
  awe_vsm_vel_segment(x1, x2, pax, 0.0, v);
  ENSURE(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]));
  const double u[3] = {0.0, 1.0, 0.0}, o[3] = {0.0, 0.0, 0.0};
  awe_vsm_vel_semiinf(o, u, p, INFINITY, v);
  ENSURE_REL(norm3_of(v), 1.0/(4.0*PI*2.0), 1e-12);
  awe_vsm_vel_semiinf(o, u, o, 10.0, v);
  ENSURE(isfinite(v[0]) && norm3_of(v) == 0.0);
}


/* ---- elliptic wing vs lifting-line theory (V1) ----------------------------------------------- */

static void test_elliptic_theory(void) {
  const int nsec = 40;
  const double b = 15.709, cmax = 1.0;
  awe_vsm_section sec[40];
  elliptic_wing(cmax, b, nsec, sec);
  const double ar = 4.0*b/(PI*cmax);
  const double alphas[2] = {3.0, 9.0};
  printf("  elliptic wing AR %.4f, 39 panels, inviscid, |va| = 20 m/s\n", ar);
  printf("  model alpha   CL        CL_theory  dCL[%%]   CDi        CDi_theory  dCD[%%]  iters\n");
  for (int model = 0; model < 2; model++) {
    awe_vsm_settings s = base_settings();
    s.distribution = AWE_DIST_UNCHANGED;
    s.model = model == 0 ? AWE_VSM_MODEL_LLT : AWE_VSM_MODEL_VSM;
    s.relaxation_factor = 0.05;
    s.core_radius_fraction = 1e-20;
    s.rtol = 1e-8;
    s.max_iterations = 20000;
    char err[256];
    awe_vsm_wing *w = awe_vsm_wing_alloc(sec, nsec, NULL, 0, &s, err, sizeof err);
    ENSURE(w != NULL);
    if (!w) {
      printf("  %s\n", err);
      return;
    }
    for (int k = 0; k < 2; k++) {
      const double a = alphas[k]*PI/180.0;
      const double cl_th = 2.0*PI*a/(1.0 + 2.0/ar), cd_th = cl_th*cl_th/(PI*ar);
      double va[3];
      awe_vsm_va_from_angles(20.0, alphas[k], 0.0, va);
      awe_vsm_result r;
      int st = awe_vsm_solve(w, va, NULL, NULL, &r);
      ENSURE(st == AWE_VSM_OK);
      const double ecl = (r.CL - cl_th)/cl_th, ecd = (r.CD - cd_th)/cd_th;
      printf("  %s   %4.1f  %.6f  %.6f  %+7.3f  %.7f  %.7f  %+7.3f  %d\n",
             model == 0 ? "LLT" : "VSM", alphas[k], r.CL, cl_th, 100*ecl, r.CD, cd_th, 100*ecd,
             r.iterations);
      if (model == 0) {
        ENSURE(fabs(ecl) < 0.01);
        ENSURE(fabs(ecd) < 0.03);
      } else {
        ENSURE(fabs(ecl) < 0.05);
        ENSURE(fabs(ecd) < 0.15);
      }
    }
    awe_vsm_wing_free(w);
  }
}


/* ---- VortexStepMethod.jl regression (V2) ----------------------------------------------------- */

static void test_vsmjl_regression(void) {
  const int nsec = 40;
  awe_vsm_section sec[40];
  elliptic_wing(1.0, 15.709, nsec, sec);
  awe_vsm_settings s = base_settings();
  s.distribution = AWE_DIST_UNCHANGED;
  s.model = AWE_VSM_MODEL_VSM;
  s.core_radius_fraction = 1e-20;
  s.rtol = 1e-8;
  s.max_iterations = 20000;
  s.gamma0 = AWE_GAMMA0_ELLIPTIC;
  s.correct_aoa = 1;  // VortexStepMethod.jl: force directions from alpha at the 1/4 chord
  char err[256];
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, nsec, NULL, 0, &s, err, sizeof err);
  ENSURE(w != NULL);
  if (!w) return;
  awe_vsm_wing_set_moment_frac(w, 0.1);
  double va[3];
  awe_vsm_va_from_angles(20.0, 5.0, 0.0, va);
  const double ref[3] = {0.0, 1.0, 0.0};
  awe_vsm_result r;
  int st = awe_vsm_solve(w, va, NULL, ref, &r);
  ENSURE(st == AWE_VSM_OK);
  printf("  S_proj = %.6f m^2 (12.3246; VortexStepMethod.jl 12.3307), CL = %.6f (0.49210), CD = %.7f (0.0038557)\n", r.area,
         r.CL, r.CD);
  printf("  F = [%.9f, %.3g, %.9f]  (-117.96518414816444, 0, 1481.996390329679)\n", r.force[0],
         r.force[1], r.force[2]);
  printf("  M = [%.9f, %.3g, %.9f]  (-1481.996390329678, 0, -117.9651841481644)\n", r.moment[0],
         r.moment[1], r.moment[2]);
  printf("  CF = [%.12f, %.12f]  (-0.039050322560956294, 0.49055973654418716)\n", r.CF[0],
         r.CF[2]);
  const double qs = r.q_inf*r.area;
  printf("  moment_dist[1] = %.12g (-0.0006683569356186426), coeff %.12g (-2.212405554436003e-7)\n",
         r.panel_moment[0], r.panel_moment[0]/qs);
  printf("  iterations %d, residual %.3g\n", r.iterations, r.residual);
  // S: the projected quadrilaterals (Python Vortex-Step-Method), not VortexStepMethod.jl's
  // trapezoids on the LE-to-LE distance (12.3307); the force coefficients below are compared
  // as CF S (= F/q), independent of that choice
  double s_quad = 0.0;
  for (int k = 0; k + 1 < nsec; k++) {
    const double *la = sec[k].le, *ta = sec[k].te, *lb = sec[k + 1].le, *tb = sec[k + 1].te;
    s_quad += 0.5*fabs((tb[0] - la[0])*(lb[1] - ta[1]) - (tb[1] - la[1])*(lb[0] - ta[0]));
  }
  ENSURE_NEAR(r.area, s_quad, 1e-9);
  ENSURE_NEAR(r.area, 12.3246, 1e-4);
  ENSURE_NEAR(r.force[0], -117.96518414816444, 1e-4);
  ENSURE_NEAR(r.force[1], 0.0, 1e-4);
  ENSURE_REL(r.force[2], 1481.996390329679, 1e-4);
  ENSURE_NEAR(r.moment[0], -1481.996390329678, 1e-4*1481.996390329678);
  ENSURE_NEAR(r.moment[1], 0.0, 1e-3);
  ENSURE_NEAR(r.moment[2], -117.9651841481644, 1e-4);
  const double s_jl = 12.3307;  // VortexStepMethod.jl's reference area for its coefficients
  ENSURE_NEAR(r.CF[0]*r.area, -0.039050322560956294*s_jl, 1e-4*s_jl);
  ENSURE_REL(r.CF[2]*r.area, 0.49055973654418716*s_jl, 1e-4);
  ENSURE_NEAR(r.panel_moment[0], -0.0006683569356186426, 1e-8);
  ENSURE_NEAR(r.panel_moment[0]/(r.q_inf*s_jl), -2.212405554436003e-7, 1e-10);
  // consistency: 1 m arm about y
  ENSURE_REL(r.force[0], r.moment[2], 1e-4);
  ENSURE_REL(r.force[2], -r.moment[0], 1e-4);

  // Newton must agree with the loop within 1e-4 on Gamma
  double gloop[39];
  memcpy(gloop, r.gamma, sizeof gloop);
  s.solver = AWE_VSM_SOLVER_NEWTON;
  awe_vsm_wing_set_settings(w, &s);
  awe_vsm_wing_reset_gamma(w);
  st = awe_vsm_solve(w, va, NULL, ref, &r);
  ENSURE(st == AWE_VSM_OK);
  double dg = 0.0;
  for (int i = 0; i < 39; i++) dg = fmax(dg, fabs(r.gamma[i] - gloop[i]));
  printf("  Newton: %d iterations, max |dGamma| vs loop %.3g\n", r.iterations, dg);
  ENSURE(dg < 1e-4);
  ENSURE(r.newton_fallback == 0);
  awe_vsm_wing_free(w);
}



/* ---- symmetry, solvers, edge cases (the arc kite and LEI section: vsm_kites.h) ------------- */


static void test_symmetry(void) {
  awe_vsm_section sec[5];
  arc_kite(sec);
  for (int model = 0; model < 2; model++) {
    for (int solver = 0; solver < 2; solver++) {
      awe_vsm_settings s = base_settings();
      s.n_panels = 24;
      s.distribution = AWE_DIST_COSINE;
      s.model = model ? AWE_VSM_MODEL_LLT : AWE_VSM_MODEL_VSM;
      s.solver = solver ? AWE_VSM_SOLVER_NEWTON : AWE_VSM_SOLVER_LOOP;
      s.rtol = 1e-9;
      s.max_iterations = 5000;
      awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 5, &LEI, 1, &s, NULL, 0);
      ENSURE(w != NULL);
      if (!w) return;
      double va[3];
      awe_vsm_va_from_angles(15.0, 8.0, 0.0, va);
      awe_vsm_result r;
      ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r) == AWE_VSM_OK);
      printf("  %s/%s: CL %.6f CD %.6f CS %.3g CMx %.3g CMz %.3g (%d iterations)\n",
             model ? "LLT" : "VSM", solver ? "Newton" : "loop", r.CL, r.CD, r.CS, r.CM[0],
             r.CM[2], r.iterations);
      ENSURE_NEAR(r.CS, 0.0, 1e-10);
      ENSURE_NEAR(r.CM[0], 0.0, 1e-10);
      ENSURE_NEAR(r.CM[2], 0.0, 1e-10);
      for (int i = 0; i < r.n_panels/2; i++) {
        ENSURE_NEAR(r.gamma[i], r.gamma[r.n_panels - 1 - i], 1e-9*fabs(r.gamma[i]) + 1e-12);
      }
      ENSURE_NEAR(r.section_moment[0], r.section_moment[4], 1e-9);
      ENSURE_NEAR(r.section_moment[1], r.section_moment[3], 1e-9);
      awe_vsm_wing_free(w);
    }
  }
}


/* Newton and the relaxed loop converge to the same circulation, also with body rates. */
static void test_newton_vs_loop(void) {
  awe_vsm_section sec[5];
  arc_kite(sec);
  const double om[3] = {0.3, -0.2, 0.4};
  double va[3];
  awe_vsm_va_from_angles(15.0, 10.0, 4.0, va);
  double g[2][36], f[2][3];
  int iters[2];
  for (int solver = 0; solver < 2; solver++) {
    awe_vsm_settings s = base_settings();
    s.n_panels = 36;
    s.solver = solver ? AWE_VSM_SOLVER_NEWTON : AWE_VSM_SOLVER_LOOP;
    s.rtol = 1e-10;
    s.max_iterations = 20000;
    awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 5, &LEI, 1, &s, NULL, 0);
    ENSURE(w != NULL);
    if (!w) return;
    awe_vsm_result r;
    ENSURE(awe_vsm_solve(w, va, om, NULL, &r) == AWE_VSM_OK);
    memcpy(g[solver], r.gamma, sizeof g[solver]);
    memcpy(f[solver], r.force, sizeof f[solver]);
    iters[solver] = r.iterations;
    ENSURE(r.newton_fallback == 0);
    awe_vsm_wing_free(w);
  }
  double dg = 0.0, gmax = 0.0;
  for (int i = 0; i < 36; i++) {
    dg = fmax(dg, fabs(g[0][i] - g[1][i]));
    gmax = fmax(gmax, fabs(g[0][i]));
  }
  printf("  loop %d iterations, Newton %d: max |dGamma|/max|Gamma| = %.3g, dF = %.3g N\n",
         iters[0], iters[1], dg/gmax, fabs(f[0][2] - f[1][2]));
  ENSURE(dg < 1e-8*gmax);
  ENSURE(iters[1] < 12);
}


/* Deep stall on a polar with a lift drop: Newton may need its line search or the loop fallback,
 * but it must end converged with the same answer as a slowly relaxed loop, or report failure. */
static void test_stall(void) {
  // thin plate polar with a sharp stall at 12 deg
  enum { NP = 61 };
  double a[NP], cl[NP], cd[NP], cm[NP];
  for (int k = 0; k < NP; k++) {
    const double deg = -30.0 + k;
    a[k] = deg*PI/180.0;
    cl[k] = fabs(deg) <= 12.0 ? 0.1*deg : copysign(1.2 - 0.06*(fabs(deg) - 12.0), deg);
    cd[k] = 0.01 + 0.0005*deg*deg;
    cm[k] = -0.05;
  }
  const awe_airfoil plate = {AWE_AIRFOIL_POLARS, 1, NP, a, cl, cd, cm, 0.0, 0.0};
  awe_vsm_section sec[5];
  arc_kite(sec);
  awe_vsm_settings s = base_settings();
  s.n_panels = 20;
  s.rtol = 1e-8;
  s.max_iterations = 3000;
  s.solver = AWE_VSM_SOLVER_NEWTON;
  s.is_with_artificial_viscosity = 1;
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 5, &plate, 1, &s, NULL, 0);
  ENSURE(w != NULL);
  if (!w) return;
  double va[3];
  awe_vsm_va_from_angles(15.0, 20.0, 0.0, va);
  awe_vsm_result r;
  int st = awe_vsm_solve(w, va, NULL, NULL, &r);
  printf("  post-stall (20 deg), Newton + artificial viscosity: status %d, CL %.5f, "
         "%d iterations, fallback %d, residual %.3g\n", st, r.CL, r.iterations,
         r.newton_fallback, r.residual);
  ENSURE(st == AWE_VSM_OK || (st == AWE_VSM_ENOCONV && !r.converged));
  if (st == AWE_VSM_OK) {
    ENSURE(r.residual < 1e-8);
    const double cln = r.CL;
    s.solver = AWE_VSM_SOLVER_LOOP;
    s.relaxation_factor = 0.05;
    s.max_iterations = 20000;
    awe_vsm_wing_set_settings(w, &s);
    awe_vsm_wing_reset_gamma(w);
    st = awe_vsm_solve(w, va, NULL, NULL, &r);
    printf("  same with the loop: status %d, CL %.5f, %d iterations\n", st, r.CL, r.iterations);
    if (st == AWE_VSM_OK) ENSURE_NEAR(r.CL, cln, 1e-6);
  }
  awe_vsm_wing_free(w);
}


static void test_unconverged_and_zero_wind(void) {
  awe_vsm_section sec[5];
  arc_kite(sec);
  awe_vsm_settings s = base_settings();
  s.n_panels = 12;
  s.max_iterations = 5;
  s.relaxation_factor = 0.002;  // no retry below 1e-3
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 5, &LEI, 1, &s, NULL, 0);
  ENSURE(w != NULL);
  if (!w) return;
  double va[3];
  awe_vsm_va_from_angles(15.0, 8.0, 0.0, va);
  awe_vsm_result r;
  int st = awe_vsm_solve(w, va, NULL, NULL, &r);
  printf("  5 iterations: status %d (%s), converged %d, residual %.3g\n", st,
         awe_vsm_strstatus(st), r.converged, r.residual);
  ENSURE(st == AWE_VSM_ENOCONV);
  ENSURE(r.status == AWE_VSM_ENOCONV);
  ENSURE(!r.converged);
  ENSURE(r.residual > s.rtol);
  ENSURE(isfinite(r.force[2]));

  // zero and tiny apparent wind: zero loads, no NaN
  const double v0[3] = {0.0, 0.0, 0.0}, vt[3] = {1e-4, 0.0, 2e-4};
  const double om[3] = {0.0, 0.0, 1.0};
  for (int k = 0; k < 2; k++) {
    st = awe_vsm_solve(w, k ? vt : v0, om, NULL, &r);
    ENSURE(st == AWE_VSM_LOW_WIND);
    ENSURE(r.converged);
    ENSURE(r.force[0] == 0.0 && r.force[1] == 0.0 && r.force[2] == 0.0);
    ENSURE(r.moment[0] == 0.0 && r.CL == 0.0 && r.CD == 0.0);
    for (int i = 0; i < r.n_panels; i++) ENSURE(r.gamma[i] == 0.0 && isfinite(r.alpha[i]));
  }
  // linearization at zero wind: zero loads and zero derivatives
  {
    double x0[11], jac[121];
    for (int k = 0; k < 11; k++) x0[k] = 1.0;
    ENSURE(awe_vsm_linearize(w, v0, NULL, NULL, x0, jac, NULL) == AWE_VSM_LOW_WIND);
    ENSURE(x0[2] == 0.0 && jac[2*11 + 2] == 0.0);
  }

  // just above the minimum the solve is regular
  const double vm[3] = {2e-3, 0.0, 2e-4};
  s.max_iterations = 1500;
  s.relaxation_factor = 0.03;
  s.solver = AWE_VSM_SOLVER_NEWTON;
  awe_vsm_wing_set_settings(w, &s);
  st = awe_vsm_solve(w, vm, NULL, NULL, &r);
  ENSURE(st == AWE_VSM_OK);
  ENSURE(isfinite(r.CL) && isfinite(r.force[2]));

  // non-finite input
  const double vn[3] = {NAN, 0.0, 1.0};
  st = awe_vsm_solve(w, vn, NULL, NULL, &r);
  ENSURE(st == AWE_VSM_ENONFINITE);
  ENSURE(r.force[2] == 0.0);
  ENSURE(awe_vsm_solve(NULL, va, NULL, NULL, &r) == AWE_VSM_EINVAL);
  awe_vsm_wing_free(w);
  awe_vsm_wing_free(NULL);
}



/* ---- geometry -------------------------------------------------------------------------------- */

static void test_refinement(void) {
  awe_vsm_section sec[5];
  arc_kite(sec);
  const awe_vsm_distribution dist[4] = {AWE_DIST_LINEAR, AWE_DIST_COSINE,
                                        AWE_DIST_SPLIT_PROVIDED, AWE_DIST_UNCHANGED};
  const int want[4] = {16, 16, 16, 4};
  for (int d = 0; d < 4; d++) {
    awe_vsm_settings s = base_settings();
    s.n_panels = 16;
    s.distribution = dist[d];
    awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 5, &LEI, 1, &s, NULL, 0);
    ENSURE(w != NULL);
    if (!w) return;
    awe_vsm_geometry g;
    awe_vsm_wing_geometry(w, &g);
    ENSURE(g.n_panels == want[d]);
    double wsum = 0.0, wmin = INFINITY, wmax = 0.0;
    for (int i = 0; i < g.n_panels; i++) {
      wsum += g.width[i];
      wmin = fmin(wmin, g.width[i]);
      wmax = fmax(wmax, g.width[i]);
      ENSURE_NEAR(g.chord[i], 1.2, 1e-12);
      ENSURE(g.panel_section[i] >= 0 && g.panel_section[i] < 5);
      // frame: orthonormal, normal up at the centre
      ENSURE_NEAR(g.e_chord[3*i], 1.0, 1e-12);
      ENSURE_NEAR(g.e_normal[3*i] * g.e_normal[3*i] + g.e_normal[3*i + 1]*g.e_normal[3*i + 1]
                  + g.e_normal[3*i + 2]*g.e_normal[3*i + 2], 1.0, 1e-12);
    }
    // the centre facets of the 5-section polyline are tilted by 0.25 rad
    ENSURE_NEAR(g.e_normal[3*(g.n_panels/2) + 2], cos(0.25), 1e-12);
    ENSURE_NEAR(g.e_span[3*(g.n_panels/2) + 1], cos(0.25), 1e-12);
    // the quarter-chord polyline is an arc of radius 4 over 2 rad: chord-wise polygon length
    printf("  distribution %d: %d panels, width sum %.5f m, min %.4f, max %.4f, S %.4f m^2\n",
           d, g.n_panels, wsum, wmin, wmax, g.area);
    if (d == 0 || d == 2) ENSURE(wmax - wmin < 1e-9);
    if (d == 1) ENSURE(wmax > 3.0*wmin);
    ENSURE_NEAR(g.span, 2.0*4.0*sin(1.0), 1e-12);
    awe_vsm_wing_free(w);
  }

  // errors: SPLIT_PROVIDED with a non-multiple, too few sections, bad airfoil index
  char err[256];
  awe_vsm_settings s = base_settings();
  s.n_panels = 10;
  s.distribution = AWE_DIST_SPLIT_PROVIDED;
  ENSURE(awe_vsm_wing_alloc(sec, 5, &LEI, 1, &s, err, sizeof err) == NULL);
  ENSURE_CONTAINS(err, "multiple");
  s.distribution = AWE_DIST_LINEAR;
  ENSURE(awe_vsm_wing_alloc(sec, 1, &LEI, 1, &s, err, sizeof err) == NULL);
  ENSURE_CONTAINS(err, "at least 2");
  ENSURE(awe_vsm_wing_alloc(sec, 5, NULL, 0, &s, err, sizeof err) == NULL);
  ENSURE_CONTAINS(err, "airfoil index");
  s.distribution = AWE_DIST_COSINE_VAN_GARREL;
  ENSURE(awe_vsm_wing_alloc(sec, 5, &LEI, 1, &s, err, sizeof err) == NULL);
  ENSURE_CONTAINS(err, "COSINE");
}


/* Sections given -y -> +y give the same loads; per-section outputs follow the caller's order. */
static void test_section_order(void) {
  awe_vsm_section sec[5], rev[5];
  arc_kite(sec);
  sec[0].le[0] = 0.1;  // break the symmetry
  for (int k = 0; k < 5; k++) rev[k] = sec[4 - k];
  awe_vsm_settings s = base_settings();
  s.n_panels = 20;
  s.solver = AWE_VSM_SOLVER_NEWTON;
  s.rtol = 1e-12;
  awe_vsm_wing *a = awe_vsm_wing_alloc(sec, 5, &LEI, 1, &s, NULL, 0);
  awe_vsm_wing *b = awe_vsm_wing_alloc(rev, 5, &LEI, 1, &s, NULL, 0);
  ENSURE(a && b);
  if (!a || !b) return;
  double va[3];
  awe_vsm_va_from_angles(12.0, 6.0, 3.0, va);
  const double om[3] = {0.1, 0.2, 0.3}, ref[3] = {0.3, 0.2, -1.0};
  awe_vsm_result ra, rb;
  ENSURE(awe_vsm_solve(a, va, om, ref, &ra) == AWE_VSM_OK);
  ENSURE(awe_vsm_solve(b, va, om, ref, &rb) == AWE_VSM_OK);
  for (int k = 0; k < 3; k++) {
    ENSURE_NEAR(ra.force[k], rb.force[k], 1e-9);
    ENSURE_NEAR(ra.moment[k], rb.moment[k], 1e-9);
  }
  for (int k = 0; k < 5; k++) ENSURE_NEAR(ra.section_moment[k], rb.section_moment[4 - k], 1e-9);
  ENSURE(fabs(ra.section_moment[0] - ra.section_moment[4]) > 1e-6);
  awe_vsm_wing_free(a);
  awe_vsm_wing_free(b);
}


/* Positive twist is nose up: more lift; twist of one tip section rolls the wing. */
static void test_twist_and_rates(void) {
  awe_vsm_section sec[3];
  rect_wing(1.0, 10.0, 3, sec, -1);
  awe_vsm_settings s = base_settings();
  s.n_panels = 20;
  s.solver = AWE_VSM_SOLVER_NEWTON;
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 3, NULL, 0, &s, NULL, 0);
  ENSURE(w != NULL);
  if (!w) return;
  double va[3];
  awe_vsm_va_from_angles(10.0, 4.0, 0.0, va);
  awe_vsm_result r;
  ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r) == AWE_VSM_OK);
  const double cl0 = r.CL;

  // uniform twist of 1 deg equals 1 deg more angle of attack (area unchanged)
  const double t1[3] = {PI/180.0, PI/180.0, PI/180.0};
  ENSURE(awe_vsm_wing_set_twist(w, t1) == AWE_VSM_OK);
  ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r) == AWE_VSM_OK);
  const double clt = r.CL;
  ENSURE(awe_vsm_wing_set_twist(w, NULL) == AWE_VSM_OK);
  awe_vsm_va_from_angles(10.0, 5.0, 0.0, va);
  ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r) == AWE_VSM_OK);
  printf("  CL(4 deg) %.6f, CL(4 deg + 1 deg twist) %.6f, CL(5 deg) %.6f\n", cl0, clt, r.CL);
  ENSURE(clt > cl0 + 0.05);
  ENSURE_NEAR(clt, r.CL, 2e-3);

  // twisting the +y tip nose-up lifts the +y side: Mx > 0 about the centre
  const double t2[3] = {PI/90.0, 0.0, 0.0};
  awe_vsm_wing_set_twist(w, t2);
  awe_vsm_va_from_angles(10.0, 4.0, 0.0, va);
  ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r) == AWE_VSM_OK);
  printf("  +y tip twisted 2 deg: Mx %.4f N m, section moments %.4g %.4g %.4g\n", r.moment[0],
         r.section_moment[0], r.section_moment[1], r.section_moment[2]);
  ENSURE(r.moment[0] > 1.0);
  awe_vsm_wing_set_twist(w, NULL);

  // omega = 1e-12 runs the per-panel wake code paths and must reproduce omega = 0
  {
    const double tiny[3] = {1e-12, -1e-12, 1e-12};
    awe_vsm_result r0, r1;
    ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r0) == AWE_VSM_OK);
    ENSURE(awe_vsm_solve(w, va, tiny, NULL, &r1) == AWE_VSM_OK);
    for (int k = 0; k < 3; k++) {
      ENSURE_NEAR(r1.force[k], r0.force[k], 1e-8*fabs(r0.force[2]));
      ENSURE_NEAR(r1.moment[k], r0.moment[k], 1e-8*fabs(r0.force[2]));
    }
  }

  // roll damping: rolling right wing down (p > 0 about +x) gives a restoring -Mx
  const double om[3] = {0.5, 0.0, 0.0};
  ENSURE(awe_vsm_solve(w, va, om, NULL, &r) == AWE_VSM_OK);
  printf("  roll rate 0.5 rad/s: Mx %.4f N m\n", r.moment[0]);
  ENSURE(r.moment[0] < -1.0);

  // moving the sections (set_sections) by a rigid offset leaves forces unchanged
  ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r) == AWE_VSM_OK);
  const double fz = r.force[2];
  for (int k = 0; k < 3; k++) {
    sec[k].le[2] += 2.0;
    sec[k].te[2] += 2.0;
  }
  ENSURE(awe_vsm_wing_set_sections(w, sec, 3) == AWE_VSM_OK);
  ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r) == AWE_VSM_OK);
  ENSURE_NEAR(r.force[2], fz, 1e-9*fabs(fz));
  ENSURE(awe_vsm_wing_set_sections(w, sec, 2) == AWE_VSM_EINVAL);
  awe_vsm_wing_free(w);
}


/* ---- linearization --------------------------------------------------------------------------- */

static double lin_error(const double *x0, const double *jac, const double *dy, const double *x1,
                        int m) {
  double num = 0.0, den = 0.0;
  for (int i = 0; i < m; i++) {
    double pred = x0[i];
    for (int j = 0; j < m; j++) pred += jac[i*m + j]*dy[j];
    num += (pred - x1[i])*(pred - x1[i]);
    den += (x1[i] - x0[i])*(x1[i] - x0[i]);
  }
  return sqrt(num)/fmax(sqrt(den), 1e-300);
}


static void test_linearize(void) {
  awe_vsm_section sec[5];
  arc_kite(sec);
  awe_vsm_settings s = base_settings();
  s.n_panels = 20;
  s.distribution = AWE_DIST_SPLIT_PROVIDED;
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 5, &LEI, 1, &s, NULL, 0);
  ENSURE(w != NULL);
  if (!w) return;
  const int m = awe_vsm_linearize_size(w);
  ENSURE(m == 11);
  double va[3];
  awe_vsm_va_from_angles(15.0, 8.0, 2.0, va);
  const double om[3] = {0.05, -0.1, 0.2}, ref[3] = {0.4, 0.0, -2.0};
  double x0[11], jac[121], x1[11], dy[11];
  awe_vsm_result r;
  int st = awe_vsm_linearize(w, va, om, ref, x0, jac, &r);
  ENSURE(st == AWE_VSM_OK);
  ENSURE_NEAR(x0[2], r.force[2], 1e-12*fabs(r.force[2]));

  // single small perturbations (0.01 m/s, 0.1 deg/s, 0.1 deg) and a combined one
  const double d1 = 0.01, d2 = 0.1*PI/180.0, d3 = 0.1*PI/180.0;
  double worst = 0.0;
  for (int j = -1; j < m; j++) {
    for (int k = 0; k < m; k++) {
      const double dk = k < 3 ? d1 : (k < 6 ? d2 : d3);
      dy[k] = (j < 0 || j == k) ? dk*(k % 2 ? -1.0 : 1.0) : 0.0;
    }
    double vap[3], omp[3], th[5];
    for (int k = 0; k < 3; k++) {
      vap[k] = va[k] + dy[k];
      omp[k] = om[k] + dy[3 + k];
    }
    for (int k = 0; k < 5; k++) th[k] = dy[6 + k];
    awe_vsm_wing_set_twist(w, th);
    awe_vsm_settings t = s;
    t.solver = AWE_VSM_SOLVER_NEWTON;
    t.rtol = 1e-12;
    awe_vsm_wing_set_settings(w, &t);
    st = awe_vsm_solve(w, vap, omp, ref, &r);
    ENSURE(st == AWE_VSM_OK);
    awe_vsm_wing_set_settings(w, &s);
    awe_vsm_wing_set_twist(w, NULL);
    for (int k = 0; k < 3; k++) {
      x1[k] = r.force[k];
      x1[3 + k] = r.moment[k];
    }
    for (int k = 0; k < 5; k++) x1[6 + k] = r.section_moment[k];
    const double e = lin_error(x0, jac, dy, x1, m);
    worst = fmax(worst, e);
    if (j < 0) printf("  combined perturbation: |x0 + J dy - x(y0 + dy)|/|dx| = %.3g\n", e);
  }
  printf("  worst single-input prediction error %.3g (limit 2e-3)\n", worst);
  ENSURE(worst < 2e-3);
  printf("  dFz/dva_z %.4f N s/m, dMy/dtheta_center %.4f N m/rad, dMx/domega_x %.4f N m s\n",
         jac[2*m + 2], jac[4*m + 8], jac[3*m + 3]);
  awe_vsm_wing_free(w);
}


/* ---- fast geometry path ---------------------------------------------------------------------- */

/* The 2plate kite's wing (models/2plate_kite/aero_geometry.yaml: three plates, 10 LINEAR panels)
 * with a tabulated flat-plate-like polar, twisted and rolling as in flight. */
static void test_fastpath_2plate(void) {
  awe_vsm_section sec[3] = {{{-0.5, 1.0, 2.0}, {0.5, 1.0, 2.3}, 0},
                            {{-0.5, 0.0, 2.5}, {0.5, 0.0, 2.8}, 0},
                            {{-0.5, -1.0, 2.0}, {0.5, -1.0, 2.3}, 0}};
  enum { NROW = 361 };
  double a[NROW], cl[NROW], cd[NROW], cm[NROW];
  for (int k = 0; k < NROW; k++) {
    a[k] = (k - 180)*PI/180.0;
    cl[k] = PI*sin(2.0*a[k]);
    cd[k] = 0.02 + 2.0*sin(a[k])*sin(a[k]);
    cm[k] = -0.1*sin(a[k]);
  }
  const awe_airfoil plate = {AWE_AIRFOIL_POLARS, 1, NROW, a, cl, cd, cm, 0.0, 0.0};
  awe_vsm_settings s = base_settings();
  s.n_panels = 10;
  s.distribution = AWE_DIST_LINEAR;
  s.solver = AWE_VSM_SOLVER_NEWTON;
  s.use_gamma_prev = 1;
  double va[3];
  awe_vsm_va_from_angles(15.5, 8.0, 2.0, va);
  const double om[3] = {0.05, -0.1, 0.2}, th[3] = {0.3, 0.05, 0.25};
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 3, &plate, 1, &s, NULL, 0);
  ENSURE(w != NULL);
  if (!w) return;
  fastpath_geometry(w, sec, va, om, th, "2plate");
  awe_vsm_wing_free(w);
  fastpath_jacobian(sec, 3, &plate, 1, &s, va, om, th, "2plate");
}


int main(void) {
  RUN(test_airfoils);
  RUN(test_airfoil_blending);
  RUN(test_three_horseshoes);
  RUN(test_filament_cores);
  RUN(test_elliptic_theory);
  RUN(test_vsmjl_regression);
  RUN(test_symmetry);
  RUN(test_newton_vs_loop);
  RUN(test_stall);
  RUN(test_unconverged_and_zero_wind);
  RUN(test_refinement);
  RUN(test_section_order);
  RUN(test_twist_and_rates);
  RUN(test_linearize);
  RUN(test_fastpath_2plate);
  return harness_report();
}
