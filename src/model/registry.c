/* registry.c: variable lists, names and glob selection. */
#include "model/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int awe_varlist_add(awe_varlist *l, const char *group, const char *comp, int comp_index,
                    const char *var, const char *unit, int dim, double perturb, unsigned flags) {
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 32;
    awe_var *v = realloc(l->v, (size_t)cap * sizeof(*v));
    if (!v) return -1;
    l->v = v;
    l->cap = cap;
  }
  awe_var *v = &l->v[l->n];
  v->group = group;
  v->comp = comp;
  v->comp_index = comp_index;
  v->var = var;
  v->unit = unit;
  v->dim = dim;
  v->offset = l->size;
  v->perturb = perturb;
  v->flags = flags | (dim == 3 ? AWE_VF_VECTOR : 0);
  l->size += dim;
  return l->n++;
}


void awe_varlist_free(awe_varlist *l) {
  free(l->v);
  memset(l, 0, sizeof(*l));
}


void awe_registry_free(awe_registry *r) {
  awe_varlist_free(&r->state);
  awe_varlist_free(&r->input);
  awe_varlist_free(&r->output);
}


void awe_var_name(const awe_var *v, char *buf, size_t n) {
  /* group-level variables (wind.v_wind) have no component */
  if (!v->comp || !*v->comp) snprintf(buf, n, "%s.%s", v->group, v->var);
  else snprintf(buf, n, "%s.%s.%s", v->group, v->comp, v->var);
}


void awe_var_scalar_name(const awe_var *v, int k, char *buf, size_t n) {
  static const char *xyz[] = {"x", "y", "z"};
  static const char *wxyz[] = {"w", "x", "y", "z"};
  char base[448];
  awe_var_name(v, base, sizeof(base));
  if (v->dim == 1) snprintf(buf, n, "%s", base);
  else if (v->dim == 3) snprintf(buf, n, "%s.%s", base, xyz[k]);
  else if (v->dim == 4) snprintf(buf, n, "%s.%s", base, wxyz[k]);
  else snprintf(buf, n, "%s.%d", base, k);
}


int awe_varlist_find(const awe_varlist *l, const char *name) {
  char buf[512];
  for (int i = 0; i < l->n; i++) {
    awe_var_name(&l->v[i], buf, sizeof(buf));
    if (!strcmp(buf, name)) return i;
  }
  return -1;
}


int awe_glob_match(const char *p, const char *s) {
  /* iterative matcher with single backtrack point: linear in practice, no recursion */
  const char *star = NULL, *ss = NULL;
  while (*s) {
    if (*p == '?' || *p == *s) {
      p++;
      s++;
    } else if (*p == '*') {
      star = p++;
      ss = s;
    } else if (star) {
      p = star + 1;
      s = ++ss;
    } else {
      return 0;
    }
  }
  while (*p == '*') p++;
  return *p == 0;
}


int awe_glob_match_list(const char *patterns, const char *name) {
  char pat[256];
  const char *s = patterns;
  while (*s) {
    const char *c = strchr(s, ',');
    size_t len = c ? (size_t)(c - s) : strlen(s);
    if (len < sizeof(pat)) {
      memcpy(pat, s, len);
      pat[len] = 0;
      if (len && awe_glob_match(pat, name)) return 1;
    }
    if (!c) break;
    s = c + 1;
  }
  return 0;
}
