/* sparse_lu.c: minimum-degree ordered LU with a fixed pattern (method: sparse_lu.h). */
#include "solve/sparse_lu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct awe_slu {
  int n;
  int *perm, *inv;           /* perm[new] = old, inv[old] = new */
  int *adj_adr, *adj_num;    /* per pivot k: the later unknowns coupled to it (new indices, */
  int *adj;                  /* ascending) */
  long nnz_pat;              /* pattern entries */
  int *mr_adr, *mr_col, *mr_src; /* M's entries by row (new order): column, index in jval */
  int *lr_adr, *lr_idx;      /* per row i: the pivots k < i with i in adj(k), ascending */
  int *lr_num;               /* [n] numerically nonzero l_ik of row i (first in lr_idx order) */
  int *lr_k;                 /* [sum adj] their k, packed per row like lr_idx: L by rows, */
  double *lr_val;            /* [sum adj] their l_ik                          for the solves */
  double *scale;             /* [n] largest |M| of each row before elimination */
  double *w;                 /* [n] work: the row being eliminated, and the solves' vector */
  /* U's nonzeros, packed per pivot for the solves: row k (unum[k] entries from adj_adr[k]),
   * and 1 / U(k, k) */
  int *uidx, *unum;
  double *uval, *dinv;
};


/* pivot k is unknown v, coupled to the later unknowns nb[0..m-1] (old indices for now) */
static int record(awe_slu *s, int k, int v, const int *nb, int m, unsigned char *done,
                  long *cap, long *used) {
  done[v] = 1;
  s->perm[k] = v;
  s->inv[v] = k;
  if (*used + m > *cap) {
    while (*used + m > *cap) *cap *= 2;
    int *t = realloc(s->adj, sizeof(int) * (size_t)*cap);
    if (!t) return -1;
    s->adj = t;
  }
  s->adj_adr[k] = (int)*used;
  s->adj_num[k] = m;
  memcpy(s->adj + *used, nb, sizeof(int) * (size_t)m);
  *used += m;
  return 0;
}


/* a growable int list per unknown (the elimination graph's neighbours, the dependencies) */
typedef struct {
  int *v, num, cap;
} ilist;


static int ilist_add(ilist *l, int x) {
  if (l->num == l->cap) {
    int cap = l->cap ? 2 * l->cap : 8;
    int *t = realloc(l->v, sizeof(int) * (size_t)cap);
    if (!t) return -1;
    l->v = t;
    l->cap = cap;
  }
  l->v[l->num++] = x;
  return 0;
}


static void free_graph(ilist *g, int n) {
  if (!g) return;
  for (size_t i = 0; i < 3 * (size_t)n; i++) free(g[i].v);
  free(g);
}


static int cmp_int(const void *a, const void *b);


/* minimum degree on the symmetrised pattern: eliminate the unknown of least degree (the
 * lowest index among equals), join its neighbours into a clique (the fill), repeat. The
 * neighbours at elimination are the pivot's adj() list. sym: neighbours (grows with the
 * fill), dep/rdep: whom a row depends on / who depends on it (off the diagonal). Lists and a
 * stamp array instead of an n x n bitmap: memory O(n + fill) (a 1000-segment tether has 6000
 * unknowns: the bitmap was 36 MB); time O(n^2) for the searches plus the fill work. */
