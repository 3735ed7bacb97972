/* mann.c: Mann's sheared spectral tensor and the box drawn from it (equations in mann.h). */
#include "turb/mann.h"

#include <fftw3.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_hyperg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem_budget.h"

#define BETA_N 4001          /* table points over ln(kL) in [-BETA_LN, BETA_LN] */
#define BETA_LN 16.0         /* kL from 1e-7 to 9e6: beyond, its asymptotes */


void awe_mann_defaults(awe_mann_spec *s) {
  memset(s, 0, sizeof(*s));
  s->n[0] = 4096;
  s->n[1] = s->n[2] = 64;
  s->d[0] = s->d[1] = s->d[2] = 2.0;
  s->gamma = 3.9;
  s->length = 33.6;
  s->ae = 0.1;
  s->ti = 0.0;
  s->v_ref = 10.0;
  s->h_ref = 200.0;
  s->z_bottom = NAN; /* h_ref minus half the box height */
  s->seed = 1;
}


double awe_mann_hyp2f1(double z) {
  /* Pfaff: (1 - z)^(-1/3) 2F1(1/3, 4/3 - 17/6; 4/3; z / (z - 1)) */
  double x = z / (z - 1.0);
  gsl_sf_result r;
  if (gsl_sf_hyperg_2F1_e(1.0 / 3.0, -1.5, 4.0 / 3.0, x, &r) != 0) return NAN;
  return pow(1.0 - z, -1.0 / 3.0) * r.val;
}


double awe_mann_beta(double gamma, double kl) {
  if (!(kl > 0.0)) return 0.0;
  return gamma * pow(kl, -2.0 / 3.0) / sqrt(awe_mann_hyp2f1(-1.0 / (kl * kl)));
}


/* beta / Gamma tabulated in ln(kL) */
typedef struct {
  double b[BETA_N];
} beta_table;


static void beta_fill(beta_table *t) {
  for (int i = 0; i < BETA_N; i++) {
    double ln = -BETA_LN + 2.0 * BETA_LN * i / (BETA_N - 1);
    t->b[i] = awe_mann_beta(1.0, exp(ln));
  }
}


static double beta_lookup(const beta_table *t, double kl) {
  if (!(kl > 0.0)) return 0.0;
  double s = (log(kl) + BETA_LN) / (2.0 * BETA_LN) * (BETA_N - 1);
  if (s <= 0.0) return t->b[0] * exp(-(s / (BETA_N - 1)) * 2 * BETA_LN); /* ~ 1/(kL) below */
  if (s >= BETA_N - 1) return pow(kl, -2.0 / 3.0);                       /* 2F1 -> 1 above */
  int i = (int)s;
  double f = s - i;
  return (1.0 - f) * t->b[i] + f * t->b[i + 1];
}


/* C(k) for unit ae with beta given */
static void matrix_beta(double L, double beta, const double k[3], double C[9]) {
  double k1 = k[0], k2 = k[1], k3 = k[2];
  double kk = k1 * k1 + k2 * k2 + k3 * k3;
  memset(C, 0, 9 * sizeof(double));
  if (!(kk > 0.0)) return;
  double k30 = k3 + beta * k1, k0k = k1 * k1 + k2 * k2 + k30 * k30;
  double kl0 = sqrt(k0k) * L;
  double E = pow(L, 5.0 / 3.0) * pow(kl0, 4) / pow(1.0 + kl0 * kl0, 17.0 / 6.0);
  double amp = sqrt(E / (4.0 * M_PI)) / k0k;
  double z1, z2, kh2 = k1 * k1 + k2 * k2;
  if (k1 == 0.0 || kh2 == 0.0) {
    z1 = k1 == 0.0 ? -beta : 0.0;
    z2 = 0.0;
    if (kh2 == 0.0) z1 = 0.0; /* k along z: no shear distortion */
  } else {
    double c1 = beta * k1 * k1 * (k0k - 2.0 * k30 * k30 + beta * k1 * k30) / (kk * kh2);
    double den = k0k - k30 * k1 * beta, num = beta * k1 * sqrt(kh2);
    double c2 = k2 * k0k / pow(kh2, 1.5) * (den != 0.0 ? atan(num / den) : copysign(M_PI / 2, num));
    z1 = c1 - k2 / k1 * c2;
    z2 = k2 / k1 * c1 + c2;
  }
  C[0] = amp * k2 * z1;
  C[1] = amp * (k30 - k1 * z1);
  C[2] = amp * -k2;
  C[3] = amp * (k2 * z2 - k30);
  C[4] = amp * -k1 * z2;
  C[5] = amp * k1;
  C[6] = amp * k0k * k2 / kk;
  C[7] = amp * -k0k * k1 / kk;
  C[8] = 0.0;
}


void awe_mann_matrix(double gamma, double length, const double k[3], double C[9]) {
  double kl = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]) * length;
  matrix_beta(length, awe_mann_beta(gamma, kl), k, C);
}


