/* test_ground.c: every wing's angles about its own ground station (ground_station.c).
 *
 * Scenario: scenarios/tests/two_kites.yaml, two identical 2plate kites, kite_a's ground station
 * at the origin and kite_b's at y = 30 m, both placed at 60 deg elevation, azimuth 0.
 *   found           each wing's station is the STATIC end of its own tether (winch points
 *                   ground_a, ground_b), found by walking the bridle and tether segments
 *   angles agree    released without settling, the two kites are one system shifted by 30 m:
 *                   elevation, azimuth, heading, course and distance agree within 1e-9 over 3 s
 *                   and kite_b stays kite_a + (0, 30, 0) m within 1e-9 m. (Before: kite_b's
 *                   angles were taken about the origin, elevation 0.50 rad and azimuth -1.25 rad
 *                   instead of 1.047 and 0.)
 *   both settle     with run.steady_state both are settled free only radially about their own
 *                   station (max |acc| < 1e-3 g) and, released, move the same way: kite_b's
 *                   displacement after 3 s equals kite_a's within 1 mm (both < 1 m). Before,
 *                   kite_b was held on a sphere about the origin, settled wrongly and left
 *                   16.4 m in 3 s (kite_a 0.47 m). The angles agree at the settled state within
 *                   1e-6 rad: the settling solve stops at a residual of ~1e-10 N, and the
 *                   kite's weak yaw stiffness turns that into ~1e-7 rad of heading.
 *   away            a kite whose tether ends at a STATIC point away from the origin and from
 *                   any winch (kite_b with its winch removed, station at (25, -40, 3) m) is
 *                   found there; the placement's 45 deg elevation, 20 deg azimuth and 30 deg
 *                   heading come back exactly (1e-9) and its distance is the 20 m tether
 *   power           wings.NAME.power is the power of the winch at the wing's own station (before:
 *                   the sum over both kites' winches)
 *   ground_point    an explicit ground_point: a world position equal to the found one changes
 *                   nothing (bit-identical angles); naming ground_a for kite_b measures kite_b's
 *                   angles about ground_a (compared with kite_frames.h on the logged position)
 */
#include <math.h>
#include <string.h>

#include "util/kite_frames.h"
#include "util/vec3.h"
#include "test_physics_util.h"

#define TWO "scenarios/tests/two_kites.yaml"
#define NQ 5
static const char *const Q[NQ] = {"elevation", "azimuth", "heading", "course", "distance"};


static double out_q(awe_sim *sim, char kite, const char *q) {
  char name[64];
  snprintf(name, sizeof(name), "wings.kite_%c.%s", kite, q);
  return sp_out(sim, name);
}


static void pos(awe_sim *sim, char kite, double p[3]) {
  static const char *const c[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; k++) {
    char name[64];
    snprintf(name, sizeof(name), "wings.kite_%c.pos.%s", kite, c[k]);
    p[k] = sp_out(sim, name);
  }
}


