/* sweep_grid.c: a sweep's grid file (sweep.h) read from the yaml_doc node tree and expanded
 * into points. Ranges {from, to, step} give from + k*step up to to (inclusive, with a 1e-9
 * relative allowance for rounding); {from, to, num} gives num evenly spaced values. */
#include "sweep/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/yaml_doc.h"

#define MAX_POINTS 1000000
#define MAX_VALUES 100000

/* a growable string */
typedef struct {
  char *s;
  size_t n, cap;
} sbuf;

static int sb_add(sbuf *b, const char *t) {
  size_t k = strlen(t);
  if (b->n + k + 1 > b->cap) {
    size_t c = b->cap ? 2 * b->cap : 64;
    while (c < b->n + k + 1) c *= 2;
    char *p = realloc(b->s, c);
    if (!p) return -1;
    b->s = p;
    b->cap = c;
  }
  memcpy(b->s + b->n, t, k + 1);
  b->n += k;
  return 0;
}

static char *xstrdup(const char *s) {
  char *p = malloc(strlen(s) + 1);
  if (p) strcpy(p, s);
  return p;
}

static int plain_ok(const char *s) {  /* can a plain scalar stand for itself in flow style? */
  if (!*s) return 0;
  if (strchr("&*!|>'\"%@`#,[]{}", s[0]) || s[0] == ' ') return 0;
  for (const char *c = s; *c; c++)
    if (strchr(",[]{}#\n\t", *c) || (*c == ':' && (c[1] == ' ' || !c[1]))) return 0;
  return s[strlen(s) - 1] != ' ';
}

/* YAML text of a node, in flow style (quoted scalars and unsafe plain ones single-quoted) */
static int flow_text(const awe_ynode *n, sbuf *b) {
  if (n->kind == AWE_Y_NULL) return sb_add(b, "null");
  if (n->kind == AWE_Y_SCALAR) {
    if (!n->quoted && plain_ok(n->str)) return sb_add(b, n->str);
    if (sb_add(b, "'")) return -1;
    for (const char *c = n->str; *c; c++) {
      char one[2] = {*c, 0};
      if (sb_add(b, *c == '\'' ? "''" : one)) return -1;
    }
    return sb_add(b, "'");
  }
  if (sb_add(b, n->kind == AWE_Y_SEQ ? "[" : "{")) return -1;
  for (int i = 0; i < n->n; i++) {
    if (i && sb_add(b, ", ")) return -1;
    if (n->kind == AWE_Y_MAP && (flow_text(n->keys[i], b) || sb_add(b, ": "))) return -1;
    if (flow_text(n->items[i], b)) return -1;
  }
  return sb_add(b, n->kind == AWE_Y_SEQ ? "]" : "}");
}

static awe_status nomem(awe_err *err) { return awe_err_set(err, AWE_ENOMEM, "out of memory"); }

/* fill one override from a node (or from a number when n is NULL) */
static awe_status make_set(awe_sweep_set *s, const char *key, const awe_ynode *n, double num,
                           awe_err *err) {
  sbuf b = {0};
  char tmp[64];
  if (n) {
    if (flow_text(n, &b)) return free(b.s), nomem(err);
  } else {
    snprintf(tmp, sizeof(tmp), "%.12g", num);
    if (!strcmp(tmp, "-0")) strcpy(tmp, "0");
    if (sb_add(&b, tmp)) return free(b.s), nomem(err);
  }
  if (strpbrk(b.s, "\t\n\r")) {
    free(b.s);
    return awe_err_at(err, AWE_EINVAL, &n->loc, "'%s': a value cannot contain a tab or a line "
                      "break", key);
  }
  s->key = xstrdup(key);
  s->value = b.s;
  s->shown = xstrdup(n && n->kind == AWE_Y_SCALAR ? n->str : b.s);
  if (!s->key || !s->shown) return nomem(err);
  return AWE_OK;
}

static void free_sets(awe_sweep_set *s, int n) {
  for (int i = 0; s && i < n; i++) {
    free(s[i].key);
    free(s[i].value);
    free(s[i].shown);
  }
  free(s);
}

