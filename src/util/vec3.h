/* vec3.h: 3-vector and 3x3 matrix helpers shared by the physics, frames and VSM code (inline,
 * no state). Matrices are row-major double[9]. */
#ifndef AWE_VEC3_H
#define AWE_VEC3_H

#include <math.h>

#define AWE_PI 3.14159265358979323846

static inline double awe_v3_dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline double awe_v3_norm(const double a[3]) { return sqrt(awe_v3_dot(a, a)); }

/* |a - b| */
static inline double awe_v3_dist(const double a[3], const double b[3]) {
  double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return awe_v3_norm(d);
}

/* r = a - b */
static inline void awe_v3_sub(double r[3], const double a[3], const double b[3]) {
  r[0] = a[0] - b[0];
  r[1] = a[1] - b[1];
  r[2] = a[2] - b[2];
}

/* r = a x b (r may alias a or b) */
static inline void awe_v3_cross(double r[3], const double a[3], const double b[3]) {
  double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2],
         z = a[0] * b[1] - a[1] * b[0];
  r[0] = x;
  r[1] = y;
  r[2] = z;
}

/* r += s a */
static inline void awe_v3_addto(double r[3], double s, const double a[3]) {
  r[0] += s * a[0];
  r[1] += s * a[1];
  r[2] += s * a[2];
}

/* Scale a to unit length (a zero vector is left unchanged); returns the old length. */
static inline double awe_v3_normalize(double a[3]) {
  double n = awe_v3_norm(a);
  if (n > 0) {
    a[0] /= n;
    a[1] /= n;
    a[2] /= n;
  }
  return n;
}

/* r = R v (r may alias v) */
static inline void awe_mat3_vec(const double R[9], const double v[3], double r[3]) {
  double x = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
  double y = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
  double z = R[6] * v[0] + R[7] * v[1] + R[8] * v[2];
  r[0] = x;
  r[1] = y;
  r[2] = z;
}

/* out = the part of v along p - base (v itself when p = base; out may alias v): what the
 * steady state keeps of a wing's point or body held on its sphere about base */
static inline void awe_v3_radial_part(const double p[3], const double base[3], const double v[3],
                                      double out[3]) {
  double r[3] = {p[0] - base[0], p[1] - base[1], p[2] - base[2]};
  double rn = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  if (!(rn > 0.0)) {
    out[0] = v[0];
    out[1] = v[1];
    out[2] = v[2];
    return;
  }
  double s = (v[0] * r[0] + v[1] * r[1] + v[2] * r[2]) / (rn * rn);
  for (int k = 0; k < 3; k++) out[k] = s * r[k];
}

/* r = R^T v (r may alias v) */
static inline void awe_mat3_tvec(const double R[9], const double v[3], double r[3]) {
  double x = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
  double y = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
  double z = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
  r[0] = x;
  r[1] = y;
  r[2] = z;
}

#endif
