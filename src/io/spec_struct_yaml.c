/* spec_struct_yaml.c: structural geometry YAML (SymbolicAWEModels formats) -> awe_struct_spec.
 *
 * The columns of SymbolicAWEModels 0.17 (0.14: youngs_modulus, damping_per_stiffness,
 * compression_damping_frac, pulley efficiency, winch coulomb_friction / viscous_coefficient;
 * 0.15: the wing's angular_damping vector; 0.17: stations). Old spellings still load, each
 * warned about once (awe_spec_deprecated) with its current spelling: the blocks materials /
 * elements / segment_properties, groups and twist_surfaces (stations); a wing's type
 * (dynamics_type), y_damping, REFINE (PARTICLE_DYNAMICS), QUATERNION (RIGID_DYNAMICS); the
 * columns idx/id, mass, axial_stiffness, axial_damping, point_ids, reference_chord_frac,
 * init_len, init_unstretched_length, winch_point_idx, f_coulomb, c_vf; integer indices.
 * Accepted silently: WING and BODY_STATIC points, FIXED = STATIC.
 * Names are resolved later (model_build.c), so forward references are fine.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "io/spec_load.h"
#include "io/spec_table.h"
#include "io/spec_vars.h"



static awe_status row_name(awe_spec *s, const awe_row *r, const char **out, awe_err *err) {
  awe_status st;
  for (int k = 0; k < 2 && !awe_row_get(r, "name"); k++) {
    static const char *const old[2] = {"idx", "id"};
    const awe_ynode *c = awe_row_get(r, old[k]);
    if (c)
      awe_spec_deprecated(s, &c->loc, old[k],
                          "column '%s' is an old spelling (older SymbolicAWEModels files); the "
                          "current spelling is 'name'", old[k]);
  }
  *out = awe_row_name(s, r, err, &st);
  if (st) return st;
  return *out ? AWE_OK : awe_err_set(err, AWE_ENOMEM, "out of memory");
}


/* "SymbolicAWEModels < since" or, with since NULL, "older SymbolicAWEModels files" */
static const char *vers(char *buf, size_t n, const char *since) {
  if (since) snprintf(buf, n, "SymbolicAWEModels < %s", since);
  else snprintf(buf, n, "older SymbolicAWEModels files");
  return buf;
}


/* The cell of column col when given, else of its old spelling old (warned once); since: the
 * SymbolicAWEModels version that renamed it, NULL when not known. */
static const char *col_or_old(awe_spec *s, const awe_row *r, const char *col, const char *old,
                              const char *block, const char *since) {
  if (awe_row_get(r, col) || !awe_row_get(r, old)) return col;
  char key[96], v[64];
  snprintf(key, sizeof(key), "%s.%s", block, old);
  const char *k = awe_spec_strdup(s, key);
  if (k)
    awe_spec_deprecated(s, &awe_row_get(r, old)->loc, k,
                        "%s: column '%s' is an old spelling (%s); the current spelling is '%s'",
                        block, old, vers(v, sizeof(v), since), col);
  return old;
}


/* Parse an enum cell against a table of spellings. */
typedef struct {
  const char *name;
  int value;
  const char *current, *since; /* an old spelling: the current one, the version that renamed */
} enum_name;

static awe_status enum_unknown(const awe_ynode *n, const char *what, const enum_name *names,
                               int nnames, awe_err *err);

static awe_status parse_enum(awe_spec *s, const awe_ynode *n, const char *what,
                             const enum_name *names, int nnames, int def, int required, int *out,
                             awe_err *err) {
  if (awe_ynode_is_nothing(n)) {
    if (required)
      return awe_err_at(err, AWE_EINVAL, n ? &n->loc : NULL, "%s: a value is required", what);
    *out = def;
    return AWE_OK;
  }
  if (n->kind == AWE_Y_SCALAR) {
    for (int i = 0; i < nnames; i++) {
      if (!strcmp(n->str, names[i].name)) {
        *out = names[i].value;
        char v[64];
        if (names[i].current && s)
          awe_spec_deprecated(s, &n->loc, names[i].name,
                              "%s: '%s' is an old spelling (%s); the current spelling is '%s'",
                              what, names[i].name, vers(v, sizeof(v), names[i].since),
                              names[i].current);
        return AWE_OK;
      }
    }
  }
  *out = def;
  return enum_unknown(n, what, names, nnames, err);
}


static awe_status enum_unknown(const awe_ynode *n, const char *what, const enum_name *names,
                               int nnames, awe_err *err) {
  const char *cands[32];
  char list[512] = "";
  size_t off = 0;
  for (int i = 0; i < nnames && i < 32; i++) {
    cands[i] = names[i].name;
    int w = snprintf(list + off, sizeof(list) - off, "%s%s", i ? ", " : "", names[i].name);
    if (w > 0 && (size_t)w < sizeof(list) - off) off += (size_t)w;
  }
  char d[64];
  awe_ynode_describe(n, d, sizeof(d));
  const char *best = n->kind == AWE_Y_SCALAR ? awe_closest(n->str, cands, nnames) : NULL;
  if (best)
    return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: unknown value %s (did you mean '%s'?)", what,
                      d, best);
  return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: unknown value %s (allowed: %s)", what, d,
                    list);
}


/* ---- materials ---------------------------------------------------------------------------- */

static awe_status read_materials(awe_spec *s, const awe_ynode *blk, const char *bname,
                                 awe_err *err) {
  static const char *const cols[] = {"name", "idx", "id", "youngs_modulus", "density",
                                     "damping_per_stiffness", "diameter_mm", "unit_stiffness",
                                     "unit_damping"};
  awe_table t;
  AWE_TRY(awe_table_read(s, blk, bname, cols, AWE_ARRLEN(cols), &t, err));
  awe_struct_spec *ss = &s->structure;
  awe_material_spec *m = awe_spec_alloc(s, sizeof(*m) * (size_t)(ss->nmaterial + t.nrow + 1));
  if (!m) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  if (ss->nmaterial) memcpy(m, ss->materials, sizeof(*m) * (size_t)ss->nmaterial);
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_material_spec *x = &m[ss->nmaterial + i];
    AWE_TRY(row_name(s, r, &x->name, err));
    char what[256];
    snprintf(what, sizeof(what), "material '%s'", x->name);
    x->loc = r->node->loc;
    AWE_TRY(awe_row_opt_double(r, "youngs_modulus", what, NAN, &x->youngs_modulus, err));
    AWE_TRY(awe_row_opt_double(r, "density", what, NAN, &x->density, err));
    AWE_TRY(awe_row_opt_double(r, "damping_per_stiffness", what, NAN, &x->damping_per_stiffness, err));
    AWE_TRY(awe_row_opt_double(r, "diameter_mm", what, NAN, &x->diameter_mm, err));
    AWE_TRY(awe_row_opt_double(r, "unit_stiffness", what, NAN, &x->unit_stiffness, err));
    AWE_TRY(awe_row_opt_double(r, "unit_damping", what, NAN, &x->unit_damping, err));
  }
  ss->materials = m;
  ss->nmaterial += t.nrow;
  return AWE_OK;
}


/* ---- line properties (segments and auto tethers) ------------------------------------------ */

/* A property cell is a number, "nothing", or the name of a material (resolved by the builder). */
static awe_status prop_cell(awe_spec *s, const awe_row *r, const char *const *cols, int ncol,
                            const char *what, double *out, awe_line_props *p, awe_err *err) {
  const awe_ynode *c = awe_row_get_any(r, cols, ncol);
  *out = NAN;
  if (awe_ynode_is_nothing(c)) return AWE_OK;
  if (c->kind == AWE_Y_SCALAR && !awe_ynode_is_number(c) && c->str[0]) {
    if (p->material && strcmp(p->material, c->str))
      return awe_err_at(err, AWE_EINVAL, &c->loc,
                        "%s: two different materials named ('%s' and '%s')", what, p->material,
                        c->str);
    if (!p->material) {
      p->material = awe_spec_strdup(s, c->str);
      p->material_loc = c->loc;
    }
    return AWE_OK;
  }
  char w[512];
  snprintf(w, sizeof(w), "%s: %s", what, cols[0]);
  return awe_ynode_double(c, w, out, err);
}


