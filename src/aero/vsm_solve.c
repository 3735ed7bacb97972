/* vsm_solve.c: one VSM solve, inflow to loads: set the inflow, build the influence matrices,
 * solve the circulation (Newton or the relaxed loop, from the previous solution, an elliptic or
 * a zero start), compute the loads (vsm.c lists the stages' files). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aero/vsm_filament.h"
#include "aero/vsm_internal.h"
#include "util/vec3.h"


/* The inflow and geometry of a solve that has a circulation (awe_vsm_velocity_at). */
static void remember_solve(awe_vsm_wing *w, int st, const double va_b[3], const double om[3]) {
  w->last_status = st;
  memcpy(w->last_va, va_b, 3*sizeof(double));
  memcpy(w->last_om, om, 3*sizeof(double));
  w->last_geom_rev = w->geom_rev;
}


int awe_vsm_solve_from(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                       const double ref_point[3], const double *gamma_start,
                       awe_vsm_result *r) {
  if (!r) return AWE_VSM_EINVAL;
  memset(r, 0, sizeof(*r));
  if (!w || !va_b) {
    r->status = AWE_VSM_EINVAL;
    return AWE_VSM_EINVAL;
  }
  const double zero[3] = {0.0, 0.0, 0.0};
  const double *om = omega_b ? omega_b : zero;
  const double *ref = ref_point ? ref_point : zero;
  const int n = w->n;
  w->last_status = AWE_VSM_EINVAL;  // until this solve has a circulation

  // inputs: non-finite or too little wind give zero loads
  if (!awe_vsm_finite3(va_b) || !awe_vsm_finite3(om) || !awe_vsm_finite3(ref)) {
    awe_vsm_zero_results(w, r);
    r->status = AWE_VSM_ENONFINITE;
    return AWE_VSM_ENONFINITE;
  }
  const double vnorm = awe_v3_norm(va_b);
  if (vnorm < AWE_VSM_MIN_WIND) {
    awe_vsm_zero_results(w, r);
    r->va_norm = vnorm;
    r->q_inf = 0.5*w->s.density*vnorm*vnorm;
    r->converged = 1;
    r->status = AWE_VSM_LOW_WIND;
    remember_solve(w, AWE_VSM_LOW_WIND, va_b, om);
    return AWE_VSM_LOW_WIND;
  }

  // inflow, influence matrix at the evaluation points of the model
  awe_vsm_set_inflow(w, va_b, om);
  awe_vsm_build_geometric(w);  // whatever moved since the last solve
                          const int vsm = w->s.model == AWE_VSM_MODEL_VSM;
  awe_vsm_build_aic(w, vsm ? w->cp : w->ac, w->g_main, w->vc_main, vsm, vsm, w->aic);
  if (w->s.is_with_artificial_viscosity) {
    memset(w->mu, 0, (size_t)n*sizeof(double));
    awe_vsm_viscosity_matrix(w);
  }

  // circulation
  awe_vsm_initial_gamma(w, gamma_start);
  memcpy(w->gam, w->gam_start, (size_t)n*sizeof(double));
  const double relax = w->s.relaxation_factor;
  int st, iters = 0;
  double res = INFINITY;
  if (w->s.solver == AWE_VSM_SOLVER_NEWTON) {
    st = awe_vsm_newton_solve(w, &iters, &res);
    if (st != AWE_VSM_OK) {
      // fall back to the relaxed loop from the best finite iterate
      r->newton_fallback = 1;
      int finite = 1;
      for (int i = 0; i < n; i++) {
        if (!isfinite(w->gam[i])) finite = 0;
      }
      if (!finite) memcpy(w->gam, w->gam_start, (size_t)n*sizeof(double));
      st = awe_vsm_loop_solve(w, relax, &iters, &res);
    }
  } else {
    st = awe_vsm_loop_solve(w, relax, &iters, &res);
  }
  if (st != AWE_VSM_OK && relax > 1e-3) {
    memcpy(w->gam, w->gam_start, (size_t)n*sizeof(double));
    st = awe_vsm_loop_solve(w, 0.5*relax, &iters, &res);
  }
  r->iterations = iters;
  r->residual = res;

  if (st == AWE_VSM_ENONFINITE) {
    w->gam_prev_valid = 0;
    awe_vsm_zero_results(w, r);
    r->iterations = iters;
    r->residual = NAN;
    r->status = AWE_VSM_ENONFINITE;
    return AWE_VSM_ENONFINITE;
  }

  // loads from the final iterate (alpha, v_eff belong to w->gam)
  awe_vsm_compute_results(w, va_b, ref, r);
  int finite = isfinite(r->force[0]) && isfinite(r->force[1]) && isfinite(r->force[2]) &&
               isfinite(r->moment[0]) && isfinite(r->moment[1]) && isfinite(r->moment[2]);
  if (!finite) {
    w->gam_prev_valid = 0;
    awe_vsm_zero_results(w, r);
    r->iterations = iters;
    r->residual = NAN;
    r->status = AWE_VSM_ENONFINITE;
    return AWE_VSM_ENONFINITE;
  }
  memcpy(w->gam_prev, w->gam, (size_t)n*sizeof(double));
  w->gam_prev_valid = 1;
  r->converged = st == AWE_VSM_OK;
  r->status = st;
  remember_solve(w, st, va_b, om);
  return st;
}


int awe_vsm_solve(awe_vsm_wing *w, const double va_b[3], const double omega_b[3],
                  const double ref_point[3], awe_vsm_result *r) {
  return awe_vsm_solve_from(w, va_b, omega_b, ref_point, NULL, r);
}


void awe_vsm_va_from_angles(double v, double alpha_deg, double beta_deg, double va[3]) {
  const double a = alpha_deg*AWE_PI/180.0, b = beta_deg*AWE_PI/180.0;
  va[0] = v*cos(a)*cos(b);
  va[1] = v*sin(b);
  va[2] = v*sin(a);
}


const char *awe_vsm_strstatus(int status) {
  switch (status) {
    case AWE_VSM_OK: return "converged";
    case AWE_VSM_LOW_WIND: return "apparent wind below the minimum, zero loads";
    case AWE_VSM_ENOCONV: return "circulation did not converge";
    case AWE_VSM_ENONFINITE: return "non-finite value in the VSM solve";
    case AWE_VSM_EINVAL: return "invalid argument";
    default: return "unknown VSM status";
  }
}