static int min_degree(awe_slu *s, ilist *sym, const ilist *dep, const ilist *rdep) {
  int n = s->n;
  int *deg = malloc(sizeof(int) * (size_t)n), *nb = malloc(sizeof(int) * (size_t)n);
  int *mark = malloc(sizeof(int) * (size_t)n);
  unsigned char *done = calloc((size_t)n, 1);
  long cap = 0, used = 0;
  int rc = -1, k = 0, stamp = 0;
  if (!deg || !nb || !mark || !done) goto out;
  for (int i = 0; i < n; i++) {
    deg[i] = sym[i].num;
    mark[i] = 0;
  }
  cap = 4L * n + 16;
  s->adj = malloc(sizeof(int) * (size_t)cap);
  if (!s->adj) goto out;
  /* fill-free pivots first: a row with one off-diagonal entry j (a position: d pos/dt = vel)
   * whose dependants all depend on j as well updates only existing entries, so it is
   * eliminated before the graph search, without joining its neighbours */
  for (int v = 0; v < n; v++) {
    if (dep[v].num != 1) continue;
    int j = dep[v].v[0], ok = 1;
    if (done[j]) continue;
    stamp++;
    for (int e = 0; e < rdep[j].num; e++) mark[rdep[j].v[e]] = stamp; /* i depends on j */
    for (int e = 0; e < rdep[v].num && ok; e++) {
      int i = rdep[v].v[e];
      if (i != j && !done[i] && mark[i] != stamp) ok = 0;
    }
    if (!ok) continue;
    int m = 0;
    for (int e = 0; e < sym[v].num; e++) {
      int u = sym[v].v[e];
      if (!done[u]) {
        nb[m++] = u;
        deg[u]--;
      }
    }
    if (record(s, k++, v, nb, m, done, &cap, &used)) goto out;
  }
  for (; k < n; k++) {
    int v = -1;
    for (int i = 0; i < n; i++)
      if (!done[i] && (v < 0 || deg[i] < deg[v])) v = i;
    int m = 0;
    for (int e = 0; e < sym[v].num; e++)
      if (!done[sym[v].v[e]]) nb[m++] = sym[v].v[e];
    qsort(nb, (size_t)m, sizeof(int), cmp_int);
    /* the neighbours form a clique (fill); each loses v */
    for (int a = 0; a < m; a++) {
      ilist *la = sym + nb[a];
      deg[nb[a]]--;
      stamp++;
      for (int e = 0; e < la->num; e++) mark[la->v[e]] = stamp;
      for (int b = 0; b < m; b++)
        if (a != b && mark[nb[b]] != stamp) {
          if (ilist_add(la, nb[b])) goto out;
          mark[nb[b]] = stamp;
          deg[nb[a]]++;
        }
    }
    if (record(s, k, v, nb, m, done, &cap, &used)) goto out;
  }
  rc = 0;
out:
  free(deg);
  free(nb);
  free(mark);
  free(done);
  return rc;
}


static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}