static awe_status read_line_props(awe_spec *s, const awe_row *r, const char *what,
                                  awe_line_props *p, awe_err *err) {
  static const char *const c_d[] = {"diameter_mm"};
  static const char *const c_k[] = {"unit_stiffness", "axial_stiffness"};
  static const char *const c_c[] = {"unit_damping", "axial_damping"};
  static const char *const c_f[] = {"compression_frac"};
  static const char *const c_r[] = {"density"};
  static const char *const c_m[] = {"material"};
  static const char *const c_e[] = {"youngs_modulus"};
  static const char *const c_ds[] = {"damping_per_stiffness"};
  static const char *const c_cd[] = {"compression_damping_frac"};
  memset(p, 0, sizeof(*p));
  for (int k = 0; k < 2; k++) {
    static const char *const oldc[2] = {"axial_stiffness", "axial_damping"};
    static const char *const newc[2] = {"unit_stiffness", "unit_damping"};
    if (!awe_row_get(r, newc[k]) && awe_row_get(r, oldc[k]))
      awe_spec_deprecated(s, &awe_row_get(r, oldc[k])->loc, oldc[k],
                 "%s: column '%s' is an old spelling (older SymbolicAWEModels files); the "
                 "current spelling is '%s'", what, oldc[k], newc[k]);
  }
  double dummy;
  AWE_TRY(prop_cell(s, r, c_m, 1, what, &dummy, p, err));
  if (!isnan(dummy))
    return awe_err_at(err, AWE_EINVAL, &awe_row_get(r, "material")->loc,
                      "%s: material must be a material name, got a number", what);
  AWE_TRY(prop_cell(s, r, c_d, 1, what, &p->diameter_mm, p, err));
  AWE_TRY(prop_cell(s, r, c_k, 2, what, &p->unit_stiffness, p, err));
  AWE_TRY(prop_cell(s, r, c_c, 2, what, &p->unit_damping, p, err));
  AWE_TRY(prop_cell(s, r, c_f, 1, what, &p->compression_frac, p, err));
  AWE_TRY(prop_cell(s, r, c_r, 1, what, &p->density, p, err));
  AWE_TRY(prop_cell(s, r, c_e, 1, what, &p->youngs_modulus, p, err));
  AWE_TRY(prop_cell(s, r, c_ds, 1, what, &p->damping_per_stiffness, p, err));
  AWE_TRY(prop_cell(s, r, c_cd, 1, what, &p->compression_damping_frac, p, err));
  /* SymbolicAWEModels 0.14: giving both forms of the same quantity is an error */
  if (!isnan(p->unit_stiffness) && !isnan(p->youngs_modulus))
    return awe_err_at(err, AWE_EINVAL, &awe_row_get(r, "youngs_modulus")->loc,
                      "%s: give unit_stiffness (EA [N]) or youngs_modulus (E [Pa]), not both",
                      what);
  if (!isnan(p->unit_damping) && !isnan(p->damping_per_stiffness))
    return awe_err_at(err, AWE_EINVAL, &awe_row_get(r, "damping_per_stiffness")->loc,
                      "%s: give unit_damping ([N s]) or damping_per_stiffness ([s]), not both",
                      what);
  return AWE_OK;
}


/* ---- points ------------------------------------------------------------------------------- */

static const enum_name point_types[] = {
    {"STATIC", AWE_PT_STATIC, NULL, NULL},   {"FIXED", AWE_PT_STATIC, NULL, NULL},
    {"DYNAMIC", AWE_PT_DYNAMIC, NULL, NULL}, {"QUASI_STATIC", AWE_PT_QUASI_STATIC, NULL, NULL},
    {"WING", AWE_PT_WING, NULL, NULL},       {"BODY_STATIC", AWE_PT_WING, NULL, NULL},
};

static awe_status read_points(awe_spec *s, const awe_ynode *blk, awe_err *err) {
  static const char *const cols[] = {"name", "idx", "id", "pos_cad", "type", "wing_idx",
                                     "transform_idx", "extra_mass", "mass", "body_frame_damping",
                                     "world_frame_damping", "area", "drag_coeff", "body", "body_idx",
                                     "anchor_b"};
  awe_table t;
  AWE_TRY(awe_table_read(s, blk, "points", cols, AWE_ARRLEN(cols), &t, err));
  awe_struct_spec *ss = &s->structure;
  ss->npoint = t.nrow;
  ss->points = awe_spec_alloc(s, sizeof(awe_point_spec) * (size_t)(t.nrow + 1));
  if (!ss->points) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  static const double zero[3] = {0, 0, 0};
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_point_spec *p = &ss->points[i];
    AWE_TRY(row_name(s, r, &p->name, err));
    char what[256];
    snprintf(what, sizeof(what), "point '%s'", p->name);
    p->loc = r->node->loc;
    const awe_ynode *pc = awe_row_get(r, "pos_cad");
    if (awe_ynode_is_nothing(pc))
      return awe_err_at(err, AWE_EINVAL, pc ? &pc->loc : &r->node->loc,
                        "%s: required value 'pos_cad' is missing", what);
    char w[300];
    snprintf(w, sizeof(w), "%s: pos_cad", what);
    AWE_TRY(awe_ynode_vec(pc, w, 3, p->pos_cad, err));
    int ty;
    snprintf(w, sizeof(w), "%s: type", what);
    const awe_ynode *tn = awe_row_get(r, "type");
    if (awe_ynode_is_nothing(tn))
      return awe_err_at(err, AWE_EINVAL, tn ? &tn->loc : &r->node->loc,
                        "%s: required value 'type' is missing (STATIC, DYNAMIC, QUASI_STATIC, "
                        "WING)", what);
    AWE_TRY(parse_enum(s, tn, w, point_types, AWE_ARRLEN(point_types), 0, 1, &ty, err));
    p->type = (awe_point_type)ty;
    snprintf(w, sizeof(w), "%s: wing_idx", what);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, "wing_idx"), w, &p->wing, err));
    snprintf(w, sizeof(w), "%s: transform_idx", what);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, "transform_idx"), w, &p->transform, err));
    const char *mcol = col_or_old(s, r, "extra_mass", "mass", "points", NULL);
    AWE_TRY(awe_row_opt_double(r, mcol, what, 0.0, &p->extra_mass, err));
    AWE_TRY(awe_row_opt_vec3(r, "body_frame_damping", what, zero, 1, p->bfd, err));
    AWE_TRY(awe_row_opt_vec3(r, "world_frame_damping", what, zero, 1, p->wfd, err));
    AWE_TRY(awe_row_opt_double(r, "area", what, 0.0, &p->area, err));
    AWE_TRY(awe_row_opt_double(r, "drag_coeff", what, 0.0, &p->drag_coeff, err));
    const char *bcol = awe_row_get(r, "body_idx") ? "body_idx" : "body";
    snprintf(w, sizeof(w), "%s: %s", what, bcol);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, bcol), w, &p->body, err));
    const awe_ynode *an = awe_row_get(r, "anchor_b");
    p->has_anchor_b = !awe_ynode_is_nothing(an);
    if (p->has_anchor_b) {
      snprintf(w, sizeof(w), "%s: anchor_b", what);
      AWE_TRY(awe_ynode_vec(an, w, 3, p->anchor_b, err));
    }
  }
  return AWE_OK;
}


/* ---- segments ----------------------------------------------------------------------------- */

static awe_status read_segments(awe_spec *s, const awe_ynode *blk, awe_err *err) {
  static const char *const cols[] = {"name", "idx", "id", "point_i", "point_j", "type", "l0",
                                     "diameter_mm", "unit_stiffness", "unit_damping",
                                     "axial_stiffness", "axial_damping", "compression_frac",
                                     "density", "material", "youngs_modulus",
                                     "damping_per_stiffness", "compression_damping_frac"};
  awe_table t;
  AWE_TRY(awe_table_read(s, blk, "segments", cols, AWE_ARRLEN(cols), &t, err));
  awe_struct_spec *ss = &s->structure;
  ss->nsegment = t.nrow;
  ss->segments = awe_spec_alloc(s, sizeof(awe_segment_spec) * (size_t)(t.nrow + 1));
  if (!ss->segments) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_segment_spec *g = &ss->segments[i];
    AWE_TRY(row_name(s, r, &g->name, err));
    char what[256], w[300];
    snprintf(what, sizeof(what), "segment '%s'", g->name);
    g->loc = r->node->loc;
    static const char *const ends[2] = {"point_i", "point_j"};
    for (int k = 0; k < 2; k++) {
      const awe_ynode *c = awe_row_get(r, ends[k]);
      snprintf(w, sizeof(w), "%s: %s", what, ends[k]);
      AWE_TRY(awe_parse_ref(s, c, w, &g->p[k], err));
      if (!AWE_REF_GIVEN(g->p[k]))
        return awe_err_at(err, AWE_EINVAL, c ? &c->loc : &r->node->loc,
                          "%s: required value '%s' is missing", what, ends[k]);
    }
    AWE_TRY(awe_row_opt_double(r, "l0", what, NAN, &g->l0, err));
    AWE_TRY(read_line_props(s, r, what, &g->props, err));
  }
  return AWE_OK;
}


