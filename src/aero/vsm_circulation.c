/* vsm_circulation.c: the circulation solve of the VSM, loop and Newton (vsm.c).
 *
 * Circulation. With v_i = va_i + sum_j AIC_ij Gamma_j, alpha_i = atan2(v_i.n_i, v_i.c_i),
 * W_i = |v_i x s_i|^2, V_ref,i = |va_i x s_i| the fixed-point map is
 *   G_i(Gamma) = 1/2 W_i/V_ref,i c_i cl_i(alpha_i)                       (vsm.md §7)
 * optionally regularised post-stall by the Li/Gaunaa implicit spanwise viscosity
 *   (I - diag(mu) L) G~ = G,  mu_i = max(0, -k S cl'_i / w_i^2),  S = sum c_i w_i,
 *   L = tridiag(1, -2, 1) with tip rows (-4, 4/3) and (4/3, -4)          (Li et al., TORQUE 2026)
 * Convergence: max|G~ - Gamma| / max(max|G~|, tol_reference_error) < rtol, i.e. on the UNRELAXED
 * update (the VortexStepMethod.jl #284 fix).
 *   LOOP:   Gamma_i <- Gamma_i + w_i (G~_i - Gamma_i), w_i = min(w, 1/(1 - dG_i/dGamma_i)) with
 *           w = relaxation_factor (the cap only bites on stiff panels, e.g. tiny cosine tip
 *           panels, where w would exceed the stability limit 2/(1 - dG_i/dGamma_i)); if it
 *           fails, once more from the start with w/2 (when w > 1e-3); an unconverged loop
 *           returns its best iterate.
 *   NEWTON: on R(Gamma) = G(Gamma) - (I - diag(mu) L) Gamma with the analytic Jacobian
 *           dG_i/dGamma_j = g_i . AIC_ij,
 *             g_i = c_i/(2 V_ref,i) [2 cl_i (v_i - (v_i.s_i) s_i)
 *                                    + W_i cl'_i (v_c n_i - v_n c_i)/(v_n^2 + v_c^2)],
 *           dense LU with partial pivoting (factors reused while they contract, also across
 *           solves), backtracking line search on |G~ - Gamma|^2; on failure the LOOP
 *           finishes from the best iterate.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aero/vsm_filament.h"
#include "aero/vsm_internal.h"
#include "util/vec3.h"

static const double CL_SLOPE_STEP = 1e-6;           /* [rad], Newton Jacobian */
static const double AV_SLOPE_STEP = 0.5*3.14159265358979323846/180.0;  /* [rad], viscosity */
static const int NEWTON_MAX_STEPS = 50;
static const double NEWTON_REFRESH = 0.1;  /* refactor when |R| shrinks by less per step */


/* Per-panel inflow va_i = va - omega x cp_i. */
void awe_vsm_set_inflow(awe_vsm_wing *w, const double va[3], const double om[3]) {
  w->uniform = (!om || (om[0] == 0.0 && om[1] == 0.0 && om[2] == 0.0)) && !w->has_dva;
  for (int i = 0; i < w->n; i++) {
    double *v = w->va + 3*i;
    if (w->uniform) {
      v[0] = va[0];
      v[1] = va[1];
      v[2] = va[2];
    } else {
      double oxr[3] = {0.0, 0.0, 0.0};
      if (om) awe_v3_cross(oxr, om, w->cp + 3*i);
      for (int c = 0; c < 3; c++) v[c] = va[c] - oxr[c] + (w->has_dva ? w->dva[3*i + c] : 0.0);
    }
    const double vn = awe_v3_norm(v);
    w->va_norm[i] = vn;
    w->ecoef[i] = 4.0*AWE_VSM_ALPHA0*AWE_VSM_NU/vn;
    for (int c = 0; c < 3; c++) w->va_unit[3*i + c] = vn > 0.0 ? v[c]/vn : 0.0;
    const double vs = awe_v3_dot(v, w->es + 3*i);
    w->v_ref[i] = sqrt(fmax(awe_v3_dot(v, v) - vs*vs, 0.0));
    w->kfac[i] = w->v_ref[i] > 1e-12 ? 0.5*w->chord[i]/w->v_ref[i] : 0.0;
  }
}


