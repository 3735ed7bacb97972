/* test_sam_columns.c: the column changes of SymbolicAWEModels 0.14-0.17 authoring YAML
 * (issue 36; CHANGELOG.md of SymbolicAWEModels.jl, components.jl segment_load_terms):
 *   line columns   youngs_modulus [Pa] -> unit_stiffness = E pi (d/2)^2 (1e-12), damping_per_
 *                  stiffness [s] -> unit_damping = that x unit_stiffness, compression_damping_
 *                  frac kept per segment; on segments (written out and from a mapping
 *                  variable) and on a generated tether's segments (tests/data/sam/columns.yaml)
 *   winch          coulomb_friction, viscous_coefficient reach the model (SAM 0.14 names)
 *   reeling        the damper acts on d(len - l0)/dt (SAM 0.14): a winched tether reeling out
 *                  at 2 m/s with constant extension carries its spring force alone (1e-12), at
 *                  constant strain e only c e v/n; braked (held), the endpoint form c v/n
 *   slack damping  compression_damping_frac scales the damper of a slack segment (1e-12)
 *   pulley         efficiency 0.9, friction_epsilon 0.1 m/s (tests/data/sam/pulley_eff.yaml):
 *                  the rope runs steadily at v* = 0.059735 m/s with the light weight's leg at
 *                  0.95 of the heavy one's tension, F_h - F_l = (1 - eta) T v/sqrt(v^2 + eps^2)
 *   wings          wings and transforms as mappings of names give the model of the list form,
 *                  angular_damping [1, 2, 3] per principal axis
 */
#include "test_physics_util.h"

#include "engine/rhs.h"
#include "engine/segment.h"

#define COLS "tests/data/sam/columns_scenario.yaml"

static int seg_index(const awe_model *m, const char *name) {
  for (int s = 0; s < m->nsegment; s++)
    if (!strcmp(m->segment_name[s], name)) return s;
  HARNESS_FAIL("no segment %s", name);
  return 0;
}


static void test_line_columns(void) {
  awe_spec *s = sp_load(COLS, NULL);
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) return;
  const awe_model *m = sim->m;
  const double E = 55.0e9, dps = 0.002;
  struct {
    const char *name;
    double d, cdfrac;
  } c[] = {{"written", 0.003, 0.25},
           {"from_variable", 0.005, 1.0},
           {"main_tether_segment_1", 0.004, 0.5},
           {"main_tether_segment_4", 0.004, 0.5}};
  for (int k = 0; k < 4; k++) {
    int i = seg_index(m, c[k].name);
    double ea = E * M_PI * c[k].d * c[k].d / 4.0;
    ENSURE_REL(m->segment_unit_k[i], ea, 1e-12);
    ENSURE_REL(m->segment_unit_c[i], dps * ea, 1e-12);
    ENSURE_NEAR(m->segment_compression_damping_frac[i], c[k].cdfrac, 0.0);
    ENSURE_NEAR(m->segment_density[i], 724.0, 0.0);
  }
  int i = seg_index(m, "direct");
  ENSURE_NEAR(m->segment_unit_k[i], 1.0e6, 0.0);
  ENSURE_NEAR(m->segment_unit_c[i], 500.0, 0.0);
  /* the winch friction under its SAM 0.14 names */
  ENSURE_NEAR(m->winch_f_coulomb[0], 100.0, 0.0);
  ENSURE_NEAR(m->winch_c_vf[0], 20.0, 0.0);
  printf("  written: EA %.6f N, damping %.6f N s; tether EA %.6f N\n",
         m->segment_unit_k[seg_index(m, "written")], m->segment_unit_c[seg_index(m, "written")],
         m->segment_unit_k[seg_index(m, "main_tether_segment_1")]);
  sp_free(sim, s);
}


/* the tether's points on a straight vertical line below the winch, segment length len, each
 * segment lengthening at rate (m/s); winch speed v, tether length n l0; the forces of the
 * tether's segments after one right-hand side under flags */
