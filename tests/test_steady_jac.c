/* test_steady_jac.c: the steady state's sparse Newton matrix (src/solve/steady_jac.h) against
 * the dense one it replaced: M = sigma I - J_gen, J_gen(i, k) = J(A[i], P[k]) for plain
 * coordinates and 1/2 sum_q J(A[i], Q_q) (Q (x) (0, e_axis))_q for a rigid wing's rotation,
 * built from the full n x n Jacobian (awe_jacobian_fd) and solved by GSL's pivoted LU.
 * Models: the 4-segment hanging tether (plain coordinates), the rigid 2plate kite (rotation
 * columns, twist groups) and the V3 kite (particle wing, pulleys). Two sigmas each: 1e-2 of
 * the largest diagonal (the sparse LU) and 1e-9 of it (the kites' pivots are too small there:
 * the dense fallback). The solutions agree to 1e-9 relative. */
#include <gsl/gsl_linalg.h>

#include "test_physics_util.h"
#include "solve/integrate.h"
#include "solve/steady_jac.h"
#include "util/kite_frames.h"


/* x = (sigma I - J_gen)^-1 r from the dense Jacobian (the formula of the dense polish) */
static void dense_solve(awe_sim *sim, const int *P, const int *A, int np, double sigma,
                        const double *r, double *x) {
  int n = sim->w->nx;
  double *J = calloc((size_t)n * (size_t)n, sizeof(double)), *dfdt = calloc((size_t)n, sizeof(double));
  double *M = calloc((size_t)np * (size_t)np, sizeof(double));
  ENSURE(J && dfdt && M);
  if (!J || !dfdt || !M) goto out;
  ENSURE(awe_jacobian_fd(0.0, sim->y, J, dfdt, sim->it) == GSL_SUCCESS);
  for (int c = 0; c < np; c++) {
    if (P[c] >= 0) {
      for (int i = 0; i < np; i++) M[i * np + c] = -J[(size_t)A[i] * (size_t)n + (size_t)P[c]];
      continue;
    }
    int code = -1 - P[c], o = code / 4; /* the quaternion's offset (steady_jac.h) */
    double e[4] = {0.0, 0.0, 0.0, 0.0}, dq[4];
    e[1 + code % 4] = 1.0;
    awe_quat_mul(sim->y + o, e, dq);
    for (int i = 0; i < np; i++) {
      const double *Jr = J + (size_t)A[i] * (size_t)n + (size_t)o;
      M[i * np + c] = -0.5 * (Jr[0] * dq[0] + Jr[1] * dq[1] + Jr[2] * dq[2] + Jr[3] * dq[3]);
    }
  }
  for (int k = 0; k < np; k++) M[k * np + k] += sigma;
  gsl_matrix_view mv = gsl_matrix_view_array(M, (size_t)np, (size_t)np);
  gsl_permutation *perm = gsl_permutation_alloc((size_t)np);
  int sgn;
  memcpy(x, r, sizeof(double) * (size_t)np);
  gsl_vector_view xv = gsl_vector_view_array(x, (size_t)np);
  gsl_linalg_LU_decomp(&mv.matrix, perm, &sgn);
  gsl_linalg_LU_svx(&mv.matrix, perm, &xv.vector);
  gsl_permutation_free(perm);
out:
  free(J);
  free(dfdt);
  free(M);
}


static void compare(const char *scenario) {
  awe_spec *s = sp_load(scenario, NULL);
  awe_sim *sim = sp_sim(s, "trbdf2");
  if (!sim) return;
  int n = sim->w->nx;
  int *P = malloc(sizeof(int) * ((size_t)n + 1)), *A = malloc(sizeof(int) * ((size_t)n + 1));
  int np = awe_steady_jac_coords(sim->m, sim->w, P, A);
  awe_steady_jac *g = awe_steady_jac_alloc(sim->it, sim->w, n, P, A, np);
  double *r = malloc(sizeof(double) * (size_t)np), *x = malloc(sizeof(double) * (size_t)np);
  double *xr = malloc(sizeof(double) * (size_t)np);
  ENSURE(np > 0 && g && r && x && xr);
  if (np > 0 && g && r && x && xr) {
    for (int k = 0; k < np; k++) r[k] = sin(1.0 + 0.7 * k); /* a residual with every sign */
    double dmax = 0.0;
    ENSURE(awe_steady_jac_eval(g, sim->y, &dmax) == GSL_SUCCESS);
    ENSURE(dmax > 0.0);
    for (int t = 0; t < 2; t++) {
      double sigma = (t == 0 ? 1e-2 : 1e-9) * dmax;
      ENSURE(awe_steady_jac_factor(g, sigma) == 0);
      awe_steady_jac_solve(g, r, x);
      dense_solve(sim, P, A, np, sigma, r, xr);
      double err = 0.0, ref = 0.0;
      for (int k = 0; k < np; k++) {
        err = fmax(err, fabs(x[k] - xr[k]));
        ref = fmax(ref, fabs(xr[k]));
      }
      printf("  %s: %d coordinates, sigma %.3g: max |x - x_dense| %.2e of %.2e\n", scenario, np,
             sigma, err, ref);
      ENSURE(ref > 0.0);
      ENSURE(err <= 1e-9 * ref);
    }
  }
  free(r);
  free(x);
  free(xr);
  free(P);
  free(A);
  awe_steady_jac_free(g);
  sp_free(sim, s);
}


static void test_tether(void) { compare("scenarios/tests/tether4.yaml"); }
static void test_rigid_kite(void) { compare("scenarios/2plate_parked.yaml"); }
static void test_particle_kite(void) { compare("scenarios/v3_kite.yaml"); }


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_tether);
  RUN(test_rigid_kite);
  RUN(test_particle_kite);
  return harness_report();
}
