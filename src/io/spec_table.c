/* spec_table.c: table blocks, typed cells and references (see spec_table.h). */
#include "io/spec_table.h"
#include "io/spec_vars.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


static int row_skipped(const awe_ynode *r) {
  if (!r || r->kind == AWE_Y_NULL) return 1;
  if (r->kind == AWE_Y_SEQ) {
    if (r->n == 0) return 1;
    const awe_ynode *c = r->items[0];
    return c->kind == AWE_Y_SCALAR && c->str[0] == '#';
  }
  return 0;
}


/* A block written as a mapping of names to mappings ({main_wing: {dynamics_type: ...}}): the
 * list of its rows, each the mapping with 'name' added (a row's own 'name' key wins). NULL
 * when node is not of that form. */
static const awe_ynode *named_rows(awe_spec *s, const awe_ynode *node, awe_err *err,
                                   awe_status *st) {
  *st = AWE_OK;
  if (node->kind != AWE_Y_MAP || node->n == 0) return NULL;
  for (int i = 0; i < node->n; i++) {
    const char *k = node->keys[i]->str;
    if (!strcmp(k, "headers") || !strcmp(k, "data") || node->items[i]->kind != AWE_Y_MAP)
      return NULL;
  }
  awe_ynode *list = awe_spec_alloc(s, sizeof(*list));
  awe_ynode *key = awe_spec_alloc(s, sizeof(*key));
  if (!list || !key ||
      !(list->items = awe_spec_alloc(s, sizeof(*list->items) * (size_t)node->n)))
    goto oom;
  list->loc = node->loc;
  list->kind = AWE_Y_SEQ;
  list->str = "";
  list->n = list->cap = node->n;
  key->kind = AWE_Y_SCALAR;
  key->str = "name";
  for (int i = 0; i < node->n; i++) {
    const awe_ynode *v = node->items[i];
    if (awe_ymap_get(v, "name")) {
      list->items[i] = (awe_ynode *)v;
      continue;
    }
    awe_ynode *r = awe_spec_alloc(s, sizeof(*r));
    if (!r) goto oom;
    *r = *v;
    r->n = r->cap = v->n + 1;
    r->items = awe_spec_alloc(s, sizeof(*r->items) * (size_t)r->n);
    r->keys = awe_spec_alloc(s, sizeof(*r->keys) * (size_t)r->n);
    if (!r->items || !r->keys) goto oom;
    r->keys[0] = key;
    r->items[0] = node->keys[i];
    memcpy(r->keys + 1, v->keys, sizeof(*r->keys) * (size_t)v->n);
    memcpy(r->items + 1, v->items, sizeof(*r->items) * (size_t)v->n);
    list->items[i] = r;
  }
  return list;
oom:
  *st = awe_err_set(err, AWE_ENOMEM, "out of memory");
  return NULL;
}


