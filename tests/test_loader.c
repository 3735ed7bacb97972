/* test_loader.c: YAML layer, registry names and globs, and derived model quantities. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "control/controller.h"
#include "io/load.h"
#include "io/spec_load.h"
#include "model/model.h"
#include "model/registry.h"
#include "io/settings.h"
#include "io/yaml_doc.h"


static void test_yaml_positions(void) {
  const char *txt = "a: 1\nb:\n  c: [1, 2, 3]\n  d: 'x'\n";
  awe_err err = {0};
  awe_ydoc *d = awe_ydoc_load_string(txt, strlen(txt), "t.yaml", &err);
  ENSURE(d != NULL);
  if (!d) return;
  awe_ynode *b = awe_ymap_get(awe_ydoc_root(d), "b");
  awe_ynode *c = awe_ymap_get(b, "c");
  ENSURE(c && c->kind == AWE_Y_SEQ && c->n == 3);
  ENSURE(c->loc.line == 3 && c->loc.col == 6);
  double v[3];
  ENSURE(awe_ynode_vec(c, "b.c", 3, v, &err) == AWE_OK);
  ENSURE_NEAR(v[2], 3.0, 0);
  /* a quoted number is text, not a number */
  awe_ynode *dn = awe_ymap_get(b, "d");
  double x;
  ENSURE(awe_ynode_double(dn, "b.d", &x, &err) == AWE_EINVAL);
  ENSURE_CONTAINS(err.msg, "t.yaml:4:6: b.d: expected a number, got 'x'");
  awe_ydoc_free(d);
}


static void test_set_path(void) {
  const char *txt = "run: {duration: 1}\n";
  awe_err err = {0};
  awe_ydoc *d = awe_ydoc_load_string(txt, strlen(txt), "t.yaml", &err);
  ENSURE(d != NULL);
  if (!d) return;
  awe_ynode *v = awe_ydoc_parse_value(d, "20", "--set run.duration", &err);
  ENSURE(v && awe_ydoc_set_path(d, "run.duration", v, &err) == AWE_OK);
  awe_ynode *w = awe_ydoc_parse_value(d, "[1, 2]", "--set a.b.c", &err);
  ENSURE(w && awe_ydoc_set_path(d, "a.b.c", w, &err) == AWE_OK);
  double dur;
  ENSURE(awe_ynode_double(awe_ymap_get(awe_ymap_get(awe_ydoc_root(d), "run"), "duration"), "d",
                          &dur, &err) == AWE_OK);
  ENSURE_NEAR(dur, 20.0, 0);
  awe_ynode *c = awe_ymap_get(awe_ymap_get(awe_ymap_get(awe_ydoc_root(d), "a"), "b"), "c");
  ENSURE(c && c->kind == AWE_Y_SEQ && c->n == 2);
  char *txt2 = awe_ynode_emit(awe_ydoc_root(d));
  ENSURE_CONTAINS(txt2, "duration: 20");
  ENSURE_CONTAINS(txt2, "c: [1, 2]");
  free(txt2);
  awe_ydoc_free(d);
}


static void test_glob_and_names(void) {
  ENSURE(awe_glob_match("winches.*.force", "winches.main_winch.force"));
  ENSURE(!awe_glob_match("winches.*.force", "winches.main_winch.vel"));
  ENSURE(awe_glob_match("points.kcu.pos.?", "points.kcu.pos.z"));
  ENSURE(awe_glob_match_list("time,winches.*", "winches.a.torque"));
  ENSURE(!awe_glob_match_list("time,winches.*", "points.a.pos.x"));
  awe_varlist l = {0};
  awe_varlist_add(&l, "points", "kcu", 0, "pos", "m", 3, 1e-6, AWE_VF_LOG);
  awe_varlist_add(&l, "wind", "", 0, "v_wind", "m/s", 1, 1e-3, AWE_VF_LOG);
  char buf[128];
  awe_var_scalar_name(&l.v[0], 2, buf, sizeof(buf));
  ENSURE_STR(buf, "points.kcu.pos.z");
  awe_var_scalar_name(&l.v[1], 0, buf, sizeof(buf));
  ENSURE_STR(buf, "wind.v_wind");
  ENSURE(l.v[1].offset == 3 && l.size == 4);
  ENSURE(awe_varlist_find(&l, "wind.v_wind") == 1);
  awe_varlist_free(&l);
  const char *c[] = {"run", "model", "output"};
  ENSURE_STR(awe_closest("rnu", c, 3), "run");
  ENSURE(awe_closest("xyzzy", c, 3) == NULL);
}


