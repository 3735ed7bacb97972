/* test_vsm_probe.c: the flow velocity at any point from the VSM solution (awe_vsm_velocity_at).
 *
 *   - at every control point it is the solver's own velocity there (awe_vsm_induced on the
 *     solve's matrix) plus the 2D self-induction the solver removes, to 1e-10 of the induced
 *     speed, with a uniform wake and with body rates (a wake leg per panel); the angle of attack
 *     from it is the result's alpha;
 *   - 1000 spans above, below, to the side and upstream it is the freestream to 1e-6;
 *   - on the symmetry plane below a flat rectangular wing (40 panels) it equals an independent
 *     Biot-Savart sum written here (angle form, the horseshoes closed from the geometry and the
 *     solved circulation) to 1e-9;
 *   - below a lifting flat wing the streamwise speed drops, above it rises, by amounts within
 *     15 % of each other at mirror points (the wake leaves along the tilted wind);
 *   - no solve, a geometry change since, a non-finite point: AWE_VSM_EINVAL; low wind: the
 *     freestream.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vsm_kites.h"
#include "aero/vsm.h"
#include "aero/vsm_internal.h"

static const double PI = 3.14159265358979323846;


/* 2D induction of panel j's bound vortex at p (what the solver removes at its control point). */
static void self_2d(const awe_vsm_wing *w, int j, const double p[3], double out[3]) {
  const double *b1 = w->b1 + 3*j, *b2 = w->b2 + 3*j;
  const double r0[3] = {b1[0] - b2[0], b1[1] - b2[1], b1[2] - b2[2]};
  const double r3[3] = {p[0] - 0.5*(b1[0] + b2[0]), p[1] - 0.5*(b1[1] + b2[1]),
                        p[2] - 0.5*(b1[2] + b2[2])};
  const double c[3] = {r0[1]*r3[2] - r0[2]*r3[1], r0[2]*r3[0] - r0[0]*r3[2],
                       r0[0]*r3[1] - r0[1]*r3[0]};
  const double c2 = c[0]*c[0] + c[1]*c[1] + c[2]*c[2];
  const double k = sqrt(r0[0]*r0[0] + r0[1]*r0[1] + r0[2]*r0[2])/(2.0*PI*c2);
  for (int q = 0; q < 3; q++) out[q] = k*c[q];
}


static double norm3(const double v[3]) {
  return sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]);
}


static void check_control_points(const double om[3]) {
  awe_vsm_section sec[5];
  arc_kite(sec);
  awe_vsm_settings s;
  awe_vsm_settings_default(&s);
  s.n_panels = 24;
  s.distribution = AWE_DIST_COSINE;
  s.solver = AWE_VSM_SOLVER_NEWTON;
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 5, &LEI, 1, &s, NULL, 0);
  ENSURE(w != NULL);
  if (!w) return;
  double va[3], p0[3] = {0.5, 0.0, -2.0}, v[3];
  ENSURE(awe_vsm_velocity_at(w, p0, v) == AWE_VSM_EINVAL);  // no solve yet
  ENSURE(isnan(v[0]));
  awe_vsm_va_from_angles(15.0, 8.0, 0.0, va);
  awe_vsm_result r;
  ENSURE(awe_vsm_solve(w, va, om, NULL, &r) == AWE_VSM_OK);
  const int n = r.n_panels;
  double *vel = malloc(3*(size_t)n*sizeof(double));
  awe_vsm_induced(w, w->aic, w->gam, vel);  // the solver's velocity at its control points
  awe_vsm_geometry g;
  awe_vsm_wing_geometry(w, &g);
  double worst = 0.0, vmax = 0.0, amax = 0.0;
  for (int i = 0; i < n; i++) {
    const double *cp = g.control_point + 3*i;
    double u[3], s2d[3], oxp[3] = {om[1]*cp[2] - om[2]*cp[1], om[2]*cp[0] - om[0]*cp[2],
                                    om[0]*cp[1] - om[1]*cp[0]};
    ENSURE(awe_vsm_velocity_at(w, cp, u) == AWE_VSM_OK);
    self_2d(w, i, cp, s2d);
    for (int q = 0; q < 3; q++) {
      const double ind = u[q] - (va[q] - oxp[q]) - r.gamma[i]*s2d[q];  // probe, 2D term out
      const double ref = vel[3*i + q] - w->va[3*i + q];                  // solver's
      worst = fmax(worst, fabs(ind - ref));
      vmax = fmax(vmax, fabs(ref));
      u[q] -= r.gamma[i]*s2d[q];
    }
    const double *en = g.e_normal + 3*i, *ec = g.e_chord + 3*i;
    const double a = atan2(u[0]*en[0] + u[1]*en[1] + u[2]*en[2],
                           u[0]*ec[0] + u[1]*ec[1] + u[2]*ec[2]);
    amax = fmax(amax, fabs(a - r.alpha[i]));
  }
  printf("  omega (%g, %g, %g): induced speed up to %.4f m/s, probe - solver %.3g, alpha %.3g\n",
         om[0], om[1], om[2], vmax, worst, amax);
  ENSURE(vmax > 0.1);
  ENSURE(worst <= 1e-10*vmax);
  ENSURE(amax <= 1e-10);
  // a geometry change after the solve: the circulation no longer belongs to it
  const double th[5] = {0.0, 0.01, 0.0, 0.0, 0.0};
  awe_vsm_wing_set_twist(w, th);
  ENSURE(awe_vsm_velocity_at(w, p0, v) == AWE_VSM_EINVAL);
  free(vel);
  awe_vsm_wing_free(w);
}


