/* awesio_read.c: an awesIO structure document into the structure spec (awesio_read.h).
 * Columns are found by header, never by position, and unknown columns are ignored, as the
 * schema asks; awesim's own columns (awesim_type, unit_damping, ...) are used when present. */
#include "io/awesio_read.h"
#include "io/spec_load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/spec_table.h"

#define AWESIO_MAJOR 1
#define AWESIO_MINOR 0

typedef struct {
  const char *block;
  const awe_ynode *hdr, *data;
} table;

int awe_awesio_is_doc(const awe_ynode *root) {
  const awe_ynode *md = awe_ymap_get(root, "metadata");
  if (!md || md->kind != AWE_Y_MAP) return 0;
  const awe_ynode *sc = awe_ymap_get(md, "schema");
  return awe_ymap_get(md, "awesIO_version") != NULL ||
         (sc && sc->kind == AWE_Y_SCALAR && !strcmp(sc->str, "structure_schema.yml"));
}

static awe_status get_table(const awe_ynode *root, const char *block, table *t, awe_err *err) {
  memset(t, 0, sizeof(*t));
  t->block = block;
  const awe_ynode *b = awe_ymap_get(root, block);
  if (!b || b->kind == AWE_Y_NULL) return AWE_OK;
  if (b->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &b->loc, "%s: expected a headers/units/data table", block);
  t->hdr = awe_ymap_get(b, "headers");
  t->data = awe_ymap_get(b, "data");
  if (!t->hdr || t->hdr->kind != AWE_Y_SEQ)
    return awe_err_at(err, AWE_EINVAL, &b->loc, "%s: 'headers' must be a list of names", block);
  if (t->data && t->data->kind == AWE_Y_NULL) t->data = NULL;
  if (t->data && t->data->kind != AWE_Y_SEQ)
    return awe_err_at(err, AWE_EINVAL, &t->data->loc, "%s: 'data' must be a list of rows",
                      block);
  for (int i = 0; t->data && i < t->data->n; i++) {
    const awe_ynode *r = t->data->items[i];
    if (r->kind != AWE_Y_SEQ || r->n != t->hdr->n)
      return awe_err_at(err, AWE_EINVAL, &r->loc, "%s: row %d must be a list of %d values, one "
                        "per header", block, i + 1, t->hdr->n);
  }
  return AWE_OK;
}

static int nrow(const table *t) { return t->data ? t->data->n : 0; }

/* the cell of column col in row i, NULL when the column is absent */
static const awe_ynode *cell(const table *t, int i, const char *col) {
  for (int k = 0; k < t->hdr->n; k++)
    if (t->hdr->items[k]->kind == AWE_Y_SCALAR && !strcmp(t->hdr->items[k]->str, col))
      return t->data->items[i]->items[k];
  return NULL;
}

static awe_status req(const table *t, int i, const char *col, const awe_ynode **out,
                      awe_err *err) {
  *out = cell(t, i, col);
  if (!*out || awe_ynode_is_nothing(*out))
    return awe_err_at(err, AWE_EINVAL, &t->data->items[i]->loc,
                      "%s: row %d: required column '%s' is missing", t->block, i + 1, col);
  return AWE_OK;
}

static awe_status num(const table *t, int i, const char *col, double def, double *out,
                      awe_err *err) {
  const awe_ynode *c = cell(t, i, col);
  *out = def;
  if (!c || awe_ynode_is_nothing(c)) return AWE_OK;
  char w[160];
  snprintf(w, sizeof(w), "%s: %s", t->block, col);
  return awe_ynode_double(c, w, out, err);
}

static awe_status name_of(awe_spec *s, const table *t, int i, const char **out, awe_err *err) {
  const awe_ynode *c;
  AWE_TRY(req(t, i, "name", &c, err));
  char w[160];
  snprintf(w, sizeof(w), "%s: name", t->block);
  const char *n;
  AWE_TRY(awe_ynode_string(c, w, &n, err));
  *out = awe_spec_strdup(s, n);
  return *out ? AWE_OK : awe_err_set(err, AWE_ENOMEM, "out of memory");
}

/* a reference by name (a quoted or plain scalar; never an index: names are strings) */
static awe_status ref(awe_spec *s, const awe_ynode *n, awe_ref *r, awe_err *err) {
  memset(r, 0, sizeof(*r));
  if (!n || n->kind != AWE_Y_SCALAR || !n->str[0])
    return awe_err_at(err, AWE_EINVAL, n ? &n->loc : NULL, "expected a component name");
  r->name = awe_spec_strdup(s, n->str);
  r->loc = n->loc;
  return r->name ? AWE_OK : awe_err_set(err, AWE_ENOMEM, "out of memory");
}

static awe_status ref_list(awe_spec *s, const awe_ynode *n, const char *what, awe_ref **out,
                           int *nout, awe_err *err) {
  if (!n || n->kind != AWE_Y_SEQ)
    return awe_err_at(err, AWE_EINVAL, n ? &n->loc : NULL, "%s: expected a list of names", what);
  *out = awe_spec_alloc(s, sizeof(awe_ref) * (size_t)(n->n + 1));
  if (!*out) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  *nout = n->n;
  for (int k = 0; k < n->n; k++) AWE_TRY(ref(s, n->items[k], &(*out)[k], err));
  return AWE_OK;
}

