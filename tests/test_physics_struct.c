/* test_physics_struct.c: pulleys, quasi-static points, tether placement, transforms.
 *
 * test_pulley.jl @0689ba4 (sum_len, pulley at rest shares tension equally, pulley -> x = 0),
 * quasi-static and dynamic points settle to the same equilibrium, test_tether_init.jl @043c254
 * and test_tether_init_len.jl @2b5f849 (placement numbers), test_rigid_body.jl @0e8d31b and
 * test_transform.jl @0689ba4 (elevation, azimuth, heading reproduced to 1e-10).
 */
#include "test_physics_util.h"
#include "control/controller.h"

#define G 9.81

static double dist(const double *a, const double *b) {
  return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
              (a[2] - b[2]) * (a[2] - b[2]));
}


/* the rope length over the pulley is conserved; dynamically the pulley slides to the middle */
static void test_pulley_dynamic(void) {
  const char *sets[] = {"run.duration=500", "run.dt=0.1", "run.abs_tol=1e-7", "run.rel_tol=1e-7",
                        NULL};
  awe_spec *s = sp_load("scenarios/tests/pulley.yaml", sets);
  awe_sim *sim = sp_sim(s, "msbdf");
  if (!sim) return;
  const awe_model *m = sim->m;
  /* sum_len = |p - a_L| + |p - a_R| at init, the rest length of leg 1 in proportion */
  double lL = dist(m->point_pos0 + 0, m->point_pos0 + 6), lR = dist(m->point_pos0 + 6, m->point_pos0 + 3);
  ENSURE_NEAR(m->pulley_sum_len[0], lL + lR, 1e-10);
  ENSURE_NEAR(m->pulley_len0[0], lL, 1e-10);
  double worst = 0.0;
  long ns = awe_sim_log_steps(m);
  for (long k = 1; k <= ns; k++) {
    if (sp_step(sim, k)) break;
    if (k <= 10) {
      /* first second: the stretched legs stay within 0.1 m of the rope length */
      double d = fabs(sp_out(sim, "segments.leg_left.len") + sp_out(sim, "segments.leg_right.len") -
                      m->pulley_sum_len[0]);
      if (d > worst) worst = d;
      /* rest lengths always add up to the rope */
      ENSURE_NEAR(sim->w->seg_l0[0] + sim->w->seg_l0[1], m->pulley_sum_len[0], 1e-12);
    }
  }
  ENSURE(worst < 0.1);
  ENSURE(fabs(sp_out(sim, "points.wheel.pos.x")) < 1e-3);
  ENSURE_REL(sp_out(sim, "segments.leg_left.force"), sp_out(sim, "segments.leg_right.force"), 1e-4);
  sp_free(sim, s);
}


/* at rest (steady state) both legs carry the same tension, and the pulley is in the middle */
static void pulley_rest(const char *model, double tol) {
  char mset[128];
  snprintf(mset, sizeof(mset), "model.structure=../../tests/models/%s", model);
  const char *sets[] = {mset, "run.steady_state=true", "run.steady_state_time=1", NULL};
  awe_spec *s = sp_load("scenarios/tests/pulley.yaml", sets);
  awe_sim *sim = sp_sim(s, "msbdf");
  if (!sim) return;
  double fl = sp_out(sim, "segments.leg_left.force"), fr = sp_out(sim, "segments.leg_right.force");
  double fh = sp_out(sim, "segments.hanger.force");
  ENSURE_REL(fl, fr, tol);
  ENSURE_NEAR(sp_out(sim, "points.wheel.pos.x"), 0.0, 1e-6);
  /* vertical balance at the wheel: 2 T sin(angle) = hanger tension + wheel weight */
  double zw = sp_out(sim, "points.wheel.pos.z"), xw = sp_out(sim, "points.wheel.pos.x");
  double sin_a = (10.0 - zw) / sqrt((2.0 - xw) * (2.0 - xw) + (10.0 - zw) * (10.0 - zw));
  ENSURE_REL(2 * fl * sin_a, fh + sim->w->mass[2] * G, 1e-6);
  printf("  %s at rest: legs %.9f N / %.9f N, hanger %.6f N, residual %.2e N\n", model, fl, fr,
         fh, sim->steady_residual);
  sp_free(sim, s);
}


