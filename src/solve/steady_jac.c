/* steady_jac.c: the steady state's sparse Newton matrix (method: steady_jac.h). */
#include "solve/steady_jac.h"

#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solve/sparse_lu.h"
#include "util/kite_frames.h"

struct awe_steady_jac {
  awe_integrator *it;
  int np;
  int *adr, *num, *rows;   /* J_gen by columns (generalized rows) */
  int *src;                /* [4 nnz] where entry e's values sit in jval: plain columns use */
                           /* src[4e], rotation columns one per quaternion column (-1: none) */
  int *qoff, *axis;        /* per column: the quaternion's offset (-1: plain), axis */
  double *jval;            /* the integrator's Jacobian on its pattern */
  double *val;             /* J_gen on its pattern */
  double sigma;            /* of the factorisation */
  double sigma_dense;      /* the sparse LU failed at this sigma: dense at or below it */
  awe_slu *lu;
  int dense;               /* the last factorisation is the dense one */
  double *m;               /* [np * np] the dense fallback, once used */
  gsl_permutation *perm;
};


int awe_steady_jac_coords(const awe_model *m, const awe_work *w, int *P, int *A) {
  int np = 0;
  for (int i = 0; i < m->npoint; i++)
    if (w->point_x[i] >= 0)
      for (int k = 0; k < 3; k++) {
        P[np] = w->point_x[i] + k;
        A[np++] = w->point_x[i] + 3 + k;
      }
  for (int i = 0; i < m->npulley; i++)
    if (w->pulley_x[i] >= 0) {
      P[np] = w->pulley_x[i];
      A[np++] = w->pulley_x[i] + 1;
    }
  for (int j = 0; j < m->nwing; j++)
    if (w->wing_x[j] >= 0)
      for (int k = 0; k < 3; k++) {
        P[np] = w->wing_x[j] + k;
        A[np++] = w->wing_x[j] + 3 + k;
        P[np] = -1 - (4 * (w->wing_x[j] + 6) + k);
        A[np++] = w->wing_x[j] + 10 + k;
      }
  /* rigid bodies (body.h): centre of mass, and the orientation as a rotation vector in the
   * body frame (Q <- Q (x) q(phi)) against the body-frame angular acceleration */
  for (int j = 0; j < m->nbody; j++)
    if (w->body_x[j] >= 0)
      for (int k = 0; k < 3; k++) {
        P[np] = w->body_x[j] + k;
        A[np++] = w->body_x[j] + 3 + k;
        P[np] = -1 - (4 * (w->body_x[j] + 6) + k);
        A[np++] = w->body_x[j] + 10 + k;
      }
  for (int k = 0; k < m->ngroup; k++)
    if (w->group_x[k] >= 0) {
      P[np] = w->group_x[k];
      A[np++] = w->group_x[k] + 1;
    }
  return np;
}


void awe_steady_jac_free(awe_steady_jac *g) {
  if (!g) return;
  free(g->adr);
  free(g->num);
  free(g->rows);
  free(g->src);
  free(g->qoff);
  free(g->axis);
  free(g->jval);
  free(g->val);
  free(g->m);
  if (g->perm) gsl_permutation_free(g->perm);
  awe_slu_free(g->lu);
  free(g);
}


awe_steady_jac *awe_steady_jac_alloc(awe_integrator *it, const awe_work *w, int n, const int *P,
                                     const int *A, int np) {
  const int *jadr, *jnum, *jrows;
  awe_integrator_pattern(it, &jadr, &jnum, &jrows);
  (void)w; /* the coordinates carry their quaternion offsets */
  awe_steady_jac *g = calloc(1, sizeof(*g));
  int *rowgen = malloc(sizeof(int) * ((size_t)n + 1));
  int *stamp = malloc(sizeof(int) * ((size_t)np + 1)), *pos = malloc(sizeof(int) * ((size_t)np + 1));
  if (!g || !rowgen || !stamp || !pos) goto fail;
  g->it = it;
  g->np = np;
  g->adr = malloc(sizeof(int) * ((size_t)np + 1));
  g->num = calloc((size_t)np + 1, sizeof(int));
  g->qoff = malloc(sizeof(int) * ((size_t)np + 1));
  g->axis = calloc((size_t)np + 1, sizeof(int));
  if (!g->adr || !g->num || !g->qoff || !g->axis) goto fail;
  /* the source columns of each coordinate, and a bound on the entries */
  long cap = 0, jnnz = 0;
  for (int j = 0; j < n; j++) jnnz += jnum[j];
  for (int c = 0; c < np; c++) {
    if (P[c] >= 0) {
      g->qoff[c] = -1;
      cap += jnum[P[c]];
    } else {
      int code = -1 - P[c];
      g->qoff[c] = code / 4; /* the quaternion's offset in the state */
      g->axis[c] = code % 4;
      for (int q = 0; q < 4; q++) cap += jnum[g->qoff[c] + q];
    }
  }
  g->rows = malloc(sizeof(int) * ((size_t)cap + 1));
  g->src = malloc(sizeof(int) * 4 * ((size_t)cap + 1));
  g->jval = calloc((size_t)jnnz + 1, sizeof(double));
  if (!g->rows || !g->src || !g->jval) goto fail;
  for (int i = 0; i < n; i++) rowgen[i] = -1;
  for (int i = 0; i < np; i++) rowgen[A[i]] = i;
  for (int i = 0; i < np; i++) stamp[i] = -1;
  int nnz = 0;
  for (int c = 0; c < np; c++) {
    g->adr[c] = nnz;
    int ncol = P[c] >= 0 ? 1 : 4;
    for (int q = 0; q < ncol; q++) {
      int col = P[c] >= 0 ? P[c] : g->qoff[c] + q;
      for (int e = 0; e < jnum[col]; e++) {
        int i = rowgen[jrows[jadr[col] + e]];
        if (i < 0) continue;
        if (stamp[i] != c) {
          stamp[i] = c;
          pos[i] = nnz;
          g->rows[nnz] = i;
          for (int k = 0; k < 4; k++) g->src[4 * nnz + k] = -1;
          nnz++;
        }
        g->src[4 * pos[i] + q] = jadr[col] + e;
      }
    }
    g->num[c] = nnz - g->adr[c];
  }
  g->val = calloc((size_t)nnz + 1, sizeof(double));
  g->lu = awe_slu_alloc(np, g->adr, g->num, g->rows);
  if (!g->val || !g->lu) goto fail;
  free(rowgen);
  free(stamp);
  free(pos);
  return g;
fail:
  free(rowgen);
  free(stamp);
  free(pos);
  awe_steady_jac_free(g);
  return NULL;
}


