/* vsm_linearize.c: Jacobian of the VSM loads with respect to inflow, body rates and twist.
 *
 *   y = [va_b (3), omega_b (3), theta (n_sections)],  x = [F (3), M (3), M_section (n_sections)]
 *   J_ij = (x_i(y0 + h_j e_j) - x_i(y0 - h_j e_j)) / (2 h_j)      (central differences)
 *   J_ij = (x_i(y0 + h_j e_j) - x_i(y0)) / h_j                       (awe_vsm_linearize_forward)
 * Steps: h_va = 1e-4 max(|va|, 1) m/s, h_omega = h_va/max(span/2, 1e-3) rad/s, h_theta = 1e-4 rad.
 * Every perturbed solve starts from the circulation at y0 and runs the Newton solver with
 * rtol = min(rtol, 1e-10), so the differences are not polluted by the iteration tolerance.
 * Cost: the va and omega columns reuse the wing's cached geometric influence matrices; a twist
 * column sets the twist y0 + h e_j directly (the twist at y0 is restored once, after the loop)
 * and rebuilds only the influence-matrix rows and columns of the panels that moved (vsm.c).
 *
 * Source: VortexStepMethod.jl src/solver.jl linearize (forward differences, warm-started solves;
 * the central form halves the truncation order); vsm.md §11.
 */
#include <math.h>
#include <string.h>

#include "aero/vsm_internal.h"


int awe_vsm_linearize_size(const awe_vsm_wing *w) {
  return w ? 6 + w->nsec : 0;
}


/* x = [F, M, section moments] of a result. */
static void outputs(const awe_vsm_wing *w, const awe_vsm_result *r, double *x) {
  for (int k = 0; k < 3; k++) {
    x[k] = r->force[k];
    x[3 + k] = r->moment[k];
  }
  for (int k = 0; k < w->nsec; k++) x[6 + k] = r->section_moment[k];
}


static int linearize(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                     const double ref_point[3], double *x0, double *jac, awe_vsm_result *r,
                     int central) {
  if (!w || !va_b) return AWE_VSM_EINVAL;
  const int m = 6 + w->nsec, n = w->n;
  const double zero[3] = {0.0, 0.0, 0.0};
  const double *om0 = omega_b ? omega_b : zero;
  awe_vsm_result rb, rt;
  awe_vsm_result *res = r ? r : &rb;

  // tight Newton solves
  const awe_vsm_settings keep = w->s;
  w->s.solver = AWE_VSM_SOLVER_NEWTON;
  if (w->s.rtol > 1e-10) w->s.rtol = 1e-10;
  memcpy(w->lin_theta, w->theta_user, (size_t)w->nsec*sizeof(double));

  // operating point
  int st = awe_vsm_solve_from(w, va_b, om0, ref_point, NULL, res);
  if (st != AWE_VSM_OK) {
    // low wind: loads and their derivatives are zero; failures: nothing trustworthy
    if (st == AWE_VSM_LOW_WIND || st == AWE_VSM_ENONFINITE) {
      if (x0) memset(x0, 0, (size_t)m*sizeof(double));
      if (jac) memset(jac, 0, (size_t)m*(size_t)m*sizeof(double));
    } else if (x0) {
      outputs(w, res, x0);
    }
    w->s = keep;
    return st;
  }
  memcpy(w->lin_gam, w->gam, (size_t)n*sizeof(double));
  if (x0) outputs(w, res, x0);
  // the perturbed solves start at the solution: Newton factors taken there (the first
  // perturbed solve refactors) make each of them converge in a couple of iterations
  w->lu_valid = 0;

  if (jac) {
    const double hva = 1e-4*fmax(res->va_norm, 1.0);
    const double hom = hva/fmax(0.5*w->span, 1e-3);
    const double hth = 1e-4;
    for (int j = 0; j < m && st == AWE_VSM_OK; j++) {
      const double h = j < 3 ? hva : (j < 6 ? hom : hth);
      for (int side = 0; side < (central ? 2 : 1) && st == AWE_VSM_OK; side++) {
        const double d = side == 0 ? h : -h;
        double va[3] = {va_b[0], va_b[1], va_b[2]}, om[3] = {om0[0], om0[1], om0[2]};
        if (j < 3) {
          va[j] += d;
        } else if (j < 6) {
          om[j - 3] += d;
        } else {
          // twist step from y0; the next column overwrites it (restored after the loop)
          w->lin_theta[j - 6] += d;
          awe_vsm_wing_set_twist(w, w->lin_theta);
          w->lin_theta[j - 6] -= d;
        }
        st = awe_vsm_solve_from(w, va, om, ref_point, w->lin_gam, &rt);
        outputs(w, &rt, side == 0 ? w->lin_xp : w->lin_xm);
      }
      if (central) {
        for (int i = 0; i < m; i++) jac[i*m + j] = (w->lin_xp[i] - w->lin_xm[i])/(2.0*h);
      } else {
        for (int i = 0; i < m; i++) jac[i*m + j] = (w->lin_xp[i] - x0[i])/h;
      }
    }
  }

  // restore the operating point: settings, twist, warm start and (central) the result arrays
  awe_vsm_wing_set_twist(w, w->lin_theta);
  if (central) {
    int st0 = awe_vsm_solve_from(w, va_b, om0, ref_point, w->lin_gam, res);
    if (st == AWE_VSM_OK) st = st0;
  } else {
    memcpy(w->gam, w->lin_gam, (size_t)n*sizeof(double));
    memcpy(w->gam_prev, w->lin_gam, (size_t)n*sizeof(double));
  }
  w->s = keep;
  return st;
}


int awe_vsm_linearize(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                      const double ref_point[3], double *x0, double *jac, awe_vsm_result *r) {
  return linearize(w, va_b, omega_b, ref_point, x0, jac, r, 1);
}


int awe_vsm_linearize_forward(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                              const double ref_point[3], double *x0, double *jac,
                              awe_vsm_result *r) {
  return linearize(w, va_b, omega_b, ref_point, x0, jac, r, 0);
}
