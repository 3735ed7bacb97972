/* spec_vars.c: the 'variables:' block (see spec_vars.h). */
#include "io/spec_vars.h"

#include <string.h>


/* The variable an unquoted scalar names, or NULL. */
static const awe_ynode *var_of(const awe_ynode *vars, const awe_ynode *n) {
  if (!vars || !n || n->kind != AWE_Y_SCALAR || n->quoted || !n->str[0]) return NULL;
  return awe_ymap_get(vars, n->str);
}


int awe_vars_used(const awe_ynode *vars, const awe_ynode *row) {
  if (!vars || !row) return 0;
  if (row->kind == AWE_Y_SCALAR) return var_of(vars, row) != NULL;
  for (int i = 0; i < row->n; i++)
    if (awe_vars_used(vars, row->items[i])) return 1;
  return 0;
}


static awe_ynode *new_node(awe_spec *s, const awe_ynode *like, int kind, int n) {
  awe_ynode *c = awe_spec_alloc(s, sizeof(*c));
  if (!c) return NULL;
  c->loc = like->loc;
  c->kind = (unsigned char)kind;
  c->str = "";
  c->n = c->cap = n;
  if (n) {
    c->items = awe_spec_alloc(s, sizeof(*c->items) * (size_t)n);
    if (!c->items) return NULL;
    if (kind == AWE_Y_MAP) {
      c->keys = awe_spec_alloc(s, sizeof(*c->keys) * (size_t)n);
      if (!c->keys) return NULL;
    }
  }
  return c;
}


/* A value with the variables inside it put in (scalar and list variables only). */
static awe_status subst(awe_spec *s, const awe_ynode *vars, const awe_ynode *n, const char *block,
                        const awe_ynode **out, awe_err *err) {
  *out = n;
  if (!awe_vars_used(vars, n)) return AWE_OK;
  if (n->kind == AWE_Y_SCALAR) {
    const awe_ynode *v = var_of(vars, n);
    if (v->kind == AWE_Y_MAP)
      return awe_err_at(err, AWE_EINVAL, &n->loc,
                        "%s: variable '%s' is a mapping of columns; it can stand only for "
                        "columns of a row, not inside a value", block, n->str);
    *out = v;
    return AWE_OK;
  }
  awe_ynode *c = new_node(s, n, n->kind, n->n);
  if (!c) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < n->n; i++) {
    const awe_ynode *v;
    AWE_TRY(subst(s, vars, n->items[i], block, &v, err));
    c->items[i] = (awe_ynode *)v;
    if (n->keys) c->keys[i] = n->keys[i];
  }
  *out = c;
  return AWE_OK;
}


static int header_index(const awe_ynode *hdr, const char *col) {
  for (int i = 0; i < hdr->n; i++)
    if (!strcmp(hdr->items[i]->str, col)) return i;
  return -1;
}


static awe_status expand_list_row(awe_spec *s, const awe_ynode *vars, const awe_ynode *hdr,
                                  const awe_ynode *row, const char *block, int rowno,
                                  const awe_ynode **out, awe_err *err) {
  awe_ynode *c = new_node(s, row, AWE_Y_SEQ, hdr->n);
  awe_ynode *none = new_node(s, row, AWE_Y_NULL, 0);
  if (!c || !none) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  int col = 0;
  for (int i = 0; i < row->n; i++) {
    const awe_ynode *e = row->items[i], *v = var_of(vars, e);
    if (v && v->kind == AWE_Y_MAP) {
      for (int k = 0; k < v->n; k++) {
        const char *key = v->keys[k]->str;
        int j = header_index(hdr, key);
        if (j < 0)
          return awe_err_at(err, AWE_EINVAL, &e->loc,
                            "%s: row %d: variable '%s' fills column '%s', which the headers do "
                            "not name (variable at %s:%d)", block, rowno, e->str, key,
                            v->keys[k]->loc.file ? v->keys[k]->loc.file : "?",
                            v->keys[k]->loc.line);
        if (c->items[j])
          return awe_err_at(err, AWE_EINVAL, &e->loc,
                            "%s: row %d: column '%s' is given twice (once by variable '%s')",
                            block, rowno, key, e->str);
        const awe_ynode *val;
        AWE_TRY(subst(s, vars, v->items[k], block, &val, err));
        c->items[j] = (awe_ynode *)val;
      }
      continue;
    }
    while (col < hdr->n && c->items[col]) col++;
    if (col >= hdr->n)
      return awe_err_at(err, AWE_EINVAL, &e->loc,
                        "%s: row %d: more values than columns left after its variables (%d "
                        "headers)", block, rowno, hdr->n);
    const awe_ynode *val;
    AWE_TRY(subst(s, vars, e, block, &val, err));
    c->items[col++] = (awe_ynode *)val;
  }
  for (int j = 0; j < hdr->n; j++)
    if (!c->items[j]) c->items[j] = none;
  *out = c;
  return AWE_OK;
}


