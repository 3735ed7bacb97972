/* kite_frames.c: frames, quaternions and kite angles (see kite_frames.h for the conventions). */
#include "util/kite_frames.h"
#include "util/vec3.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_matrix.h>








void awe_quat_to_R(const double q[4], double R[9]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double n2 = w * w + x * x + y * y + z * z;
  /* s = 2/|q|^2 keeps R orthonormal for a quaternion that drifted off the unit sphere */
  double s = n2 > 0 ? 2.0 / n2 : 0.0;
  R[0] = 1 - s * (y * y + z * z);
  R[1] = s * (x * y - z * w);
  R[2] = s * (x * z + y * w);
  R[3] = s * (x * y + z * w);
  R[4] = 1 - s * (x * x + z * z);
  R[5] = s * (y * z - x * w);
  R[6] = s * (x * z - y * w);
  R[7] = s * (y * z + x * w);
  R[8] = 1 - s * (x * x + y * y);
}


void awe_R_to_quat(const double R[9], double q[4]) {
  double tr = R[0] + R[4] + R[8];
  if (tr > 0) {
    double s = 2.0 * sqrt(tr + 1.0);
    q[0] = 0.25 * s;
    q[1] = (R[7] - R[5]) / s;
    q[2] = (R[2] - R[6]) / s;
    q[3] = (R[3] - R[1]) / s;
  } else if (R[0] > R[4] && R[0] > R[8]) {
    double s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s;
    q[1] = 0.25 * s;
    q[2] = (R[1] + R[3]) / s;
    q[3] = (R[2] + R[6]) / s;
  } else if (R[4] > R[8]) {
    double s = 2.0 * sqrt(1.0 + R[4] - R[0] - R[8]);
    q[0] = (R[2] - R[6]) / s;
    q[1] = (R[1] + R[3]) / s;
    q[2] = 0.25 * s;
    q[3] = (R[5] + R[7]) / s;
  } else {
    double s = 2.0 * sqrt(1.0 + R[8] - R[0] - R[4]);
    q[0] = (R[3] - R[1]) / s;
    q[1] = (R[2] + R[6]) / s;
    q[2] = (R[5] + R[7]) / s;
    q[3] = 0.25 * s;
  }
  if (q[0] < 0)
    for (int k = 0; k < 4; k++) q[k] = -q[k];
  awe_quat_normalize(q);
}


void awe_quat_mul(const double a[4], const double b[4], double r[4]) {
  r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}


void awe_quat_from_rotvec(const double phi[3], double q[4]) {
  double th = sqrt(awe_v3_dot(phi, phi));
  /* sin(th/2)/th by its series near 0 keeps the map smooth for finite differences */
  double k = th < 1e-8 ? 0.5 - th * th / 48.0 : sin(0.5 * th) / th;
  q[0] = cos(0.5 * th);
  q[1] = k * phi[0];
  q[2] = k * phi[1];
  q[3] = k * phi[2];
}


void awe_quat_to_rotvec(const double q_in[4], double phi[3]) {
  double q[4] = {q_in[0], q_in[1], q_in[2], q_in[3]};
  awe_quat_normalize(q);
  if (q[0] < 0)
    for (int k = 0; k < 4; k++) q[k] = -q[k];
  double s = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  double th = 2.0 * atan2(s, q[0]);
  double k = s < 1e-12 ? 2.0 : th / s;
  phi[0] = k * q[1];
  phi[1] = k * q[2];
  phi[2] = k * q[3];
}


void awe_quat_normalize(double q[4]) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(n > 0)) {
    q[0] = 1;
    q[1] = q[2] = q[3] = 0;
    return;
  }
  for (int k = 0; k < 4; k++) q[k] /= n;
}


void awe_R_t_to_w(const double r[3], double R[9]) {
  double z[3] = {r[0], r[1], r[2]}, y[3] = {-r[1], r[0], 0}, x[3];
  awe_v3_normalize(z);
  /* at the zenith the azimuthal direction is undefined: use the +y convention of azimuth 0 */
  if (awe_v3_normalize(y) < 1e-12) {
    y[0] = 0;
    y[1] = 1;
    y[2] = 0;
  }
  awe_v3_cross(x, y, z);
  for (int i = 0; i < 3; i++) {
    R[3 * i + 0] = x[i];
    R[3 * i + 1] = y[i];
    R[3 * i + 2] = z[i];
  }
}


