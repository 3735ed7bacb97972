/* modal.c: eigenvalues, frequencies, damping ratios and participation of a state matrix.
 *
 * Equations and sources: see modal.h.
 */
#include "analysis/modal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_complex_math.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "util/offload.h"

#define TWO_PI 6.28318530717958647692


static int mode_cmp(const void *a, const void *b) {
  const awe_mode *x = a, *y = b;
  if (x->freq != y->freq) return x->freq < y->freq ? -1 : 1;
  if (x->re != y->re) return x->re < y->re ? -1 : 1;
  return 0;
}


/* V^-1 into inv; 0 on success, -1 when V is singular or badly conditioned */
static int invert(const gsl_matrix_complex *V, gsl_matrix_complex *inv) {
  size_t n = V->size1;
  gsl_matrix_complex *lu = gsl_matrix_complex_alloc(n, n);
  gsl_permutation *p = gsl_permutation_alloc(n);
  int rc = -1, sg;
  if (lu && p) {
    gsl_matrix_complex_memcpy(lu, V);
    if (gsl_linalg_complex_LU_decomp(lu, p, &sg) == GSL_SUCCESS) {
      /* columns of V have unit norm: a tiny pivot means (near) linear dependence */
      double pmin = INFINITY;
      for (size_t i = 0; i < n; i++) {
        double a = gsl_complex_abs(gsl_matrix_complex_get(lu, i, i));
        if (a < pmin) pmin = a;
      }
      if (pmin > 1e-7 && gsl_linalg_complex_LU_invert(lu, p, inv) == GSL_SUCCESS) {
        rc = 0;
        for (size_t i = 0; i < n && !rc; i++)
          for (size_t j = 0; j < n && !rc; j++) {
            gsl_complex z = gsl_matrix_complex_get(inv, i, j);
            if (!isfinite(GSL_REAL(z)) || !isfinite(GSL_IMAG(z)) || gsl_complex_abs(z) > 1e7)
              rc = -1;
          }
      }
    }
  }
  gsl_matrix_complex_free(lu);
  gsl_permutation_free(p);
  return rc;
}