int awe_steady_jac_eval(awe_steady_jac *g, const double *y, double *dmax) {
  int st = awe_jacobian_sparse(g->it, 0.0, y, g->jval);
  if (st != 0) return st;
  *dmax = 0.0;
  for (int c = 0; c < g->np; c++) {
    const int *src = g->src + 4 * g->adr[c];
    double *v = g->val + g->adr[c];
    if (g->qoff[c] < 0) {
      for (int e = 0; e < g->num[c]; e++) v[e] = g->jval[src[4 * e]];
    } else {
      /* dQ/dphi_axis = 1/2 Q (x) (0, e_axis) */
      double e4[4] = {0.0, 0.0, 0.0, 0.0}, dq[4];
      e4[1 + g->axis[c]] = 1.0;
      awe_quat_mul(y + g->qoff[c], e4, dq);
      for (int e = 0; e < g->num[c]; e++) {
        double s = 0.0;
        for (int q = 0; q < 4; q++)
          if (src[4 * e + q] >= 0) s += g->jval[src[4 * e + q]] * dq[q];
        v[e] = 0.5 * s;
      }
    }
    for (int e = 0; e < g->num[c]; e++)
      if (g->rows[g->adr[c] + e] == c && fabs(v[e]) > *dmax) *dmax = fabs(v[e]);
  }
  return 0;
}


int awe_steady_jac_factor(awe_steady_jac *g, double sigma) {
  g->sigma = sigma;
  g->dense = 0;
  /* a smaller sigma makes the diagonal no larger: once the sparse LU failed, it is not
   * tried again at or below that sigma */
  if (sigma > g->sigma_dense) {
    if (sigma > 0.0 && awe_slu_factor(g->lu, 1.0 / sigma, g->val) == 0) return 0;
    g->sigma_dense = sigma;
  }
  /* a pivot the diagonal LU cannot take: dense, partial pivoting (allocated at the first) */
  int np = g->np, sgn;
  if (!g->m) g->m = malloc(sizeof(double) * (size_t)np * (size_t)np);
  if (!g->perm) g->perm = gsl_permutation_alloc((size_t)np);
  if (!g->m || !g->perm) return -1;
  memset(g->m, 0, sizeof(double) * (size_t)np * (size_t)np);
  for (int c = 0; c < np; c++)
    for (int e = 0; e < g->num[c]; e++)
      g->m[(size_t)g->rows[g->adr[c] + e] * (size_t)np + (size_t)c] = -g->val[g->adr[c] + e];
  for (int k = 0; k < np; k++) g->m[(size_t)k * (size_t)np + (size_t)k] += sigma;
  gsl_matrix_view mv = gsl_matrix_view_array(g->m, (size_t)np, (size_t)np);
  gsl_linalg_LU_decomp(&mv.matrix, g->perm, &sgn);
  for (int k = 0; k < np; k++)
    if (!(fabs(g->m[(size_t)k * (size_t)np + (size_t)k]) > 1e-300)) return -1;
  g->dense = 1;
  return 0;
}


void awe_steady_jac_solve(awe_steady_jac *g, const double *r, double *dx) {
  int np = g->np;
  if (dx != r) memcpy(dx, r, sizeof(double) * (size_t)np);
  if (g->dense) {
    gsl_matrix_view mv = gsl_matrix_view_array(g->m, (size_t)np, (size_t)np);
    gsl_vector_view xv = gsl_vector_view_array(dx, (size_t)np);
    gsl_linalg_LU_svx(&mv.matrix, g->perm, &xv.vector);
    return;
  }
  awe_slu_solve(g->lu, dx);
  for (int k = 0; k < np; k++) dx[k] /= g->sigma;
}