awe_status awe_table_read(awe_spec *s, const awe_ynode *node, const char *block,
                          const char *const *allowed, int nallowed, awe_table *t, awe_err *err) {
  memset(t, 0, sizeof(*t));
  t->block = block;
  t->node = node;
  if (!node || node->kind == AWE_Y_NULL) return AWE_OK;
  const awe_ynode *data = NULL;
  awe_status nst;
  const awe_ynode *named = named_rows(s, node, err, &nst);
  if (nst) return nst;
  if (named) {
    data = named;
  } else if (node->kind == AWE_Y_MAP) {
    static const char *const keys[] = {"headers", "data"};
    for (int i = 0; i < node->n; i++) {
      const char *k = node->keys[i]->str;
      if (strcmp(k, "headers") && strcmp(k, "data") && strcmp(k, "alpha_range") &&
          strcmp(k, "reynolds"))
        return awe_ymap_check_keys(node, block, keys, 2, err);
    }
    data = awe_ymap_get(node, "data");
    t->hdr = awe_ymap_get(node, "headers");
    if (!awe_ymap_get(node, "data") && !t->hdr)
      return awe_err_at(err, AWE_EINVAL, &node->loc, "%s: the block needs a 'data' list", block);
  } else if (node->kind == AWE_Y_SEQ) {
    data = node;
  } else {
    return awe_err_at(err, AWE_EINVAL, &node->loc,
                      "%s: expected a block with 'headers' and 'data', got a single value", block);
  }
  if (!data || data->kind == AWE_Y_NULL) return AWE_OK;
  if (data->kind != AWE_Y_SEQ)
    return awe_err_at(err, AWE_EINVAL, &data->loc, "%s: 'data' must be a list of rows", block);

  /* headers: a list of unique column names; unknown columns are warned about */
  if (t->hdr && t->hdr->kind != AWE_Y_NULL) {
    if (t->hdr->kind != AWE_Y_SEQ)
      return awe_err_at(err, AWE_EINVAL, &t->hdr->loc, "%s: 'headers' must be a list of names",
                        block);
    for (int i = 0; i < t->hdr->n; i++) {
      const awe_ynode *h = t->hdr->items[i];
      if (h->kind != AWE_Y_SCALAR)
        return awe_err_at(err, AWE_EINVAL, &h->loc, "%s: headers[%d] must be a column name",
                          block, i + 1);
      for (int j = 0; j < i; j++)
        if (!strcmp(t->hdr->items[j]->str, h->str))
          return awe_err_at(err, AWE_EINVAL, &h->loc, "%s: column '%s' appears twice in headers",
                            block, h->str);
      int known = 0;
      for (int j = 0; j < nallowed && !known; j++) known = !strcmp(allowed[j], h->str);
      if (!known) {
        const char *best = awe_closest(h->str, allowed, nallowed);
        if (best)
          awe_warn(&s->warnings, &h->loc, "%s: unknown column '%s' is ignored (did you mean '%s'?)",
                   block, h->str, best);
        else
          awe_warn(&s->warnings, &h->loc, "%s: unknown column '%s' is ignored", block, h->str);
      }
    }
  } else {
    t->hdr = NULL;
  }

  t->rows = awe_spec_alloc(s, sizeof(awe_row) * (size_t)(data->n ? data->n : 1));
  if (!t->rows) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < data->n; i++) {
    const awe_ynode *r = data->items[i];
    if (row_skipped(r)) continue;
    if (awe_vars_used(s->vars, r)) {
      if (r->kind == AWE_Y_SEQ && !t->hdr)
        return awe_err_at(err, AWE_EINVAL, &r->loc,
                          "%s: row %d is a list but the block has no 'headers'", block, i + 1);
      AWE_TRY(awe_vars_expand_row(s, s->vars, t->hdr, r, block, i + 1, &r, err));
    } else if (r->kind == AWE_Y_SEQ) {
      if (!t->hdr)
        return awe_err_at(err, AWE_EINVAL, &r->loc,
                          "%s: row %d is a list but the block has no 'headers'", block, i + 1);
      if (r->n > t->hdr->n) {
        awe_warn(&s->warnings, &r->loc,
                 "%s: row %d has %d values but only %d headers; the row is skipped "
                 "(as SymbolicAWEModels does)", block, i + 1, r->n, t->hdr->n);
        continue;
      }
    } else if (r->kind == AWE_Y_MAP) {
      for (int k = 0; k < r->n; k++) {
        const char *key = r->keys[k]->str;
        int known = 0;
        for (int j = 0; j < nallowed && !known; j++) known = !strcmp(allowed[j], key);
        if (!known) {
          const char *best = awe_closest(key, allowed, nallowed);
          awe_warn(&s->warnings, &r->keys[k]->loc, "%s: unknown key '%s' is ignored%s%s%s", block,
                   key, best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
        }
      }
    } else {
      char d[64];
      awe_ynode_describe(r, d, sizeof(d));
      return awe_err_at(err, AWE_EINVAL, &r->loc, "%s: row %d must be a list or a mapping, got %s",
                        block, i + 1, d);
    }
    t->rows[t->nrow].node = r;
    t->rows[t->nrow].hdr = r->kind == AWE_Y_SEQ ? t->hdr : NULL;
    t->rows[t->nrow].index = t->nrow + 1;
    t->nrow++;
  }
  return AWE_OK;
}


