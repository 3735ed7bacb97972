/* vsm_filament.h: Biot-Savart velocity of straight vortex filaments with viscous cores.
 *
 * Unit circulation; the caller scales by Gamma. Notation: r0 = x2 - x1, r1 = P - x1,
 * r2 = P - x2, d = |r1 x r0|/|r0| the distance of P from the filament axis.
 *
 * Finite segment x1 -> x2 (bound and chordwise trailing filaments):
 *   outside the core (d > eps):  V = 1/(4 pi) (r1 x r2)/|r1 x r2|^2 (r0 . (r1/|r1| - r2/|r2|))
 *   inside (d <= eps): the same with the point moved radially onto the core surface, scaled
 *   linearly by d/eps, which in closed form is
 *     V = -1/(4 pi) [a1/sqrt(a1^2/|r0|^2 + eps^2) - a2/sqrt(a2^2/|r0|^2 + eps^2)]
 *         / (eps^2 |r0|^2) (r1 x r0),   a1 = r1.r0, a2 = r2.r0
 *   (continuous at d = eps, zero on the axis).
 * Semi-infinite filament from x1 along the unit vector u (wake legs):
 *   outside: V = 1/(4 pi) (r1 x u)/|r1 x u|^2 (1 + (r1.u)/|r1|)
 *   inside:  V = 1/(4 pi) (r1 x u)/eps^2 (1 + (r1.u)/sqrt((r1.u)^2 + eps^2))
 * Core radii:
 *   bound filament:     eps = core_radius_fraction |r0|
 *   trailing filaments: eps = sqrt(4 alpha0 nu |r_par| / V_inf), a Lamb-Oseen core grown with the
 *   distance |r_par| = |r1.r0|/|r0| (finite) or |r1.u| (semi-infinite) along the filament from x1,
 *   alpha0 = 1.25643, nu = 1.48e-5 m^2/s, V_inf = apparent wind speed of the panel.
 * With no core (eps within 1e-12 |r1| of zero) a point on the axis gets V = 0.
 * awe_vsm_vel_semiinf_r takes r1 and |r1| precomputed (legs leaving one trailing-edge point
 * along different wake directions share them); same arithmetic as awe_vsm_vel_semiinf_e.
 *
 * Sources: Damiani et al., "A vortex step method for nonlinear airfoil polar data as implemented
 * in KiteAeroDyn", AIAA 2019-0804; VortexStepMethod.jl src/filament.jl (the linear-core closed
 * form above is the 2026 version; the June-2025 code projected the point tangentially, which
 * turns the in-core velocity radial: not reproduced). See vsm.md §5.
 */
#ifndef AWE_VSM_FILAMENT_H
#define AWE_VSM_FILAMENT_H

#include <math.h>

#define AWE_VSM_ALPHA0 1.25643
#define AWE_VSM_NU 1.48e-5
#define AWE_VSM_INV4PI 0.07957747154594767  /* 1/(4 pi) */

/* Velocity at p induced by the unit-strength segment x1 -> x2 with core radius eps. */
static inline void awe_vsm_vel_segment(const double x1[3], const double x2[3], const double p[3],
                                       double eps, double v[3]) {
  const double r0[3] = {x2[0] - x1[0], x2[1] - x1[1], x2[2] - x1[2]};
  const double r1[3] = {p[0] - x1[0], p[1] - x1[1], p[2] - x1[2]};
  const double r2[3] = {p[0] - x2[0], p[1] - x2[1], p[2] - x2[2]};
  const double c[3] = {r1[1]*r0[2] - r1[2]*r0[1], r1[2]*r0[0] - r1[0]*r0[2],
                       r1[0]*r0[1] - r1[1]*r0[0]};
  const double l2 = r0[0]*r0[0] + r0[1]*r0[1] + r0[2]*r0[2];
  const double c2 = c[0]*c[0] + c[1]*c[1] + c[2]*c[2];
  const double n1 = sqrt(r1[0]*r1[0] + r1[1]*r1[1] + r1[2]*r1[2]);
  const double d = l2 > 0.0 ? sqrt(c2/l2) : 0.0;
  const double rounding = 1e-12*n1;
  if (l2 <= 0.0 || (eps <= rounding && d <= rounding)) {
    v[0] = v[1] = v[2] = 0.0;
    return;
  }
  if (d > eps) {
    // outside the core: classical Biot-Savart segment, r1 x r2 = -(r1 x r0)
    const double n2 = sqrt(r2[0]*r2[0] + r2[1]*r2[1] + r2[2]*r2[2]);
    const double proj = (r0[0]*(r1[0]/n1 - r2[0]/n2) + r0[1]*(r1[1]/n1 - r2[1]/n2)
                         + r0[2]*(r1[2]/n1 - r2[2]/n2));
    const double k = -AWE_VSM_INV4PI*proj/c2;
    v[0] = k*c[0];
    v[1] = k*c[1];
    v[2] = k*c[2];
  } else {
    // inside the core: linear velocity profile
    const double a1 = r1[0]*r0[0] + r1[1]*r0[1] + r1[2]*r0[2];
    const double a2 = r2[0]*r0[0] + r2[1]*r0[1] + r2[2]*r0[2];
    const double e2 = eps*eps;
    const double dsum = a1/sqrt(a1*a1/l2 + e2) - a2/sqrt(a2*a2/l2 + e2);
    const double k = -AWE_VSM_INV4PI*dsum/(e2*l2);
    v[0] = k*c[0];
    v[1] = k*c[1];
    v[2] = k*c[2];
  }
}