/* ---- pulleys ------------------------------------------------------------------------------ */

static const enum_name dyn_types[] = {
    {"DYNAMIC", AWE_DYN_DYNAMIC, NULL, NULL}, {"QUASI_STATIC", AWE_DYN_QUASI_STATIC, NULL, NULL},
    {"STATIC", AWE_DYN_STATIC, NULL, NULL},   {"FIXED", AWE_DYN_STATIC, NULL, NULL}};

static awe_status read_pulleys(awe_spec *s, const awe_ynode *blk, awe_err *err) {
  static const char *const cols[] = {"name", "idx", "id", "segment_i", "segment_j", "segments",
                                     "type", "efficiency", "friction_epsilon", "damping",
                                     "damping_rate", "brake"};
  awe_table t;
  AWE_TRY(awe_table_read(s, blk, "pulleys", cols, AWE_ARRLEN(cols), &t, err));
  awe_struct_spec *ss = &s->structure;
  ss->npulley = t.nrow;
  ss->pulleys = awe_spec_alloc(s, sizeof(awe_pulley_spec) * (size_t)(t.nrow + 1));
  if (!ss->pulleys) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_pulley_spec *p = &ss->pulleys[i];
    AWE_TRY(row_name(s, r, &p->name, err));
    char what[256], w[300];
    snprintf(what, sizeof(what), "pulley '%s'", p->name);
    p->loc = r->node->loc;
    static const char *const ends[2] = {"segment_i", "segment_j"};
    const awe_ynode *pair = awe_row_get(r, "segments"); /* awesIO's [segment_a, segment_b] */
    if (!awe_ynode_is_nothing(pair) &&
        (pair->kind != AWE_Y_SEQ || pair->n != 2 || awe_row_get(r, "segment_i")))
      return awe_err_at(err, AWE_EINVAL, &pair->loc,
                        "%s: segments must be a pair [segment_i, segment_j] (and replaces the "
                        "columns segment_i, segment_j)", what);
    for (int k = 0; k < 2; k++) {
      const awe_ynode *c = awe_ynode_is_nothing(pair) ? awe_row_get(r, ends[k]) : pair->items[k];
      snprintf(w, sizeof(w), "%s: %s", what, ends[k]);
      AWE_TRY(awe_parse_ref(s, c, w, &p->seg[k], err));
      if (!AWE_REF_GIVEN(p->seg[k]))
        return awe_err_at(err, AWE_EINVAL, c ? &c->loc : &r->node->loc,
                          "%s: required value '%s' is missing", what, ends[k]);
    }
    int ty;
    snprintf(w, sizeof(w), "%s: type", what);
    AWE_TRY(parse_enum(s, awe_row_get(r, "type"), w, dyn_types, 2, AWE_DYN_DYNAMIC, 0, &ty, err));
    p->type = (awe_dyn_type)ty;
    /* SymbolicAWEModels 0.14: a sheave passing on 0.95 of the line tension */
    AWE_TRY(awe_row_opt_double(r, "efficiency", what, 0.95, &p->efficiency, err));
    AWE_TRY(awe_row_opt_double(r, "friction_epsilon", what, AWE_PULLEY_FRICTION_EPS,
                               &p->friction_epsilon, err));
    AWE_TRY(awe_row_opt_double(r, "damping", what, 0.0, &p->damping, err));
    AWE_TRY(awe_row_opt_double(r, "damping_rate", what, 0.0, &p->damping_rate, err));
    AWE_TRY(awe_row_opt_bool(r, "brake", what, 0, &p->brake, err));
  }
  return AWE_OK;
}


/* ---- groups (twist surfaces, stations) ---------------------------------------------------- */

static awe_status read_groups(awe_spec *s, const awe_ynode *blk, const char *bname,
                              awe_err *err) {
  static const char *const cols[] = {"name", "idx", "id", "point_idxs", "point_ids", "points",
                                     "type", "moment_frac", "reference_chord_frac", "damping",
                                     "gamma", "stiffness"};
  awe_table t;
  AWE_TRY(awe_table_read(s, blk, bname, cols, AWE_ARRLEN(cols), &t, err));
  awe_struct_spec *ss = &s->structure;
  ss->ngroup = t.nrow;
  ss->groups = awe_spec_alloc(s, sizeof(awe_group_spec) * (size_t)(t.nrow + 1));
  if (!ss->groups) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_group_spec *g = &ss->groups[i];
    AWE_TRY(row_name(s, r, &g->name, err));
    char what[256], w[300];
    snprintf(what, sizeof(what), "group '%s'", g->name);
    g->loc = r->node->loc;
    static const char *const pcols[] = {"point_idxs", "point_ids", "points"};
    if (!awe_row_get(r, "points")) col_or_old(s, r, "point_idxs", "point_ids", bname, NULL);
    const awe_ynode *pl = awe_row_get_any(r, pcols, 3);
    snprintf(w, sizeof(w), "%s: point_idxs", what);
    AWE_TRY(awe_parse_ref_list(s, pl, w, &g->points, &g->npoint, err));
    if (g->npoint == 0)
      return awe_err_at(err, AWE_EINVAL, pl ? &pl->loc : &r->node->loc,
                        "%s: needs a list of points (point_idxs)", what);
    int ty;
    snprintf(w, sizeof(w), "%s: type", what);
    AWE_TRY(parse_enum(s, awe_row_get(r, "type"), w, dyn_types, 4, AWE_DYN_DYNAMIC, 0, &ty, err));
    g->type = (awe_dyn_type)ty;
    const char *mf = col_or_old(s, r, "moment_frac", "reference_chord_frac", bname, NULL);
    AWE_TRY(awe_row_opt_double(r, mf, what, 0.25, &g->moment_frac, err));
    AWE_TRY(awe_row_opt_double(r, "damping", what, 0.0, &g->damping, err));
  }
  return AWE_OK;
}


/* ---- tethers ------------------------------------------------------------------------------ */

