/* vec3.h: small 3-vector helpers shared by the geometry code (inline, no state). */
#ifndef AWE_VEC3_H
#define AWE_VEC3_H

#include <math.h>

static inline double awe_dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* c = a x b; c must not alias a or b */
static inline void awe_cross3(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static inline double awe_norm3(const double a[3]) { return sqrt(awe_dot3(a, a)); }

/* Scale a to unit length (a zero vector is left unchanged); returns the old length. */
static inline double awe_normalize3(double a[3]) {
  double n = awe_norm3(a);
  if (n > 0) {
    a[0] /= n;
    a[1] /= n;
    a[2] /= n;
  }
  return n;
}

#endif
