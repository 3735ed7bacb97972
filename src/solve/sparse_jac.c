/* sparse_jac.c: the implicit steppers' sparse Jacobian, LU and co-rotation (sparse_jac.h). */
#include "solve/sparse_jac.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solve/corotate.h"
#include "solve/jac_color.h"


void awe_sjac_free(awe_sjac *w) {
  free(w->color_adr);
  free(w->color_cols);
  free(w->col_adr);
  free(w->col_num);
  free(w->rows);
  free(w->jval);
  awe_slu_free(w->lu);
  free(w->rot_adr);
  free(w->rot_num);
  free(w->rot_idx);
  free(w->R_j);
  free(w->R_s);
  free(w->R_d);
  memset(w, 0, sizeof(*w));
}


/* install p into the empty w; -1 when out of memory (w partly filled: the caller frees it) */
static int install(awe_sjac *w, const awe_jac_pattern *p) {
  int n = p->n, nnz = 0;
  for (int j = 0; j < n; j++) nnz += p->col_num[j];
  w->n = n;
  w->njac = p->njac;
  w->nfact = p->nfact;
  w->nsolve = p->nsolve;
  w->nnewton_tr = p->nnewton_tr;
  w->nnewton_bdf = p->nnewton_bdf;
  w->nnewton_fail = p->nnewton_fail;
  w->jac = p->analytic ? p->jac : NULL;
  w->jac_ctx = p->jac_ctx;
  w->color_adr = calloc((size_t)n + 2, sizeof(int));
  w->color_cols = malloc(sizeof(int) * ((size_t)n + 1));
  w->col_adr = calloc((size_t)n + 1, sizeof(int));
  w->col_num = calloc((size_t)n + 1, sizeof(int));
  w->rows = calloc((size_t)nnz + 1, sizeof(int));
  w->jval = calloc((size_t)nnz + 1, sizeof(double));
  int *color = malloc(sizeof(int) * ((size_t)n + 1));
  int *num = calloc((size_t)n + 1, sizeof(int));
  int *fill = NULL, rc = -1;
  if (!w->color_adr || !w->color_cols || !w->col_adr || !w->col_num || !w->rows || !w->jval ||
      !color || !num)
    goto out;
  for (int j = 0, a = 0; j < n; j++) {
    w->col_adr[j] = a;
    w->col_num[j] = p->col_num[j];
    memcpy(w->rows + a, p->rows + p->col_adr[j], sizeof(int) * (size_t)p->col_num[j]);
    a += p->col_num[j];
  }
  /* analytic columns take no part in the differences: no rows for the colouring */
  for (int j = 0; j < n; j++) num[j] = w->jac && p->analytic[j] ? 0 : w->col_num[j];
  w->ncolor = awe_color_columns(n, w->col_adr, num, w->rows, color);
  if (w->ncolor < 0) goto out;
  for (int j = 0; j < n; j++)
    if (w->jac && p->analytic[j]) color[j] = -1;
  for (int j = 0; j < n; j++)
    if (color[j] >= 0) w->color_adr[color[j] + 1]++;
  for (int c = 0; c < w->ncolor; c++) w->color_adr[c + 1] += w->color_adr[c];
  fill = calloc((size_t)w->ncolor + 1, sizeof(int));
  if (!fill) goto out;
  for (int j = 0; j < n; j++)
    if (color[j] >= 0) w->color_cols[w->color_adr[color[j]] + fill[color[j]]++] = j;
  w->lu = awe_slu_alloc(n, w->col_adr, w->col_num, w->rows);
  if (!w->lu) goto out;
  if (p->nframe > 0 && p->frame) {
    int nf = p->nframe, nb = p->rot_adr[nf - 1] + p->rot_num[nf - 1];
    w->rot_adr = malloc(sizeof(int) * (size_t)nf);
    w->rot_num = malloc(sizeof(int) * (size_t)nf);
    w->rot_idx = malloc(sizeof(int) * ((size_t)nb + 1));
    w->R_j = calloc(9 * (size_t)nf, sizeof(double));
    w->R_s = calloc(9 * (size_t)nf, sizeof(double));
    w->R_d = calloc(9 * (size_t)nf, sizeof(double));
    if (!w->rot_adr || !w->rot_num || !w->rot_idx || !w->R_j || !w->R_s || !w->R_d) goto out;
    memcpy(w->rot_adr, p->rot_adr, sizeof(int) * (size_t)nf);
    memcpy(w->rot_num, p->rot_num, sizeof(int) * (size_t)nf);
    memcpy(w->rot_idx, p->rot_idx, sizeof(int) * (size_t)nb);
    w->frame = p->frame;
    w->frame_ctx = p->frame_ctx;
    w->nframe = nf;
  }
  rc = 0;
out:
  free(fill);
  free(color);
  free(num);
  return rc;
}