static awe_status read_tethers(awe_spec *s, const awe_ynode *blk, awe_err *err) {
  static const char *const cols[] = {
      "name", "idx", "id", "segment_idxs", "segments", "start_point", "end_point", "n_segments",
      "material", "diameter_mm", "unit_stiffness", "unit_damping", "axial_stiffness",
      "axial_damping", "compression_frac", "density", "init_stretched_length",
      "init_tether_force", "init_stretch_frac", "init_len", "init_unstretched_length",
      "winch_point_idx", "youngs_modulus", "damping_per_stiffness", "compression_damping_frac"};
  awe_table t;
  AWE_TRY(awe_table_read(s, blk, "tethers", cols, AWE_ARRLEN(cols), &t, err));
  awe_struct_spec *ss = &s->structure;
  ss->ntether = t.nrow;
  ss->tethers = awe_spec_alloc(s, sizeof(awe_tether_spec) * (size_t)(t.nrow + 1));
  if (!ss->tethers) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_tether_spec *x = &ss->tethers[i];
    AWE_TRY(row_name(s, r, &x->name, err));
    char what[256], w[300];
    snprintf(what, sizeof(what), "tether '%s'", x->name);
    x->loc = r->node->loc;
    static const char *const scols[] = {"segment_idxs", "segments"};
    const awe_ynode *sl = awe_row_get_any(r, scols, 2);
    snprintf(w, sizeof(w), "%s: segment_idxs", what);
    AWE_TRY(awe_parse_ref_list(s, sl, w, &x->segs, &x->nseg, err));
    snprintf(w, sizeof(w), "%s: start_point", what);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, "start_point"), w, &x->start, err));
    snprintf(w, sizeof(w), "%s: end_point", what);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, "end_point"), w, &x->end, err));
    if (!AWE_REF_GIVEN(x->end)) {
      /* legacy: the winch (ground) point of an explicit tether */
      col_or_old(s, r, "end_point", "winch_point_idx", "tethers", NULL);
      snprintf(w, sizeof(w), "%s: winch_point_idx", what);
      AWE_TRY(awe_parse_ref(s, awe_row_get(r, "winch_point_idx"), w, &x->end, err));
    }
    if (x->nseg == 0) {
      const awe_ynode *nc = awe_row_get(r, "n_segments");
      if (!AWE_REF_GIVEN(x->start) || !AWE_REF_GIVEN(x->end) || awe_ynode_is_nothing(nc))
        return awe_err_at(err, AWE_EINVAL, &r->node->loc,
                          "%s: give either segment_idxs (a list of existing segments) or "
                          "start_point, end_point and n_segments (auto-generated)", what);
      AWE_TRY(awe_row_opt_int(r, "n_segments", what, 0, &x->n_segments, err));
      AWE_TRY(read_line_props(s, r, what, &x->props, err));
    }
    AWE_TRY(awe_row_opt_double(r, "init_stretched_length", what, NAN, &x->init_stretched_length,
                           err));
    if (isnan(x->init_stretched_length) && awe_row_get(r, "init_len")) {
      col_or_old(s, r, "init_stretched_length", "init_len", "tethers", NULL);
      AWE_TRY(awe_row_opt_double(r, "init_len", what, NAN, &x->init_stretched_length, err));
    }
    AWE_TRY(awe_row_opt_double(r, "init_tether_force", what, NAN, &x->init_tether_force, err));
    AWE_TRY(awe_row_opt_double(r, "init_stretch_frac", what, NAN, &x->init_stretch_frac, err));
    /* SymbolicAWEModels < v0.11 (pinned by V3Kite.jl): the tether's rest length, placed
       unstretched; that is init_stretched_length with no initial stretch */
    const awe_ynode *iu = awe_row_get(r, "init_unstretched_length");
    if (!awe_ynode_is_nothing(iu)) {
      if (!isnan(x->init_stretched_length) || !isnan(x->init_tether_force) ||
          !isnan(x->init_stretch_frac))
        return awe_err_at(err, AWE_EINVAL, &iu->loc,
                          "%s: init_unstretched_length (SymbolicAWEModels < v0.11) cannot be "
                          "combined with init_stretched_length, init_tether_force or "
                          "init_stretch_frac; give those instead", what);
      AWE_TRY(awe_row_opt_double(r, "init_unstretched_length", what, NAN,
                                 &x->init_stretched_length, err));
      awe_spec_deprecated(s, &iu->loc, "init_unstretched_length",
                          "%s: init_unstretched_length (SymbolicAWEModels < v0.11) read as "
                          "init_stretched_length %g m with no initial stretch; the current "
                          "spelling is init_stretched_length with init_tether_force or "
                          "init_stretch_frac", what, x->init_stretched_length);
    }
  }
  return AWE_OK;
}


/* ---- winches ------------------------------------------------------------------------------ */

static awe_status read_winches(awe_spec *s, const awe_ynode *blk, awe_err *err) {
  static const char *const cols[] = {"name", "idx", "id", "tether_idxs", "tethers",
                                     "winch_point", "init_vel", "brake", "speed_controlled",
                                     "friction_epsilon", "model", "coulomb_friction",
                                     "viscous_coefficient", "f_coulomb", "c_vf",
                                     "endpoint_damping"};
  awe_table t;
  AWE_TRY(awe_table_read(s, blk, "winches", cols, AWE_ARRLEN(cols), &t, err));
  awe_struct_spec *ss = &s->structure;
  ss->nwinch = t.nrow;
  ss->winches = awe_spec_alloc(s, sizeof(awe_winch_spec) * (size_t)(t.nrow + 1));
  if (!ss->winches) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_winch_spec *x = &ss->winches[i];
    AWE_TRY(row_name(s, r, &x->name, err));
    char what[256], w[300];
    snprintf(what, sizeof(what), "winch '%s'", x->name);
    x->loc = r->node->loc;
    static const char *const tcols[] = {"tether_idxs", "tethers"};
    const awe_ynode *tl = awe_row_get_any(r, tcols, 2);
    snprintf(w, sizeof(w), "%s: tether_idxs", what);
    AWE_TRY(awe_parse_ref_list(s, tl, w, &x->tethers, &x->ntether, err));
    if (x->ntether == 0)
      return awe_err_at(err, AWE_EINVAL, tl ? &tl->loc : &r->node->loc,
                        "%s: needs at least one tether (tether_idxs)", what);
    snprintf(w, sizeof(w), "%s: winch_point", what);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, "winch_point"), w, &x->point, err));
    AWE_TRY(awe_row_opt_double(r, "init_vel", what, 0.0, &x->init_vel, err));
    AWE_TRY(awe_row_opt_bool(r, "brake", what, 0, &x->brake, err));
    AWE_TRY(awe_row_opt_bool(r, "speed_controlled", what, 0, &x->speed_controlled, err));
    AWE_TRY(awe_row_opt_bool(r, "endpoint_damping", what, 0, &x->endpoint_damping, err));
    AWE_TRY(awe_row_opt_double(r, "friction_epsilon", what, 6.0, &x->friction_epsilon, err));
    /* SymbolicAWEModels 0.14 renamed Winch.f_coulomb and c_vf (the settings keys keep their
     * names: KiteUtils owns them) */
    const char *fc = col_or_old(s, r, "coulomb_friction", "f_coulomb", "winches", "0.14");
    const char *vc = col_or_old(s, r, "viscous_coefficient", "c_vf", "winches", "0.14");
    AWE_TRY(awe_row_opt_double(r, fc, what, NAN, &x->coulomb_friction, err));
    AWE_TRY(awe_row_opt_double(r, vc, what, NAN, &x->viscous_coefficient, err));
  }
  return AWE_OK;
}


/* ---- wings -------------------------------------------------------------------------------- */

static const enum_name wing_types[] = {
    {"RIGID_DYNAMICS", AWE_WING_RIGID, NULL, NULL},
    {"QUATERNION", AWE_WING_RIGID, "RIGID_DYNAMICS", NULL},
    {"PARTICLE_DYNAMICS", AWE_WING_PARTICLE, NULL, NULL},
    {"REFINE", AWE_WING_PARTICLE, "PARTICLE_DYNAMICS", NULL}};

/* aero_mode spellings are case- and underscore-insensitive: normalise before matching */
awe_status awe_spec_parse_aero_mode(const awe_ynode *n, const char *what, awe_aero_mode *out,
                                    awe_err *err) {
  if (awe_ynode_is_nothing(n)) {
    *out = AWE_AERO_DEFAULT;
    return AWE_OK;
  }
  char norm[64] = "";
  if (n->kind == AWE_Y_SCALAR) {
    size_t k = 0;
    for (const char *c = n->str; *c && k < sizeof(norm) - 1; c++) {
      if (*c == '_' || *c == '(' || *c == ')') continue;
      norm[k++] = (char)((*c >= 'A' && *c <= 'Z') ? *c - 'A' + 'a' : *c);
    }
    norm[k] = 0;
  }
  const char *p = !strncmp(norm, "aero", 4) ? norm + 4 : norm;
  if (!strcmp(p, "none")) *out = AWE_AERO_NONE;
  else if (!strcmp(p, "direct")) *out = AWE_AERO_DIRECT;
  else if (!strcmp(p, "linearized")) *out = AWE_AERO_LINEARIZED;
  else if (!strcmp(p, "plate") || !strcmp(p, "continuous"))
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "%s '%s' is not supported by awesim yet (use AeroLinearized, "
                      "AeroDirect or AeroNone)", what, n->str);
  else {
    char d[64];
    awe_ynode_describe(n, d, sizeof(d));
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "%s: unknown aero_mode %s (allowed: AeroNone, AeroDirect, AeroLinearized)",
                      what, d);
  }
  return AWE_OK;
}


