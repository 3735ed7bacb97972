/* spec_mann_yaml.c: a wind box's specification (keys in spec_mann_yaml.h). */
#include "io/spec_mann_yaml.h"

#include <math.h>
#include <stdio.h>

#include "io/yaml_doc.h"


/* a number at key (unchanged when absent) in [lo, hi] */
static awe_status num(const awe_ynode *root, const char *key, double lo, double hi,
                      const char *unit, double *out, awe_err *err) {
  const awe_ynode *v = awe_ymap_get(root, key);
  if (!v || v->kind == AWE_Y_NULL) return AWE_OK;
  double x;
  AWE_TRY(awe_ynode_double(v, key, &x, err));
  if (!(x >= lo && x <= hi))
    return awe_err_at(err, AWE_EINVAL, &v->loc, "%s = %g %s is out of range [%g, %g]", key, x,
                      unit, lo, hi);
  *out = x;
  return AWE_OK;
}


/* a scalar or a list of three at key into x[3] */
static awe_status three(const awe_ynode *root, const char *key, double lo, double hi,
                        int integral, double x[3], awe_err *err) {
  const awe_ynode *v = awe_ymap_get(root, key);
  if (!v || v->kind == AWE_Y_NULL) return AWE_OK;
  if (v->kind == AWE_Y_SEQ && v->n != 3)
    return awe_err_at(err, AWE_EINVAL, &v->loc, "%s: expected one value or three [x, y, z], "
                      "got %d", key, v->n);
  for (int a = 0; a < 3; a++) {
    const awe_ynode *e = v->kind == AWE_Y_SEQ ? v->items[a] : v;
    char w[32];
    snprintf(w, sizeof(w), "%s[%d]", key, a + 1);
    double y;
    AWE_TRY(awe_ynode_double(e, w, &y, err));
    if (!(y >= lo && y <= hi) || (integral && (y != floor(y) || fmod(y, 2.0) != 0.0)))
      return awe_err_at(err, AWE_EINVAL, &e->loc, "%s = %g is out of range (%s[%.10g, %.10g])",
                        w, y, integral ? "even, " : "", lo, hi);
    x[a] = y;
  }
  return AWE_OK;
}


awe_status awe_mann_spec_node(const awe_ynode *root, const char *where, awe_mann_spec *s,
                              awe_err *err) {
  awe_mann_defaults(s);
  static const char *const keys[] = {"seed", "n", "d", "gamma", "length", "ae", "ti", "v_ref",
                                     "h_ref", "z_bottom"};
  if (!root || root->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, root ? &root->loc : NULL,
                      "%s: a wind box specification is a mapping (n, d, gamma, length, ae or ti, "
                      "...)", where);
  AWE_TRY(awe_ymap_check_keys(root, where, keys, AWE_ARRLEN(keys), err));
  double seed = (double)s->seed, n[3] = {s->n[0], s->n[1], s->n[2]};
  AWE_TRY(num(root, "seed", 0, 9007199254740992.0, "", &seed, err));
  if (seed != floor(seed))
    return awe_err_at(err, AWE_EINVAL, &awe_ymap_get(root, "seed")->loc,
                      "seed = %g must be an integer", seed);
  AWE_TRY(three(root, "n", 2, 1048576, 1, n, err));
  AWE_TRY(three(root, "d", 1e-6, 1e6, 0, s->d, err));
  AWE_TRY(num(root, "gamma", 0, 100, "", &s->gamma, err));
  AWE_TRY(num(root, "length", 1e-6, 1e6, "m", &s->length, err));
  AWE_TRY(num(root, "ae", 0, 1e6, "m^(4/3)/s^2", &s->ae, err));
  AWE_TRY(num(root, "ti", 0, 10, "", &s->ti, err));
  AWE_TRY(num(root, "v_ref", 0, 1000, "m/s", &s->v_ref, err));
  AWE_TRY(num(root, "h_ref", -1e6, 1e6, "m", &s->h_ref, err));
  AWE_TRY(num(root, "z_bottom", -1e6, 1e6, "m", &s->z_bottom, err));
  s->seed = (uint64_t)seed;
  for (int a = 0; a < 3; a++) s->n[a] = (int)n[a];
  if (s->ti > 0.0 && !(s->v_ref > 0.0))
    return awe_err_at(err, AWE_EINVAL, &awe_ymap_get(root, "ti")->loc,
                      "ti = %g needs v_ref > 0 (v_ref = %g m/s)", s->ti, s->v_ref);
  return AWE_OK;
}


awe_status awe_mann_spec_read(const char *path, awe_mann_spec *s, awe_err *err) {
  awe_mann_defaults(s);
  awe_ydoc *doc = awe_ydoc_load_file(path, err);
  if (!doc) return err->code;
  awe_status st = awe_mann_spec_node(awe_ydoc_root(doc), "wind box", s, err);
  awe_ydoc_free(doc);
  return st;
}