static void test_settings_defaults(void) {
  awe_settings s;
  awe_settings_default(&s);
  /* KiteUtils struct defaults, not the values of any particular file */
  ENSURE_NEAR(s.g_earth, 0.0, 0);
  ENSURE_NEAR(s.drum_radius, 0.1615, 0);
  ENSURE_NEAR(s.gear_ratio, 6.2, 0);
  ENSURE_NEAR(s.f_coulomb, 122.0, 0);
  ENSURE_NEAR(s.elevations[0], 70.0, 0);
  ENSURE(s.n_wind_vec == 3);
  ENSURE(awe_settings_find("v_wind") >= 0);
  ENSURE(awe_settings_is_ignored_key("log_file"));
}


/* The 2plate kite: material-derived line properties, masses, generated tether. */
static void test_2plate_model(void) {
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load_model("models/2plate_kite/system.yaml", &warn, &err);
  ENSURE(s != NULL);
  if (!s) {
    fprintf(stderr, "%s\n", err.msg);
    return;
  }
  awe_model *m = awe_model_build_controlled(s, &warn, &err);
  ENSURE(m != NULL);
  if (!m) {
    fprintf(stderr, "%s\n", err.msg);
    awe_spec_free(s);
    return;
  }
  /* dyneema 1 mm: EA = 55e9 * pi * 0.0005^2 = 43196.9 N, c = 0.00077 * EA */
  int b = awe_model_find_segment(m, "kcu_steering_left");
  ENSURE(b >= 0);
  double ea = 55e9 * M_PI * 0.0005 * 0.0005;
  ENSURE_REL(m->segment_unit_k[b], ea, 1e-12);
  ENSURE_REL(m->segment_unit_c[b], 0.00077 * ea, 1e-12);
  ENSURE_NEAR(m->segment_compression_frac[b], 0.01, 0);
  /* tether: 6 generated segments of equal rest length and 5 points on the straight line */
  int t = awe_model_find_tether(m, "main_tether");
  ENSURE(t >= 0 && m->tether_seg_num[t] == 6);
  int p3 = awe_model_find_point(m, "main_tether_point_3");
  ENSURE(p3 >= 0);
  int kcu = awe_model_find_point(m, "kcu"), gnd = awe_model_find_point(m, "ground");
  for (int k = 0; k < 3; k++)
    ENSURE_NEAR(m->point_pos_cad[3 * p3 + k],
                0.5 * (m->point_pos_cad[3 * kcu + k] + m->point_pos_cad[3 * gnd + k]), 1e-12);
  double l = 0;
  for (int k = 0; k < 3; k++) {
    double dd = m->point_pos_cad[3 * kcu + k] - m->point_pos_cad[3 * gnd + k];
    l += dd * dd;
  }
  ENSURE_REL(m->segment_l0[m->tether_segs[m->tether_seg_adr[t]]], sqrt(l) / 6, 1e-12);
  /* point mass = extra mass + half the mass of every attached segment */
  double mass = m->point_extra_mass[p3];
  for (int i = 0; i < m->nsegment; i++)
    if (m->segment_p[2 * i] == p3 || m->segment_p[2 * i + 1] == p3)
      mass += 0.5 * m->segment_density[i] * M_PI * pow(m->segment_diameter[i] / 2, 2) *
              m->segment_l0[i];
  ENSURE_REL(m->point_mass0[p3], mass, 1e-12);
  ENSURE(m->point_mass0[p3] > 0);
  /* wind toward +x for upwind_dir = -90 deg */
  ENSURE_NEAR(m->env.wind_dir[0], 1.0, 1e-12);
  ENSURE_NEAR(m->env.wind_dir[1], 0.0, 1e-12);
  ENSURE_NEAR(m->env.v_wind, 15.51, 0);
  awe_model_free(m);
  awe_spec_free(s);
  awe_diag_free(&warn);
}


/* SAM 0.17's variables: a scalar substituted where written (also inside pos_cad), a mapping
 * filling the two columns it names, the next positional entry taking the column after them. */