awe_status awe_spec_parse_unsteady(const awe_ynode *n, const char *what, awe_wing_spec *x,
                                   awe_err *err) {
  if (awe_ynode_is_nothing(n)) return AWE_OK;
  if (n->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &n->loc,
                      "%s: expected a mapping {apparent_mass: SCALE, wagner: true|false}", what);
  static const char *const k[] = {"apparent_mass", "wagner", "wagner_gains", "wagner_rates"};
  AWE_TRY(awe_ymap_check_keys(n, what, k, AWE_ARRLEN(k), err));
  char w[300];
  const awe_ynode *am = awe_ymap_get(n, "apparent_mass");
  if (!awe_ynode_is_nothing(am)) {
    snprintf(w, sizeof(w), "%s.apparent_mass", what);
    double v;
    AWE_TRY(awe_ynode_double(am, w, &v, err));
    if (!(v >= 0.0 && v <= 100.0))
      return awe_err_at(err, AWE_EINVAL, &am->loc,
                        "%s = %g is out of range (a scale of the thin-plate added mass: 0 off, "
                        "1 the thin-plate value; allowed 0 ... 100)", w, v);
    x->apparent_mass = v;
  }
  const awe_ynode *wg = awe_ymap_get(n, "wagner");
  if (!awe_ynode_is_nothing(wg)) {
    snprintf(w, sizeof(w), "%s.wagner", what);
    AWE_TRY(awe_ynode_bool(wg, w, &x->wagner, err));
  }
  /* SymbolicAWEModels' tunable lag constants: gains A_i >= 0 with A_1 + A_2 <= 1 (phi(0) =
   * 1 - A_1 - A_2 >= 0), rates b_i > 0 per semi-chord */
  static const char *const vk[2] = {"wagner_gains", "wagner_rates"};
  for (int q = 0; q < 2; q++) {
    const awe_ynode *v = awe_ymap_get(n, vk[q]);
    if (awe_ynode_is_nothing(v)) continue;
    snprintf(w, sizeof(w), "%s.%s", what, vk[q]);
    double a[2];
    AWE_TRY(awe_ynode_vec(v, w, 2, a, err));
    int okv = q == 0 ? a[0] >= 0.0 && a[1] >= 0.0 && a[0] + a[1] <= 1.0
                     : a[0] > 0.0 && a[1] > 0.0 && a[0] <= 100.0 && a[1] <= 100.0;
    if (!okv)
      return awe_err_at(err, AWE_EINVAL, &v->loc, "%s = [%g, %g] is out of range (%s)", w, a[0],
                        a[1], q == 0 ? "gains A_i >= 0 with A_1 + A_2 <= 1"
                                     : "rates b_i per semi-chord in (0, 100]");
    memcpy(q == 0 ? x->wagner_gains : x->wagner_rates, a, sizeof(a));
    x->wagner_own[q] = 1;
  }
  x->unsteady_loc = n->loc;
  return AWE_OK;
}


static awe_status read_wings(awe_spec *s, const awe_ynode *blk, awe_err *err) {
  static const char *const cols[] = {
      "name", "idx", "id", "dynamics_type", "type", "aero_mode", "twist_surfaces", "groups",
      "stations", "point_idxs", "point_ids", "transform_idx", "origin_idx", "z_ref_points",
      "y_ref_points", "y_damping", "angular_damping", "aero_scale_chord", "aero_z_offset",
      "pos_cad", "ground_point", "unsteady"};
  awe_table t;
  AWE_TRY(awe_table_read(s, blk, "wings", cols, AWE_ARRLEN(cols), &t, err));
  awe_struct_spec *ss = &s->structure;
  ss->nwing = t.nrow;
  ss->wings = awe_spec_alloc(s, sizeof(awe_wing_spec) * (size_t)(t.nrow + 1));
  if (!ss->wings) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_wing_spec *x = &ss->wings[i];
    AWE_TRY(row_name(s, r, &x->name, err));
    char what[256], w[300];
    snprintf(what, sizeof(what), "wing '%s'", x->name);
    x->loc = r->node->loc;
    const awe_ynode *tn = awe_row_get(r, "dynamics_type");
    if (awe_ynode_is_nothing(tn)) {
      tn = awe_row_get(r, "type");
      if (!awe_ynode_is_nothing(tn))
        awe_spec_deprecated(s, &tn->loc, "wings.type",
                            "%s: column 'type' is an old spelling (older SymbolicAWEModels "
                            "files); the current spelling is 'dynamics_type'", what);
    }
    if (awe_ynode_is_nothing(tn))
      return awe_err_at(err, AWE_EINVAL, &r->node->loc,
                        "%s: dynamics_type is required (RIGID_DYNAMICS or PARTICLE_DYNAMICS)",
                        what);
    int ty;
    snprintf(w, sizeof(w), "%s: dynamics_type", what);
    AWE_TRY(parse_enum(s, tn, w, wing_types, AWE_ARRLEN(wing_types), 0, 1, &ty, err));
    x->type = (awe_wing_type)ty;
    x->type_given = 1;
    snprintf(w, sizeof(w), "%s: aero_mode", what);
    AWE_TRY(awe_spec_parse_aero_mode(awe_row_get(r, "aero_mode"), w, &x->aero_mode, err));
    static const char *const gcols[] = {"stations", "twist_surfaces", "groups"};
    for (int k = 1; k < 3 && !awe_row_get(r, "stations"); k++)
      if (awe_row_get(r, gcols[k]))
        awe_spec_deprecated(s, &awe_row_get(r, gcols[k])->loc, k == 1 ? "wings.twist_surfaces"
                                                                        : "wings.groups",
                            "%s: column '%s' is an old spelling (%s); the current spelling is "
                            "'stations'", what, gcols[k],
                            k == 1 ? "SymbolicAWEModels < 0.17" : "older SymbolicAWEModels files");
    snprintf(w, sizeof(w), "%s: stations", what);
    AWE_TRY(awe_parse_ref_list(s, awe_row_get_any(r, gcols, 3), w, &x->groups, &x->ngroup, err));
    static const char *const pcols[] = {"point_idxs", "point_ids"};
    col_or_old(s, r, "point_idxs", "point_ids", "wings", NULL);
    snprintf(w, sizeof(w), "%s: point_idxs", what);
    AWE_TRY(awe_parse_ref_list(s, awe_row_get_any(r, pcols, 2), w, &x->points, &x->npoint, err));
    snprintf(w, sizeof(w), "%s: transform_idx", what);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, "transform_idx"), w, &x->transform, err));
    snprintf(w, sizeof(w), "%s: origin_idx", what);
    AWE_TRY(awe_parse_wref(s, awe_row_get(r, "origin_idx"), w, &x->origin, err));
    static const char *const refs[2] = {"z_ref_points", "y_ref_points"};
    for (int k = 0; k < 2; k++) {
      const awe_ynode *c = awe_row_get(r, refs[k]);
      awe_wref *pair = k == 0 ? x->z_ref : x->y_ref;
      if (awe_ynode_is_nothing(c)) continue;
      snprintf(w, sizeof(w), "%s: %s", what, refs[k]);
      if (c->kind != AWE_Y_SEQ || c->n != 2)
        return awe_err_at(err, AWE_EINVAL, &c->loc, "%s: expected a pair [from, to]", w);
      AWE_TRY(awe_parse_wref(s, c->items[0], w, &pair[0], err));
      AWE_TRY(awe_parse_wref(s, c->items[1], w, &pair[1], err));
    }
    /* SymbolicAWEModels 0.15: angular_damping is the per-axis vector (principal axes, default
     * [0, 150, 0]; a scalar is broadcast), y_damping is gone; before, the axes got
     * [a, a + y_damping, a] */
    const awe_ynode *yd = awe_row_get(r, "y_damping"), *ad = awe_row_get(r, "angular_damping");
    if (!awe_ynode_is_nothing(yd)) {
      awe_spec_deprecated(s, &yd->loc, "wings.y_damping",
                          "%s: column 'y_damping' is an old spelling (SymbolicAWEModels < 0.15, "
                          "pitch damping added to angular_damping); the current spelling is "
                          "angular_damping: [a, a + y_damping, a]", what);
      AWE_TRY(awe_row_opt_double(r, "y_damping", what, 150.0, &x->y_damping, err));
      AWE_TRY(awe_row_opt_double(r, "angular_damping", what, 0.0, &x->angular_damping, err));
    } else if (!awe_ynode_is_nothing(ad)) {
      static const double none[3] = {0.0, 0.0, 0.0};
      AWE_TRY(awe_row_opt_vec3(r, "angular_damping", what, none, 1, x->angular_damping_vec,
                               err));
      x->has_angular_damping_vec = 1;
      /* the scalar pair where it says the same (x and z equal) */
      x->angular_damping = x->angular_damping_vec[0];
      x->y_damping = x->angular_damping_vec[1] - x->angular_damping_vec[0];
    } else {
      x->y_damping = 150.0;
      x->angular_damping = 0.0;
    }
    AWE_TRY(awe_row_opt_double(r, "aero_scale_chord", what, 0.0, &x->aero_scale_chord, err));
    AWE_TRY(awe_row_opt_double(r, "aero_z_offset", what, 0.0, &x->aero_z_offset, err));
    snprintf(w, sizeof(w), "%s: unsteady", what);
    AWE_TRY(awe_spec_parse_unsteady(awe_row_get(r, "unsteady"), w, x, err));
    const awe_ynode *pc = awe_row_get(r, "pos_cad");
    if (!awe_ynode_is_nothing(pc)) {
      snprintf(w, sizeof(w), "%s: pos_cad", what);
      AWE_TRY(awe_ynode_vec(pc, w, 3, x->pos_cad, err));
      x->has_pos_cad = 1;
    }
    /* awesim extension: a point (name or 1-based index) or a world position [x, y, z] */
    const awe_ynode *gp = awe_row_get(r, "ground_point");
    if (!awe_ynode_is_nothing(gp)) {
      snprintf(w, sizeof(w), "%s: ground_point", what);
      x->ground_loc = gp->loc;
      if (gp->kind == AWE_Y_SEQ) {
        AWE_TRY(awe_ynode_vec(gp, w, 3, x->ground_pos, err));
        x->has_ground_pos = 1;
      } else {
        AWE_TRY(awe_parse_ref(s, gp, w, &x->ground_point, err));
      }
    }
  }
  return AWE_OK;
}