static void reel_state(awe_sim *sim, double l0, double len, double rate, double v, unsigned flags,
                       double *f) {
  const awe_model *m = sim->m;
  awe_work *w = sim->w;
  int n = m->tether_seg_num[0], adr = m->tether_seg_adr[0], nx = w->nx;
  double *y = malloc(sizeof(double) * (size_t)nx), *dydt = malloc(sizeof(double) * (size_t)nx);
  memcpy(y, sim->y, sizeof(double) * (size_t)nx);
  y[w->tether_x[0]] = n * l0;
  y[w->winch_x[0]] = v;
  int cur = m->winch_point[0];
  double z0 = m->point_pos0[3 * cur + 2];
  for (int j = n - 1, k = 1; j >= 0; j--, k++) {
    int sg = m->tether_segs[adr + j];
    int other = m->segment_p[2 * sg] == cur ? m->segment_p[2 * sg + 1] : m->segment_p[2 * sg];
    int o = w->point_x[other];
    ENSURE(o >= 0);
    for (int d = 0; d < 3; d++) y[o + d] = y[o + 3 + d] = 0.0;
    y[o + 2] = z0 - k * len;
    y[o + 5] = -k * rate;
    cur = other;
  }
  awe_ctx c = sim->ctx;
  c.flags = flags;
  ENSURE(awe_rhs(0.0, y, dydt, &c) == 0);
  for (int j = 0; j < n; j++) f[j] = w->seg_force[m->tether_segs[adr + j]];
  free(y);
  free(dydt);
}


static void test_reeling_damper(void) {
  awe_spec *s = sp_load(COLS, NULL);
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) return;
  const awe_model *m = sim->m;
  int n = m->tether_seg_num[0];
  int s0 = m->tether_segs[m->tether_seg_adr[0]];
  double k = m->segment_unit_k[s0], c = m->segment_unit_c[s0];
  const double l0 = 25.0, v = 2.0, e = 1e-3;
  double f[16];
  /* constant extension: len - l0 = 0.02 m while l0 grows at v/n: no damper force */
  double len = l0 + 0.02;
  reel_state(sim, l0, len, v / n, v, 0, f);
  for (int j = 0; j < n; j++) ENSURE_REL(f[j], k * (len - l0) / len, 1e-12);
  printf("  reeling out at %g m/s, constant extension: %.9f N (spring %.9f N; the endpoint form "
         "would add c v/n/len = %.6f N)\n", v, f[0], k * (len - l0) / len, c * v / n / len);
  /* constant strain e: d(len - l0)/dt = e v/n */
  len = l0 * (1.0 + e);
  reel_state(sim, l0, len, (1.0 + e) * v / n, v, 0, f);
  for (int j = 0; j < n; j++)
    ENSURE_REL(f[j], (k * (len - l0) + c * e * v / n) / len, 1e-12);
  /* held (every winch braked): l0 is frozen, the damper reads the endpoints, c v/n */
  len = l0 + 0.02;
  reel_state(sim, l0, len, v / n, v, AWE_CTX_BRAKE_ALL, f);
  for (int j = 0; j < n; j++) ENSURE_REL(f[j], (k * (len - l0) + c * v / n) / len, 1e-12);
  /* slack (len < l0), still constant extension: the spring at compression_frac 0.1, no damper;
   * then the ends held still while rope is paid in at v/n: the damper at
   * compression_damping_frac 0.5 */
  len = l0 - 0.02;
  reel_state(sim, l0, len, v / n, v, 0, f);
  for (int j = 0; j < n; j++) ENSURE_REL(f[j], 0.1 * k * (len - l0) / len, 1e-12);
  reel_state(sim, l0, len, 0.0, v, 0, f);
  for (int j = 0; j < n; j++)
    ENSURE_REL(f[j], (0.1 * k * (len - l0) - 0.5 * c * v / n) / len, 1e-12);
  sp_free(sim, s);
}