static awe_status check_version(awe_spec *s, const awe_ynode *root, const char *path,
                                awe_err *err) {
  const awe_ynode *md = awe_ymap_get(root, "metadata");
  const awe_ynode *v = awe_ymap_get(md, "awesIO_version");
  if (!v || v->kind != AWE_Y_SCALAR)
    return awe_err_at(err, AWE_EINVAL, md ? &md->loc : &root->loc,
                      "%s: metadata.awesIO_version is missing (an awesIO structure document "
                      "states the version it was written against)", path);
  int major, minor, patch;
  char tail;
  if (sscanf(v->str, "%d.%d.%d%c", &major, &minor, &patch, &tail) != 3)
    return awe_err_at(err, AWE_EINVAL, &v->loc, "metadata.awesIO_version: '%s' is not "
                      "MAJOR.MINOR.PATCH", v->str);
  if (major != AWESIO_MAJOR)
    return awe_err_at(err, AWE_EINVAL, &v->loc, "metadata.awesIO_version: %s: awesIO major "
                      "version %d is not supported (this awesim reads %d.x)", v->str, major,
                      AWESIO_MAJOR);
  if (minor > AWESIO_MINOR)
    awe_warn(&s->warnings, &v->loc, "metadata.awesIO_version: %s is newer than the %d.%d this "
             "awesim knows; columns it does not know are ignored", v->str, AWESIO_MAJOR,
             AWESIO_MINOR);
  return AWE_OK;
}

static awe_status read_points(awe_spec *s, const table *t, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  ss->npoint = nrow(t);
  ss->points = awe_spec_alloc(s, sizeof(awe_point_spec) * (size_t)(ss->npoint + 1));
  if (!ss->points) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < ss->npoint; i++) {
    awe_point_spec *p = &ss->points[i];
    const awe_ynode *c;
    AWE_TRY(name_of(s, t, i, &p->name, err));
    p->loc = t->data->items[i]->loc;
    /* awesim's own documents keep the CAD position the transforms place from (pos_CAD);
     * without it the placed position is the CAD one */
    c = cell(t, i, "pos_CAD");
    if (!c || awe_ynode_is_nothing(c)) {
      AWE_TRY(req(t, i, "pos_ENU", &c, err));
      AWE_TRY(awe_ynode_vec(c, "points: pos_ENU", 3, p->pos_cad, err));
    } else {
      AWE_TRY(awe_ynode_vec(c, "points: pos_CAD", 3, p->pos_cad, err));
    }
    const awe_ynode *ty = cell(t, i, "awesim_type");
    int own = ty != NULL; /* awesim's own document: its columns say what the core ones mean */
    if (!ty) AWE_TRY(req(t, i, "type", &ty, err));
    if (ty->kind != AWE_Y_SCALAR) ty = NULL;
    if (ty && !strcmp(ty->str, "STATIC")) p->type = AWE_PT_STATIC;
    else if (ty && !strcmp(ty->str, "DYNAMIC")) p->type = AWE_PT_DYNAMIC;
    else if (ty && !strcmp(ty->str, "QUASI_STATIC")) p->type = AWE_PT_QUASI_STATIC;
    else if (ty && (!strcmp(ty->str, "WING") || (!own && !strcmp(ty->str, "BODY_STATIC"))))
      p->type = AWE_PT_WING;
    else
      return awe_err_at(err, AWE_EINVAL, ty ? &ty->loc : &p->loc, "point '%s': %s '%s' "
                        "(allowed: STATIC, DYNAMIC, BODY_STATIC with its body; awesim_type: "
                        "STATIC, DYNAMIC, QUASI_STATIC, WING)", p->name,
                        own ? "awesim_type" : "type", ty ? ty->str : "?");
    /* the body a BODY_STATIC point rides: awesim's documents mark a rider by its offset
     * (awesim_anchor_b; their rigid wings' points name the wing in `body`), another tool's by
     * the type; a name that is a wing, not a body, makes it the wing's (as in SAM's files) */
    c = cell(t, i, "awesim_anchor_b");
    if (c && !awe_ynode_is_nothing(c)) {
      AWE_TRY(awe_ynode_vec(c, "points: awesim_anchor_b", 3, p->anchor_b, err));
      p->has_anchor_b = 1;
    }
    if (p->has_anchor_b || (!own && p->type == AWE_PT_WING && !strcmp(ty->str, "BODY_STATIC"))) {
      c = cell(t, i, "body");
      if (!c || awe_ynode_is_nothing(c))
        return awe_err_at(err, AWE_EINVAL, &p->loc, "point '%s': a BODY_STATIC point needs the "
                          "body it rides in column 'body'", p->name);
      AWE_TRY(ref(s, c, &p->body, err));
    }
    c = cell(t, i, "awesim_wing");
    if (c && !awe_ynode_is_nothing(c)) AWE_TRY(ref(s, c, &p->wing, err));
    c = cell(t, i, "awesim_transform");
    if (c && !awe_ynode_is_nothing(c)) AWE_TRY(ref(s, c, &p->transform, err));
    AWE_TRY(num(t, i, "extra_mass", 0.0, &p->extra_mass, err));
    AWE_TRY(num(t, i, "drag_area", 0.0, &p->area, err));
    AWE_TRY(num(t, i, "drag_coefficient", 0.0, &p->drag_coeff, err));
    static const char *const damp[2] = {"body_frame_damping", "world_frame_damping"};
    for (int d = 0; d < 2; d++) {
      double *v = d ? p->wfd : p->bfd;
      v[0] = v[1] = v[2] = 0.0;
      c = cell(t, i, damp[d]);
      if (c && !awe_ynode_is_nothing(c)) AWE_TRY(awe_ynode_vec(c, damp[d], 3, v, err));
    }
  }
  return AWE_OK;
}