/* the modes, unclassified */
static awe_status modal_raw(const double *A, int n, awe_mode **modes, int *nmodes,
                            awe_err *err) {
  *modes = NULL;
  *nmodes = 0;
  if (n <= 0) return AWE_OK;
  for (long i = 0; i < (long)n * n; i++)
    if (!isfinite(A[i])) return awe_err_set(err, AWE_EINVAL, "modal: A has non-finite entries");
  size_t sn = (size_t)n;
  gsl_matrix *a = gsl_matrix_alloc(sn, sn);
  gsl_vector_complex *ev = gsl_vector_complex_alloc(sn);
  gsl_matrix_complex *V = gsl_matrix_complex_alloc(sn, sn);
  gsl_matrix_complex *Vi = gsl_matrix_complex_alloc(sn, sn);
  gsl_eigen_nonsymmv_workspace *ws = gsl_eigen_nonsymmv_alloc(sn);
  awe_mode *out = calloc(sn, sizeof(*out));
  double *sh = malloc(sizeof(double) * sn);
  gsl_vector_complex *evT = NULL;
  gsl_matrix_complex *VT = NULL;
  unsigned char *usedT = NULL;
  awe_status st = AWE_OK;
  if (!a || !ev || !V || !Vi || !ws || !out || !sh) {
    st = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto done;
  }
  memcpy(a->data, A, sizeof(double) * sn * sn); /* tda == n for a fresh matrix */
  if (gsl_eigen_nonsymmv(a, ev, V, ws) != GSL_SUCCESS) {
    st = awe_err_set(err, AWE_ENOCONV, "modal: the eigenvalue iteration did not converge");
    goto done;
  }
  int have_inv = invert(V, Vi) == 0;
  if (!have_inv) {
    /* left eigenvectors from A^T, matched to the eigenvalues of A one by one */
    for (size_t i = 0; i < sn; i++)
      for (size_t j = 0; j < sn; j++) gsl_matrix_set(a, i, j, A[j * sn + i]);
    evT = gsl_vector_complex_alloc(sn);
    VT = gsl_matrix_complex_alloc(sn, sn);
    usedT = calloc(sn, 1);
    if (!evT || !VT || !usedT) {
      st = awe_err_set(err, AWE_ENOMEM, "out of memory");
      goto done;
    }
    if (gsl_eigen_nonsymmv(a, evT, VT, ws) != GSL_SUCCESS) {
      gsl_vector_complex_free(evT);
      evT = NULL;
    }
  }
  int m = 0;
  for (size_t i = 0; i < sn; i++) {
    gsl_complex l = gsl_vector_complex_get(ev, i);
    double re = GSL_REAL(l), im = GSL_IMAG(l);
    if (im < 0.0) continue; /* the conjugate of a listed pair */
    awe_mode *md = &out[m++];
    md->re = re;
    md->im = im;
    md->pair = im > 0.0;
    double mag = hypot(re, im);
    md->freq = mag / TWO_PI;
    md->zeta = mag > 0.0 ? -re / mag + 0.0 : NAN; /* + 0.0: no "-0" */
    md->tau = re != 0.0 ? -1.0 / re : INFINITY;
    /* left eigenvector: a row of V^-1, or the closest unused eigenvalue of A^T */
    long jt = -1;
    if (!have_inv && evT) {
      double best = INFINITY;
      for (size_t j = 0; j < sn; j++) {
        if (usedT[j]) continue;
        double d = gsl_complex_abs(gsl_complex_sub(gsl_vector_complex_get(evT, j), l));
        if (d < best) {
          best = d;
          jt = (long)j;
        }
      }
      if (jt >= 0) {
        usedT[jt] = 1;
        gsl_complex dot = gsl_complex_rect(0.0, 0.0);
        for (size_t k = 0; k < sn; k++)
          dot = gsl_complex_add(dot, gsl_complex_mul(gsl_matrix_complex_get(V, k, i),
                                                     gsl_matrix_complex_get(VT, k, (size_t)jt)));
        if (gsl_complex_abs(dot) < 1e-6) jt = -1; /* defective: left and right orthogonal */
      }
    }
    md->fallback = !have_inv && jt < 0;
    double sum = 0.0;
    for (size_t k = 0; k < sn; k++) {
      gsl_complex v = gsl_matrix_complex_get(V, k, i);
      double s;
      if (have_inv) s = gsl_complex_abs(gsl_complex_mul(v, gsl_matrix_complex_get(Vi, i, k)));
      else if (jt >= 0)
        s = gsl_complex_abs(gsl_complex_mul(v, gsl_matrix_complex_get(VT, k, (size_t)jt)));
      else s = gsl_complex_abs2(v);
      sh[k] = s;
      sum += s;
    }
    for (int t = 0; t < AWE_MODE_TOP; t++) {
      md->top[t] = -1;
      md->share[t] = 0.0;
    }
    for (int t = 0; t < AWE_MODE_TOP; t++) {
      int best = -1;
      for (size_t k = 0; k < sn; k++) {
        int taken = 0;
        for (int q = 0; q < t; q++) taken |= md->top[q] == (int)k;
        if (!taken && (best < 0 || sh[k] > sh[best])) best = (int)k;
      }
      if (best < 0) break;
      md->top[t] = best;
      md->share[t] = sum > 0.0 ? sh[best] / sum : 0.0;
    }
  }
  qsort(out, (size_t)m, sizeof(*out), mode_cmp);
  *modes = out;
  *nmodes = m;
  out = NULL;
done:
  gsl_matrix_free(a);
  gsl_vector_complex_free(ev);
  gsl_matrix_complex_free(V);
  gsl_matrix_complex_free(Vi);
  if (ws) gsl_eigen_nonsymmv_free(ws);
  gsl_vector_complex_free(evT);
  gsl_matrix_complex_free(VT);
  free(usedT);
  free(out);
  free(sh);
  return st;
}


const char *awe_mode_class_name(awe_mode_class c) {
  switch (c) {
    case AWE_MODE_UNSTABLE: return "unstable";
    case AWE_MODE_UNDAMPED: return "undamped";
    case AWE_MODE_ZERO: return "zero";
    default: return "stable";
  }
}


