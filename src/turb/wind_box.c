/* wind_box.c: trilinear look-up in a wind box (wind_box.h). */
#include "turb/wind_box.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>


int awe_wind_box_interleave(awe_wind_box *b) {
  size_t n = (size_t)b->n[0] * b->n[1] * b->n[2];
  float *p = malloc(sizeof(float) * 3 * (n ? n : 1));
  if (!p) return -1;
  for (size_t i = 0; i < n; i++) {
    p[3 * i] = b->u[i];
    p[3 * i + 1] = b->v[i];
    p[3 * i + 2] = b->w[i];
  }
  free(b->u);
  free(b->v);
  free(b->w);
  b->u = b->v = b->w = NULL;
  b->uvw = p;
  return 0;
}


/* the cell of coordinate s (in spacings) along axis a: lower index *i, upper *i1, fraction;
 * -1 outside a non-periodic axis */
static int cell(const awe_wind_box *b, int a, double s, int *i, int *i1, double *f) {
  int n = b->n[a];
  if (!(s > -1e300 && s < 1e300)) return -1; /* NaN, inf */
  if (a == 0 && b->periodic_x) {
    double fl = floor(s);
    *f = s - fl;
    /* fmod is exact and defined for any finite s (a conversion to an integer type is not
     * beyond its range: a far-away point in a box of fine spacing, found by fuzzing) */
    double k = fmod(fl, (double)n);
    if (k < 0.0) k += n;
    *i = (int)k;
    if (*i >= n) *i = 0; /* k + n rounded up to n for a tiny negative k */
    *i1 = *i + 1 == n ? 0 : *i + 1;
    return 0;
  }
  if (s < 0.0 || s > n - 1) return -1;
  int k = (int)s;
  if (k == n - 1) k--; /* the last plane: its cell's far face */
  *i = k;
  *i1 = k + 1;
  *f = s - k;
  return 0;
}


int awe_wind_box_at(const awe_wind_box *b, double x, double y, double z, double out[3]) {
  int i[3], i1[3];
  double f[3];
  if (cell(b, 0, (x - b->x0[0]) / b->d[0], &i[0], &i1[0], &f[0]) ||
      cell(b, 1, (y - b->x0[1]) / b->d[1], &i[1], &i1[1], &f[1]) ||
      cell(b, 2, (z - b->x0[2]) / b->d[2], &i[2], &i1[2], &f[2]))
    return -1;
  const size_t ny = (size_t)b->n[1], nz = (size_t)b->n[2];
  double w8[8];
  size_t at[8];
  for (int c = 0; c < 8; c++) {
    int dx = c >> 2, dy = (c >> 1) & 1, dz = c & 1;
    at[c] = ((size_t)(dx ? i1[0] : i[0]) * ny + (size_t)(dy ? i1[1] : i[1])) * nz +
            (size_t)(dz ? i1[2] : i[2]);
    w8[c] = (dx ? f[0] : 1.0 - f[0]) * (dy ? f[1] : 1.0 - f[1]) * (dz ? f[2] : 1.0 - f[2]);
  }
  double o0 = 0.0, o1 = 0.0, o2 = 0.0;
  if (b->uvw) {
    const float *p = b->uvw;
    for (int c = 0; c < 8; c++) {
      const float *q = p + 3 * at[c];
      o0 += w8[c] * q[0];
      o1 += w8[c] * q[1];
      o2 += w8[c] * q[2];
    }
  } else {
    for (int c = 0; c < 8; c++) {
      o0 += w8[c] * b->u[at[c]];
      o1 += w8[c] * b->v[at[c]];
      o2 += w8[c] * b->w[at[c]];
    }
  }
  out[0] = o0;
  out[1] = o1;
  out[2] = o2;
  return 0;
}