/* the diameter in mm that the builder turns back into exactly d metres (d_mm / 1000) */
static double mm_of(double d) {
  double mm = d * 1e3;
  if (isnan(d)) return mm;
  for (int k = 0; k < 8 && mm / 1000.0 != d; k++) {
    double up = nextafter(mm, INFINITY), dn = nextafter(mm, -INFINITY);
    mm = up / 1000.0 == d ? up : dn / 1000.0 == d ? dn : mm / 1000.0 < d ? up : dn;
  }
  return mm;
}

static awe_status read_segments(awe_spec *s, const table *t, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  ss->nsegment = nrow(t);
  ss->segments = awe_spec_alloc(s, sizeof(awe_segment_spec) * (size_t)(ss->nsegment + 1));
  if (!ss->segments) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < ss->nsegment; i++) {
    awe_segment_spec *g = &ss->segments[i];
    const awe_ynode *c;
    AWE_TRY(name_of(s, t, i, &g->name, err));
    g->loc = t->data->items[i]->loc;
    AWE_TRY(req(t, i, "points", &c, err));
    if (c->kind != AWE_Y_SEQ || c->n != 2)
      return awe_err_at(err, AWE_EINVAL, &c->loc, "segment '%s': points must name two points",
                        g->name);
    for (int k = 0; k < 2; k++) AWE_TRY(ref(s, c->items[k], &g->p[k], err));
    awe_line_props *pr = &g->props;
    AWE_TRY(num(t, i, "l0", NAN, &g->l0, err));
    double d;
    AWE_TRY(num(t, i, "diameter", NAN, &d, err));
    pr->diameter_mm = mm_of(d);
    AWE_TRY(num(t, i, "density", NAN, &pr->density, err));
    AWE_TRY(num(t, i, "unit_stiffness", NAN, &pr->unit_stiffness, err));
    AWE_TRY(num(t, i, "unit_damping", NAN, &pr->unit_damping, err));
    AWE_TRY(num(t, i, "compression_frac", NAN, &pr->compression_frac, err));
    AWE_TRY(num(t, i, "compression_damping_frac", NAN, &pr->compression_damping_frac, err));
    pr->youngs_modulus = pr->damping_per_stiffness = NAN;
  }
  return AWE_OK;
}

static awe_status dyn_type(const table *t, int i, awe_dyn_type *out, awe_err *err) {
  const awe_ynode *ty = cell(t, i, "awesim_type");
  if (!ty) AWE_TRY(req(t, i, "type", &ty, err));
  if (!strcmp(ty->str, "DYNAMIC")) *out = AWE_DYN_DYNAMIC;
  else if (!strcmp(ty->str, "QUASI_STATIC")) *out = AWE_DYN_QUASI_STATIC;
  else if (!strcmp(ty->str, "STATIC")) *out = AWE_DYN_STATIC;
  else
    return awe_err_at(err, AWE_EINVAL, &ty->loc, "%s: type '%s' (allowed: DYNAMIC, "
                      "QUASI_STATIC, STATIC)", t->block, ty->str);
  return AWE_OK;
}

static awe_status read_pulleys(awe_spec *s, const table *t, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  ss->npulley = nrow(t);
  ss->pulleys = awe_spec_alloc(s, sizeof(awe_pulley_spec) * (size_t)(ss->npulley + 1));
  if (!ss->pulleys) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < ss->npulley; i++) {
    awe_pulley_spec *p = &ss->pulleys[i];
    const awe_ynode *c;
    AWE_TRY(name_of(s, t, i, &p->name, err));
    p->loc = t->data->items[i]->loc;
    AWE_TRY(req(t, i, "segments", &c, err));
    if (c->kind != AWE_Y_SEQ || c->n != 2)
      return awe_err_at(err, AWE_EINVAL, &c->loc, "pulley '%s': segments must name two "
                        "segments", p->name);
    for (int k = 0; k < 2; k++) AWE_TRY(ref(s, c->items[k], &p->seg[k], err));
    AWE_TRY(dyn_type(t, i, &p->type, err));
    AWE_TRY(num(t, i, "efficiency", 0.95, &p->efficiency, err));
    AWE_TRY(num(t, i, "friction_epsilon", AWE_PULLEY_FRICTION_EPS, &p->friction_epsilon, err));
    AWE_TRY(num(t, i, "damping", 0.0, &p->damping, err));
    AWE_TRY(num(t, i, "damping_rate", 0.0, &p->damping_rate, err));
    c = cell(t, i, "brake");
    p->brake = 0;
    if (c && !awe_ynode_is_nothing(c)) AWE_TRY(awe_ynode_bool(c, "pulleys: brake", &p->brake, err));
    AWE_TRY(num(t, i, "awesim_sum_len", 0.0, &p->sum_len, err));
  }
  return AWE_OK;
}