static void test_pulley_rest_shares_tension(void) { pulley_rest("pulley.yaml", 1e-8); }
static void test_pulley_quasi_static(void) {
  pulley_rest("pulley_qs.yaml", 1e-8);
  /* quasi-static pulley: equal tension at every instant of a dynamic run */
  const char *sets[] = {"model.structure=../../tests/models/pulley_qs.yaml", NULL};
  awe_spec *s = sp_load("scenarios/tests/pulley.yaml", sets);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  for (long k = 1; k <= 100; k++) {
    if (sp_step(sim, k)) break;
    double fl = sp_out(sim, "segments.leg_left.force"), fr = sp_out(sim, "segments.leg_right.force");
    ENSURE_NEAR(fl, fr, 1e-6 * (1 + fabs(fl)));
  }
  sp_free(sim, s);
}


/* positions of p1, p2 in the chain scenario with the given model */
static void chain_positions(const char *model, double *p, double *resid) {
  char mset[128];
  snprintf(mset, sizeof(mset), "model.structure=../../tests/models/%s", model);
  const char *sets[] = {mset, NULL};
  awe_spec *s = sp_load("scenarios/tests/chain.yaml", sets);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  const char *n[6] = {"points.p1.pos.x", "points.p1.pos.y", "points.p1.pos.z",
                      "points.p2.pos.x", "points.p2.pos.y", "points.p2.pos.z"};
  for (int k = 0; k < 6; k++) p[k] = sp_out(sim, n[k]);
  *resid = sim->steady_residual;
  /* the force on each bead vanishes */
  ENSURE_NEAR(awe_v3_norm(sim->w->force + 3 * 2), 0.0, 1e-6);
  ENSURE_NEAR(awe_v3_norm(sim->w->force + 3 * 3), 0.0, 1e-6);
  sp_free(sim, s);
}


/* a sagging two-bead line: DYNAMIC beads settled by the steady-state march and QUASI_STATIC
 * beads solved inside the right-hand side end up at the same place */
static void test_quasi_static_equals_dynamic(void) {
  double pd[6], pq[6], rd = 0, rq = 0;
  chain_positions("chain_dyn.yaml", pd, &rd);
  chain_positions("chain_qs.yaml", pq, &rq);
  for (int k = 0; k < 6; k++) ENSURE_NEAR(pq[k], pd[k], 1e-8);
  ENSURE(pd[2] < 0.0); /* it sags below the straight line */
  printf("  chain: p1 (%.9f, %.9f) dynamic, (%.9f, %.9f) quasi-static\n", pd[0], pd[2], pq[0],
         pq[2]);
}