static void test_sam_variables(void) {
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load_model("tests/data/sam/system_variables.yaml", &warn, &err);
  ENSURE(s != NULL);
  if (!s) {
    fprintf(stderr, "%s\n", err.msg);
    return;
  }
  awe_model *m = awe_model_build_controlled(s, &warn, &err);
  ENSURE(m != NULL);
  if (!m) {
    fprintf(stderr, "%s\n", err.msg);
    awe_spec_free(s);
    return;
  }
  int b = awe_model_find_segment(m, "le_tube_left"), d = awe_model_find_segment(m, "diag_1");
  ENSURE(b >= 0 && d >= 0);
  ENSURE_NEAR(m->segment_unit_k[b], 6000.0, 0);
  ENSURE_NEAR(m->segment_unit_c[b], 12.0, 0);
  ENSURE_NEAR(m->segment_compression_frac[b], 1.0, 0);
  ENSURE_NEAR(m->segment_compression_frac[d], 0.01, 0);
  int p = awe_model_find_point(m, "le_left");
  ENSURE(p >= 0);
  ENSURE_NEAR(m->point_extra_mass[p], 0.15, 0);
  awe_model_free(m);
  awe_spec_free(s);
  awe_diag_free(&warn);
}


/* The errors of variables and the refused SAM blocks, each at file:line. */
static void expect_struct_error(const char *txt, const char *msg) {
  awe_err err = {0};
  awe_spec *s = awe_spec_new();
  awe_ydoc *d = awe_ydoc_load_string(txt, strlen(txt), "v.yaml", &err);
  ENSURE(s && d);
  if (!s || !d) return;
  ENSURE(awe_spec_read_structure(s, awe_ydoc_root(d), "v.yaml", &err) == AWE_EINVAL);
  ENSURE_CONTAINS(err.msg, msg);
  awe_ydoc_free(d);
  awe_spec_free(s);
}

static void test_sam_variables_errors(void) {
  const char *pts = "points:\n  headers: [name, pos_cad, type, extra_mass]\n  data:\n";
  char buf[1024];
  snprintf(buf, sizeof(buf), "variables:\n  m: {extra_mass: 1.0, drag: 2}\n%s"
           "    - [a, [0, 0, 0], STATIC, m]\n", pts);
  expect_struct_error(buf, "v.yaml:6:30: points: row 1: variable 'm' fills column 'drag', which "
                      "the headers do not name");
  snprintf(buf, sizeof(buf), "variables:\n  m: {extra_mass: 1.0}\n%s"
           "    - [a, [0, 0, 0], STATIC, 2.0, m]\n", pts);
  expect_struct_error(buf, "points: row 1: column 'extra_mass' is given twice (once by variable "
                      "'m')");
  snprintf(buf, sizeof(buf), "variables:\n  a: 1.0\n%s    - [a, [0, 0, 0], STATIC]\n", pts);
  expect_struct_error(buf, "v.yaml:6:8: points: 'a' is both a component name and a variable");
  snprintf(buf, sizeof(buf), "variables:\n  m: {extra_mass: 1.0}\n%s"
           "    - [a, [m, 0, 0], STATIC]\n", pts);
  expect_struct_error(buf, "v.yaml:6:12: points: variable 'm' is a mapping of columns");
  snprintf(buf, sizeof(buf), "%s    - [a, [0, 0, 0], STATIC]\nelastic_joints: []\n", pts);
  expect_struct_error(buf, "v.yaml:5:1: block 'elastic_joints' (SymbolicAWEModels elastic joints "
                      "of rigid bodies (write them as tubes)) is not supported");
  snprintf(buf, sizeof(buf), "%s    - [a, [0, 0, 0], STATIC]\nbodies:\n  headers: [name, pos]\n"
           "  data:\n    - [b, [0, 0, 0]]\n", pts);
  expect_struct_error(buf, "body 'b': required value 'extra_mass' (or 'mass') is missing");
}


int main(void) {
  RUN(test_yaml_positions);
  RUN(test_set_path);
  RUN(test_glob_and_names);
  RUN(test_settings_defaults);
  RUN(test_2plate_model);
  RUN(test_sam_variables);
  RUN(test_sam_variables_errors);
  return harness_report();
}