/* ---- transforms --------------------------------------------------------------------------- */

static awe_status read_transforms(awe_spec *s, const awe_ynode *blk, awe_err *err) {
  static const char *const cols[] = {
      "name", "idx", "id", "elevation", "azimuth", "heading", "elevation_vel", "azimuth_vel",
      "turn_rate", "base_pos", "base_point_idx", "base_transform_idx", "wing_idx",
      "rot_point_idx"};
  awe_table t;
  AWE_TRY(awe_table_read(s, blk, "transforms", cols, AWE_ARRLEN(cols), &t, err));
  awe_struct_spec *ss = &s->structure;
  ss->ntransform = t.nrow;
  ss->transforms = awe_spec_alloc(s, sizeof(awe_transform_spec) * (size_t)(t.nrow + 1));
  if (!ss->transforms) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  const double deg = M_PI / 180.0;
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_transform_spec *x = &ss->transforms[i];
    AWE_TRY(row_name(s, r, &x->name, err));
    char what[256], w[300];
    snprintf(what, sizeof(what), "transform '%s'", x->name);
    x->loc = r->node->loc;
    AWE_TRY(awe_row_req_double(r, "elevation", what, &x->elevation, err));
    AWE_TRY(awe_row_req_double(r, "azimuth", what, &x->azimuth, err));
    AWE_TRY(awe_row_req_double(r, "heading", what, &x->heading, err));
    AWE_TRY(awe_row_opt_double(r, "elevation_vel", what, 0.0, &x->elevation_vel, err));
    AWE_TRY(awe_row_opt_double(r, "azimuth_vel", what, 0.0, &x->azimuth_vel, err));
    AWE_TRY(awe_row_opt_double(r, "turn_rate", what, 0.0, &x->turn_rate, err));
    static const char *const ang[3] = {"elevation", "azimuth", "heading"};
    for (int k = 0; k < 3; k++) x->angle_loc[k] = awe_row_get(r, ang[k])->loc;
    x->elevation *= deg;
    x->azimuth *= deg;
    x->heading *= deg;
    x->elevation_vel *= deg;
    x->azimuth_vel *= deg;
    x->turn_rate *= deg;
    const awe_ynode *bp = awe_row_get(r, "base_pos");
    if (!awe_ynode_is_nothing(bp)) {
      snprintf(w, sizeof(w), "%s: base_pos", what);
      AWE_TRY(awe_ynode_vec(bp, w, 3, x->base_pos, err));
      x->has_base_pos = 1;
    }
    snprintf(w, sizeof(w), "%s: base_point_idx", what);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, "base_point_idx"), w, &x->base_point, err));
    snprintf(w, sizeof(w), "%s: base_transform_idx", what);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, "base_transform_idx"), w, &x->base_transform, err));
    snprintf(w, sizeof(w), "%s: wing_idx", what);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, "wing_idx"), w, &x->wing, err));
    snprintf(w, sizeof(w), "%s: rot_point_idx", what);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, "rot_point_idx"), w, &x->rot_point, err));
  }
  return AWE_OK;
}


/* ---- the file ----------------------------------------------------------------------------- */

static awe_status read_blocks(awe_spec *s, const awe_ynode *root, awe_err *err);

awe_status awe_spec_read_structure(awe_spec *s, const awe_ynode *root, const char *path,
                                   awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  ss->path = awe_spec_strdup(s, path);
  if (!root || root->kind == AWE_Y_NULL)
    return root ? awe_err_at(err, AWE_EINVAL, &root->loc, "the structural geometry file is empty")
                : awe_err_set(err, AWE_EINVAL, "%s: the structural geometry file is empty", path);
  if (root->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &root->loc,
                      "structural geometry must be a mapping of blocks (points, segments, ...)");
  static const char *const blocks[] = {
      "materials", "elements", "segment_properties", "points", "segments", "pulleys", "groups",
      "twist_surfaces", "stations", "tethers", "winches", "wings", "transforms", "variables",
      "bodies", "tubes"};
  static const char *const unsupported[] = {"elastic_joints", "timoshenko_joints", "surfaces",
                                            "metadata"};
  static const char *const unsupported_what[] = {
      "elastic joints of rigid bodies (write them as tubes)",
      "Timoshenko beam joints (write them as tubes)", "AeroPlate wings",
      "structure documents (awesIO)"};
  for (int i = 0; i < root->n; i++) {
    const char *k = root->keys[i]->str;
    int known = 0;
    for (int j = 0; j < AWE_ARRLEN(blocks) && !known; j++) known = !strcmp(blocks[j], k);
    for (int j = 0; j < AWE_ARRLEN(unsupported); j++)
      if (!strcmp(unsupported[j], k))
        return awe_err_at(err, AWE_EINVAL, &root->keys[i]->loc,
                          "block '%s' (SymbolicAWEModels %s) is not supported by awesim yet", k,
                          unsupported_what[j]);
    if (!known) {
      const char *best = awe_closest(k, blocks, AWE_ARRLEN(blocks));
      awe_warn(&s->warnings, &root->keys[i]->loc, "unknown block '%s' is ignored%s%s%s", k,
               best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
    }
  }
  int ngroups_blocks = !!awe_ymap_get(root, "groups") + !!awe_ymap_get(root, "twist_surfaces") +
                       !!awe_ymap_get(root, "stations");
  if (ngroups_blocks > 1)
    return awe_err_at(err, AWE_EINVAL, &root->loc,
                      "give only one of 'groups', 'twist_surfaces', 'stations' (same block)");
  const awe_ynode *vars = awe_ymap_get(root, "variables");
  AWE_TRY(awe_vars_check(vars, root, err));
  s->vars = vars && vars->kind == AWE_Y_MAP ? vars : NULL;
  awe_status st = read_blocks(s, root, err);
  s->vars = NULL;  /* the aero geometry and other files have no variables */
  return st;
}



/* SymbolicAWEModels 0.13 on: a particle wing's nodes are DYNAMIC points, members of the wing
 * through its stations (twist surfaces); awesim's WING type marks the same membership */
static awe_status station_points_join_wings(awe_spec *s, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  const char **gn = awe_spec_alloc(s, sizeof(char *) * (size_t)(ss->ngroup + 1));
  const char **pn = awe_spec_alloc(s, sizeof(char *) * (size_t)(ss->npoint + 1));
  if (!gn || !pn) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int g = 0; g < ss->ngroup; g++) gn[g] = ss->groups[g].name;
  for (int p = 0; p < ss->npoint; p++) pn[p] = ss->points[p].name;
  for (int wi = 0; wi < ss->nwing; wi++) {
    awe_wing_spec *w = &ss->wings[wi];
    if (w->type != AWE_WING_PARTICLE) continue;
    for (int k = 0; k < w->ngroup; k++) {
      int g = awe_ref_index(&w->groups[k], gn, ss->ngroup);
      if (g < 0) continue; /* the model build names the unknown station */
      for (int j = 0; j < ss->groups[g].npoint; j++) {
        int p = awe_ref_index(&ss->groups[g].points[j], pn, ss->npoint);
        if (p < 0 || ss->points[p].type != AWE_PT_DYNAMIC) continue;
        ss->points[p].type = AWE_PT_WING;
        if (!AWE_REF_GIVEN(ss->points[p].wing)) {
          ss->points[p].wing.name = w->name;
          ss->points[p].wing.index = w->name ? 0 : wi + 1;
        }
      }
    }
  }
  return AWE_OK;
}