/* a dynamic mass below two quasi-static points settles where the all-dynamic line does */
static void test_mixed_quasi_static(void) {
  double z[2][4];
  const char *models[2] = {"chain_mixed.yaml", "chain_mixed_dyn.yaml"};
  const char *n[4] = {"points.q1.pos.z", "points.q2.pos.z", "points.mass.pos.z", "points.mass.pos.x"};
  for (int v = 0; v < 2; v++) {
    char mset[128];
    snprintf(mset, sizeof(mset), "model.structure=../../tests/models/%s", models[v]);
    const char *sets[] = {mset, "run.steady_state=false", "run.duration=30", NULL};
    awe_spec *s = sp_load("scenarios/tests/chain.yaml", sets);
    awe_sim *sim = sp_sim(s, "msbdf");
    if (!sim) return;
    sp_run(sim, 30.0);
    for (int k = 0; k < 4; k++) z[v][k] = sp_out(sim, n[k]);
    if (v == 0) ENSURE(sim->w->stats.qs_solves > 0);
    sp_free(sim, s);
  }
  /* the line hangs straight down from the top: heights from the tensions */
  const double EA = 20000.0, l0 = 3.0, lam = 724.0 * M_PI * 0.002 * 0.002 / 4;
  double m_end = 2.0 + 0.5 * lam * l0, m_in = 0.2 + lam * l0;
  double T3 = m_end * G, T2 = T3 + m_in * G, T1 = T2 + m_in * G;
  double zq1 = -l0 * EA / (EA - T1), zq2 = zq1 - l0 * EA / (EA - T2),
         zm = zq2 - l0 * EA / (EA - T3);
  for (int v = 0; v < 2; v++) {
    ENSURE_NEAR(z[v][0], zq1, 1e-6);
    ENSURE_NEAR(z[v][1], zq2, 1e-6);
    ENSURE_NEAR(z[v][2], zm, 1e-6);
    ENSURE_NEAR(z[v][3], 0.0, 1e-5);
  }
}


/* init_stretched_length: free end and the structure beyond it moved along the tether */
static void test_tether_init_length(void) {
  awe_spec *s = sp_load("scenarios/tests/tether_init.yaml", NULL);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  ENSURE_NEAR(sp_out(sim, "points.main_tether_point_1.pos.z"), -100.0, 1e-9);
  ENSURE_NEAR(sp_out(sim, "points.top.pos.z"), -200.0, 1e-9);
  ENSURE_NEAR(sp_out(sim, "points.bridle.pos.x"), 10.0, 1e-9);
  ENSURE_NEAR(sp_out(sim, "points.bridle.pos.z"), -200.0, 1e-9);
  ENSURE_NEAR(sp_out(sim, "tethers.main_tether.len"), 200.0, 1e-9);
  ENSURE_NEAR(sim->w->seg_l0[1], 100.0, 1e-9);
  ENSURE_NEAR(sim->w->seg_l0[2], 100.0, 1e-9);
  /* pos_cad unchanged */
  ENSURE_NEAR(sim->m->point_pos_cad[3 * 1 + 2], -100.0, 0.0);
  sp_free(sim, s);
  /* init_tether_force: len = stretched (1 - F/EA) */
  s = sp_load("scenarios/tests/tether_init.yaml", NULL);
  if (!s) return;
  s->structure.tethers[0].init_tether_force = 500.0;
  sim = sp_sim(s, "rk8pd");
  if (sim) {
    ENSURE_REL(sp_out(sim, "tethers.main_tether.len"), 200.0 * (1 - 500.0 / 50000.0), 1e-12);
    ENSURE_NEAR(sp_out(sim, "tethers.main_tether.stretched_len"), 200.0, 1e-9);
    ENSURE_REL(sp_out(sim, "segments.main_tether_segment_1.force"), 500.0, 1e-9);
  }
  sp_free(sim, s);
  /* init_stretch_frac */
  s = sp_load("scenarios/tests/tether_init.yaml", NULL);
  if (!s) return;
  s->structure.tethers[0].init_stretch_frac = 0.99;
  sim = sp_sim(s, "rk8pd");
  if (sim) ENSURE_REL(sp_out(sim, "tethers.main_tether.len"), 198.0, 1e-12);
  sp_free(sim, s);
}