double awe_elevation(const double r[3]) { return atan2(r[2], hypot(r[0], r[1])); }
double awe_azimuth(const double r[3]) { return -atan2(r[1], r[0]); }


double awe_heading(const double r[3], const double ex[3]) {
  double R[9];
  awe_R_t_to_w(r, R);
  double xt[3] = {R[0], R[3], R[6]}, yt[3] = {R[1], R[4], R[7]};
  return atan2(awe_v3_dot(ex, yt), awe_v3_dot(ex, xt));
}


double awe_course(const double r[3], const double v[3]) { return awe_heading(r, v); }


void awe_radial(double e, double a, double out[3]) {
  out[0] = cos(e) * cos(a);
  out[1] = -cos(e) * sin(a);
  out[2] = sin(e);
}


int awe_frame_from_refs(const double z1[3], const double z2[3], const double y1[3],
                        const double y2[3], double R[9]) {
  double z[3], yt[3], x[3], y[3];
  for (int k = 0; k < 3; k++) {
    z[k] = z2[k] - z1[k];
    yt[k] = y2[k] - y1[k];
  }
  if (awe_v3_normalize(z) < 1e-12 || awe_v3_normalize(yt) < 1e-12) return -1;
  awe_v3_cross(x, yt, z);
  if (awe_v3_normalize(x) < 1e-9) return -1;
  awe_v3_cross(y, z, x);
  for (int i = 0; i < 3; i++) {
    R[3 * i + 0] = x[i];
    R[3 * i + 1] = y[i];
    R[3 * i + 2] = z[i];
  }
  return 0;
}


int awe_principal_axes(const double I[9], const double x_ref[3], const double y_ref[3],
                       double ev[3], double R[9]) {
  double a[9], v[9], e[3];
  memcpy(a, I, sizeof(a));
  gsl_matrix_view A = gsl_matrix_view_array(a, 3, 3);
  gsl_vector_view E = gsl_vector_view_array(e, 3);
  gsl_matrix_view V = gsl_matrix_view_array(v, 3, 3);
  gsl_eigen_symmv_workspace *ws = gsl_eigen_symmv_alloc(3);
  if (!ws) return -1;
  int st = gsl_eigen_symmv(&A.matrix, &E.vector, &V.matrix, ws);
  gsl_eigen_symmv_free(ws);
  if (st) return -1;
  /* axis 2: the eigenvector nearest y_ref (the span: y_damping is pitch damping, and
   * SymbolicAWEModels' calc_inertia_y_rotation keeps y); axis 1: the nearer of the other two to
   * x_ref; axis 3 = axis 1 x axis 2. Signs follow the references. */
  int k2 = 0, k1 = -1;
  double best = -1.0;
  for (int k = 0; k < 3; k++) {
    double d = fabs(v[k] * y_ref[0] + v[3 + k] * y_ref[1] + v[6 + k] * y_ref[2]);
    if (d > best) best = d, k2 = k;
  }
  best = -1.0;
  for (int k = 0; k < 3; k++) {
    if (k == k2) continue;
    double d = fabs(v[k] * x_ref[0] + v[3 + k] * x_ref[1] + v[6 + k] * x_ref[2]);
    if (d > best) best = d, k1 = k;
  }
  int k3 = 3 - k1 - k2;
  double c1[3] = {v[k1], v[3 + k1], v[6 + k1]}, c2[3] = {v[k2], v[3 + k2], v[6 + k2]}, c3[3];
  if (awe_v3_dot(c1, x_ref) < 0.0)
    for (int i = 0; i < 3; i++) c1[i] = -c1[i];
  if (awe_v3_dot(c2, y_ref) < 0.0)
    for (int i = 0; i < 3; i++) c2[i] = -c2[i];
  awe_v3_cross(c3, c1, c2);
  ev[0] = e[k1];
  ev[1] = e[k2];
  ev[2] = e[k3];
  for (int i = 0; i < 3; i++) {
    R[3 * i + 0] = c1[i];
    R[3 * i + 1] = c2[i];
    R[3 * i + 2] = c3[i];
  }
  return 0;
}
