/* wind_box.c: trilinear look-up in a wind box (wind_box.h). */
#include "turb/wind_box.h"

#include <math.h>
#include <stddef.h>


int awe_wind_box_at(const awe_wind_box *b, double x, double y, double z, double out[3]) {
  double s[3] = {(x - b->x0[0]) / b->d[0], (y - b->x0[1]) / b->d[1], (z - b->x0[2]) / b->d[2]};
  int i[3], i1[3];
  double f[3];
  for (int a = 0; a < 3; a++) {
    double fl = floor(s[a]);
    if (!isfinite(fl)) return -1;
    if (a == 0 && b->periodic_x) {
      double m = fmod(fl, (double)b->n[0]);
      if (m < 0) m += b->n[0];
      i[0] = (int)m;
      i1[0] = i[0] + 1 == b->n[0] ? 0 : i[0] + 1;
    } else {
      if (s[a] < 0.0 || s[a] > b->n[a] - 1) return -1;
      i[a] = (int)fl;
      if (i[a] == b->n[a] - 1) i[a]--; /* the last plane: its cell's far face */
      i1[a] = i[a] + 1;
    }
    f[a] = s[a] - fl + (a == 0 && b->periodic_x ? 0.0 : fl - i[a]);
  }
  const int ny = b->n[1], nz = b->n[2];
  const float *c[3] = {b->u, b->v, b->w};
  for (int q = 0; q < 3; q++) {
    const float *F = c[q];
    double acc = 0.0;
    for (int dx = 0; dx < 2; dx++) {
      size_t ix = (size_t)(dx ? i1[0] : i[0]) * ny;
      double wx = dx ? f[0] : 1.0 - f[0];
      for (int dy = 0; dy < 2; dy++) {
        size_t iy = (ix + (size_t)(dy ? i1[1] : i[1])) * nz;
        double wy = wx * (dy ? f[1] : 1.0 - f[1]);
        acc += wy * ((1.0 - f[2]) * F[iy + i[2]] + f[2] * F[iy + i1[2]]);
      }
    }
    out[q] = acc;
  }
  return 0;
}