void awe_sweep_grid_free(awe_sweep_grid *g) {
  if (!g) return;
  free(g->name);
  free(g->scenario);
  free(g->output);
  free_sets(g->fixed, g->nfixed);
  for (int i = 0; i < g->nkeys; i++) free(g->keys[i]);
  free(g->keys);
  for (int i = 0; g->sets && i < g->npoints; i++) free_sets(g->sets[i], g->nset[i]);
  free(g->sets);
  free(g->nset);
  free(g);
}

static awe_status check_key(const awe_ynode *k, const char *what, awe_err *err) {
  const char *s = k->str;
  int ok = *s != 0;
  for (const char *c = s; *c; c++)
    if (!(c[0] >= 'a' && c[0] <= 'z') && !(c[0] >= 'A' && c[0] <= 'Z') &&
        !(c[0] >= '0' && c[0] <= '9') && !strchr("_.-[]", *c))
      ok = 0;
  if (!ok)
    return awe_err_at(err, AWE_EINVAL, &k->loc, "%s: '%s' is not a key path like "
                      "settings.environment.v_wind", what, s);
  return AWE_OK;
}

/* a mapping KEY.PATH: VALUE into overrides */
static awe_status read_sets(const awe_ynode *m, const char *what, awe_sweep_set **out, int *n,
                            awe_err *err) {
  *out = calloc((size_t)(m->n ? m->n : 1), sizeof(**out));
  *n = 0;
  if (!*out) return nomem(err);
  for (int i = 0; i < m->n; i++) {
    AWE_TRY(check_key(m->keys[i], what, err));
    AWE_TRY(make_set(&(*out)[i], m->keys[i]->str, m->items[i], 0, err));
    *n = i + 1;
  }
  return AWE_OK;
}

static awe_status add_key(awe_sweep_grid *g, const char *k, awe_err *err) {
  for (int i = 0; i < g->nkeys; i++)
    if (!strcmp(g->keys[i], k)) return AWE_OK;
  char **p = realloc(g->keys, (size_t)(g->nkeys + 1) * sizeof(*p));
  if (!p) return nomem(err);
  g->keys = p;
  if (!(g->keys[g->nkeys] = xstrdup(k))) return nomem(err);
  g->nkeys++;
  return AWE_OK;
}

/* one grid axis: a list of values or a range; values[] are nodes or numbers */
typedef struct {
  const awe_ynode *key;
  const awe_ynode *list; /* a sequence, or NULL for a range */
  double from, step;
  int n;
} axis;

static awe_status range_of(const awe_ynode *key, const awe_ynode *m, axis *a, awe_err *err) {
  static const char *const allowed[] = {"from", "to", "step", "num"};
  char what[300];
  snprintf(what, sizeof(what), "grid '%s'", key->str);
  for (int i = 0; i < m->n; i++) {
    int ok = 0;
    for (int j = 0; j < 4; j++) ok |= !strcmp(m->keys[i]->str, allowed[j]);
    if (!ok)
      return awe_err_at(err, AWE_EINVAL, &m->keys[i]->loc, "%s: unknown range key '%s' (a "
                        "range is {from, to, step} or {from, to, num})", what, m->keys[i]->str);
  }
  const awe_ynode *nf = awe_ymap_get(m, "from"), *nt = awe_ymap_get(m, "to"),
                  *ns = awe_ymap_get(m, "step"), *nn = awe_ymap_get(m, "num");
  if (!nf || !nt || !ns == !nn)
    return awe_err_at(err, AWE_EINVAL, &m->loc, "%s: a range needs from, to and one of step "
                      "or num", what);
  double from, to, step = 0, num = 0;
  char w2[340];
  snprintf(w2, sizeof(w2), "%s: from", what);
  AWE_TRY(awe_ynode_double(nf, w2, &from, err));
  snprintf(w2, sizeof(w2), "%s: to", what);
  AWE_TRY(awe_ynode_double(nt, w2, &to, err));
  a->key = key;
  a->list = NULL;
  a->from = from;
  if (nn) {
    snprintf(w2, sizeof(w2), "%s: num", what);
    AWE_TRY(awe_ynode_double(nn, w2, &num, err));
    if (num < 1 || num != floor(num) || num > MAX_VALUES)
      return awe_err_at(err, AWE_EINVAL, &nn->loc, "%s: num must be an integer in 1..%d",
                        what, MAX_VALUES);
    a->n = (int)num;
    a->step = a->n > 1 ? (to - from) / (a->n - 1) : 0;
    return AWE_OK;
  }
  snprintf(w2, sizeof(w2), "%s: step", what);
  AWE_TRY(awe_ynode_double(ns, w2, &step, err));
  if (step == 0 || (to - from) / step < 0)
    return awe_err_at(err, AWE_EINVAL, &m->loc, "%s: step %.12g does not lead from %.12g to "
                      "%.12g", what, step, from, to);
  double cnt = floor((to - from) / step + 1e-9) + 1;
  if (cnt > MAX_VALUES)
    return awe_err_at(err, AWE_EINVAL, &m->loc, "%s: %.0f values; at most %d", what, cnt,
                      MAX_VALUES);
  a->n = (int)cnt;
  a->step = step;
  return AWE_OK;
}