awe_slu *awe_slu_alloc(int n, const int *col_adr, const int *col_num, const int *rows) {
  awe_slu *s = calloc(1, sizeof(*s));
  ilist *g = NULL; /* the graph of min_degree: 3 n lists, freed once ordered */
  if (!s) return NULL;
  s->n = n;
  s->perm = malloc(sizeof(int) * ((size_t)n + 1));
  s->inv = malloc(sizeof(int) * ((size_t)n + 1));
  s->adj_adr = malloc(sizeof(int) * ((size_t)n + 1));
  s->adj_num = malloc(sizeof(int) * ((size_t)n + 1));
  s->scale = calloc((size_t)n + 1, sizeof(double));
  s->w = calloc((size_t)n + 1, sizeof(double));
  g = calloc(3 * (size_t)n + 1, sizeof(ilist));
  if (!s->perm || !s->inv || !s->adj_adr || !s->adj_num || !s->scale || !s->w || !g)
    goto fail;
  ilist *sym = g, *dep = g + n, *rdep = g + 2 * (size_t)n;
  {
    /* the symmetrised graph and the dependencies, each pair once */
    int *seen = malloc(sizeof(int) * ((size_t)n + 1));
    int bad = !seen;
    for (int i = 0; i < n && !bad; i++) seen[i] = -1;
    for (int j = 0; j < n && !bad; j++) {
      s->nnz_pat += col_num[j];
      for (int k = 0; k < col_num[j] && !bad; k++) {
        int i = rows[col_adr[j] + k];
        if (i == j) continue;
        bad = ilist_add(dep + i, j) || ilist_add(rdep + j, i); /* i depends on j */
      }
    }
    for (int i = 0; i < n && !bad; i++) {
      for (int e = 0; e < dep[i].num && !bad; e++) /* i - j for i depending on j ... */
        if (seen[dep[i].v[e]] != i) {
          seen[dep[i].v[e]] = i;
          bad = ilist_add(sym + i, dep[i].v[e]);
        }
      for (int e = 0; e < rdep[i].num && !bad; e++) /* ... and for j depending on i */
        if (seen[rdep[i].v[e]] != i) {
          seen[rdep[i].v[e]] = i;
          bad = ilist_add(sym + i, rdep[i].v[e]);
        }
    }
    free(seen);
    if (bad || min_degree(s, sym, dep, rdep)) goto fail;
  }
  /* adj lists in new indices, ascending (the elimination visits them in order) */
  for (int k = 0; k < n; k++) {
    int *l = s->adj + s->adj_adr[k];
    for (int a = 0; a < s->adj_num[k]; a++) l[a] = s->inv[l[a]];
    qsort(l, (size_t)s->adj_num[k], sizeof(int), cmp_int);
  }
  long na = 0;
  for (int k = 0; k < n; k++) na += s->adj_num[k];
  s->uval = malloc(sizeof(double) * ((size_t)na + 1));
  s->dinv = malloc(sizeof(double) * ((size_t)n + 1));
  s->uidx = malloc(sizeof(int) * ((size_t)na + 1));
  s->unum = calloc((size_t)n + 1, sizeof(int));
  s->mr_adr = calloc((size_t)n + 2, sizeof(int));
  s->mr_col = malloc(sizeof(int) * ((size_t)s->nnz_pat + 1));
  s->mr_src = malloc(sizeof(int) * ((size_t)s->nnz_pat + 1));
  s->lr_adr = calloc((size_t)n + 2, sizeof(int));
  s->lr_idx = malloc(sizeof(int) * ((size_t)na + 1));
  s->lr_num = calloc((size_t)n + 1, sizeof(int));
  s->lr_k = malloc(sizeof(int) * ((size_t)na + 1));
  s->lr_val = malloc(sizeof(double) * ((size_t)na + 1));
  if (!s->uval || !s->dinv || !s->uidx || !s->unum ||
      !s->mr_adr || !s->mr_col || !s->mr_src || !s->lr_adr || !s->lr_idx || !s->lr_num ||
      !s->lr_k || !s->lr_val)
    goto fail;
  /* M's entries grouped by (new) row, in pattern order within a row */
  for (int j = 0; j < n; j++)
    for (int k = 0; k < col_num[j]; k++) s->mr_adr[s->inv[rows[col_adr[j] + k]] + 1]++;
  for (int i = 0; i < n; i++) s->mr_adr[i + 1] += s->mr_adr[i];
  for (int j = 0; j < n; j++)
    for (int k = 0; k < col_num[j]; k++) {
      int i = s->inv[rows[col_adr[j] + k]];
      s->mr_col[s->mr_adr[i]] = s->inv[j];
      s->mr_src[s->mr_adr[i]++] = col_adr[j] + k;
    }
  for (int i = n; i > 0; i--) s->mr_adr[i] = s->mr_adr[i - 1];
  s->mr_adr[0] = 0;
  /* L's pattern by row: row i has the pivots k < i whose adj(k) holds i, ascending */
  for (int k = 0; k < n; k++)
    for (int a = 0; a < s->adj_num[k]; a++) s->lr_adr[s->adj[s->adj_adr[k] + a] + 1]++;
  for (int i = 0; i < n; i++) s->lr_adr[i + 1] += s->lr_adr[i];
  for (int k = 0; k < n; k++)
    for (int a = 0; a < s->adj_num[k]; a++) {
      int i = s->adj[s->adj_adr[k] + a];
      s->lr_idx[s->lr_adr[i] + s->lr_num[i]++] = k;
    }
  free_graph(g, n);
  return s;
fail:
  free_graph(g, n);
  awe_slu_free(s);
  return NULL;
}


void awe_slu_free(awe_slu *s) {
  if (!s) return;
  free(s->perm);
  free(s->inv);
  free(s->adj_adr);
  free(s->adj_num);
  free(s->adj);
  free(s->mr_adr);
  free(s->mr_col);
  free(s->mr_src);
  free(s->lr_adr);
  free(s->lr_idx);
  free(s->lr_num);
  free(s->lr_k);
  free(s->lr_val);
  free(s->scale);
  free(s->w);
  free(s->uval);
  free(s->dinv);
  free(s->uidx);
  free(s->unum);
  free(s);
}


