/* body_jac.c: derivatives of rigid bodies, their riding points and tube wrenches (equations:
 * body_jac.h). */
#include "engine/body_jac.h"

#include <string.h>

#include "engine/wing.h"
#include "util/kite_frames.h"
#include "util/vec3.h"


void awe_quat_dR(const double q[4], double dR[36]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double n2 = w * w + x * x + y * y + z * z;
  if (!(n2 > 0.0)) {
    memset(dR, 0, 36 * sizeof(double));
    return;
  }
  double s = 2.0 / n2;
  /* R = I + s P */
  const double P[9] = {-(y * y + z * z), x * y - z * w, x * z + y * w,
                       x * y + z * w, -(x * x + z * z), y * z - x * w,
                       x * z - y * w, y * z + x * w, -(x * x + y * y)};
  const double dP[36] = {0.0, -z, y, z, 0.0, -x, -y, x, 0.0,                  /* d/dw */
                         0.0, y, z, y, -2.0 * x, -w, z, w, -2.0 * x,          /* d/dx */
                         -2.0 * y, x, w, x, 0.0, z, -w, z, -2.0 * y,          /* d/dy */
                         -2.0 * z, -w, x, w, -2.0 * z, y, x, y, 0.0};         /* d/dz */
  for (int k = 0; k < 4; k++) {
    double f = 2.0 * q[k] / n2;
    for (int e = 0; e < 9; e++) dR[9 * k + e] = s * (dP[9 * k + e] - f * P[e]);
  }
}


void awe_body_ride_jac(const double R[9], const double dR[36], const double om_b[3],
                       const double r_b[3], double dpdQ[12], double dvdQ[12], double dvdw[9]) {
  double t[3];
  awe_v3_cross(t, om_b, r_b);
  for (int k = 0; k < 4; k++) {
    double a[3], b[3];
    awe_mat3_vec(dR + 9 * k, r_b, a);
    awe_mat3_vec(dR + 9 * k, t, b);
    for (int r = 0; r < 3; r++) {
      dpdQ[4 * r + k] = a[r];
      dvdQ[4 * r + k] = b[r];
    }
  }
  /* d(omega x r_b)/d omega = -[r_b]x */
  const double S[9] = {0.0, r_b[2], -r_b[1], -r_b[2], 0.0, r_b[0], r_b[1], -r_b[0], 0.0};
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      dvdw[3 * r + c] = R[3 * r] * S[c] + R[3 * r + 1] * S[3 + c] + R[3 * r + 2] * S[6 + c];
}


void awe_body_own_jac(const awe_model *m, const awe_work *w, int j, const double dR[36],
                      double J[169]) {
  memset(J, 0, 169 * sizeof(double));
  const double *Q = w->body_q + 4 * j, *om = w->body_omega + 3 * j, *M = w->body_moment + 3 * j;
  const double *I = m->body_I + 9 * j, *Ii = m->body_Iinv + 9 * j, *c = m->body_damp + 3 * j;
  const double *wfd = m->body_wfd + 3 * j;
  for (int r = 0; r < 3; r++) {
    J[13 * r + 3 + r] = 1.0;
    J[13 * (3 + r) + 3 + r] = -wfd[r];
  }
  /* quaternion rows */
  double n2 = Q[0] * Q[0] + Q[1] * Q[1] + Q[2] * Q[2] + Q[3] * Q[3];
  const double o4[4] = {0.0, om[0], om[1], om[2]};
  for (int k = 0; k < 4; k++) {
    double e[4] = {0.0, 0.0, 0.0, 0.0}, qq[4];
    e[k] = 1.0;
    awe_quat_mul(e, o4, qq);
    for (int r = 0; r < 4; r++)
      J[13 * (6 + r) + 6 + k] = 0.5 * qq[r] + AWE_QUAT_GAIN * ((r == k) * (1.0 - n2) -
                                                                2.0 * Q[k] * Q[r]);
  }
  for (int k = 0; k < 3; k++) {
    double e[4] = {0.0, 0.0, 0.0, 0.0}, qq[4];
    e[1 + k] = 1.0;
    awe_quat_mul(Q, e, qq);
    for (int r = 0; r < 4; r++) J[13 * (6 + r) + 10 + k] = 0.5 * qq[r];
  }
  /* omega rows: I^-1 dR_k^T M, and the gyroscopic term and damping */
  for (int k = 0; k < 4; k++) {
    double a[3], b[3];
    awe_mat3_tvec(dR + 9 * k, M, a);
    awe_mat3_vec(Ii, a, b);
    for (int r = 0; r < 3; r++) J[13 * (10 + r) + 6 + k] = b[r];
  }
  double Iw[3];
  awe_mat3_vec(I, om, Iw);
  for (int k = 0; k < 3; k++) {
    double e[3] = {0.0, 0.0, 0.0}, Ie[3], g1[3], g2[3], g[3], b[3];
    e[k] = 1.0;
    awe_mat3_vec(I, e, Ie);
    awe_v3_cross(g1, e, Iw);
    awe_v3_cross(g2, om, Ie);
    for (int r = 0; r < 3; r++) g[r] = -(g1[r] + g2[r]);
    awe_mat3_vec(Ii, g, b);
    for (int r = 0; r < 3; r++) J[13 * (10 + r) + 10 + k] = b[r] - (r == k) * c[k];
  }
}