const awe_ynode *awe_row_get(const awe_row *r, const char *col) {
  if (r->node->kind == AWE_Y_MAP) return awe_ymap_get(r->node, col);
  if (!r->hdr) return NULL;
  for (int i = 0; i < r->hdr->n; i++)
    if (!strcmp(r->hdr->items[i]->str, col)) return i < r->node->n ? r->node->items[i] : NULL;
  return NULL;
}


const awe_ynode *awe_row_get_any(const awe_row *r, const char *const *cols, int n) {
  for (int i = 0; i < n; i++) {
    const awe_ynode *c = awe_row_get(r, cols[i]);
    if (c) return c;
  }
  return NULL;
}


static void what_col(char *buf, size_t n, const char *what, const char *col) {
  snprintf(buf, n, "%s: %s", what, col);
}


awe_status awe_row_opt_double(const awe_row *r, const char *col, const char *what, double def,
                              double *out, awe_err *err) {
  const awe_ynode *c = awe_row_get(r, col);
  if (awe_ynode_is_nothing(c)) {
    *out = def;
    return AWE_OK;
  }
  char w[512];
  what_col(w, sizeof(w), what, col);
  return awe_ynode_double(c, w, out, err);
}


awe_status awe_row_req_double(const awe_row *r, const char *col, const char *what, double *out,
                              awe_err *err) {
  const awe_ynode *c = awe_row_get(r, col);
  if (awe_ynode_is_nothing(c))
    return awe_err_at(err, AWE_EINVAL, c ? &c->loc : &r->node->loc,
                      "%s: required value '%s' is missing", what, col);
  char w[512];
  what_col(w, sizeof(w), what, col);
  return awe_ynode_double(c, w, out, err);
}


awe_status awe_row_opt_vec3(const awe_row *r, const char *col, const char *what,
                            const double def[3], int allow_scalar, double out[3], awe_err *err) {
  const awe_ynode *c = awe_row_get(r, col);
  char w[512];
  what_col(w, sizeof(w), what, col);
  if (awe_ynode_is_nothing(c)) {
    memcpy(out, def, 3 * sizeof(double));
    return AWE_OK;
  }
  if (allow_scalar && c->kind == AWE_Y_SCALAR) {
    double v;
    awe_status st = awe_ynode_double(c, w, &v, err);
    if (st) return st;
    out[0] = out[1] = out[2] = v;
    return AWE_OK;
  }
  return awe_ynode_vec(c, w, 3, out, err);
}


awe_status awe_row_opt_int(const awe_row *r, const char *col, const char *what, int def,
                           int *out, awe_err *err) {
  const awe_ynode *c = awe_row_get(r, col);
  if (awe_ynode_is_nothing(c)) {
    *out = def;
    return AWE_OK;
  }
  char w[512];
  what_col(w, sizeof(w), what, col);
  return awe_ynode_int(c, w, out, err);
}


awe_status awe_row_opt_bool(const awe_row *r, const char *col, const char *what, int def,
                            int *out, awe_err *err) {
  const awe_ynode *c = awe_row_get(r, col);
  if (awe_ynode_is_nothing(c)) {
    *out = def;
    return AWE_OK;
  }
  char w[512];
  what_col(w, sizeof(w), what, col);
  return awe_ynode_bool(c, w, out, err);
}


awe_status awe_parse_ref(awe_spec *s, const awe_ynode *n, const char *what, awe_ref *out,
                         awe_err *err) {
  memset(out, 0, sizeof(*out));
  if (n) out->loc = n->loc;
  if (awe_ynode_is_nothing(n)) return AWE_OK;
  if (n->kind != AWE_Y_SCALAR) {
    char d[64];
    awe_ynode_describe(n, d, sizeof(d));
    return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: expected a name or an index, got %s", what,
                      d);
  }
  if (awe_ynode_is_number(n)) {
    int idx;
    awe_status st = awe_ynode_int(n, what, &idx, err);
    if (st) return st;
    if (idx < 0)
      return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: index %d must be positive (1-based)",
                        what, idx);
    out->index = idx;  /* 0 = none, as SymbolicAWEModels' transform_idx: 0 */
    if (idx > 0 && s)
      awe_spec_deprecated(s, &n->loc, "integer index",
                          "%s: the integer index %d is an old spelling (1-based row number); "
                          "the current spelling is the component's name", what, idx);
    return AWE_OK;
  }
  if (!n->str[0])
    return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: empty name", what);
  out->name = awe_spec_strdup(s, n->str);
  return out->name ? AWE_OK : awe_err_set(err, AWE_ENOMEM, "out of memory");
}