static awe_status expand_grid(awe_sweep_grid *g, const awe_ynode *grid, awe_err *err) {
  if (grid->kind != AWE_Y_MAP || grid->n == 0)
    return awe_err_at(err, AWE_EINVAL, &grid->loc, "'grid' must be a non-empty mapping "
                      "KEY.PATH: [values]");
  axis *ax = calloc((size_t)grid->n, sizeof(*ax));
  if (!ax) return nomem(err);
  awe_status st = AWE_OK;
  double total = 1;
  for (int i = 0; i < grid->n && !st; i++) {
    const awe_ynode *k = grid->keys[i], *v = grid->items[i];
    char what[300];
    snprintf(what, sizeof(what), "grid '%s'", k->str);
    if ((st = check_key(k, "grid", err))) break;
    if (v->kind == AWE_Y_MAP) {
      st = range_of(k, v, &ax[i], err);
    } else if (v->kind == AWE_Y_SEQ) {
      ax[i] = (axis){k, v, 0, 0, v->n};
      if (v->n == 0)
        st = awe_err_at(err, AWE_EINVAL, &v->loc, "%s: the list of values is empty", what);
    } else {
      st = awe_err_at(err, AWE_EINVAL, &v->loc, "%s: expected a list of values, e.g. [%s], or "
                      "a range {from: A, to: B, step: S}", what, v->str ? v->str : "");
    }
    if (!st) st = add_key(g, k->str, err);
    total *= ax[i].n;
  }
  if (!st && total > MAX_POINTS)
    st = awe_err_at(err, AWE_EINVAL, &grid->loc, "grid: %.0f points; at most %d", total,
                    MAX_POINTS);
  if (!st) {
    g->npoints = (int)total;
    g->sets = calloc((size_t)g->npoints, sizeof(*g->sets));
    g->nset = calloc((size_t)g->npoints, sizeof(*g->nset));
    if (!g->sets || !g->nset) st = nomem(err);
  }
  for (int p = 0; !st && p < g->npoints; p++) {
    if (!(g->sets[p] = calloc((size_t)grid->n, sizeof(**g->sets)))) {
      st = nomem(err);
      break;
    }
    int rest = p;  /* mixed-radix digits, the last axis fastest */
    for (int i = grid->n - 1; i >= 0 && !st; i--) {
      int j = rest % ax[i].n;
      rest /= ax[i].n;
      st = make_set(&g->sets[p][i], ax[i].key->str, ax[i].list ? ax[i].list->items[j] : NULL,
                    ax[i].from + j * ax[i].step, err);
      g->nset[p] = grid->n;
    }
  }
  free(ax);
  return st;
}

static awe_status expand_list(awe_sweep_grid *g, const awe_ynode *l, awe_err *err) {
  if (l->kind != AWE_Y_SEQ || l->n == 0)
    return awe_err_at(err, AWE_EINVAL, &l->loc, "'list' must be a non-empty list of mappings "
                      "KEY.PATH: VALUE");
  g->sets = calloc((size_t)l->n, sizeof(*g->sets));
  g->nset = calloc((size_t)l->n, sizeof(*g->nset));
  if (!g->sets || !g->nset) return nomem(err);
  g->npoints = l->n;
  for (int p = 0; p < l->n; p++) {
    const awe_ynode *it = l->items[p];
    if (it->kind != AWE_Y_MAP)
      return awe_err_at(err, AWE_EINVAL, &it->loc, "each 'list' item must be a mapping "
                        "KEY.PATH: VALUE, e.g. {settings.environment.v_wind: 8}");
    AWE_TRY(read_sets(it, "list", &g->sets[p], &g->nset[p], err));
    for (int i = 0; i < it->n; i++) AWE_TRY(add_key(g, it->keys[i]->str, err));
  }
  return AWE_OK;
}