static void test_pulley_efficiency(void) {
  awe_spec *s = sp_load("tests/data/sam/pulley_eff_scenario.yaml", NULL);
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) return;
  const double eta = 0.9, eps = 0.1, mh = 1.0, ml = 0.95;
  ENSURE_NEAR(sim->m->pulley_efficiency[0], eta, 0.0);
  ENSURE_NEAR(sim->m->pulley_friction_eps[0], eps, 0.0);
  if (sp_run(sim, 3.0)) return;
  double len3 = sp_out(sim, "pulleys.wheel.len");
  if (sp_run(sim, 4.0)) return;
  double v = sp_out(sim, "pulleys.wheel.len") - len3; /* over 1 s */
  double fh = sp_out(sim, "segments.leg_heavy.force"), fl = sp_out(sim, "segments.leg_light.force");
  double sgn = 2.0 * (mh - ml) / ((1.0 - eta) * (mh + ml));
  double vstar = eps * sgn / sqrt(1.0 - sgn * sgn);
  printf("  rope %.9f m/s (v* %.9f), legs %.9f N / %.9f N = %.9f\n", v, vstar, fh, fl, fl / fh);
  ENSURE_REL(v, vstar, 1e-4);
  ENSURE_REL(fl / fh, ml / mh, 1e-6);
  ENSURE_REL(fl / fh, (1.0 - (1.0 - eta) * sgn / 2.0) / (1.0 + (1.0 - eta) * sgn / 2.0), 1e-6);
  ENSURE_REL(fh - fl, (1.0 - eta) * 0.5 * (fh + fl) * v / sqrt(v * v + eps * eps), 1e-4);
  sp_free(sim, s);
  /* braked (SAM 0.14 brake): the split holds, each leg carries its own weight */
  s = sp_load("tests/data/sam/pulley_eff_scenario.yaml", NULL);
  if (!s) return;
  s->structure.pulleys[0].brake = 1;
  sim = sp_sim(s, NULL);
  if (!sim) return;
  double len0 = sp_out(sim, "pulleys.wheel.len");
  if (sp_run(sim, 4.0)) return;
  ENSURE_NEAR(sp_out(sim, "pulleys.wheel.len"), len0, 0.0);
  ENSURE_REL(sp_out(sim, "segments.leg_light.force") / sp_out(sim, "segments.leg_heavy.force"),
             ml / mh, 1e-6);
  sp_free(sim, s);
}


static void test_wing_mapping(void) {
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load_model("tests/data/sam/system_mapping.yaml", &warn, &err);
  awe_spec *r = awe_spec_load_model("models/2plate_kite/system.yaml", &warn, &err);
  ENSURE(warn.n == 0);
  awe_diag_free(&warn);
  awe_model *m = s ? awe_model_build(s, &s->warnings, &err) : NULL;
  awe_model *q = r ? awe_model_build(r, &r->warnings, &err) : NULL;
  if (!m || !q) {
    HARNESS_FAIL("build: %s", err.msg);
    return;
  }
  ENSURE(m->nwing == 1 && !strcmp(m->wing_name[0], "main_wing"));
  ENSURE(s->structure.ntransform == 1 && !strcmp(s->structure.transforms[0].name, "main_transform"));
  ENSURE_NEAR(s->structure.transforms[0].elevation, 50.0 * M_PI / 180.0, 1e-15);
  ENSURE(m->npoint == q->npoint);
  double worst = 0.0;
  for (int i = 0; i < 3 * m->npoint && m->npoint == q->npoint; i++)
    worst = fmax(worst, fabs(m->point_pos0[i] - q->point_pos0[i]));
  ENSURE(worst == 0.0);
  static const double want[3] = {1.0, 2.0, 3.0}, dflt[3] = {0.0, 150.0, 0.0};
  for (int k = 0; k < 3; k++) {
    ENSURE_NEAR(m->wing_ang_damp[k], want[k], 0.0);
    ENSURE_NEAR(q->wing_ang_damp[k], dflt[k], 0.0);
  }
  awe_model_free(m);
  awe_model_free(q);
  awe_spec_free(s);
  awe_spec_free(r);
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_line_columns);
  RUN(test_reeling_damper);
  RUN(test_pulley_efficiency);
  RUN(test_wing_mapping);
  return harness_report();
}
