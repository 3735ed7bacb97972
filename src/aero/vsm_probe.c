/* vsm_probe.c: the flow velocity at any point near the wing from the last solve.
 *
 *   v(p) = va_b - omega_b x p + sum_j Gamma_j V_j(p)
 *
 * V_j is the unit horseshoe j of the influence matrices (vsm_influence.c): bound filament
 * b2 -> b1 (core core_radius_fraction |b1 - b2|), chordwise trailing filaments b1 -> TE1 and
 * TE2 -> b2 (Lamb-Oseen cores for the panel's wind speed) and the semi-infinite wake legs from
 * TE1 (sign -1) and TE2 (sign +1) along the panel's wind (uniform wake: one direction and core
 * coefficient for all, as the matrices use). Unlike the matrix at the control points, nothing is
 * removed: the 2D self-induction is taken out there only because the section polar holds it.
 * vsm.md §4-§6.
 */
#include <math.h>

#include "aero/vsm_filament.h"
#include "aero/vsm_internal.h"
#include "util/vec3.h"


int awe_vsm_velocity_at(const awe_vsm_wing *w, const double p[3], double out[3]) {
  if (!w || !p || !out) return AWE_VSM_EINVAL;
  out[0] = out[1] = out[2] = NAN;
  if (!awe_vsm_finite3(p)) return AWE_VSM_EINVAL;
  const int st = w->last_status;
  if (st == AWE_VSM_EINVAL || w->last_geom_rev != w->geom_rev) return AWE_VSM_EINVAL;
  double oxp[3];
  awe_v3_cross(oxp, w->last_om, p);
  double v[3] = {w->last_va[0] - oxp[0], w->last_va[1] - oxp[1], w->last_va[2] - oxp[2]};
  if (st != AWE_VSM_LOW_WIND) {
    const int n = w->n;
    const double e0 = 4.0*AWE_VSM_ALPHA0*AWE_VSM_NU/w->va_norm[0];
    for (int j = 0; j < n; j++) {
      const double g = w->gam[j];
      const double *u = w->va_unit + 3*(w->uniform ? 0 : j);
      const double ec = w->uniform ? e0 : w->ecoef[j];
      double base[3], s1[3], s2[3];
      awe_vsm_ring_geometric(w, j, p, w->va_norm[j], 1, 0, base);
      awe_vsm_vel_semiinf_e(w->ref_te + 3*j, u, p, ec, s1);
      awe_vsm_vel_semiinf_e(w->ref_te + 3*(j + 1), u, p, ec, s2);
      for (int c = 0; c < 3; c++) v[c] += g*(base[c] + s2[c] - s1[c]);
    }
  }
  out[0] = v[0];
  out[1] = v[1];
  out[2] = v[2];
  return st;
}