int awe_sjac_set_pattern(awe_sjac *w, int n, const awe_jac_pattern *p) {
  if (!p || p->n != n) return GSL_EBADLEN;
  awe_sjac next;
  memset(&next, 0, sizeof(next));
  if (install(&next, p)) {
    awe_sjac_free(&next);
    return GSL_ENOMEM;
  }
  awe_sjac_free(w);
  *w = next;
  return GSL_SUCCESS;
}


int awe_sjac_set_dense(awe_sjac *w, int n) {
  int rc = GSL_ENOMEM;
  int *adr = malloc(sizeof(int) * ((size_t)n + 1)), *num = malloc(sizeof(int) * ((size_t)n + 1));
  int *rows = malloc(sizeof(int) * ((size_t)n * (size_t)n + 1));
  if (adr && num && rows) {
    for (int j = 0; j < n; j++) {
      adr[j] = j * n;
      num[j] = n;
      for (int i = 0; i < n; i++) rows[j * n + i] = i;
    }
    awe_jac_pattern p = {.n = n, .col_adr = adr, .col_num = num, .rows = rows};
    rc = awe_sjac_set_pattern(w, n, &p);
  }
  free(adr);
  free(num);
  free(rows);
  return rc;
}


int awe_sjac_eval(awe_sjac *w, const gsl_odeiv2_system *sys, double t, const double *y,
                  const double *fy, double *yp, double *f1) {
  const double sq = sqrt(DBL_EPSILON);
  if (w->njac) (*w->njac)++;
  if (w->jac) {
    int st = w->jac(w->jac_ctx, t, y, w->jval);
    if (st != GSL_SUCCESS) return st;
  }
  memcpy(yp, y, sizeof(double) * (size_t)w->n);
  for (int c = 0; c < w->ncolor; c++) {
    const int *cols = w->color_cols + w->color_adr[c];
    int nc = w->color_adr[c + 1] - w->color_adr[c];
    if (nc == 0) continue;
    for (int k = 0; k < nc; k++) {
      int j = cols[k];
      yp[j] = y[j] + sq * (fabs(y[j]) > 1.0 ? fabs(y[j]) : 1.0);  /* as awe_jacobian_fd */
    }
    int st = GSL_ODEIV_FN_EVAL(sys, t, yp, f1);
    if (st != GSL_SUCCESS) return st;
    for (int k = 0; k < nc; k++) {
      int j = cols[k];
      double inv_h = 1.0 / (yp[j] - y[j]); /* the step actually taken */
      double *jv = w->jval + w->col_adr[j];
      const int *rows = w->rows + w->col_adr[j];
      for (int e = 0; e < w->col_num[j]; e++) jv[e] = (f1[rows[e]] - fy[rows[e]]) * inv_h;
      yp[j] = y[j];
    }
  }
  if (w->nframe > 0) w->frame(w->frame_ctx, y, w->R_j);
  w->have_rd = 0;
  return GSL_SUCCESS;
}


int awe_sjac_factor(awe_sjac *w, double c) {
  if (w->nfact) (*w->nfact)++;
  return awe_slu_factor(w->lu, c, w->jval);
}


void awe_sjac_turn_at(awe_sjac *w, const double *y) {
  if (w->nframe == 0) return;
  w->frame(w->frame_ctx, y, w->R_s);
  awe_corot_relative(w->nframe, w->R_s, w->R_j, w->R_d);
  w->have_rd = 1;
}


void awe_sjac_solve(const awe_sjac *w, double *v) {
  if (w->have_rd)
    awe_corot_turn(w->nframe, w->R_d, w->rot_adr, w->rot_num, w->rot_idx, v, 1);
  if (w->nsolve) (*w->nsolve)++;
  awe_slu_solve(w->lu, v);
  if (w->have_rd)
    awe_corot_turn(w->nframe, w->R_d, w->rot_adr, w->rot_num, w->rot_idx, v, 0);
}