/* ---- bodies and tubes (SymbolicAWEModels 0.17; test/test_yaml_bodies.jl shows the columns) -- */

static awe_status read_bodies(awe_spec *s, const awe_ynode *blk, awe_err *err) {
  static const char *const cols[] = {"name", "idx", "id", "extra_mass", "mass",
                                     "inertia_principal", "inertia", "pos", "vel", "Q_b_to_w",
                                     "orientation", "omega_b", "angular_damping", "world_frame_damping",
                                     "type", "transform_idx", "transform", "wing", "wing_idx",
                                     "body_frame_damping"};
  awe_table t;
  AWE_TRY(awe_table_read(s, blk, "bodies", cols, AWE_ARRLEN(cols), &t, err));
  awe_struct_spec *ss = &s->structure;
  ss->nbody = t.nrow;
  ss->bodies = awe_spec_alloc(s, sizeof(awe_body_spec) * (size_t)(t.nrow + 1));
  if (!ss->bodies) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  static const double zero[3] = {0, 0, 0};
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_body_spec *b = &ss->bodies[i];
    memset(b, 0, sizeof(*b));
    AWE_TRY(row_name(s, r, &b->name, err));
    char what[256], w[300];
    snprintf(what, sizeof(what), "body '%s'", b->name);
    b->loc = r->node->loc;
    const char *mcol = awe_row_get(r, "extra_mass") ? "extra_mass" : "mass";
    if (awe_ynode_is_nothing(awe_row_get(r, mcol)))
      return awe_err_at(err, AWE_EINVAL, &r->node->loc,
                        "%s: required value 'extra_mass' (or 'mass') is missing", what);
    AWE_TRY(awe_row_req_double(r, mcol, what, &b->mass, err));
    const awe_ynode *ip = awe_row_get(r, "inertia_principal"), *it = awe_row_get(r, "inertia");
    if (!awe_ynode_is_nothing(ip) && !awe_ynode_is_nothing(it))
      return awe_err_at(err, AWE_EINVAL, &it->loc,
                        "%s: give 'inertia' or 'inertia_principal', not both", what);
    if (!awe_ynode_is_nothing(it)) {
      snprintf(w, sizeof(w), "%s: inertia (a 3x3 tensor, row by row)", what);
      if (it->kind == AWE_Y_SEQ && it->n == 3) {
        for (int k = 0; k < 3; k++) AWE_TRY(awe_ynode_vec(it->items[k], w, 3, b->inertia + 3 * k, err));
      } else {
        AWE_TRY(awe_ynode_vec(it, w, 9, b->inertia, err));
      }
    } else if (!awe_ynode_is_nothing(ip)) {
      double d[3];
      snprintf(w, sizeof(w), "%s: inertia_principal", what);
      AWE_TRY(awe_ynode_vec(ip, w, 3, d, err));
      b->inertia[0] = d[0];
      b->inertia[4] = d[1];
      b->inertia[8] = d[2];
    } else {
      return awe_err_at(err, AWE_EINVAL, &r->node->loc,
                        "%s: provide 'inertia_principal' or 'inertia'", what);
    }
    const awe_ynode *pn = awe_row_get(r, "pos");
    if (awe_ynode_is_nothing(pn))
      return awe_err_at(err, AWE_EINVAL, pn ? &pn->loc : &r->node->loc,
                        "%s: required value 'pos' is missing", what);
    snprintf(w, sizeof(w), "%s: pos", what);
    AWE_TRY(awe_ynode_vec(pn, w, 3, b->pos, err));
    AWE_TRY(awe_row_opt_vec3(r, "vel", what, zero, 0, b->vel, err));
    AWE_TRY(awe_row_opt_vec3(r, "omega_b", what, zero, 0, b->omega_b, err));
    AWE_TRY(awe_row_opt_vec3(r, "angular_damping", what, zero, 1, b->angular_damping, err));
    AWE_TRY(awe_row_opt_vec3(r, "world_frame_damping", what, zero, 1, b->world_frame_damping,
                             err));
    AWE_TRY(awe_row_opt_vec3(r, "body_frame_damping", what, zero, 1, b->body_frame_damping,
                             err));
    b->q[0] = 1.0;
    const awe_ynode *qn = awe_row_get(r, "Q_b_to_w");
    if (awe_ynode_is_nothing(qn)) qn = awe_row_get(r, "orientation");
    if (!awe_ynode_is_nothing(qn)) {
      snprintf(w, sizeof(w), "%s: Q_b_to_w (w, x, y, z)", what);
      AWE_TRY(awe_ynode_vec(qn, w, 4, b->q, err));
      double n = sqrt(b->q[0] * b->q[0] + b->q[1] * b->q[1] + b->q[2] * b->q[2] + b->q[3] * b->q[3]);
      if (!(n > 0.0)) return awe_err_at(err, AWE_EINVAL, &qn->loc, "%s: zero quaternion", w);
      for (int k = 0; k < 4; k++) b->q[k] /= n;
    }
    /* SAM's V3Kite beam files: transform_idx places the body with that transform's points
     * (pos and Q_b_to_w are then CAD); 'wing' names the wing whose frame body_frame_damping
     * uses (V3Kite.jl: beam_body_damping follows the points' body_sim_damping) */
    const char *wcol = awe_row_get(r, "wing_idx") ? "wing_idx" : "wing";
    snprintf(w, sizeof(w), "%s: %s", what, wcol);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, wcol), w, &b->wing, err));
    const char *tcol = awe_row_get(r, "transform_idx") ? "transform_idx" : "transform";
    snprintf(w, sizeof(w), "%s: %s", what, tcol);
    AWE_TRY(awe_parse_ref(s, awe_row_get(r, tcol), w, &b->transform, err));
    static const enum_name body_types[] = {
        {"DYNAMIC", 0, NULL, NULL}, {"STATIC", 1, NULL, NULL}, {"FIXED", 1, NULL, NULL}};
    snprintf(w, sizeof(w), "%s: type", what);
    AWE_TRY(parse_enum(s, awe_row_get(r, "type"), w, body_types, AWE_ARRLEN(body_types), 0, 0,
                       &b->is_static, err));
  }
  return AWE_OK;
}