static void test_control_points(void) {
  const double zero[3] = {0.0, 0.0, 0.0}, rates[3] = {0.1, -0.05, 0.2};
  check_control_points(zero);
  check_control_points(rates);
}


static void test_far_field(void) {
  awe_vsm_section sec[5];
  arc_kite(sec);
  awe_vsm_settings s;
  awe_vsm_settings_default(&s);
  s.n_panels = 30;
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 5, &LEI, 1, &s, NULL, 0);
  ENSURE(w != NULL);
  if (!w) return;
  double va[3], v[3];
  awe_vsm_va_from_angles(20.0, 10.0, 0.0, va);
  awe_vsm_result r;
  ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r) == AWE_VSM_OK);
  const double d = 1000.0*r.span;
  const double pts[4][3] = {{0.5, 0.0, d}, {0.5, 0.0, -d}, {0.5, d, 0.0}, {-d, 0.0, 0.0}};
  for (int k = 0; k < 4; k++) {
    ENSURE(awe_vsm_velocity_at(w, pts[k], v) == AWE_VSM_OK);
    const double dv[3] = {v[0] - va[0], v[1] - va[1], v[2] - va[2]};
    printf("  %g spans away along %c: |v - va| = %.3g m/s\n", 1000.0, "zzyx"[k], norm3(dv));
    ENSURE(norm3(dv) <= 1e-6*norm3(va));
  }
  // near the wing the induction is not small (the test above means something)
  const double near[3] = {0.6, 0.0, -1.0};
  ENSURE(awe_vsm_velocity_at(w, near, v) == AWE_VSM_OK);
  ENSURE(fabs(v[0] - va[0]) > 0.05*norm3(va));
  // a non-finite point
  const double bad[3] = {NAN, 0.0, 0.0};
  ENSURE(awe_vsm_velocity_at(w, bad, v) == AWE_VSM_EINVAL);
  // low wind: no circulation, the freestream
  const double calm[3] = {1e-4, 0.0, 0.0};
  ENSURE(awe_vsm_solve(w, calm, NULL, NULL, &r) == AWE_VSM_LOW_WIND);
  ENSURE(awe_vsm_velocity_at(w, near, v) == AWE_VSM_LOW_WIND);
  ENSURE(v[0] == 1e-4 && v[1] == 0.0 && v[2] == 0.0);
  awe_vsm_wing_free(w);
}


/* Independent Biot-Savart: a straight vortex line from a along the unit vector t, from s = 0 to
 * s = len (INFINITY: semi-infinite), circulation gam, at p; the angle form
 * |v| = gam/(4 pi h) (cos th_end - cos th_start) about the foot of the perpendicular. */
