/* corotate.c: the frames' turn since J's state, applied to a vector (see corotate.h). */
#include "solve/corotate.h"


void awe_corot_relative(int nframe, const double *R, const double *R_j, double *R_d) {
  for (int f = 0; f < nframe; f++) {
    const double *a = R + 9 * f, *b = R_j + 9 * f;
    double *d = R_d + 9 * f;
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < 3; k++)
        d[3 * i + k] = a[3 * i] * b[3 * k] + a[3 * i + 1] * b[3 * k + 1] + a[3 * i + 2] * b[3 * k + 2];
  }
}


void awe_corot_turn(int nframe, const double *R_d, const int *adr, const int *num,
                    const int *idx, double *v, int tr) {
  for (int f = 0; f < nframe; f++) {
    const double *d = R_d + 9 * f;
    const int *ix = idx + adr[f];
    for (int b = 0; b < num[f]; b++) {
      double *x = v + ix[b], r[3];
      for (int i = 0; i < 3; i++)
        r[i] = tr ? d[i] * x[0] + d[3 + i] * x[1] + d[6 + i] * x[2]
                  : d[3 * i] * x[0] + d[3 * i + 1] * x[1] + d[3 * i + 2] * x[2];
      x[0] = r[0];
      x[1] = r[1];
      x[2] = r[2];
    }
  }
}
