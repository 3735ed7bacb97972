/* ground.h: contact of a point with the ground z = h (physics.md §3).
 *
 * A penalty spring-damper normal force and regularised Coulomb friction, per unit mass of the
 * point (the force is m_i times this), so that every point -- a 10 g tether node or a 23 kg
 * KCU -- has the same contact frequency f and damping ratio zeta:
 *   d = h - z (penetration), omega = 2 pi f
 *   a_n = max(0, omega^2 d - 2 zeta omega v_z)           while d > 0, else 0
 *   a_t = -mu a_n v_t / sqrt(|v_t|^2 + v_s^2),  v_t = (v_x, v_y)
 * i.e. k_i = m_i omega^2 and c_i = 2 zeta omega m_i. A point resting on the ground sinks
 * g/omega^2 (1 cm at the default 5 Hz); a contact lasts about 1/(2 f) (0.1 s), which the stiff
 * implicit steppers resolve with a few steps (and stay stable at any f); an explicit stepper
 * needs steps below ~0.4/f. The normal force never pulls (max(0, .)): a point leaves the
 * ground when the spring-damper force reaches zero, with the restitution of the clamped
 * Kelvin-Voigt contact (gravity aside: e = 0.21 at zeta = 0.7, 0.74 at 0.1). The friction's
 * sign is smoothed over v_s (0.05 m/s): a sliding point decelerates at mu g for |v_t| >> v_s,
 * and the derivative stays finite, so the analytic Jacobian holds (jacobian.h).
 * Which points: those with a state and the WING points of rigid wings (their force enters the
 * wing body); STATIC and QUASI_STATIC points have none.
 * Sources: the penalty method of multibody contact (e.g. Makani's ground contact model,
 * MuJoCo's soft constraints); the smooth friction of winch.h.
 */
#ifndef AWE_GROUND_H
#define AWE_GROUND_H

#include <math.h>
#include <stddef.h>

#include "model/model.h"

/* The contact acceleration of a point at p with velocity v into a (zero when it is above the
 * ground); J (may be NULL): its derivatives, row-major 3 x 4, by (z, v_x, v_y, v_z). Returns 1
 * while the contact pushes. */
static inline int awe_ground_acc(const awe_ground *g, const double p[3], const double v[3],
                                 double a[3], double *J) {
  a[0] = a[1] = a[2] = 0.0;
  if (J)
    for (int k = 0; k < 12; k++) J[k] = 0.0;
  double d = g->height - p[2];
  if (!g->on || !(d > 0.0)) return 0;
  double an = g->omega * g->omega * d - 2.0 * g->zeta * g->omega * v[2];
  if (!(an > 0.0)) return 0;
  double vs2 = g->v_slip * g->v_slip;
  double s = sqrt(v[0] * v[0] + v[1] * v[1] + vs2);
  a[0] = -g->mu * an * v[0] / s;
  a[1] = -g->mu * an * v[1] / s;
  a[2] = an;
  if (J) {
    double dz = -g->omega * g->omega, dvz = -2.0 * g->zeta * g->omega, s3 = s * s * s;
    J[8] = dz;
    J[11] = dvz;
    for (int r = 0; r < 2; r++) {
      J[4 * r] = -g->mu * v[r] / s * dz;
      J[4 * r + 3] = -g->mu * v[r] / s * dvz;
      for (int c = 0; c < 2; c++)
        J[4 * r + 1 + c] = -g->mu * an * ((r == c) / s - v[r] * v[c] / s3);
    }
  }
  return 1;
}

#endif