static awe_status read_tubes(awe_spec *s, const awe_ynode *blk, awe_err *err) {
  static const char *const cols[] = {
      "name", "idx", "id", "bodies", "body_a", "body_b", "diameter", "pressure", "law", "model",
      "EA", "GA", "GJ", "EIy", "EIz", "EI", "shear_coeff", "damping", "anchor_a", "anchor_b",
      "stiffness_axial", "stiffness_shear", "stiffness_torsion", "stiffness_bending"};
  awe_table t;
  AWE_TRY(awe_table_read(s, blk, "tubes", cols, AWE_ARRLEN(cols), &t, err));
  awe_struct_spec *ss = &s->structure;
  ss->ntube = t.nrow;
  ss->tubes = awe_spec_alloc(s, sizeof(awe_tube_spec) * (size_t)(t.nrow + 1));
  if (!ss->tubes) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  static const double zero[3] = {0, 0, 0};
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_tube_spec *u = &ss->tubes[i];
    memset(u, 0, sizeof(*u));
    AWE_TRY(row_name(s, r, &u->name, err));
    char what[256], w[300];
    snprintf(what, sizeof(what), "tube '%s'", u->name);
    u->loc = r->node->loc;
    const awe_ynode *bn = awe_row_get(r, "bodies");
    if (!awe_ynode_is_nothing(bn)) {
      if (bn->kind != AWE_Y_SEQ || bn->n != 2)
        return awe_err_at(err, AWE_EINVAL, &bn->loc, "%s: bodies: give two bodies [a, b]", what);
      for (int k = 0; k < 2; k++) {
        snprintf(w, sizeof(w), "%s: bodies[%d]", what, k + 1);
        AWE_TRY(awe_parse_ref(s, bn->items[k], w, &u->body[k], err));
      }
    } else {
      static const char *const ends[2] = {"body_a", "body_b"};
      for (int k = 0; k < 2; k++) {
        snprintf(w, sizeof(w), "%s: %s", what, ends[k]);
        AWE_TRY(awe_parse_ref(s, awe_row_get(r, ends[k]), w, &u->body[k], err));
      }
    }
    if (!AWE_REF_GIVEN(u->body[0]) || !AWE_REF_GIVEN(u->body[1]))
      return awe_err_at(err, AWE_EINVAL, &r->node->loc,
                        "%s: the two bodies are required ('bodies: [a, b]')", what);
    static const enum_name models[] = {{"timoshenko", AWE_TUBE_TIMOSHENKO, NULL, NULL},
                                       {"TIMOSHENKO", AWE_TUBE_TIMOSHENKO, NULL, NULL},
                                       {"elastic", AWE_TUBE_ELASTIC, NULL, NULL},
                                       {"ELASTIC", AWE_TUBE_ELASTIC, NULL, NULL}};
    int mo;
    snprintf(w, sizeof(w), "%s: model", what);
    AWE_TRY(parse_enum(s, awe_row_get(r, "model"), w, models, AWE_ARRLEN(models),
                       AWE_TUBE_TIMOSHENKO, 0, &mo, err));
    u->model = (awe_tube_model)mo;
    static const enum_name laws[] = {{"breukels2011", 1, NULL, NULL}, {"none", 0, NULL, NULL}};
    snprintf(w, sizeof(w), "%s: law", what);
    AWE_TRY(parse_enum(s, awe_row_get(r, "law"), w, laws, AWE_ARRLEN(laws), 1, 0, &u->law, err));
    AWE_TRY(awe_row_opt_double(r, "diameter", what, NAN, &u->diameter, err));
    AWE_TRY(awe_row_opt_double(r, "pressure", what, NAN, &u->pressure, err));
    double ei;
    AWE_TRY(awe_row_opt_double(r, "EI", what, NAN, &ei, err));
    AWE_TRY(awe_row_opt_double(r, "EA", what, NAN, &u->EA, err));
    AWE_TRY(awe_row_opt_double(r, "GA", what, NAN, &u->GA, err));
    AWE_TRY(awe_row_opt_double(r, "GJ", what, NAN, &u->GJ, err));
    AWE_TRY(awe_row_opt_double(r, "EIy", what, ei, &u->EIy, err));
    AWE_TRY(awe_row_opt_double(r, "EIz", what, ei, &u->EIz, err));
    /* SymbolicAWEModels' TimoshenkoTube default shear coefficient: 5/6 of a solid section
     * unless the law gives its own (tube_laws.jl TUBE_SHEAR_COEFF = 8/9) */
    AWE_TRY(awe_row_opt_double(r, "shear_coeff", what, NAN, &u->shear_coeff, err));
    AWE_TRY(awe_row_opt_double(r, "damping", what, 0.0, &u->damping, err));
    AWE_TRY(awe_row_opt_double(r, "stiffness_axial", what, NAN, &u->k_axial, err));
    AWE_TRY(awe_row_opt_double(r, "stiffness_shear", what, NAN, &u->k_shear, err));
    AWE_TRY(awe_row_opt_double(r, "stiffness_torsion", what, NAN, &u->k_torsion, err));
    AWE_TRY(awe_row_opt_double(r, "stiffness_bending", what, NAN, &u->k_bending, err));
    AWE_TRY(awe_row_opt_vec3(r, "anchor_a", what, zero, 0, u->anchor[0], err));
    AWE_TRY(awe_row_opt_vec3(r, "anchor_b", what, zero, 0, u->anchor[1], err));
  }
  return AWE_OK;
}


/* SAM's rigid-wing files give a wing's nodes body_idx = the wing (the wing is their rigid
 * body): a body_idx that names no body of 'bodies:' but a wing makes the point that wing's */
void awe_spec_body_refs_to_wings(awe_spec *s) {
  awe_struct_spec *ss = &s->structure;
  for (int i = 0; i < ss->npoint; i++) {
    awe_point_spec *p = &ss->points[i];
    if (!AWE_REF_GIVEN(p->body)) continue;
    int body = 0, wing = 0;
    if (p->body.name) {
      for (int b = 0; b < ss->nbody; b++)
        body |= ss->bodies[b].name && !strcmp(ss->bodies[b].name, p->body.name);
      for (int w = 0; w < ss->nwing; w++)
        wing |= ss->wings[w].name && !strcmp(ss->wings[w].name, p->body.name);
    } else {
      body = p->body.index >= 1 && p->body.index <= ss->nbody;
      wing = !body && p->body.index >= 1 && p->body.index <= ss->nwing;
    }
    if (body || !wing) continue; /* a body, or unknown: the model build names it */
    if (!AWE_REF_GIVEN(p->wing)) p->wing = p->body;
    memset(&p->body, 0, sizeof(p->body));
  }
}


static awe_status read_blocks(awe_spec *s, const awe_ynode *root, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  static const char *const mats[] = {"materials", "elements", "segment_properties"};
  for (int j = 0; j < 3; j++) {
    const awe_ynode *mb = awe_ymap_get(root, mats[j]);
    if (!mb) continue;
    for (int i = 0; i < root->n; i++)
      if (!strcmp(root->keys[i]->str, mats[j]))
        awe_spec_deprecated(s, &root->keys[i]->loc, mats[j],
                            "block '%s' is an old spelling (SymbolicAWEModels 0.14 removed it); "
                            "the current spelling is a mapping variable in 'variables:' (e.g. "
                            "dyneema: {youngs_modulus: 55.0e9, damping_per_stiffness: 0.002, "
                            "density: 724.0}) named in the rows' columns", mats[j]);
    AWE_TRY(read_materials(s, mb, mats[j], err));
  }
  const awe_ynode *pts = awe_ymap_get(root, "points");
  if (!pts)
    return awe_ymap_get(root, "nodes") && awe_ymap_get(root, "connections")
               ? awe_err_at(err, AWE_EINVAL, &root->loc,
                            "the structure has no 'points' block: this is the node/connection "
                            "format of SymbolicAWEModels' saddle-form benchmark ('nodes:' with "
                            "x, y, z, fixed, mass; 'connections:' with i, j, k, c; 'params:'), "
                            "springs of zero rest length given by their stiffness k [N/m], which "
                            "awesim's segments (EA over a rest length > 0) cannot express; write "
                            "the net as points and segments with a rest length instead")
               : awe_err_at(err, AWE_EINVAL, &root->loc, "the structure has no 'points' block");
  AWE_TRY(read_points(s, pts, err));
  if (ss->npoint == 0)
    return awe_err_at(err, AWE_EINVAL, &pts->loc, "points: the structure needs at least one point");
  AWE_TRY(read_segments(s, awe_ymap_get(root, "segments"), err));
  AWE_TRY(read_pulleys(s, awe_ymap_get(root, "pulleys"), err));
  const char *gname = awe_ymap_get(root, "twist_surfaces") ? "twist_surfaces"
                      : awe_ymap_get(root, "stations")     ? "stations"
                                                           : "groups";
  for (int i = 0; i < root->n; i++)
    if (strcmp(gname, "stations") && !strcmp(root->keys[i]->str, gname) &&
        awe_ymap_get(root, gname)->kind != AWE_Y_NULL)
      awe_spec_deprecated(s, &root->keys[i]->loc, gname,
                          "block '%s' is an old spelling (%s); the current spelling is 'stations'",
                          gname, !strcmp(gname, "groups") ? "older SymbolicAWEModels files"
                                                          : "SymbolicAWEModels < 0.17");
  AWE_TRY(read_groups(s, awe_ymap_get(root, gname), gname, err));
  AWE_TRY(read_tethers(s, awe_ymap_get(root, "tethers"), err));
  AWE_TRY(read_winches(s, awe_ymap_get(root, "winches"), err));
  AWE_TRY(read_wings(s, awe_ymap_get(root, "wings"), err));
  AWE_TRY(station_points_join_wings(s, err));
  AWE_TRY(read_transforms(s, awe_ymap_get(root, "transforms"), err));
  AWE_TRY(read_bodies(s, awe_ymap_get(root, "bodies"), err));
  AWE_TRY(read_tubes(s, awe_ymap_get(root, "tubes"), err));
  awe_spec_body_refs_to_wings(s);
  return AWE_OK;
}