long awe_slu_nnz(const awe_slu *s) {
  long z = s->n;
  for (int k = 0; k < s->n; k++) z += 2L * s->adj_num[k];
  return z;
}


long awe_slu_factor_nnz(const awe_slu *s) {
  long z = s->n;
  for (int k = 0; k < s->n; k++) z += s->lr_num[k] + s->unum[k];
  return z;
}


int awe_slu_factor(awe_slu *s, double c, const double *jval) {
  int n = s->n;
  double *w = s->w;
  /* row by row in the new order (Doolittle, "up-looking"): row i of M scattered into the
   * dense work row w, then the earlier pivots k of its L pattern, ascending:
   * l_ik = w[k] / U(k, k), w[j] -= l_ik U(k, j). Each entry receives the same updates in the
   * same order as right-looking elimination (the numbers are identical); the work stays in w
   * and the packed factors instead of an n x n array, which grew as n^2 (a 1000-segment
   * tether: 6000 states, 290 MB allocated) */
  for (int i = 0; i < n; i++) {
    const int *lk = s->lr_idx + s->lr_adr[i], *l = s->adj + s->adj_adr[i];
    int nlk = s->lr_adr[i + 1] - s->lr_adr[i], m = s->adj_num[i];
    for (int e = 0; e < nlk; e++) w[lk[e]] = 0.0;
    for (int e = 0; e < m; e++) w[l[e]] = 0.0;
    w[i] = 0.0;
    for (int e = s->mr_adr[i]; e < s->mr_adr[i + 1]; e++) {
      double v = -c * jval[s->mr_src[e]];
      w[s->mr_col[e]] = fabs(v) < AWE_SLU_DROP ? 0.0 : v; /* negligible: no fill from it */
    }
    w[i] += 1.0;
    double sc = fabs(w[i]);
    for (int e = 0; e < m; e++)
      if (fabs(w[l[e]]) > sc) sc = fabs(w[l[e]]);
    s->scale[i] = sc;
    int nl = 0;
    int *rk = s->lr_k + s->lr_adr[i];
    double *rv = s->lr_val + s->lr_adr[i];
    for (int e = 0; e < nlk; e++) {
      int k = lk[e];
      double lik = w[k] * s->dinv[k];
      if (lik == 0.0) continue;
      rk[nl] = k;
      rv[nl++] = lik;
      const int *ui = s->uidx + s->adj_adr[k];
      const double *uv = s->uval + s->adj_adr[k];
      for (int f = 0; f < s->unum[k]; f++) w[ui[f]] -= lik * uv[f];
    }
    s->lr_num[i] = nl;
    double piv = w[i];
    if (!(fabs(piv) > 1e-10 * s->scale[i])) return -1;
    s->dinv[i] = 1.0 / piv;
    int nu = 0;
    int *ui = s->uidx + s->adj_adr[i];
    double *uv = s->uval + s->adj_adr[i];
    for (int f = 0; f < m; f++)
      if (w[l[f]] != 0.0) {
        ui[nu] = l[f];
        uv[nu++] = w[l[f]];
      }
    s->unum[i] = nu;
  }
  return 0;
}


void awe_slu_solve(awe_slu *s, double *b) {
  int n = s->n;
  double *w = s->w;
  for (int k = 0; k < n; k++) w[k] = b[s->perm[k]];
  /* L y = P b by rows: y_i = b_i - sum_k l_ik y_k, k ascending (the order in which the column
   * form subtracted them: the same numbers), a gather instead of a scatter */
  for (int i = 0; i < n; i++) {
    const int *lk = s->lr_k + s->lr_adr[i];
    const double *lv = s->lr_val + s->lr_adr[i];
    double v = w[i];
    for (int e = 0; e < s->lr_num[i]; e++) v -= lv[e] * w[lk[e]];
    w[i] = v;
  }
  for (int k = n - 1; k >= 0; k--) { /* U x = y */
    const int *ui = s->uidx + s->adj_adr[k];
    const double *uv = s->uval + s->adj_adr[k];
    double v = w[k];
    for (int e = 0; e < s->unum[k]; e++) v -= uv[e] * w[ui[e]];
    w[k] = v * s->dinv[k];
  }
  for (int k = 0; k < n; k++) b[s->perm[k]] = w[k];
}