/* Tridiagonal (I - diag(mu) L) of the Li/Gaunaa viscosity into w->tri (sub, diag, super). */
void awe_vsm_viscosity_matrix(awe_vsm_wing *w) {
  const int n = w->n;
  double *lo = w->tri, *di = w->tri + n, *up = w->tri + 2*n;
  for (int i = 0; i < n; i++) {
    double ll = 0.0, ld = 0.0, lu = 0.0;
    if (n >= 3) {
      if (i == 0) {
        ld = -4.0;
        lu = 4.0/3.0;
      } else if (i == n - 1) {
        ll = 4.0/3.0;
        ld = -4.0;
      } else {
        ll = 1.0;
        ld = -2.0;
        lu = 1.0;
      }
    }
    lo[i] = -w->mu[i]*ll;
    di[i] = 1.0 - w->mu[i]*ld;
    up[i] = -w->mu[i]*lu;
  }
}


/* Solve the tridiagonal system of w->tri in place on x (Thomas algorithm). */
static void viscosity_solve(awe_vsm_wing *w, double *x) {
  const int n = w->n;
  const double *lo = w->tri, *di = w->tri + n, *up = w->tri + 2*n;
  double *cp = w->tri + 3*n;
  cp[0] = up[0]/di[0];
  x[0] = x[0]/di[0];
  for (int i = 1; i < n; i++) {
    const double m = di[i] - lo[i]*cp[i - 1];
    cp[i] = up[i]/m;
    x[i] = (x[i] - lo[i]*x[i - 1])/m;
  }
  for (int i = n - 2; i >= 0; i--) x[i] -= cp[i]*x[i + 1];
}


static int lu_decomp(double *a, int n, int *piv);
static void lu_solve(const double *a, int n, const int *piv, double *b);


/* Fixed-point map at g: target (regularised G) into gt, raw G into w->graw, and the state of the
 * evaluation (w->vel = v_i, alpha, v_eff, clv, viscosity matrix). Returns the normalised unrelaxed
 * error max|gt - g|/max(max|gt|, tol_reference_error), or NAN on non-finite values. */
static double eval_map(awe_vsm_wing *w, const double *g, double *gt) {
  const int n = w->n;
  const int visc = w->s.is_with_artificial_viscosity;
  double area = 0.0;
  awe_vsm_induced(w, w->aic, g, w->vel);

  for (int i = 0; i < n; i++) {
    const double *v = w->vel + 3*i;
    const double *en = w->en + 3*i, *ec = w->ec + 3*i, *es = w->es + 3*i;
    const double vn = awe_v3_dot(v, en), vc = awe_v3_dot(v, ec), vs = awe_v3_dot(v, es);
    const double a = atan2(vn, vc);
    double ww = awe_v3_dot(v, v) - vs*vs;
    if (!(ww > 0.0)) ww = 0.0;
    const double cl = awe_vsm_panel_cl(w, i, a);
    const double k = w->kfac[i];
    w->alpha[i] = a;
    w->v_eff[i] = sqrt(ww);
    w->clv[i] = cl;
    w->graw[i] = k*ww*cl;
    if (visc) {
      const double h = AV_SLOPE_STEP;
      w->mu[i] = (awe_vsm_panel_cl(w, i, a + h) - awe_vsm_panel_cl(w, i, a - h))/(2.0*h);  // slope for now
      area += w->chord[i]*w->width[i];
    }
  }

  // Li/Gaunaa implicit spanwise viscosity where the lift slope is negative
  memcpy(gt, w->graw, (size_t)n*sizeof(double));
  if (visc) {
    int active = 0;
    for (int i = 0; i < n; i++) {
      const double m = -w->s.artificial_viscosity_factor*area*w->mu[i]/(w->width[i]*w->width[i]);
      w->mu[i] = m > 0.0 ? m : 0.0;
      if (w->mu[i] > 0.0) active = 1;
    }
    awe_vsm_viscosity_matrix(w);
    if (active) viscosity_solve(w, gt);
  }

  double gmax = 0.0, dmax = 0.0;
  int finite = 1;
  for (int i = 0; i < n; i++) {
    if (!isfinite(gt[i])) finite = 0;
    const double ag = fabs(gt[i]), ad = fabs(gt[i] - g[i]);
    if (ag > gmax) gmax = ag;
    if (ad > dmax) dmax = ad;
  }
  if (!finite) return NAN;
  const double ref = gmax > w->s.tol_reference_error ? gmax : w->s.tol_reference_error;
  return ref > 0.0 ? dmax/ref : dmax;
}


