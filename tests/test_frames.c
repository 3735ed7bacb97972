/* test_frames.c: quaternions and kite angles against the checks of SymbolicAWEModels'
 * test_quaternion_conversions.jl and test_heading_calculation.jl (physics.md §4, §9, §10). */
#include <math.h>

#include "harness.h"
#include "util/kite_frames.h"


static void test_quat_90_about_z(void) {
  double q[4] = {cos(M_PI / 4), 0, 0, sin(M_PI / 4)}, R[9];
  awe_quat_to_R(q, R);
  const double E[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1};
  for (int k = 0; k < 9; k++) ENSURE_NEAR(R[k], E[k], 1e-15);
  double q2[4];
  awe_R_to_quat(R, q2);
  for (int k = 0; k < 4; k++) ENSURE_NEAR(q2[k], q[k], 1e-15);
}


static void test_quat_roundtrips(void) {
  /* negative-trace branches: 170 deg about skewed axes */
  const double axes[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 2, 3}};
  for (int a = 0; a < 4; a++) {
    double n = sqrt(axes[a][0] * axes[a][0] + axes[a][1] * axes[a][1] + axes[a][2] * axes[a][2]);
    double phi[3], q[4], R[9], q2[4], phi2[3];
    for (int k = 0; k < 3; k++) phi[k] = axes[a][k] / n * (170.0 * M_PI / 180.0);
    awe_quat_from_rotvec(phi, q);
    awe_quat_to_R(q, R);
    awe_R_to_quat(R, q2);
    for (int k = 0; k < 4; k++) ENSURE_NEAR(q2[k], q[k], 1e-12);
    awe_quat_to_rotvec(q2, phi2);
    for (int k = 0; k < 3; k++) ENSURE_NEAR(phi2[k], phi[k], 1e-12);
    /* orthonormal with det +1 even for a non-unit quaternion */
    double qs[4] = {2 * q[0], 2 * q[1], 2 * q[2], 2 * q[3]};
    awe_quat_to_R(qs, R);
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                 R[2] * (R[3] * R[7] - R[4] * R[6]);
    ENSURE_NEAR(det, 1.0, 1e-14);
  }
  /* composition: rotating by a then b equals the product */
  double pa[3] = {0.3, 0, 0}, pb[3] = {0, 0.2, 0}, qa[4], qb[4], qab[4], Ra[9], Rb[9], Rab[9];
  awe_quat_from_rotvec(pa, qa);
  awe_quat_from_rotvec(pb, qb);
  awe_quat_mul(qa, qb, qab);
  awe_quat_to_R(qa, Ra);
  awe_quat_to_R(qb, Rb);
  awe_quat_to_R(qab, Rab);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double s = 0;
      for (int k = 0; k < 3; k++) s += Ra[3 * i + k] * Rb[3 * k + j];
      ENSURE_NEAR(Rab[3 * i + j], s, 1e-15);
    }
}


static void test_heading(void) {
  const double r[3] = {70, 70, 70};
  double R[9];
  awe_R_t_to_w(r, R);
  double xt[3] = {R[0], R[3], R[6]}, yt[3] = {R[1], R[4], R[7]}, zt[3] = {R[2], R[5], R[8]};
  ENSURE_NEAR(awe_heading(r, xt), 0.0, 1e-10);
  ENSURE_NEAR(awe_heading(r, yt), M_PI / 2, 1e-10);
  const double hs[] = {0, M_PI / 6, M_PI / 4, M_PI / 3, M_PI / 2, 2 * M_PI / 3, M_PI,
                       -M_PI / 6, -M_PI / 4};
  for (size_t i = 0; i < sizeof(hs) / sizeof(*hs); i++) {
    double ex[3];
    for (int k = 0; k < 3; k++) ex[k] = cos(hs[i]) * xt[k] + sin(hs[i]) * yt[k];
    double h = awe_heading(r, ex);
    double d = remainder(h - hs[i], 2 * M_PI);
    ENSURE_NEAR(d, 0.0, 1e-10);
  }
  /* x_t points away from the zenith, z_t radially out */
  ENSURE(xt[2] < 0);
  ENSURE_NEAR(zt[0] * 70 + zt[1] * 70 + zt[2] * 70, sqrt(3.0) * 70, 1e-10);
}


static void test_elevation_azimuth(void) {
  double e = 45 * M_PI / 180, a = 30 * M_PI / 180, r[3];
  awe_radial(e, a, r);
  /* worked example of test_rigid_body.jl */
  ENSURE_NEAR(r[0], 0.6124, 5e-5);
  ENSURE_NEAR(r[1], -0.3536, 5e-5);
  ENSURE_NEAR(r[2], 0.7071, 5e-5);
  ENSURE_NEAR(awe_elevation(r), e, 1e-12);
  ENSURE_NEAR(awe_azimuth(r), a, 1e-12);
}


static void test_frame_from_refs(void) {
  /* 2plate kite: z from kcu to le_center, y from le_right to le_left */
  double kcu[3] = {0, 0, 0}, lec[3] = {-0.5, 0, 2.5}, ler[3] = {-0.5, -1, 2}, lel[3] = {-0.5, 1, 2};
  double R[9];
  ENSURE(awe_frame_from_refs(kcu, lec, ler, lel, R) == 0);
  /* columns orthonormal and right-handed */
  double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
               R[2] * (R[3] * R[7] - R[4] * R[6]);
  ENSURE_NEAR(det, 1.0, 1e-14);
  ENSURE_NEAR(R[1], 0.0, 1e-14);
  ENSURE_NEAR(R[4], 1.0, 1e-14);
  ENSURE(R[0] > 0.9);
}


static void test_principal_axes(void) {
  /* diag(2, 1, 3) rotated by 30 deg about z: the axis nearest y (moment 1, the smallest) is
   * axis 2 and the one nearest x (moment 2) axis 1, whatever the order of the moments */
  double c = cos(M_PI / 6), s = sin(M_PI / 6);
  double Rz[9] = {c, -s, 0, s, c, 0, 0, 0, 1}, D[3] = {2, 1, 3}, I[9] = {0};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++) I[3 * i + j] += Rz[3 * i + k] * D[k] * Rz[3 * j + k];
  const double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0};
  double ev[3], R[9];
  ENSURE(awe_principal_axes(I, ex, ey, ev, R) == 0);
  ENSURE_NEAR(ev[0], 2, 1e-12);
  ENSURE_NEAR(ev[1], 1, 1e-12);
  ENSURE_NEAR(ev[2], 3, 1e-12);
  for (int k = 0; k < 9; k++) ENSURE_NEAR(R[k], Rz[k], 1e-12);
  /* references pointing the other way flip axes 1 and 2 (and so 3 stays right-handed) */
  const double mx[3] = {-1, 0, 0}, my[3] = {0, -1, 0};
  ENSURE(awe_principal_axes(I, mx, my, ev, R) == 0);
  ENSURE_NEAR(R[0], -c, 1e-12);
  ENSURE_NEAR(R[4], -c, 1e-12);
  ENSURE_NEAR(R[8], 1.0, 1e-12);
  double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
               R[2] * (R[3] * R[7] - R[4] * R[6]);
  ENSURE_NEAR(det, 1.0, 1e-12);
}


int main(void) {
  RUN(test_quat_90_about_z);
  RUN(test_quat_roundtrips);
  RUN(test_heading);
  RUN(test_elevation_azimuth);
  RUN(test_frame_from_refs);
  RUN(test_principal_axes);
  return harness_report();
}