static awe_status read_tethers(awe_spec *s, const table *t, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  ss->ntether = nrow(t);
  ss->tethers = awe_spec_alloc(s, sizeof(awe_tether_spec) * (size_t)(ss->ntether + 1));
  if (!ss->tethers) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < ss->ntether; i++) {
    awe_tether_spec *x = &ss->tethers[i];
    const awe_ynode *c;
    AWE_TRY(name_of(s, t, i, &x->name, err));
    x->loc = t->data->items[i]->loc;
    AWE_TRY(req(t, i, "segments", &c, err));
    AWE_TRY(ref_list(s, c, "tethers: segments", &x->segs, &x->nseg, err));
    AWE_TRY(req(t, i, "start_point", &c, err));
    AWE_TRY(ref(s, c, &x->start, err));
    AWE_TRY(req(t, i, "end_point", &c, err));
    AWE_TRY(ref(s, c, &x->end, err));
    /* awesim's placement of the tether and its unstretched length as built */
    AWE_TRY(num(t, i, "awesim_init_stretched_length", NAN, &x->init_stretched_length, err));
    AWE_TRY(num(t, i, "awesim_init_tether_force", NAN, &x->init_tether_force, err));
    AWE_TRY(num(t, i, "awesim_init_stretch_frac", NAN, &x->init_stretch_frac, err));
    AWE_TRY(num(t, i, "awesim_len0", 0.0, &x->len0, err));
  }
  return AWE_OK;
}

static awe_status read_winches(awe_spec *s, const table *t, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  ss->nwinch = nrow(t);
  ss->winches = awe_spec_alloc(s, sizeof(awe_winch_spec) * (size_t)(ss->nwinch + 1));
  if (!ss->winches) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < ss->nwinch; i++) {
    awe_winch_spec *x = &ss->winches[i];
    const awe_ynode *c;
    AWE_TRY(name_of(s, t, i, &x->name, err));
    x->loc = t->data->items[i]->loc;
    AWE_TRY(req(t, i, "tethers", &c, err));
    AWE_TRY(ref_list(s, c, "winches: tethers", &x->tethers, &x->ntether, err));
    AWE_TRY(req(t, i, "winch_point", &c, err));
    AWE_TRY(ref(s, c, &x->point, err));
    /* gear ratio, drum radius, inertia and friction come from the settings, as for SAM's
     * structure files; the reading state is awesim's own columns (SAM's defaults without) */
    AWE_TRY(num(t, i, "init_vel", 0.0, &x->init_vel, err));
    AWE_TRY(num(t, i, "friction_epsilon", 6.0, &x->friction_epsilon, err));
    AWE_TRY(num(t, i, "coulomb_friction", NAN, &x->coulomb_friction, err));
    AWE_TRY(num(t, i, "viscous_coefficient", NAN, &x->viscous_coefficient, err));
    static const char *const flags[3] = {"brake", "speed_controlled", "endpoint_damping"};
    for (int k = 0; k < 3; k++) {
      int *v = k == 2 ? &x->endpoint_damping : k ? &x->speed_controlled : &x->brake;
      *v = 0;
      c = cell(t, i, flags[k]);
      if (c && !awe_ynode_is_nothing(c)) AWE_TRY(awe_ynode_bool(c, flags[k], v, err));
    }
  }
  return AWE_OK;
}

/* stations: a wing's twist groups (SAM's twist surfaces) */
static awe_status read_stations(awe_spec *s, const table *t, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  ss->ngroup = nrow(t);
  ss->groups = awe_spec_alloc(s, sizeof(awe_group_spec) * (size_t)(ss->ngroup + 1));
  if (!ss->groups) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < ss->ngroup; i++) {
    awe_group_spec *g = &ss->groups[i];
    const awe_ynode *c;
    AWE_TRY(name_of(s, t, i, &g->name, err));
    g->loc = t->data->items[i]->loc;
    AWE_TRY(req(t, i, "points", &c, err));
    AWE_TRY(ref_list(s, c, "stations: points", &g->points, &g->npoint, err));
    AWE_TRY(dyn_type(t, i, &g->type, err));
    AWE_TRY(num(t, i, "moment_frac", 0.25, &g->moment_frac, err));
    AWE_TRY(num(t, i, "damping", 0.0, &g->damping, err));
  }
  return AWE_OK;
}

/* a weighted point set [[name, weight], ...], the weights as written (awesim writes them
 * normalised); null or absent: none */