/* Row vectors of the Jacobian at the last evaluation: dG_i/dGamma_j = gvec_i . AIC_ij. */
static void jac_vectors(awe_vsm_wing *w) {
  for (int i = 0; i < w->n; i++) {
    const double *v = w->vel + 3*i;
    const double *en = w->en + 3*i, *ec = w->ec + 3*i, *es = w->es + 3*i;
    const double vn = awe_v3_dot(v, en), vc = awe_v3_dot(v, ec), vs = awe_v3_dot(v, es);
    const double a = w->alpha[i], cl = w->clv[i], ww = w->v_eff[i]*w->v_eff[i];
    const double k = w->kfac[i];
    const double h = CL_SLOPE_STEP;
    const double dcl = (awe_vsm_panel_cl(w, i, a + h) - awe_vsm_panel_cl(w, i, a - h))/(2.0*h);
    const double q = vn*vn + vc*vc;
    const double f = q > 0.0 ? ww*dcl/q : 0.0;
    for (int c = 0; c < 3; c++) {
      w->gvec[3*i + c] = k*(2.0*cl*(v[c] - vs*es[c]) + f*(vc*en[c] - vn*ec[c]));
    }
  }
}


/* Newton matrix dG/dGamma - (I - diag(mu) L) at the last evaluation, LU-factorised in w->jac. */
static int factor_jacobian(awe_vsm_wing *w) {
  const int n = w->n;
  const size_t nn = (size_t)n*(size_t)n;
  jac_vectors(w);
  for (int i = 0; i < n; i++) {
    const double gx = w->gvec[3*i], gy = w->gvec[3*i + 1], gz = w->gvec[3*i + 2];
    const double *ax = w->aic + (size_t)i*n, *ay = ax + nn, *az = ay + nn;
    double *row = w->jac + (size_t)i*n;
    for (int j = 0; j < n; j++) row[j] = gx*ax[j] + gy*ay[j] + gz*az[j];
    if (w->s.is_with_artificial_viscosity) {
      row[i] -= w->tri[n + i];
      if (i > 0) row[i - 1] -= w->tri[i];
      if (i < n - 1) row[i + 1] -= w->tri[2*n + i];
    } else {
      row[i] -= 1.0;
    }
  }
  w->lu_valid = lu_decomp(w->jac, n, w->piv) == 0;
  return w->lu_valid ? 0 : -1;
}


/* Relaxed fixed-point iteration from w->gam. Panel i relaxes with
 * w_i = min(relax, 1/(1 - dG_i/dGamma_i)) (diagonal of the Jacobian at the start): a small panel
 * next to its own trailing vortices (fine cosine tips) has dG_i/dGamma_i << -1 and would turn the
 * relaxed loop into a 2-cycle; other panels keep the requested factor. */