awe_status awe_parse_ref_list(awe_spec *s, const awe_ynode *n, const char *what, awe_ref **out,
                              int *nout, awe_err *err) {
  *out = NULL;
  *nout = 0;
  if (awe_ynode_is_nothing(n)) return AWE_OK;
  int cnt = n->kind == AWE_Y_SEQ ? n->n : 1;
  awe_ref *r = awe_spec_alloc(s, sizeof(awe_ref) * (size_t)(cnt ? cnt : 1));
  if (!r) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < cnt; i++) {
    const awe_ynode *c = n->kind == AWE_Y_SEQ ? n->items[i] : n;
    char w[512];
    snprintf(w, sizeof(w), "%s[%d]", what, i + 1);
    awe_status st = awe_parse_ref(s, c, w, &r[i], err);
    if (st) return st;
    if (!AWE_REF_GIVEN(r[i]))
      return awe_err_at(err, AWE_EINVAL, &c->loc, "%s: empty reference in the list", w);
  }
  *out = r;
  *nout = cnt;
  return AWE_OK;
}


awe_status awe_parse_wref(awe_spec *s, const awe_ynode *n, const char *what, awe_wref *out,
                          awe_err *err) {
  memset(out, 0, sizeof(*out));
  if (awe_ynode_is_nothing(n)) return AWE_OK;
  int cnt = n->kind == AWE_Y_SEQ ? n->n : 1;
  if (cnt == 0) return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: empty point list", what);
  out->pt = awe_spec_alloc(s, sizeof(awe_ref) * (size_t)cnt);
  out->w = awe_spec_alloc(s, sizeof(double) * (size_t)cnt);
  if (!out->pt || !out->w) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  out->n = cnt;
  for (int i = 0; i < cnt; i++) {
    const awe_ynode *c = n->kind == AWE_Y_SEQ ? n->items[i] : n;
    char w[512];
    snprintf(w, sizeof(w), "%s[%d]", what, i + 1);
    out->w[i] = 1.0 / cnt;
    if (c->kind == AWE_Y_SEQ) {
      /* [id, weight] */
      if (c->n != 2)
        return awe_err_at(err, AWE_EINVAL, &c->loc, "%s: expected [point, weight]", w);
      awe_status st = awe_parse_ref(s, c->items[0], w, &out->pt[i], err);
      if (!st) st = awe_ynode_double(c->items[1], w, &out->w[i], err);
      if (st) return st;
    } else {
      awe_status st = awe_parse_ref(s, c, w, &out->pt[i], err);
      if (st) return st;
    }
    if (!AWE_REF_GIVEN(out->pt[i]))
      return awe_err_at(err, AWE_EINVAL, &c->loc, "%s: empty point reference", w);
  }
  double sum = 0;
  for (int i = 0; i < cnt; i++) sum += out->w[i];
  if (!(fabs(sum) > 1e-12))
    return awe_err_at(err, AWE_EINVAL, &n->loc, "%s: weights sum to zero", what);
  for (int i = 0; i < cnt; i++) out->w[i] /= sum;
  return AWE_OK;
}


const char *awe_row_name(awe_spec *s, const awe_row *r, awe_err *err, awe_status *st) {
  static const char *const cols[] = {"name", "idx", "id"};
  const awe_ynode *n = awe_row_get_any(r, cols, 3);
  *st = AWE_OK;
  if (awe_ynode_is_nothing(n)) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%d", r->index);
    return awe_spec_strdup(s, buf);
  }
  if (n->kind != AWE_Y_SCALAR) {
    *st = awe_err_at(err, AWE_EINVAL, &n->loc, "name must be a single value");
    return NULL;
  }
  return awe_spec_strdup(s, n->str);
}