static awe_status wref(awe_spec *s, const awe_ynode *n, const char *what, awe_wref *out,
                       awe_err *err) {
  memset(out, 0, sizeof(*out));
  if (!n || awe_ynode_is_nothing(n)) return AWE_OK;
  if (n->kind != AWE_Y_SEQ)
    return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: expected [[point, weight], ...]", what);
  out->n = n->n;
  out->pt = awe_spec_alloc(s, sizeof(awe_ref) * (size_t)(n->n + 1));
  out->w = awe_spec_alloc(s, sizeof(double) * (size_t)(n->n + 1));
  if (!out->pt || !out->w) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int k = 0; k < n->n; k++) {
    const awe_ynode *c = n->items[k];
    if (c->kind != AWE_Y_SEQ || c->n != 2)
      return awe_err_at(err, AWE_EINVAL, &c->loc, "%s: expected [point, weight]", what);
    AWE_TRY(ref(s, c->items[0], &out->pt[k], err));
    AWE_TRY(awe_ynode_double(c->items[1], what, &out->w[k], err));
  }
  return AWE_OK;
}

/* a pair of weighted sets [[...], [...]] (z_ref, y_ref); null: none */
static awe_status wref_pair(awe_spec *s, const awe_ynode *n, const char *what, awe_wref out[2],
                            awe_err *err) {
  memset(out, 0, 2 * sizeof(*out));
  if (!n || awe_ynode_is_nothing(n)) return AWE_OK;
  if (n->kind != AWE_Y_SEQ || n->n != 2)
    return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: expected two weighted point sets", what);
  for (int k = 0; k < 2; k++) AWE_TRY(wref(s, n->items[k], what, &out[k], err));
  return AWE_OK;
}

static awe_status opt_ref(awe_spec *s, const table *t, int i, const char *col, awe_ref *r,
                          awe_err *err) {
  const awe_ynode *c = cell(t, i, col);
  memset(r, 0, sizeof(*r));
  return c && !awe_ynode_is_nothing(c) ? ref(s, c, r, err) : AWE_OK;
}

/* awesim_wings: SAM's wings as awesim built them (awesio_write.c) */
static awe_status read_wings(awe_spec *s, const table *t, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  ss->nwing = nrow(t);
  ss->wings = awe_spec_alloc(s, sizeof(awe_wing_spec) * (size_t)(ss->nwing + 1));
  if (!ss->wings) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < ss->nwing; i++) {
    awe_wing_spec *x = &ss->wings[i];
    const awe_ynode *c;
    AWE_TRY(name_of(s, t, i, &x->name, err));
    x->loc = t->data->items[i]->loc;
    AWE_TRY(req(t, i, "type", &c, err));
    if (c->kind == AWE_Y_SCALAR && !strcmp(c->str, "RIGID")) x->type = AWE_WING_RIGID;
    else if (c->kind == AWE_Y_SCALAR && !strcmp(c->str, "PARTICLE")) x->type = AWE_WING_PARTICLE;
    else
      return awe_err_at(err, AWE_EINVAL, &c->loc, "awesim_wings: wing '%s': type '%s' (allowed: "
                        "RIGID, PARTICLE)", x->name, c->kind == AWE_Y_SCALAR ? c->str : "?");
    x->type_given = 1;
    x->aero_mode = AWE_AERO_DEFAULT;
    c = cell(t, i, "aero_mode");
    if (c && !awe_ynode_is_nothing(c)) {
      static const char *const am[3] = {"NONE", "DIRECT", "LINEARIZED"};
      int k = 0;
      while (k < 3 && (c->kind != AWE_Y_SCALAR || strcmp(c->str, am[k]))) k++;
      if (k == 3)
        return awe_err_at(err, AWE_EINVAL, &c->loc, "awesim_wings: wing '%s': aero_mode "
                          "(allowed: NONE, DIRECT, LINEARIZED)", x->name);
      x->aero_mode = (awe_aero_mode)k;
    }
    c = cell(t, i, "stations");
    if (c && !awe_ynode_is_nothing(c))
      AWE_TRY(ref_list(s, c, "awesim_wings: stations", &x->groups, &x->ngroup, err));
    c = cell(t, i, "points");
    if (c && !awe_ynode_is_nothing(c))
      AWE_TRY(ref_list(s, c, "awesim_wings: points", &x->points, &x->npoint, err));
    AWE_TRY(opt_ref(s, t, i, "transform", &x->transform, err));
    AWE_TRY(wref(s, cell(t, i, "origin"), "awesim_wings: origin", &x->origin, err));
    AWE_TRY(wref_pair(s, cell(t, i, "z_ref"), "awesim_wings: z_ref", x->z_ref, err));
    AWE_TRY(wref_pair(s, cell(t, i, "y_ref"), "awesim_wings: y_ref", x->y_ref, err));
    AWE_TRY(num(t, i, "y_damping", 150.0, &x->y_damping, err));
    AWE_TRY(num(t, i, "angular_damping", 0.0, &x->angular_damping, err));
    AWE_TRY(num(t, i, "aero_scale_chord", 0.0, &x->aero_scale_chord, err));
    AWE_TRY(num(t, i, "aero_z_offset", 0.0, &x->aero_z_offset, err));
    c = cell(t, i, "pos_cad");
    if (c && !awe_ynode_is_nothing(c)) {
      AWE_TRY(awe_ynode_vec(c, "awesim_wings: pos_cad", 3, x->pos_cad, err));
      x->has_pos_cad = 1;
    }
    c = cell(t, i, "angular_damping_axes");
    if (c && !awe_ynode_is_nothing(c)) {
      AWE_TRY(awe_ynode_vec(c, "awesim_wings: angular_damping_axes", 3, x->angular_damping_vec,
                            err));
      x->has_angular_damping_vec = 1;
      x->angular_damping = x->angular_damping_vec[0];
      x->y_damping = x->angular_damping_vec[1] - x->angular_damping_vec[0];
    }
    AWE_TRY(awe_spec_parse_unsteady(cell(t, i, "unsteady"), "awesim_wings: unsteady", x, err));
    /* the ground station: a STATIC point by name, or a world position */
    c = cell(t, i, "ground");
    if (c && c->kind == AWE_Y_SEQ) {
      AWE_TRY(awe_ynode_vec(c, "awesim_wings: ground", 3, x->ground_pos, err));
      x->has_ground_pos = 1;
      x->ground_loc = c->loc;
    } else if (c && !awe_ynode_is_nothing(c)) {
      AWE_TRY(ref(s, c, &x->ground_point, err));
      x->ground_loc = c->loc;
    }
  }
  return AWE_OK;
}