int awe_vsm_loop_solve(awe_vsm_wing *w, double relax, int *iters, double *res) {
  const int n = w->n, maxit = w->s.max_iterations;
  const size_t nn = (size_t)n*(size_t)n;
  double vmax = 0.0;
  for (int i = 0; i < n; i++) vmax = fmax(vmax, w->va_norm[i]);
  const double gamma_bound = 1e3*vmax*w->c_ref + 1e3*w->s.tol_reference_error;
  double best = INFINITY;
  for (int it = 0; it < maxit; it++) {
    const double err = eval_map(w, w->gam, w->gtarget);
    (*iters)++;
    if (!isfinite(err)) break;
    if (it == 0) {
      jac_vectors(w);
      for (int i = 0; i < n; i++) {
        const size_t ii = (size_t)i*n + i;
        const double jii = w->gvec[3*i]*w->aic[ii] + w->gvec[3*i + 1]*w->aic[nn + ii]
                           + w->gvec[3*i + 2]*w->aic[2*nn + ii];
        const double d = 1.0 - jii;
        w->relax[i] = (isfinite(d) && d*relax > 1.0) ? 1.0/d : relax;
      }
    }
    *res = err;
    if (err < w->s.rtol) return AWE_VSM_OK;
    if (err < best) {
      best = err;
      memcpy(w->gtry, w->gam, (size_t)n*sizeof(double));
    }
    if (it == maxit - 1 || (w->stop && *w->stop)) break;
    double gmax = 0.0;
    for (int i = 0; i < n; i++) {
      w->gam[i] += w->relax[i]*(w->gtarget[i] - w->gam[i]);
      const double ag = fabs(w->gam[i]);
      if (ag > gmax) gmax = ag;
    }
    // diverged (post-stall runaway): |Gamma| far beyond 1/2 V c cl with |cl| ~ 2 pi
    if (!(gmax <= gamma_bound)) break;
  }

  // not converged: leave the best iterate (and its alpha, v_eff) in place
  if (!isfinite(best)) return AWE_VSM_ENONFINITE;
  memcpy(w->gam, w->gtry, (size_t)n*sizeof(double));
  *res = eval_map(w, w->gam, w->gtarget);
  return AWE_VSM_ENOCONV;
}


static double sumsq_diff(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += (a[i] - b[i])*(a[i] - b[i]);
  return s;
}


/* In-place LU factorisation with partial pivoting of the row-major n x n matrix a,
 * P a = L U (unit lower L below the diagonal, U on and above). Written out instead of
 * gsl_linalg_LU_decomp, which allocates a pivot vector on every call (GSL 2.7) and so cannot be
 * used in the allocation-free solve. Returns 0, or -1 for a (numerically) singular matrix. */