void awe_modal_classify(awe_mode *md, int nm, double zero_rel) {
  if (!(zero_rel > 0.0)) zero_rel = AWE_MODE_ZERO_REL;
  double big = 0.0;
  for (int i = 0; i < nm; i++) {
    double a = hypot(md[i].re, md[i].im);
    if (a > big) big = a;
  }
  double zmax = zero_rel * big < AWE_MODE_ZERO_ABS ? zero_rel * big : AWE_MODE_ZERO_ABS;
  for (int i = 0; i < nm; i++) {
    awe_mode *x = &md[i];
    if (hypot(x->re, x->im) <= zmax) {
      x->cls = AWE_MODE_ZERO;
      x->freq = 0.0;
      x->zeta = NAN;
      x->tau = NAN;
    } else if (fabs(x->zeta) <= AWE_MODE_UNDAMPED_ZETA) {
      x->cls = AWE_MODE_UNDAMPED;
    } else {
      x->cls = x->re > 0.0 ? AWE_MODE_UNSTABLE : AWE_MODE_STABLE;
    }
  }
}


awe_status awe_modal(const double *A, int n, awe_mode **modes, int *nmodes, awe_err *err) {
  AWE_TRY(modal_raw(A, n, modes, nmodes, err));
  awe_modal_classify(*modes, *nmodes, 0.0);
  return AWE_OK;
}


double awe_modal_cost(int n) { return AWE_MODAL_SEC_PER_N3 * (double)n * (double)n * (double)n; }


typedef struct {
  const double *A;
  int n;
} modal_job;

/* in the child: [int nmodes][awe_mode x nmodes] */
static awe_status modal_child(void *arg, void **out, size_t *nout, awe_err *err) {
  const modal_job *j = arg;
  awe_mode *md = NULL;
  int nm = 0;
  AWE_TRY(modal_raw(j->A, j->n, &md, &nm, err));
  size_t sz = sizeof(int) + sizeof(awe_mode) * (size_t)nm;
  char *buf = malloc(sz);
  if (!buf) {
    free(md);
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  memcpy(buf, &nm, sizeof(int));
  if (nm) memcpy(buf + sizeof(int), md, sizeof(awe_mode) * (size_t)nm);
  free(md);
  *out = buf;
  *nout = sz;
  return AWE_OK;
}


static int guard_tripped(void *g) { return awe_guard_poll(g, 0.0, 1) != AWE_GUARD_OK; }


awe_status awe_modal_guarded(const double *A, int n, double zero_rel, awe_guard *g,
                             awe_mode **modes, int *nmodes, awe_err *err) {
  *modes = NULL;
  *nmodes = 0;
  if (!g) {
    AWE_TRY(modal_raw(A, n, modes, nmodes, err));
    awe_modal_classify(*modes, *nmodes, zero_rel);
    return AWE_OK;
  }
  if (guard_tripped(g)) return awe_guard_error(g, err);
  modal_job j = {A, n};
  void *buf = NULL;
  size_t nb = 0;
  awe_status st = awe_offload(modal_child, &j, guard_tripped, g, &buf, &nb, err);
  if (st == AWE_EINTR && g->why) return awe_guard_error(g, err);
  if (st) return st;
  int nm = 0;
  if (nb >= sizeof(int)) memcpy(&nm, buf, sizeof(int));
  if (nb < sizeof(int) || nm < 0 || nm > n || nb != sizeof(int) + sizeof(awe_mode) * (size_t)nm) {
    free(buf);
    return awe_err_set(err, AWE_EINTERNAL, "modal: the child process sent %zu bytes", nb);
  }
  awe_mode *md = malloc(sizeof(awe_mode) * ((size_t)nm + 1));
  if (!md) {
    free(buf);
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  if (nm) memcpy(md, (char *)buf + sizeof(int), sizeof(awe_mode) * (size_t)nm);
  free(buf);
  awe_modal_classify(md, nm, zero_rel);
  *modes = md;
  *nmodes = nm;
  return AWE_OK;
}