/* Core radius of a chordwise trailing filament x1 -> x2 at p for the wind speed vinf. */
static inline double awe_vsm_trailing_core(const double x1[3], const double x2[3],
                                           const double p[3], double vinf) {
  const double r0[3] = {x2[0] - x1[0], x2[1] - x1[1], x2[2] - x1[2]};
  const double l = sqrt(r0[0]*r0[0] + r0[1]*r0[1] + r0[2]*r0[2]);
  if (l <= 0.0 || !(vinf > 0.0)) return 0.0;
  const double a = fabs((p[0] - x1[0])*r0[0] + (p[1] - x1[1])*r0[1] + (p[2] - x1[2])*r0[2])/l;
  return sqrt(4.0*AWE_VSM_ALPHA0*AWE_VSM_NU*a/vinf);
}


/* Wind speed below which p lies inside the viscous core of the trailing filament x1 -> x2
 * (eps(vinf) >= d  <=>  vinf <= 4 alpha0 nu |r_par| / d^2); +inf on the axis. */
static inline double awe_vsm_trailing_vcrit(const double x1[3], const double x2[3],
                                            const double p[3]) {
  const double r0[3] = {x2[0] - x1[0], x2[1] - x1[1], x2[2] - x1[2]};
  const double r1[3] = {p[0] - x1[0], p[1] - x1[1], p[2] - x1[2]};
  const double c[3] = {r1[1]*r0[2] - r1[2]*r0[1], r1[2]*r0[0] - r1[0]*r0[2],
                       r1[0]*r0[1] - r1[1]*r0[0]};
  const double l2 = r0[0]*r0[0] + r0[1]*r0[1] + r0[2]*r0[2];
  if (l2 <= 0.0) return 0.0;
  const double d2 = (c[0]*c[0] + c[1]*c[1] + c[2]*c[2])/l2;
  const double a = fabs(r1[0]*r0[0] + r1[1]*r0[1] + r1[2]*r0[2])/sqrt(l2);
  if (d2 <= 0.0) return INFINITY;
  return 4.0*AWE_VSM_ALPHA0*AWE_VSM_NU*a/d2;
}


/* awe_vsm_vel_semiinf_e with r1 = p - x1 and n1 = |r1| given, so that the legs leaving one
 * trailing-edge point along different directions share them (same arithmetic, same result). */
static inline void awe_vsm_vel_semiinf_r(const double r1[3], double n1, const double u[3],
                                         double ecoef, double v[3]) {
  const double a = r1[0]*u[0] + r1[1]*u[1] + r1[2]*u[2];
  const double c[3] = {r1[1]*u[2] - r1[2]*u[1], r1[2]*u[0] - r1[0]*u[2],
                       r1[0]*u[1] - r1[1]*u[0]};
  const double d2 = c[0]*c[0] + c[1]*c[1] + c[2]*c[2];
  const double e2 = ecoef*fabs(a);
  double k;
  if (d2 > e2) {
    // outside the core: 1/(4 pi) (1 + a/|r1|)/d^2 with one division
    k = AWE_VSM_INV4PI*(n1 + a)/(d2*n1);
  } else {
    const double rounding = 1e-12*n1;
    if (e2 <= rounding*rounding) {
      v[0] = v[1] = v[2] = 0.0;
      return;
    }
    // inside the core: linear velocity profile
    k = AWE_VSM_INV4PI/e2*(1.0 + a/sqrt(a*a + e2));
  }
  v[0] = k*c[0];
  v[1] = k*c[1];
  v[2] = k*c[2];
}


/* r1 = p - x1 and its length for awe_vsm_vel_semiinf_r. */
static inline double awe_vsm_leg_vector(const double x1[3], const double p[3], double r1[3]) {
  r1[0] = p[0] - x1[0];
  r1[1] = p[1] - x1[1];
  r1[2] = p[2] - x1[2];
  return sqrt(r1[0]*r1[0] + r1[1]*r1[1] + r1[2]*r1[2]);
}


/* Velocity at p induced by the unit-strength semi-infinite filament starting at x1 along the
 * unit vector u, with the viscous core eps^2 = ecoef |r1.u|, ecoef = 4 alpha0 nu / V_inf
 * (ecoef = 0: no core). */
static inline void awe_vsm_vel_semiinf_e(const double x1[3], const double u[3], const double p[3],
                                         double ecoef, double v[3]) {
  double r1[3];
  const double n1 = awe_vsm_leg_vector(x1, p, r1);
  awe_vsm_vel_semiinf_r(r1, n1, u, ecoef, v);
}


/* Same with the core for the wind speed vinf (vinf = INFINITY: no core). */
static inline void awe_vsm_vel_semiinf(const double x1[3], const double u[3], const double p[3],
                                       double vinf, double v[3]) {
  awe_vsm_vel_semiinf_e(x1, u, p, 4.0*AWE_VSM_ALPHA0*AWE_VSM_NU/vinf, v);
}

#endif