/* a path relative to the grid file's folder dir (a malloc'd string) */
static char *relative_to(const char *dir, const char *p) {
  if (p[0] == '/') return xstrdup(p);
  char *out = malloc(strlen(dir) + strlen(p) + 2);
  if (out) sprintf(out, "%s/%s", dir, p);
  return out;
}

static awe_status read_grid(awe_sweep_grid *g, const awe_ydoc *doc, const char *path,
                            awe_err *err) {
  static const char *const keys[] = {"scenario", "name", "output", "set", "summary_from",
                                     "grid", "list"};
  const awe_ynode *r = awe_ydoc_root((awe_ydoc *)doc);
  if (r->kind == AWE_Y_NULL)
    return awe_err_set(err, AWE_EINVAL, "%s: the grid file is empty", path);
  if (r->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &r->loc, "the grid file must be a mapping "
                      "(scenario:, grid: ...)");
  AWE_TRY(awe_ymap_check_keys(r, "grid file", keys, AWE_ARRLEN(keys), err));
  for (int i = 0; i < 3; i++) {
    const awe_ynode *v = awe_ymap_get(r, keys[i]);
    if (v && (v->kind != AWE_Y_SCALAR || awe_ynode_is_nothing(v) || !*v->str))
      return awe_err_at(err, AWE_EINVAL, &v->loc, "'%s' must be a non-empty string", keys[i]);
  }
  const awe_ynode *sc = awe_ymap_get(r, "scenario"), *gr = awe_ymap_get(r, "grid"),
                  *li = awe_ymap_get(r, "list"), *set = awe_ymap_get(r, "set"),
                  *nm = awe_ymap_get(r, "name"), *out = awe_ymap_get(r, "output"),
                  *t0 = awe_ymap_get(r, "summary_from");
  if (!sc)
    return awe_err_set(err, AWE_EINVAL, "%s: 'scenario' is missing (the scenario file every "
                       "run starts from)", path);
  if (!gr == !li)
    return awe_err_at(err, AWE_EINVAL, &r->loc, "give either 'grid' (a mapping key -> list of "
                      "values) or 'list' (a list of override mappings)");
  g->summary_from = NAN;
  if (t0) AWE_TRY(awe_ynode_double(t0, "summary_from", &g->summary_from, err));
  if (set) {
    if (set->kind != AWE_Y_MAP)
      return awe_err_at(err, AWE_EINVAL, &set->loc, "'set' must be a mapping KEY.PATH: VALUE");
    AWE_TRY(read_sets(set, "set", &g->fixed, &g->nfixed, err));
  }
  AWE_TRY(gr ? expand_grid(g, gr, err) : expand_list(g, li, err));

  /* paths are relative to the grid file's folder */
  char *real = realpath(path, NULL);
  if (!real) return nomem(err);
  char *slash = strrchr(real, '/');
  if (slash) *slash = 0;
  char *scen = relative_to(real, sc->str);
  g->output = out ? relative_to(real, out->str) : NULL;
  free(real);
  if (!scen || (out && !g->output)) return free(scen), nomem(err);
  g->scenario = realpath(scen, NULL);
  if (!g->scenario) {
    awe_status st = awe_err_at(err, AWE_ENOFILE, &sc->loc, "scenario %s: cannot open: No such "
                               "file or directory", scen);
    free(scen);
    return st;
  }
  free(scen);
  if (nm) {
    g->name = xstrdup(nm->str);
  } else {
    const char *b = strrchr(path, '/');
    g->name = xstrdup(b ? b + 1 : path);
    char *dot = g->name ? strrchr(g->name, '.') : NULL;
    if (dot && dot != g->name) *dot = 0;
  }
  return g->name ? AWE_OK : nomem(err);
}

awe_sweep_grid *awe_sweep_grid_load(const char *path, awe_err *err) {
  awe_ydoc *doc = awe_ydoc_load_file(path, err);
  if (!doc) return NULL;
  awe_sweep_grid *g = calloc(1, sizeof(*g));
  awe_status st = g ? read_grid(g, doc, path, err) : nomem(err);
  awe_ydoc_free(doc);
  if (st) {
    awe_sweep_grid_free(g);
    return NULL;
  }
  return g;
}