static void test_found(void) {
  awe_spec *s = sp_load(TWO, (const char *[]){"run.steady_state=false", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  const awe_model *m = sim->m;
  ENSURE(m->nwing == 2);
  ENSURE(m->wing_ground_point[0] == awe_model_find_point(m, "ground_a"));
  ENSURE(m->wing_ground_point[1] == awe_model_find_point(m, "ground_b"));
  ENSURE_NEAR(m->wing_ground[4], 30.0, 1e-12);
  ENSURE_NEAR(m->wing_ground[3] + m->wing_ground[5], 0.0, 1e-12);
  ENSURE_NEAR(out_q(sim, 'b', "elevation"), M_PI / 3, 1e-9);
  ENSURE_NEAR(out_q(sim, 'b', "azimuth"), 0.0, 1e-9);
  sp_free(sim, s);
}


static void test_angles_agree(void) {
  awe_spec *s = sp_load(TWO, (const char *[]){"run.steady_state=false", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  double dmax[NQ] = {0}, pmax = 0.0;
  long n = awe_sim_log_steps(sim->m);
  for (long j = 0; j <= n; j++) {
    if (j > 0 && sp_step(sim, j)) break;
    for (int q = 0; q < NQ; q++)
      dmax[q] = fmax(dmax[q], fabs(out_q(sim, 'a', Q[q]) - out_q(sim, 'b', Q[q])));
    double pa[3], pb[3];
    pos(sim, 'a', pa);
    pos(sim, 'b', pb);
    pb[1] -= 30.0;
    for (int k = 0; k < 3; k++) pmax = fmax(pmax, fabs(pa[k] - pb[k]));
  }
  printf("    max |kite_a - kite_b| over %g s: elevation %.1e, azimuth %.1e, heading %.1e, "
         "course %.1e rad, distance %.1e m, position - (0, 30, 0) %.1e m\n", sim->t, dmax[0],
         dmax[1], dmax[2], dmax[3], dmax[4], pmax);
  ENSURE_NEAR(sim->t, 3.0, 1e-9);
  for (int q = 0; q < NQ; q++) ENSURE(dmax[q] < 1e-9);
  ENSURE(pmax < 1e-9);
  sp_free(sim, s);
}


static void test_both_settle(void) {
  awe_spec *s = sp_load(TWO, NULL);
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  double a0[3], b0[3], a1[3], b1[3], d0[NQ - 1];
  pos(sim, 'a', a0);
  pos(sim, 'b', b0);
  for (int q = 0; q < NQ - 1; q++)
    d0[q] = fabs(out_q(sim, 'a', Q[q]) - out_q(sim, 'b', Q[q]));
  sp_run(sim, 3.0);
  pos(sim, 'a', a1);
  pos(sim, 'b', b1);
  double da = 0.0, db = 0.0;
  for (int k = 0; k < 3; k++) {
    da += (a1[k] - a0[k]) * (a1[k] - a0[k]);
    db += (b1[k] - b0[k]) * (b1[k] - b0[k]);
  }
  da = sqrt(da);
  db = sqrt(db);
  printf("    settled: max |acc| %.1e m/s^2; at t = 0 |a - b| elevation %.1e, azimuth %.1e, "
         "heading %.1e rad; moved in 3 s: kite_a %.4f m, kite_b %.4f m\n", sim->steady_acc,
         d0[0], d0[1], d0[2], da, db);
  ENSURE(sim->steady_acc < 1e-3 * 9.81);
  for (int q = 0; q < 3; q++) ENSURE(d0[q] < 1e-6);
  ENSURE(da < 1.0);
  ENSURE(fabs(da - db) < 1e-3);
  sp_free(sim, s);
}


static void test_away(void) {
  awe_spec *s = sp_load(TWO, (const char *[]){"run.steady_state=false", "inputs=[]",
                                              "run.duration=0.1", NULL});
  s->structure.nwinch = 1; /* winch_b removed: tether_b ends at the plain STATIC ground_b */
  for (int k = 0; k < s->structure.ntransform; k++) {
    awe_transform_spec *T = &s->structure.transforms[k];
    if (strcmp(T->name, "transform_b")) continue;
    T->base_pos[0] = 25.0;
    T->base_pos[1] = -40.0;
    T->base_pos[2] = 3.0;
    T->elevation = 45.0 * M_PI / 180;
    T->azimuth = 20.0 * M_PI / 180;
    T->heading = 30.0 * M_PI / 180;
  }
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  const awe_model *m = sim->m;
  int gb = awe_model_find_point(m, "ground_b");
  ENSURE(m->nwinch == 1);
  ENSURE(m->wing_ground_point[1] == gb);
  ENSURE_NEAR(m->wing_ground[3], 25.0, 1e-12);
  ENSURE_NEAR(m->wing_ground[4], -40.0, 1e-12);
  ENSURE_NEAR(m->wing_ground[5], 3.0, 1e-12);
  double el = out_q(sim, 'b', "elevation"), az = out_q(sim, 'b', "azimuth");
  double hd = out_q(sim, 'b', "heading"), d = out_q(sim, 'b', "distance");
  printf("    away: station (25, -40, 3) m: elevation %.12f deg, azimuth %.12f deg, heading "
         "%.12f deg, distance %.12f m\n", el * 180 / M_PI, az * 180 / M_PI, hd * 180 / M_PI, d);
  ENSURE_NEAR(el, 45.0 * M_PI / 180, 1e-9);
  ENSURE_NEAR(az, 20.0 * M_PI / 180, 1e-9);
  ENSURE_NEAR(hd, 30.0 * M_PI / 180, 1e-9);
  ENSURE_NEAR(d, 20.0, 1e-9);
  sp_free(sim, s);
}


/* kite_b's angles at t = 0 and 0.5 s with its ground_point set by fn */
static void run_b(void (*fn)(awe_wing_spec *), double v[2][NQ], double p[3]) {
  awe_spec *s = sp_load(TWO, (const char *[]){"run.steady_state=false", NULL});
  fn(&s->structure.wings[1]);
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  for (int k = 0; k < 2; k++) {
    if (k) sp_run(sim, 0.5);
    for (int q = 0; q < NQ; q++) v[k][q] = out_q(sim, 'b', Q[q]);
  }
  pos(sim, 'b', p);
  sp_free(sim, s);
}


static void gp_none(awe_wing_spec *w) { (void)w; }
static void gp_pos(awe_wing_spec *w) {
  w->has_ground_pos = 1;
  w->ground_pos[0] = 0.0;
  w->ground_pos[1] = 30.0;
  w->ground_pos[2] = 0.0;
}
static void gp_a(awe_wing_spec *w) {
  w->ground_point.name = "ground_a";
  w->ground_point.index = 0;
}


static void test_ground_point(void) {
  double ref[2][NQ], given[2][NQ], other[2][NQ], p[3], pa[3];
  run_b(gp_none, ref, p);
  run_b(gp_pos, given, p);
  for (int k = 0; k < 2; k++)
    for (int q = 0; q < NQ; q++) ENSURE(ref[k][q] == given[k][q]);
  /* about ground_a at t = 0: the kite is 30 m to the side, the angles follow from its position
   * (kite_b is then settled about another station: only t = 0 is compared) */
  run_b(gp_a, other, pa);
  awe_spec *s = sp_load(TWO, (const char *[]){"run.steady_state=false", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (sim) {
    double r[3];
    pos(sim, 'b', r);
    printf("    ground_point ground_a: kite_b elevation %.6f deg (own station %.6f), azimuth "
           "%.6f deg\n", other[0][0] * 180 / M_PI, ref[0][0] * 180 / M_PI,
           other[0][1] * 180 / M_PI);
    ENSURE_NEAR(other[0][0], awe_elevation(r), 1e-12);
    ENSURE_NEAR(other[0][1], awe_azimuth(r), 1e-12);
    ENSURE_NEAR(other[0][4], awe_v3_norm(r), 1e-12);
    ENSURE(fabs(other[0][1] - ref[0][1]) > 1.0);
  }
  sp_free(sim, s);
}


/* each wing's power is its own winch's (not the sum over both kites' winches) */
static void test_power(void) {
  awe_spec *s = sp_load(TWO, (const char *[]){"run.steady_state=false", "inputs=[]",
                                              "run.duration=0.2", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  sp_run(sim, 0.2);
  double pa = sp_out(sim, "wings.kite_a.power"), pb = sp_out(sim, "wings.kite_b.power");
  double wa = sp_out(sim, "winches.winch_a.power"), wb = sp_out(sim, "winches.winch_b.power");
  printf("    power at 0.2 s: kite_a %.6g W (winch_a %.6g W), kite_b %.6g W (winch_b %.6g W)\n",
         pa, wa, pb, wb);
  ENSURE(fabs(wa) > 1.0);
  ENSURE(pa == wa);
  ENSURE(pb == wb);
  sp_free(sim, s);
}


int main(void) {
  RUN(test_found);
  RUN(test_power);
  RUN(test_angles_agree);
  RUN(test_both_settle);
  RUN(test_away);
  RUN(test_ground_point);
  return harness_report();
}