/* two tethers to one point are placed by their mean displacement */
static void test_tether_two_roots(void) {
  const char *sets[] = {"model.structure=../../tests/models/tether_two_roots.yaml",
                        "settings.winch.inertia_total=0.1", NULL};
  awe_spec *s = sp_load("scenarios/tests/tether_init.yaml", sets);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  const double *p = sim->m->point_pos0;
  ENSURE_NEAR(dist(p + 6, p + 0), 150.0, 0.05);
  ENSURE(p[6] < -4.95);
  ENSURE_NEAR(p[0], 10.0, 0.0);
  ENSURE_NEAR(p[3], -10.0, 0.0);
  sp_free(sim, s);
  /* only the fixed tether given: |top - static| = 200 */
  s = sp_load("scenarios/tests/tether_init.yaml", sets);
  if (!s) return;
  s->structure.tethers[1].init_stretched_length = NAN;
  sim = sp_sim(s, "rk8pd");
  if (sim) ENSURE_NEAR(dist(sim->m->point_pos0 + 6, sim->m->point_pos0), 200.0, 1e-9);
  sp_free(sim, s);
}


/* transform without a wing: a point 100 m east of the base turned to elevation 45 deg */
static void test_transform_rider(void) {
  const char *sets[] = {"model.structure=../../tests/models/transform_rider.yaml", NULL};
  awe_spec *s = sp_load("scenarios/tests/tether_init.yaml", sets);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  ENSURE_NEAR(sp_out(sim, "points.rider.pos.x"), 100 / sqrt(2.0), 1e-9);
  ENSURE_NEAR(sp_out(sim, "points.rider.pos.y"), 0.0, 1e-9);
  ENSURE_NEAR(sp_out(sim, "points.rider.pos.z"), 100 / sqrt(2.0), 1e-9);
  ENSURE_NEAR(sp_out(sim, "points.ground.pos.z"), 0.0, 0.0);
  sp_free(sim, s);
  /* azimuth 30 deg: r = [0.6124, -0.3536, 0.7071] */
  s = sp_load("scenarios/tests/tether_init.yaml", sets);
  if (!s) return;
  s->structure.transforms[0].azimuth = 30.0 * M_PI / 180;
  s->structure.transforms[0].elevation_vel = 0.1;
  sim = sp_sim(s, "rk8pd");
  if (sim) {
    ENSURE_NEAR(sp_out(sim, "points.rider.pos.x") / 100, 0.6124, 1e-4);
    ENSURE_NEAR(sp_out(sim, "points.rider.pos.y") / 100, -0.3536, 1e-4);
    ENSURE_NEAR(sp_out(sim, "points.rider.pos.z") / 100, 0.7071, 1e-4);
    /* elevation rate 0.1 rad/s: v = 10 m/s along d r/d e = [-sin e cos a, sin e sin a, cos e] */
    double e = M_PI / 4, a = M_PI / 6;
    ENSURE_NEAR(sp_out(sim, "points.rider.vel.x"), -10 * sin(e) * cos(a), 1e-9);
    ENSURE_NEAR(sp_out(sim, "points.rider.vel.y"), 10 * sin(e) * sin(a), 1e-9);
    ENSURE_NEAR(sp_out(sim, "points.rider.vel.z"), 10 * cos(e), 1e-9);
  }
  sp_free(sim, s);
}


/* weighted position of a wing reference set */
static void ref_pos(const awe_model *m, int w, int k, double out[3]) {
  int adr = m->wing_ref_adr[4 * w + k], n = m->wing_ref_num[4 * w + k];
  double sw = 0;
  out[0] = out[1] = out[2] = 0;
  for (int j = 0; j < n; j++) {
    const double *p = m->point_pos0 + 3 * m->wing_ref_pts[adr + j];
    for (int i = 0; i < 3; i++) out[i] += m->wing_ref_w[adr + j] * p[i];
    sw += m->wing_ref_w[adr + j];
  }
  for (int i = 0; i < 3; i++) out[i] /= sw;
}


/* the 2plate kite (both wing kinds) placed at elevation/azimuth/heading: measured back from
 * the placed points with KiteUtils' definitions (physics.md §9) within 1e-10 */