static void line(const double a[3], const double t[3], double len, double gam, const double p[3],
                 double v[3]) {
  const double r[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
  const double sp = r[0]*t[0] + r[1]*t[1] + r[2]*t[2];  // foot of p at s = sp
  const double rp[3] = {r[0] - sp*t[0], r[1] - sp*t[1], r[2] - sp*t[2]};
  const double h = norm3(rp);
  const double s0 = -sp, s1 = len - sp;  // the ends relative to the foot
  const double c1 = isinf(len) ? 1.0 : s1/sqrt(s1*s1 + h*h);
  const double c0 = s0/sqrt(s0*s0 + h*h);
  const double mag = gam/(4.0*PI*h)*(c1 - c0);
  const double e[3] = {t[1]*rp[2] - t[2]*rp[1], t[2]*rp[0] - t[0]*rp[2], t[0]*rp[1] - t[1]*rp[0]};
  for (int q = 0; q < 3; q++) v[q] += mag*e[q]/h;
}


/* line() from a to b */
static void seg(const double a[3], const double b[3], double gam, const double p[3], double v[3]) {
  double t[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double l = norm3(t);
  for (int q = 0; q < 3; q++) t[q] /= l;
  line(a, t, l, gam, p, v);
}


/* Flat rectangular wing, chord c, span b, in the plane z = 0, LE at x = 0, inviscid. */
static awe_vsm_wing *flat_wing(double c, double b, int n, double alpha_deg, double va[3],
                               awe_vsm_result *r) {
  const awe_vsm_section sec[2] = {{{0.0, 0.5*b, 0.0}, {c, 0.5*b, 0.0}, -1},
                                  {{0.0, -0.5*b, 0.0}, {c, -0.5*b, 0.0}, -1}};
  awe_vsm_settings s;
  awe_vsm_settings_default(&s);
  s.n_panels = n;
  s.distribution = AWE_DIST_LINEAR;
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 2, NULL, 0, &s, NULL, 0);
  if (!w) return NULL;
  awe_vsm_va_from_angles(10.0, alpha_deg, 0.0, va);
  if (awe_vsm_solve(w, va, NULL, NULL, r) != AWE_VSM_OK) {
    awe_vsm_wing_free(w);
    return NULL;
  }
  return w;
}


static void test_independent_sum(void) {
  const double c = 1.0, b = 8.0;
  const int n = 40;
  double va[3];
  awe_vsm_result r;
  awe_vsm_wing *w = flat_wing(c, b, n, 6.0, va, &r);
  ENSURE(w != NULL);
  if (!w) return;
  ENSURE(r.CL > 0.3);
  awe_vsm_geometry g;
  awe_vsm_wing_geometry(w, &g);
  const double vn = norm3(va), u[3] = {va[0]/vn, va[1]/vn, va[2]/vn};
  // the panels as this test lays them out: panel i from y_i to y_i+1 (+y tip first)
  double geo = 0.0;
  for (int i = 0; i < n; i++) {
    const double ym = 0.5*b - b*(i + 0.5)/n;
    geo = fmax(geo, fabs(g.aero_center[3*i] - 0.25*c) + fabs(g.aero_center[3*i + 1] - ym) +
                        fabs(g.aero_center[3*i + 2]));
  }
  ENSURE(geo < 1e-12);
  const double pts[3][3] = {{0.5*c, 0.0, -2.0}, {0.25*c, 0.0, -0.6}, {-1.0, 0.0, -3.0}};
  for (int k = 0; k < 3; k++) {
    double ref[3] = {va[0], va[1], va[2]}, v[3];
    for (int i = 0; i < n; i++) {
      const double yl = 0.5*b - b*i/n, yr = 0.5*b - b*(i + 1)/n;
      const double b1[3] = {0.25*c, yl, 0.0}, b2[3] = {0.25*c, yr, 0.0};
      const double t1[3] = {c, yl, 0.0}, t2[3] = {c, yr, 0.0};
      const double gam = r.gamma[i];
      // the closed horseshoe: from downstream into TE2 (the leg TE2 -> downstream reversed),
      // to b2, across to b1, to TE1, downstream
      line(t2, u, INFINITY, -gam, pts[k], ref);
      seg(t2, b2, gam, pts[k], ref);
      seg(b2, b1, gam, pts[k], ref);
      seg(b1, t1, gam, pts[k], ref);
      line(t1, u, INFINITY, gam, pts[k], ref);
    }
    ENSURE(awe_vsm_velocity_at(w, pts[k], v) == AWE_VSM_OK);
    const double d[3] = {v[0] - ref[0], v[1] - ref[1], v[2] - ref[2]};
    const double ind[3] = {ref[0] - va[0], ref[1] - va[1], ref[2] - va[2]};
    printf("  (%g, %g, %g): induced (%.6f, %.6f, %.6f) m/s, probe - independent %.3g\n",
           pts[k][0], pts[k][1], pts[k][2], ind[0], ind[1], ind[2], norm3(d));
    ENSURE(norm3(ind) > 0.05);
    ENSURE(norm3(d) <= 1e-9*norm3(ind));
  }
  awe_vsm_wing_free(w);
}


static void test_sign(void) {
  const double c = 1.0, b = 8.0;
  double va[3];
  awe_vsm_result r;
  awe_vsm_wing *w = flat_wing(c, b, 40, 6.0, va, &r);
  ENSURE(w != NULL);
  if (!w) return;
  ENSURE(r.lift > 0.0);
  for (int k = 0; k < 3; k++) {
    const double h = 0.5 + 1.0*k;
    const double below[3] = {0.25*c, 0.0, -h}, above[3] = {0.25*c, 0.0, h};
    double vb[3], vt[3];
    ENSURE(awe_vsm_velocity_at(w, below, vb) == AWE_VSM_OK);
    ENSURE(awe_vsm_velocity_at(w, above, vt) == AWE_VSM_OK);
    const double db = vb[0] - va[0], dt = vt[0] - va[0];
    printf("  %.1f m below / above the 1/4 chord: du %.5f / %+.5f m/s\n", h, db, dt);
    ENSURE(db < 0.0 && dt > 0.0);
    ENSURE(fabs(db + dt) <= 0.15*fabs(db));
  }
  awe_vsm_wing_free(w);
}


int main(void) {
  RUN(test_control_points);
  RUN(test_far_field);
  RUN(test_independent_sum);
  RUN(test_sign);
  return harness_report();
}