/* awesim_transforms: SAM's transforms as awesim placed the model (angles in rad) */
static awe_status read_transforms(awe_spec *s, const table *t, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  ss->ntransform = nrow(t);
  ss->transforms = awe_spec_alloc(s, sizeof(awe_transform_spec) * (size_t)(ss->ntransform + 1));
  if (!ss->transforms) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < ss->ntransform; i++) {
    awe_transform_spec *x = &ss->transforms[i];
    const awe_ynode *c;
    AWE_TRY(name_of(s, t, i, &x->name, err));
    x->loc = t->data->items[i]->loc;
    static const char *const ang[6] = {"elevation", "azimuth", "heading", "elevation_vel",
                                       "azimuth_vel", "turn_rate"};
    double *v[6] = {&x->elevation, &x->azimuth, &x->heading, &x->elevation_vel, &x->azimuth_vel,
                    &x->turn_rate};
    for (int k = 0; k < 6; k++) AWE_TRY(num(t, i, ang[k], 0.0, v[k], err));
    for (int k = 0; k < 3; k++)
      if ((c = cell(t, i, ang[k])) != NULL) x->angle_loc[k] = c->loc;
    c = cell(t, i, "base_pos");
    if (c && !awe_ynode_is_nothing(c)) {
      AWE_TRY(awe_ynode_vec(c, "awesim_transforms: base_pos", 3, x->base_pos, err));
      x->has_base_pos = 1;
    }
    AWE_TRY(opt_ref(s, t, i, "base_point", &x->base_point, err));
    AWE_TRY(opt_ref(s, t, i, "base_transform", &x->base_transform, err));
    AWE_TRY(opt_ref(s, t, i, "wing", &x->wing, err));
    AWE_TRY(opt_ref(s, t, i, "rot_point", &x->rot_point, err));
  }
  return AWE_OK;
}

/* a body's inertia: a 3x3 tensor as three rows (the schema's matrix3); nine numbers row by row
 * or three principal moments are taken too */
static awe_status inertia(const awe_ynode *c, const char *what, double I[9], awe_err *err) {
  memset(I, 0, 9 * sizeof(double));
  if (c->kind == AWE_Y_SEQ && c->n == 3 && c->items[0]->kind == AWE_Y_SEQ) {
    for (int r = 0; r < 3; r++) AWE_TRY(awe_ynode_vec(c->items[r], what, 3, I + 3 * r, err));
    return AWE_OK;
  }
  if (c->kind == AWE_Y_SEQ && c->n == 3) {
    double d[3];
    AWE_TRY(awe_ynode_vec(c, what, 3, d, err));
    I[0] = d[0];
    I[4] = d[1];
    I[8] = d[2];
    return AWE_OK;
  }
  return awe_ynode_vec(c, what, 9, I, err);
}

/* a vec3 column, def when absent or null */
static awe_status vec3_or(const table *t, int i, const char *col, double def, double v[3],
                          awe_err *err) {
  const awe_ynode *c = cell(t, i, col);
  v[0] = v[1] = v[2] = def;
  if (!c || awe_ynode_is_nothing(c)) return AWE_OK;
  char w[160];
  snprintf(w, sizeof(w), "%s: %s", t->block, col);
  return awe_ynode_vec(c, w, 3, v, err);
}

/* bodies: rigid bodies (SymbolicAWEModels 0.17's, engine/body.h); awesim's documents add the
 * pose before placement, the initial motion, the damping and the placing transform */