static void test_transform_2plate(void) {
  const char *files[2] = {"models/2plate_kite/system.yaml", "models/2plate_kite/system_refine.yaml"};
  const double cases[5][3] = {{80, 0, 0}, {45, 30, 10}, {60, -20, -15}, {30, 10, 45}, {70, 0, 180}};
  for (int f = 0; f < 2; f++)
    for (int c = 0; c < 5; c++) {
      awe_err err = {0};
      awe_diag warn = {0};
      awe_spec *s = awe_spec_load_model(files[f], &warn, &err);
      awe_diag_free(&warn);
      if (!s) {
        HARNESS_FAIL("%s: %s", files[f], err.msg);
        return;
      }
      awe_transform_spec *T = &s->structure.transforms[0];
      T->elevation = cases[c][0] * M_PI / 180;
      T->azimuth = cases[c][1] * M_PI / 180;
      T->heading = cases[c][2] * M_PI / 180;
      awe_model *m = awe_model_build_controlled(s, &s->warnings, &err);
      if (!m) {
        HARNESS_FAIL("%s: %s", files[f], err.msg);
        awe_spec_free(s);
        return;
      }
      int kcu = awe_model_find_point(m, "kcu"), gnd = awe_model_find_point(m, "ground");
      const double *pk = m->point_pos0 + 3 * kcu, *pg = m->point_pos0 + 3 * gnd;
      double r[3] = {pk[0] - pg[0], pk[1] - pg[1], pk[2] - pg[2]};
      double el = atan(r[2] / sqrt(r[0] * r[0] + r[1] * r[1])), az = -atan2(r[1], r[0]);
      ENSURE_NEAR(pg[0], 0.0, 1e-12);
      ENSURE_NEAR(pg[2], 0.0, 1e-12);
      ENSURE_NEAR(el, T->elevation, 1e-10);
      ENSURE_NEAR(az, T->azimuth, 1e-10);
      /* wing frame from the reference points: z = n(z2 - z1), x = n(y x z) */
      double z1[3], z2[3], y1[3], y2[3], zb[3], yb[3], xb[3];
      ref_pos(m, 0, 0, z1);
      ref_pos(m, 0, 1, z2);
      ref_pos(m, 0, 2, y1);
      ref_pos(m, 0, 3, y2);
      awe_v3_sub(zb, z2, z1);
      awe_v3_sub(yb, y2, y1);
      awe_v3_cross(xb, yb, zb);
      double rn = awe_v3_norm(r), rh[3] = {r[0] / rn, r[1] / rn, r[2] / rn};
      double yt[3] = {-rh[1], rh[0], 0}, ytn = sqrt(yt[0] * yt[0] + yt[1] * yt[1]), xt[3];
      yt[0] /= ytn;
      yt[1] /= ytn;
      awe_v3_cross(xt, yt, rh);
      double hd = atan2(awe_v3_dot(xb, yt), awe_v3_dot(xb, xt));
      double dh = atan2(sin(hd - T->heading), cos(hd - T->heading));
      ENSURE_NEAR(dh, 0.0, 1e-10);
      /* rigid placement: the kite's own distances are unchanged */
      int le = awe_model_find_point(m, "le_left"), te = awe_model_find_point(m, "te_right");
      ENSURE_NEAR(dist(m->point_pos0 + 3 * le, m->point_pos0 + 3 * te),
                  dist(m->point_pos_cad + 3 * le, m->point_pos_cad + 3 * te), 1e-10);
      ENSURE_NEAR(rn, 20.0, 1e-9); /* the tether was placed 20 m long */
      awe_model_free(m);
      awe_spec_free(s);
    }
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_pulley_dynamic);
  RUN(test_pulley_rest_shares_tension);
  RUN(test_pulley_quasi_static);
  RUN(test_quasi_static_equals_dynamic);
  RUN(test_mixed_quasi_static);
  RUN(test_tether_init_length);
  RUN(test_tether_two_roots);
  RUN(test_transform_rider);
  RUN(test_transform_2plate);
  return harness_report();
}