static awe_status expand_map_row(awe_spec *s, const awe_ynode *vars, const awe_ynode *row,
                                 const char *block, int rowno, const awe_ynode **out,
                                 awe_err *err) {
  int n = row->n;
  for (int i = 0; i < row->n; i++) {
    const awe_ynode *v = var_of(vars, row->items[i]);
    if (v && v->kind == AWE_Y_MAP) n += v->n;
  }
  awe_ynode *c = new_node(s, row, AWE_Y_MAP, n);
  if (!c) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  c->n = 0;
  for (int i = 0; i < row->n; i++) {
    const awe_ynode *e = row->items[i], *v = var_of(vars, e);
    if (!(v && v->kind == AWE_Y_MAP)) {
      const awe_ynode *val;
      AWE_TRY(subst(s, vars, e, block, &val, err));
      c->keys[c->n] = row->keys[i];
      c->items[c->n++] = (awe_ynode *)val;
    }
  }
  for (int i = 0; i < row->n; i++) {
    const awe_ynode *e = row->items[i], *v = var_of(vars, e);
    if (!(v && v->kind == AWE_Y_MAP)) continue;
    for (int k = 0; k < v->n; k++) {
      if (awe_ymap_get(c, v->keys[k]->str))
        return awe_err_at(err, AWE_EINVAL, &e->loc,
                          "%s: row %d: key '%s' is given twice (once by variable '%s')", block,
                          rowno, v->keys[k]->str, e->str);
      const awe_ynode *val;
      AWE_TRY(subst(s, vars, v->items[k], block, &val, err));
      c->keys[c->n] = v->keys[k];
      c->items[c->n++] = (awe_ynode *)val;
    }
  }
  *out = c;
  return AWE_OK;
}


awe_status awe_vars_expand_row(awe_spec *s, const awe_ynode *vars, const awe_ynode *hdr,
                               const awe_ynode *row, const char *block, int rowno,
                               const awe_ynode **out, awe_err *err) {
  *out = row;
  if (!awe_vars_used(vars, row)) return AWE_OK;
  if (row->kind == AWE_Y_MAP) return expand_map_row(s, vars, row, block, rowno, out, err);
  if (row->kind == AWE_Y_SEQ && hdr) return expand_list_row(s, vars, hdr, row, block, rowno, out,
                                                            err);
  return AWE_OK;
}


/* The name cell of a row (list row under headers with 'name', or a mapping row), or NULL. */
static const awe_ynode *row_name_cell(const awe_ynode *hdr, const awe_ynode *row) {
  if (row->kind == AWE_Y_MAP) return awe_ymap_get(row, "name");
  if (row->kind != AWE_Y_SEQ || !hdr) return NULL;
  int j = header_index(hdr, "name");
  return j >= 0 && j < row->n ? row->items[j] : NULL;
}


awe_status awe_vars_check(const awe_ynode *vars, const awe_ynode *root, awe_err *err) {
  if (!vars || vars->kind == AWE_Y_NULL) return AWE_OK;
  if (vars->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &vars->loc,
                      "variables: expected a mapping of names to values (name: value, or name: "
                      "{column: value, ...})");
  for (int i = 0; i < vars->n; i++) {
    const awe_ynode *k = vars->keys[i], *v = vars->items[i];
    for (int j = 0; j < i; j++)
      if (!strcmp(vars->keys[j]->str, k->str))
        return awe_err_at(err, AWE_EINVAL, &k->loc, "variables: '%s' is defined twice", k->str);
    if (v->kind == AWE_Y_MAP)
      for (int j = 0; j < v->n; j++)
        if (v->items[j]->kind == AWE_Y_MAP)
          return awe_err_at(err, AWE_EINVAL, &v->items[j]->loc,
                            "variables: '%s.%s': a column value must be a value or a list, not "
                            "a mapping", k->str, v->keys[j]->str);
  }
  /* a variable named like a component would make every reference to it ambiguous */
  for (int b = 0; b < root->n; b++) {
    const awe_ynode *blk = root->items[b];
    if (blk == vars) continue;
    const awe_ynode *hdr = awe_ymap_get(blk, "headers");
    const awe_ynode *data = blk->kind == AWE_Y_SEQ ? blk : awe_ymap_get(blk, "data");
    if (!data || data->kind != AWE_Y_SEQ) continue;
    if (hdr && hdr->kind != AWE_Y_SEQ) hdr = NULL;
    for (int r = 0; r < data->n; r++) {
      const awe_ynode *nm = row_name_cell(hdr, data->items[r]);
      if (!nm || nm->kind != AWE_Y_SCALAR) continue;
      const awe_ynode *v = awe_ymap_get(vars, nm->str);
      if (v)
        return awe_err_at(err, AWE_EINVAL, &nm->loc,
                          "%s: '%s' is both a component name and a variable (variables at "
                          "line %d); rename one", root->keys[b]->str, nm->str, v->loc.line);
    }
  }
  return AWE_OK;
}