static awe_status read_bodies(awe_spec *s, const table *t, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  ss->nbody = nrow(t);
  ss->bodies = awe_spec_alloc(s, sizeof(awe_body_spec) * (size_t)(ss->nbody + 1));
  if (!ss->bodies) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < ss->nbody; i++) {
    awe_body_spec *b = &ss->bodies[i];
    const awe_ynode *c;
    memset(b, 0, sizeof(*b));
    AWE_TRY(name_of(s, t, i, &b->name, err));
    b->loc = t->data->items[i]->loc;
    AWE_TRY(req(t, i, "type", &c, err));
    if (c->kind == AWE_Y_SCALAR && !strcmp(c->str, "KINEMATIC"))
      return awe_err_at(err, AWE_EINVAL, &c->loc, "bodies: body '%s': type KINEMATIC (a "
                        "massless frame whose pose is fitted to its points each step, as "
                        "SymbolicAWEModels does for a particle wing, carrying the points riding "
                        "it) is not supported by awesim yet (allowed: DYNAMIC, STATIC); give "
                        "the points riding it as DYNAMIC points of a PARTICLE wing instead",
                        b->name);
    if (c->kind == AWE_Y_SCALAR && !strcmp(c->str, "DYNAMIC")) b->is_static = 0;
    else if (c->kind == AWE_Y_SCALAR && !strcmp(c->str, "STATIC")) b->is_static = 1;
    else
      return awe_err_at(err, AWE_EINVAL, &c->loc, "bodies: body '%s': type '%s' (allowed: "
                        "DYNAMIC, STATIC)", b->name, c->kind == AWE_Y_SCALAR ? c->str : "?");
    /* the pose awesim placed from (awesim_pos_CAD, awesim_Q_CAD), else the one given */
    c = cell(t, i, "awesim_pos_CAD");
    if (!c || awe_ynode_is_nothing(c)) AWE_TRY(req(t, i, "pos_ENU", &c, err));
    AWE_TRY(awe_ynode_vec(c, "bodies: pos_ENU", 3, b->pos, err));
    b->q[0] = 1.0;
    c = cell(t, i, "awesim_Q_CAD");
    if (!c || awe_ynode_is_nothing(c)) AWE_TRY(req(t, i, "Q_KA_to_ENU", &c, err));
    AWE_TRY(awe_ynode_vec(c, "bodies: Q_KA_to_ENU (w, x, y, z)", 4, b->q, err));
    double n = sqrt(b->q[0] * b->q[0] + b->q[1] * b->q[1] + b->q[2] * b->q[2] + b->q[3] * b->q[3]);
    if (!(n > 0.0) || !isfinite(n))
      return awe_err_at(err, AWE_EINVAL, &c->loc, "bodies: body '%s': Q_KA_to_ENU must be a "
                        "nonzero finite quaternion (w, x, y, z)", b->name);
    /* a unit quaternion as written stays as written (bit for bit); others are normalised */
    if (fabs(n - 1.0) > 1e-12)
      for (int k = 0; k < 4; k++) b->q[k] /= n;
    AWE_TRY(req(t, i, "extra_mass", &c, err));
    AWE_TRY(awe_ynode_double(c, "bodies: extra_mass", &b->mass, err));
    AWE_TRY(req(t, i, "extra_inertia_KA", &c, err));
    AWE_TRY(inertia(c, "bodies: extra_inertia_KA (3x3 [kg m^2], three rows)", b->inertia, err));
    AWE_TRY(vec3_or(t, i, "awesim_vel", 0.0, b->vel, err));
    AWE_TRY(vec3_or(t, i, "awesim_omega_b", 0.0, b->omega_b, err));
    AWE_TRY(vec3_or(t, i, "awesim_angular_damping", 0.0, b->angular_damping, err));
    AWE_TRY(vec3_or(t, i, "awesim_world_frame_damping", 0.0, b->world_frame_damping, err));
    AWE_TRY(opt_ref(s, t, i, "awesim_transform", &b->transform, err));
    AWE_TRY(vec3_or(t, i, "awesim_body_frame_damping", 0.0, b->body_frame_damping, err));
    AWE_TRY(opt_ref(s, t, i, "awesim_wing", &b->wing, err));
  }
  return AWE_OK;
}

/* tubes: beam elements between two bodies; the schema's columns (law: breukels2011 or none)
 * and SymbolicAWEModels' (model, rigidities, damping, end offsets) when present */
