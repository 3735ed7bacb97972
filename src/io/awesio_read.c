/* awesio_read.c: an awesIO structure document into the structure spec (awesio_read.h).
 * Columns are found by header, never by position, and unknown columns are ignored, as the
 * schema asks; awesim's own columns (awesim_type, unit_damping, ...) are used when present. */
#include "io/awesio_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    AWE_TRY(req(t, i, "pos_ENU", &c, err));
    AWE_TRY(awe_ynode_vec(c, "points: pos_ENU", 3, p->pos_cad, err));
    const awe_ynode *ty = cell(t, i, "awesim_type");
    if (!ty) AWE_TRY(req(t, i, "type", &ty, err));
    if (!strcmp(ty->str, "STATIC")) p->type = AWE_PT_STATIC;
    else if (!strcmp(ty->str, "DYNAMIC")) p->type = AWE_PT_DYNAMIC;
    else if (!strcmp(ty->str, "QUASI_STATIC")) p->type = AWE_PT_QUASI_STATIC;
    else
      return awe_err_at(err, AWE_EINVAL, &ty->loc, "point '%s': type '%s' (a point of a wing or "
                        "rigid body) is not read from an awesIO document yet (allowed: STATIC, "
                        "DYNAMIC, QUASI_STATIC)", p->name, ty->str);
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
    pr->diameter_mm = d * 1e3;
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
    x->init_stretched_length = x->init_tether_force = x->init_stretch_frac = NAN;
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

awe_status awe_spec_read_awesio(awe_spec *s, const awe_ynode *root, const char *path,
                                awe_err *err) {
  s->structure.path = awe_spec_strdup(s, path);
  AWE_TRY(check_version(s, root, path, err));
  /* one clear refusal for what awesim cannot build from a document yet */
  static const char *const later[][2] = {
      {"bodies", "rigid bodies"}, {"tubes", "inflated beam elements between bodies"},
      {"awesim_wings", "wings"}};
  for (int k = 0; k < 3; k++) {
    const awe_ynode *b = awe_ymap_get(root, later[k][0]);
    const awe_ynode *d = b ? awe_ymap_get(b, "data") : NULL;
    if (d && d->kind == AWE_Y_SEQ && d->n > 0)
      return awe_err_at(err, AWE_EINVAL, &b->loc, "block '%s' (%s) is not read from an awesIO "
                        "structure document by awesim yet; give the model's own structural "
                        "geometry instead", later[k][0], later[k][1]);
  }
  table t;
  AWE_TRY(get_table(root, "points", &t, err));
  if (nrow(&t) == 0)
    return awe_err_at(err, AWE_EINVAL, &root->loc, "the document has no points");
  AWE_TRY(read_points(s, &t, err));
  AWE_TRY(get_table(root, "segments", &t, err));
  if (t.hdr) AWE_TRY(read_segments(s, &t, err));
  AWE_TRY(get_table(root, "pulleys", &t, err));
  if (t.hdr) AWE_TRY(read_pulleys(s, &t, err));
  AWE_TRY(get_table(root, "tethers", &t, err));
  if (t.hdr) AWE_TRY(read_tethers(s, &t, err));
  AWE_TRY(get_table(root, "winches", &t, err));
  if (t.hdr) AWE_TRY(read_winches(s, &t, err));
  const awe_ynode *st = awe_ymap_get(root, "stations");
  const awe_ynode *sd = st ? awe_ymap_get(st, "data") : NULL;
  if (sd && sd->kind == AWE_Y_SEQ && sd->n > 0)
    return awe_err_at(err, AWE_EINVAL, &st->loc, "block 'stations' (a wing's twist sections) "
                      "is not read from an awesIO structure document by awesim yet");
  return AWE_OK;
}