/* wave number of FFT index i of n points over length n d */
static double wavenum(int i, int n, double d) {
  int m = i <= n / 2 ? i : i - n;
  return 2.0 * M_PI * m / (n * d);
}


static awe_status check_spec(const awe_mann_spec *s, awe_err *err) {
  static const char *const ax[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; a++) {
    if (s->n[a] < 2 || s->n[a] > (1 << 20) || s->n[a] % 2)
      return awe_err_set(err, AWE_EINVAL, "grid: n_%s = %d must be even and in [2, 1048576]",
                         ax[a], s->n[a]);
    if (!(s->d[a] > 0.0) || !isfinite(s->d[a]))
      return awe_err_set(err, AWE_EINVAL, "grid: d_%s = %g m must be > 0", ax[a], s->d[a]);
  }
  if ((double)s->n[0] * s->n[1] * s->n[2] > 4.0e9)
    return awe_err_set(err, AWE_EINVAL, "grid: %d x %d x %d points is too large (4e9 at most)",
                       s->n[0], s->n[1], s->n[2]);
  /* the three complex spectra and the three float components, before any is allocated */
  double pts = (double)s->n[0] * s->n[1] * s->n[2];
  double spectra = 3.0 * (double)s->n[0] * s->n[1] * (s->n[2] / 2 + 1) * 16.0;
  char what[160];
  snprintf(what, sizeof(what), "a %d x %d x %d wind box", s->n[0], s->n[1], s->n[2]);
  AWE_TRY(awe_mem_check(spectra + 12.0 * pts, what, err));
  if (!(s->gamma >= 0.0) || !isfinite(s->gamma))
    return awe_err_set(err, AWE_EINVAL, "mann: gamma = %g must be >= 0", s->gamma);
  if (!(s->length > 0.0) || !isfinite(s->length))
    return awe_err_set(err, AWE_EINVAL, "mann: length = %g m must be > 0", s->length);
  if (!(s->ae >= 0.0) || !isfinite(s->ae))
    return awe_err_set(err, AWE_EINVAL, "mann: ae = %g m^(4/3)/s^2 must be >= 0", s->ae);
  if (!(s->ti >= 0.0) || !isfinite(s->ti))
    return awe_err_set(err, AWE_EINVAL, "mann: ti = %g must be >= 0", s->ti);
  if (s->ti > 0.0 && !(s->v_ref > 0.0))
    return awe_err_set(err, AWE_EINVAL, "mann: ti needs v_ref > 0 (v_ref = %g m/s)", s->v_ref);
  return AWE_OK;
}


void awe_mann_box_variance(const awe_mann_spec *s, double ae, double var[4]) {
  beta_table *bt = malloc(sizeof(*bt));
  var[0] = var[1] = var[2] = var[3] = 0.0;
  if (!bt) return;
  beta_fill(bt);
  double dk = 1.0;
  for (int a = 0; a < 3; a++) dk *= 2.0 * M_PI / (s->n[a] * s->d[a]);
  for (int i = 0; i < s->n[0]; i++)
    for (int j = 0; j < s->n[1]; j++)
      for (int l = 0; l < s->n[2]; l++) {
        double k[3] = {wavenum(i, s->n[0], s->d[0]), wavenum(j, s->n[1], s->d[1]),
                       wavenum(l, s->n[2], s->d[2])}, C[9];
        double kl = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]) * s->length;
        matrix_beta(s->length, s->gamma * beta_lookup(bt, kl), k, C);
        if (j == 0 && l == 0) continue; /* the singular line: mann.h */
        for (int r = 0; r < 3; r++)
          var[r] += C[3 * r] * C[3 * r] + C[3 * r + 1] * C[3 * r + 1] + C[3 * r + 2] * C[3 * r + 2];
        var[3] += C[0] * C[6] + C[1] * C[7] + C[2] * C[8];
      }
  for (int r = 0; r < 4; r++) var[r] *= ae * dk;
  free(bt);
}


