/* kite_frames.h: reference frames, quaternions and kite angles (physics.md §4, §9, §10).
 *
 * World frame ENU (x east, y north, z up). Quaternions are scalar first q = [w, x, y, z]
 * (Hamilton), R(q) maps body coordinates to world: v_w = R v_b. Matrices are row-major 3x3.
 * r = kite position relative to the ground station (base point).
 *
 *   tangential sphere frame t:  z_t = r/|r|, y_t = normalize([-r_y, r_x, 0]), x_t = y_t x z_t
 *   elevation = atan(r_z / sqrt(r_x^2 + r_y^2))        (up from the horizontal plane)
 *   azimuth   = -atan2(r_y, r_x)                       (from +x, positive toward -y)
 *   heading   = atan2(e_x . y_t, e_x . x_t)            (e_x = body x axis in world; 0 = nose
 *                                                       toward the ground station)
 *   course    = atan2(v . y_t, v . x_t)
 * The target radial for (elevation e, azimuth a) is [cos e cos a, -cos e sin a, sin e].
 */
#ifndef AWE_KITE_FRAMES_H
#define AWE_KITE_FRAMES_H

/* Rotation matrix of a quaternion, valid for any non-zero q (divides by |q|^2). */
void awe_quat_to_R(const double q[4], double R[9]);
/* Quaternion of a rotation matrix (w >= 0), trace branch or largest-diagonal branch. */
void awe_R_to_quat(const double R[9], double q[4]);
/* r = a * b (Hamilton product). r may alias neither a nor b. */
void awe_quat_mul(const double a[4], const double b[4], double r[4]);
/* Quaternion of a rotation vector phi (axis * angle) [rad]. */
void awe_quat_from_rotvec(const double phi[3], double q[4]);
/* Rotation vector of a unit quaternion (the inverse of awe_quat_from_rotvec, angle <= pi). */
void awe_quat_to_rotvec(const double q[4], double phi[3]);
/* Scale q to unit norm (leaves a zero quaternion as identity). */
void awe_quat_normalize(double q[4]);

/* Tangential sphere frame: R_t_to_w with columns x_t, y_t, z_t for position r. */
void awe_R_t_to_w(const double r[3], double R[9]);
double awe_elevation(const double r[3]);
double awe_azimuth(const double r[3]);
/* Heading [rad] of a body whose x axis in world coordinates is ex, at position r. */
double awe_heading(const double r[3], const double ex[3]);
/* Course [rad] of velocity v at position r. */
double awe_course(const double r[3], const double v[3]);
/* Unit radial for elevation e and azimuth a [rad]. */
void awe_radial(double e, double a, double out[3]);

/* Body frame of a wing from reference points: z = normalize(z2 - z1), y' = normalize(y2 - y1),
 * x = normalize(y' x z), y = z x x; R = [x y z] (columns). Returns -1 when degenerate. */
int awe_frame_from_refs(const double z1[3], const double z2[3], const double y1[3],
                        const double y2[3], double R[9]);

/* Principal axes of a symmetric inertia tensor I (row-major): moments ev and R_p_to_b (columns =
 * principal axes, right-handed). Axis 2 is the eigenvector nearest y_ref, axis 1 the one of the
 * other two nearest x_ref (unit vectors in the same frame as I), axis 3 = axis 1 x axis 2: for a
 * wing symmetric about its xz plane this is SymbolicAWEModels' rotation about y
 * (calc_inertia_y_rotation), so y_damping always damps pitch. Returns 0 on success. */
int awe_principal_axes(const double I[9], const double x_ref[3], const double y_ref[3],
                       double ev[3], double R[9]);

#endif
