/* field_stats.c: the statistics of a wind box (field_stats.h). */
#include "turb/field_stats.h"

#include <fftw3.h>
#include <math.h>
#include <stdlib.h>


/* integral scale of component F along x: autocorrelation averaged over all lines */
static double integral_scale(const awe_wind_box *b, const float *F, double mean, double *work,
                             fftw_complex *spec, fftw_plan fw, fftw_plan bw, double *acc) {
  int nx = b->n[0], nl = b->n[1] * b->n[2], nh = nx / 2 + 1;
  for (int k = 0; k < nx; k++) acc[k] = 0.0;
  for (int line = 0; line < nl; line++) {
    for (int i = 0; i < nx; i++) work[i] = F[(size_t)i * nl + line] - mean;
    fftw_execute_dft_r2c(fw, work, spec);
    for (int k = 0; k < nh; k++) {
      spec[k][0] = spec[k][0] * spec[k][0] + spec[k][1] * spec[k][1];
      spec[k][1] = 0.0;
    }
    fftw_execute_dft_c2r(bw, spec, work);
    for (int k = 0; k < nx; k++) acc[k] += work[k];
  }
  if (!(acc[0] > 0.0)) return NAN;
  double L = 0.5 * b->d[0]; /* trapezoid from r = 0 */
  for (int k = 1; k < nx / 2; k++) {
    double r = acc[k] / acc[0];
    if (r <= 0.0) break;
    L += r * b->d[0];
  }
  return L;
}


awe_status awe_field_stats_compute(const awe_wind_box *b, awe_field_stats *st, awe_err *err) {
  size_t n = (size_t)b->n[0] * b->n[1] * b->n[2];
  const float *c[3] = {b->u, b->v, b->w};
  for (int q = 0; q < 3; q++) {
    double s = 0.0, s2 = 0.0;
    for (size_t i = 0; i < n; i++) s += c[q][i];
    double m = s / (double)n;
    for (size_t i = 0; i < n; i++) s2 += (c[q][i] - m) * (c[q][i] - m);
    st->mean[q] = m;
    st->sigma[q] = sqrt(s2 / (double)n);
  }
  double cuw = 0.0;
  for (size_t i = 0; i < n; i++) cuw += (b->u[i] - st->mean[0]) * (b->w[i] - st->mean[2]);
  st->cov_uw = cuw / (double)n;
  st->sigma_u_ref = st->z_ref = NAN;
  if (isfinite(b->h_ref)) {
    int l = (int)lround((b->h_ref - b->x0[2]) / b->d[2]);
    if (l < 0) l = 0;
    if (l > b->n[2] - 1) l = b->n[2] - 1;
    st->z_ref = b->x0[2] + l * b->d[2];
    double s = 0.0, s2 = 0.0;
    size_t m = (size_t)b->n[0] * b->n[1];
    for (size_t p = 0; p < m; p++) s += b->u[p * b->n[2] + l];
    double mu = s / (double)m;
    for (size_t p = 0; p < m; p++) {
      double d = b->u[p * b->n[2] + l] - mu;
      s2 += d * d;
    }
    st->sigma_u_ref = sqrt(s2 / (double)m);
  }
  int nx = b->n[0];
  double *work = fftw_alloc_real((size_t)nx), *acc = malloc(sizeof(double) * (size_t)nx);
  fftw_complex *spec = fftw_alloc_complex((size_t)nx / 2 + 1);
  if (!work || !acc || !spec) {
    fftw_free(work);
    fftw_free(spec);
    free(acc);
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  fftw_plan fw = fftw_plan_dft_r2c_1d(nx, work, spec, FFTW_ESTIMATE);
  fftw_plan bw = fftw_plan_dft_c2r_1d(nx, spec, work, FFTW_ESTIMATE);
  for (int q = 0; q < 3; q++)
    st->length[q] = integral_scale(b, c[q], st->mean[q], work, spec, fw, bw, acc);
  fftw_destroy_plan(fw);
  fftw_destroy_plan(bw);
  fftw_free(work);
  fftw_free(spec);
  free(acc);
  return AWE_OK;
}