awe_status awe_mann_generate(const awe_mann_spec *s, float *u, float *v, float *w,
                             double *ae_used, awe_err *err) {
  AWE_TRY(check_spec(s, err));
  int n0 = s->n[0], n1 = s->n[1], n2 = s->n[2], nh = n2 / 2 + 1;
  size_t nc = (size_t)n0 * n1 * nh;
  beta_table *bt = malloc(sizeof(*bt));
  fftw_complex *F[3] = {NULL, NULL, NULL};
  for (int c = 0; c < 3; c++) F[c] = fftw_alloc_complex(nc);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  awe_status st = AWE_OK;
  if (!bt || !F[0] || !F[1] || !F[2] || !rng) {
    st = awe_err_set(err, AWE_ENOMEM, "out of memory for a %d x %d x %d box (%.2g GiB)", n0, n1,
                     n2, 3.0 * (double)nc * sizeof(fftw_complex) / 1073741824.0);
    goto done;
  }
  beta_fill(bt);
  gsl_rng_set(rng, (unsigned long)s->seed);
  double dk = 1.0;
  for (int a = 0; a < 3; a++) dk *= 2.0 * M_PI / (s->n[a] * s->d[a]);
  double sq = sqrt(dk * 0.5); /* E|n|^2 = 1: real and imaginary parts of variance 1/2 */
  double var_u = 0.0;
  for (int i = 0; i < n0; i++)
    for (int j = 0; j < n1; j++)
      for (int l = 0; l < nh; l++) {
        double k[3] = {wavenum(i, n0, s->d[0]), wavenum(j, n1, s->d[1]),
                       wavenum(l, n2, s->d[2])}, C[9], nr[3], ni[3];
        for (int q = 0; q < 3; q++) {
          nr[q] = gsl_ran_gaussian_ziggurat(rng, 1.0);
          ni[q] = gsl_ran_gaussian_ziggurat(rng, 1.0);
        }
        double kl = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]) * s->length;
        matrix_beta(s->length, s->gamma * beta_lookup(bt, kl), k, C);
        if (j == 0 && l == 0) memset(C, 0, sizeof(C)); /* the singular line: mann.h */
        size_t at = ((size_t)i * n1 + j) * nh + l;
        /* the planes l = 0 and n3/2 are their own mirror: c2r keeps the real part of their
         * sum, half the power of an independent mode; sqrt 2 restores it */
        double edge = (l == 0 || l == n2 / 2) ? M_SQRT2 : 1.0;
        for (int r = 0; r < 3; r++) {
          double re = 0.0, im = 0.0;
          for (int q = 0; q < 3; q++) {
            re += C[3 * r + q] * nr[q];
            im += C[3 * r + q] * ni[q];
          }
          F[r][at][0] = edge * sq * re;
          F[r][at][1] = edge * sq * im;
        }
        /* the u variance the Hermitian field will have: half-plane modes count twice */
        double wgt = (l == 0 || (l == n2 / 2)) ? 1.0 : 2.0;
        var_u += wgt * dk * (C[0] * C[0] + C[1] * C[1] + C[2] * C[2]);
      }
  double ae = s->ae;
  if (s->ti > 0.0) ae = var_u > 0.0 ? (s->ti * s->v_ref) * (s->ti * s->v_ref) / var_u : 0.0;
  *ae_used = ae;
  double scale = sqrt(ae);
  float *out[3] = {u, v, w};
  for (int c = 0; c < 3; c++) {
    /* in place: the real result in rows of 2 nh doubles */
    double *R = (double *)F[c];
    fftw_plan p = fftw_plan_dft_c2r_3d(n0, n1, n2, F[c], R, FFTW_ESTIMATE);
    if (!p) {
      st = awe_err_set(err, AWE_ENOMEM, "FFTW could not plan a %d x %d x %d transform", n0, n1,
                       n2);
      goto done;
    }
    fftw_execute(p);
    fftw_destroy_plan(p);
    for (int i = 0; i < n0; i++)
      for (int j = 0; j < n1; j++) {
        const double *row = R + ((size_t)i * n1 + j) * 2 * nh;
        float *o = out[c] + ((size_t)i * n1 + j) * n2;
        for (int l = 0; l < n2; l++) o[l] = (float)(scale * row[l]);
      }
    fftw_free(F[c]);
    F[c] = NULL;
  }
done:
  for (int c = 0; c < 3; c++)
    if (F[c]) fftw_free(F[c]);
  if (rng) gsl_rng_free(rng);
  free(bt);
  return st;
}


awe_status awe_mann_box(const awe_mann_spec *s, awe_wind_box *b, awe_err *err) {
  memset(b, 0, sizeof(*b));
  AWE_TRY(check_spec(s, err));
  size_t n = (size_t)s->n[0] * s->n[1] * s->n[2];
  b->u = malloc(sizeof(float) * n);
  b->v = malloc(sizeof(float) * n);
  b->w = malloc(sizeof(float) * n);
  double ae = 0.0;
  awe_status st = AWE_OK;
  if (!b->u || !b->v || !b->w)
    st = awe_err_set(err, AWE_ENOMEM, "out of memory for a %d x %d x %d box", s->n[0], s->n[1],
                     s->n[2]);
  else
    st = awe_mann_generate(s, b->u, b->v, b->w, &ae, err);
  if (st) {
    free(b->u);
    free(b->v);
    free(b->w);
    memset(b, 0, sizeof(*b));
    return st;
  }
  for (int a = 0; a < 3; a++) {
    b->n[a] = s->n[a];
    b->d[a] = s->d[a];
  }
  b->x0[0] = 0.0;
  b->x0[1] = -0.5 * (s->n[1] - 1) * s->d[1];
  b->x0[2] = isnan(s->z_bottom) ? s->h_ref - 0.5 * (s->n[2] - 1) * s->d[2] : s->z_bottom;
  b->periodic_x = 1;
  b->gamma = s->gamma;
  b->length = s->length;
  b->ae = ae;
  b->ti = s->ti;
  b->v_ref = s->v_ref;
  b->h_ref = s->h_ref;
  b->seed = s->seed;
  return AWE_OK;
}