static int lu_decomp(double *a, int n, int *piv) {
  double amax = 0.0;
  for (size_t k = 0; k < (size_t)n*(size_t)n; k++) {
    const double v = fabs(a[k]);
    if (v > amax) amax = v;
  }
  if (!(amax > 0.0) || !isfinite(amax)) return -1;
  const double tiny = 1e-13*amax;
  for (int k = 0; k < n; k++) {
    double *rk = a + (size_t)k*n;
    int p = k;
    double best = fabs(rk[k]);
    for (int i = k + 1; i < n; i++) {
      const double v = fabs(a[(size_t)i*n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = p;
    if (!(best > tiny)) return -1;
    if (p != k) {
      double *rp = a + (size_t)p*n;
      for (int j = 0; j < n; j++) {
        const double t = rk[j];
        rk[j] = rp[j];
        rp[j] = t;
      }
    }
    const double inv = 1.0/rk[k];
    for (int i = k + 1; i < n; i++) {
      double *ri = a + (size_t)i*n;
      const double l = ri[k]*inv;
      ri[k] = l;
      if (l == 0.0) continue;
      for (int j = k + 1; j < n; j++) ri[j] -= l*rk[j];
    }
  }
  return 0;
}


/* Solve a x = b with the factors of lu_decomp; b is overwritten by x. */
static void lu_solve(const double *a, int n, const int *piv, double *b) {
  for (int k = 0; k < n; k++) {
    if (piv[k] != k) {
      const double t = b[k];
      b[k] = b[piv[k]];
      b[piv[k]] = t;
    }
  }
  for (int i = 1; i < n; i++) {
    const double *ri = a + (size_t)i*n;
    double s = b[i];
    for (int j = 0; j < i; j++) s -= ri[j]*b[j];
    b[i] = s;
  }
  for (int i = n - 1; i >= 0; i--) {
    const double *ri = a + (size_t)i*n;
    double s = b[i];
    for (int j = i + 1; j < n; j++) s -= ri[j]*b[j];
    b[i] = s/ri[i];
  }
}


/* Damped Newton from w->gam on R = G - (I - diag(mu) L) Gamma. The LU factors of the Newton
 * matrix are kept across iterations and across solves (chord steps) and refreshed when a step
 * contracts the residual by less than NEWTON_REFRESH or the line search fails with old factors. */
int awe_vsm_newton_solve(awe_vsm_wing *w, int *iters, double *res) {
  const int n = w->n;
  const int visc = w->s.is_with_artificial_viscosity;
  double err = eval_map(w, w->gam, w->gtarget);
  (*iters)++;
  if (!isfinite(err)) return AWE_VSM_ENONFINITE;
  double phi = sumsq_diff(w->gtarget, w->gam, n);
  int fresh = 0;  // factors belong to the current iterate

  for (int it = 0; it < NEWTON_MAX_STEPS; it++) {
    *res = err;
    if (err < w->s.rtol) return AWE_VSM_OK;
    if (w->stop && *w->stop) return AWE_VSM_ENOCONV;
    if (!w->lu_valid) {
      if (factor_jacobian(w) != 0) return AWE_VSM_ENOCONV;
      fresh = 1;
    }

    // step = -J^-1 R with R = G - (I - diag(mu) L) Gamma
    for (int i = 0; i < n; i++) {
      double tg = w->gam[i];
      if (visc) {
        tg = w->tri[n + i]*w->gam[i];
        if (i > 0) tg += w->tri[i]*w->gam[i - 1];
        if (i < n - 1) tg += w->tri[2*n + i]*w->gam[i + 1];
      }
      w->step[i] = -(w->graw[i] - tg);
    }
    lu_solve(w->jac, n, w->piv, w->step);
    int ok = 1;
    for (int i = 0; i < n; i++) {
      if (!isfinite(w->step[i])) ok = 0;
    }

    // backtracking line search on |G~ - Gamma|^2 (old factors: full step or half only)
    double lam = 1.0;
    const double lam_min = fresh ? 1.0/1024.0 : 0.5;
    int accepted = 0;
    double pt = INFINITY, et = NAN;
    while (ok && lam >= lam_min) {
      for (int i = 0; i < n; i++) w->gtry[i] = w->gam[i] + lam*w->step[i];
      et = eval_map(w, w->gtry, w->gtarget_try);
      (*iters)++;
      if (isfinite(et)) {
        pt = sumsq_diff(w->gtarget_try, w->gtry, n);
        if (pt <= (1.0 - 1e-4*lam)*phi) {
          accepted = 1;
          break;
        }
      }
      lam *= 0.5;
    }
    if (!accepted) {
      if (fresh) return AWE_VSM_ENOCONV;
      // old factors misled the step: refactor at the current iterate (re-evaluated) and retry
      err = eval_map(w, w->gam, w->gtarget);
      (*iters)++;
      w->lu_valid = 0;
      continue;
    }

    double *t = w->gam;
    w->gam = w->gtry;
    w->gtry = t;
    t = w->gtarget;
    w->gtarget = w->gtarget_try;
    w->gtarget_try = t;
    if (pt > NEWTON_REFRESH*NEWTON_REFRESH*phi) w->lu_valid = 0;  // slow contraction
    phi = pt;
    err = et;
    fresh = 0;
  }
  *res = err;
  return err < w->s.rtol ? AWE_VSM_OK : AWE_VSM_ENOCONV;
}


/* Initial circulation: previous solution, elliptic or zero. */
void awe_vsm_initial_gamma(awe_vsm_wing *w, const double *gstart) {
  const int n = w->n;
  if (gstart) {
    memcpy(w->gam_start, gstart, (size_t)n*sizeof(double));
  } else if (w->s.use_gamma_prev && w->gam_prev_valid) {
    memcpy(w->gam_start, w->gam_prev, (size_t)n*sizeof(double));
  } else if (w->s.gamma0 == AWE_GAMMA0_ELLIPTIC) {
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < w->nsec; k++) {
      const double a = awe_v3_dot(w->sec_le + 3*k, w->sdir), b = awe_v3_dot(w->sec_te + 3*k, w->sdir);
      lo = fmin(lo, fmin(a, b));
      hi = fmax(hi, fmax(a, b));
    }
    for (int i = 0; i < n; i++) {
      const double y = awe_v3_dot(w->cp + 3*i, w->sdir) - 0.5*(lo + hi);
      const double e = 2.0*y/(hi - lo);
      w->gam_start[i] = sqrt(fmax(0.0, 1.0 - e*e));
    }
  } else {
    memset(w->gam_start, 0, (size_t)n*sizeof(double));
  }
}