static awe_status read_tubes(awe_spec *s, const table *t, awe_err *err) {
  awe_struct_spec *ss = &s->structure;
  ss->ntube = nrow(t);
  ss->tubes = awe_spec_alloc(s, sizeof(awe_tube_spec) * (size_t)(ss->ntube + 1));
  if (!ss->tubes) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < ss->ntube; i++) {
    awe_tube_spec *u = &ss->tubes[i];
    const awe_ynode *c;
    memset(u, 0, sizeof(*u));
    AWE_TRY(name_of(s, t, i, &u->name, err));
    u->loc = t->data->items[i]->loc;
    AWE_TRY(req(t, i, "bodies", &c, err));
    if (c->kind != AWE_Y_SEQ || c->n != 2)
      return awe_err_at(err, AWE_EINVAL, &c->loc, "tubes: tube '%s': bodies must name two "
                        "bodies", u->name);
    for (int k = 0; k < 2; k++) AWE_TRY(ref(s, c->items[k], &u->body[k], err));
    u->law = 1;
    c = cell(t, i, "law");
    if (c && !awe_ynode_is_nothing(c)) {
      if (c->kind == AWE_Y_SCALAR && !strcmp(c->str, "breukels2011")) u->law = 1;
      else if (c->kind == AWE_Y_SCALAR && !strcmp(c->str, "none")) u->law = 0;
      else
        return awe_err_at(err, AWE_EINVAL, &c->loc, "tubes: tube '%s': law '%s' (allowed: "
                          "breukels2011, none)", u->name, c->kind == AWE_Y_SCALAR ? c->str : "?");
    }
    u->model = AWE_TUBE_TIMOSHENKO;
    c = cell(t, i, "model");
    if (c && !awe_ynode_is_nothing(c)) {
      if (c->kind == AWE_Y_SCALAR && !strcasecmp(c->str, "timoshenko"))
        u->model = AWE_TUBE_TIMOSHENKO;
      else if (c->kind == AWE_Y_SCALAR && !strcasecmp(c->str, "elastic"))
        u->model = AWE_TUBE_ELASTIC;
      else
        return awe_err_at(err, AWE_EINVAL, &c->loc, "tubes: tube '%s': model '%s' (allowed: "
                          "timoshenko, elastic)", u->name, c->kind == AWE_Y_SCALAR ? c->str : "?");
    }
    AWE_TRY(num(t, i, "diameter", NAN, &u->diameter, err));
    AWE_TRY(num(t, i, "pressure", NAN, &u->pressure, err));
    double ei;
    AWE_TRY(num(t, i, "EI", NAN, &ei, err));
    static const char *const rig[10] = {"EA", "GA", "GJ", "EIy", "EIz", "shear_coeff",
                                        "stiffness_axial", "stiffness_shear",
                                        "stiffness_torsion", "stiffness_bending"};
    double *v[10] = {&u->EA, &u->GA, &u->GJ, &u->EIy, &u->EIz, &u->shear_coeff,
                     &u->k_axial, &u->k_shear, &u->k_torsion, &u->k_bending};
    for (int k = 0; k < 10; k++) AWE_TRY(num(t, i, rig[k], k == 3 || k == 4 ? ei : NAN, v[k], err));
    AWE_TRY(num(t, i, "damping", 0.0, &u->damping, err));
    AWE_TRY(vec3_or(t, i, "anchor_a", 0.0, u->anchor[0], err));
    AWE_TRY(vec3_or(t, i, "anchor_b", 0.0, u->anchor[1], err));
  }
  return AWE_OK;
}

awe_status awe_spec_read_awesio(awe_spec *s, const awe_ynode *root, const char *path,
                                awe_err *err) {
  s->structure.path = awe_spec_strdup(s, path);
  AWE_TRY(check_version(s, root, path, err));
  table t;
  AWE_TRY(get_table(root, "points", &t, err));
  if (nrow(&t) == 0)
    return awe_err_at(err, AWE_EINVAL, &root->loc, "the document has no points");
  AWE_TRY(read_points(s, &t, err));
  /* bodies first: a KINEMATIC body is refused before the blocks that depend on it */
  AWE_TRY(get_table(root, "bodies", &t, err));
  if (t.hdr) AWE_TRY(read_bodies(s, &t, err));
  AWE_TRY(get_table(root, "tubes", &t, err));
  if (nrow(&t) > 0 && s->structure.nbody == 0)
    return awe_err_at(err, AWE_EINVAL, &awe_ymap_get(root, "tubes")->loc, "block 'tubes' needs "
                      "the bodies they join (block 'bodies')");
  if (t.hdr) AWE_TRY(read_tubes(s, &t, err));
  AWE_TRY(get_table(root, "segments", &t, err));
  if (t.hdr) AWE_TRY(read_segments(s, &t, err));
  AWE_TRY(get_table(root, "pulleys", &t, err));
  if (t.hdr) AWE_TRY(read_pulleys(s, &t, err));
  AWE_TRY(get_table(root, "tethers", &t, err));
  if (t.hdr) AWE_TRY(read_tethers(s, &t, err));
  AWE_TRY(get_table(root, "winches", &t, err));
  if (t.hdr) AWE_TRY(read_winches(s, &t, err));
  /* stations are twist groups of awesim's wings: read only with its awesim_wings block (another
   * tool's wings are not in a block awesim knows) */
  table w;
  AWE_TRY(get_table(root, "awesim_wings", &w, err));
  AWE_TRY(get_table(root, "stations", &t, err));
  if (nrow(&t) > 0 && nrow(&w) == 0)
    return awe_err_at(err, AWE_EINVAL, &awe_ymap_get(root, "stations")->loc, "block 'stations' "
                      "(a wing's twist sections) is read from an awesIO structure document only "
                      "with awesim's wings (block 'awesim_wings', as awesim convert writes it)");
  if (t.hdr) AWE_TRY(read_stations(s, &t, err));
  if (w.hdr) AWE_TRY(read_wings(s, &w, err));
  AWE_TRY(get_table(root, "awesim_transforms", &t, err));
  if (t.hdr) AWE_TRY(read_transforms(s, &t, err));
  awe_spec_body_refs_to_wings(s);
  return AWE_OK;
}
