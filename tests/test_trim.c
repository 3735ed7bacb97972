/* test_trim.c: a mode of the linear model about the trim is what the simulation shows.
 *
 * The parked 2plate kite (scenarios/2plate_parked.yaml) is trimmed (solve/trim.h) and
 * linearized; its real unstable mode (lambda = 0.469 1/s: the wing and its steering lines
 * moving sideways) gives the shape v (right eigenvector, GSL), scaled to 1 mm (or 1 mrad) at
 * its largest component (at 1 um the scenario's abs_tol 1e-4 drowns it: the growth measured
 * was 0.045 1/s). The trim plus that shape (rotation coordinates composed on the quaternions,
 * linearize.h) is simulated for 3 s with the inputs held (awe_step_simulate, the wing's
 * aerodynamic model of the trim, as the linearization sees it); the growth rate of the
 * azimuth's deviation between t = 1 s and 3 s, ln(d(3)/d(1)) / 2 s, matches lambda within 5 %
 * (measured: 0.469125 vs 0.469105 1/s).
 */
#include <gsl/gsl_eigen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "analysis/linearize.h"
#include "analysis/step_metrics.h"
#include "io/load.h"
#include "util/kite_frames.h"

static void test_mode_growth(void) {
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *spec = awe_spec_load("scenarios/2plate_parked.yaml", 0, NULL, &warn, &err);
  awe_diag_free(&warn);
  awe_model *m = spec ? awe_model_build(spec, &spec->warnings, &err) : NULL;
  awe_sim *s = m ? awe_sim_alloc(m, NULL, &err) : NULL;
  awe_op op = {0};
  if (!s || awe_op_find(s, NAN, AWE_OP_HOLD_TORQUE | AWE_OP_TRIM, &op, &err)) {
    HARNESS_FAIL("2plate trim: %s", err.msg);
    goto out0;
  }
  awe_sim_aero_refresh(s);
  s->ctx.nadd = 0; /* the controllers' outputs are in op.u */
  ENSURE(op.trim && op.tr.rel <= 1e-6);
  awe_lin_chan *uc = NULL, *yc = NULL;
  int nu = 0, ny = 0;
  ENSURE(awe_lin_select(&m->reg.input, "segments.kcu_steering_left.l0", 0, &uc, &nu, &err) == 0);
  ENSURE(awe_lin_select(&m->reg.output, "wings.main_wing.azimuth", 0, &yc, &ny, &err) == 0);
  awe_lin_model lm;
  awe_lin_model_init(&lm, m, s->w, 0);
  awe_lin_problem p = {.xl = &m->reg.state, .ul = &m->reg.input, .yl = &m->reg.output,
                       .eval = awe_lin_model_eval, .ctx = &lm, .uc = uc, .nu = nu, .yc = yc,
                       .ny = ny, .integrating = awe_lin_model_integrating};
  awe_linsys L = {0};
  ENSURE(awe_linearize(&p, op.x, op.u, &L, &err) == AWE_OK);
  int n = L.nx;
  gsl_matrix *A = gsl_matrix_alloc((size_t)n, (size_t)n);
  gsl_vector_complex *ev = gsl_vector_complex_alloc((size_t)n);
  gsl_matrix_complex *V = gsl_matrix_complex_alloc((size_t)n, (size_t)n);
  gsl_eigen_nonsymmv_workspace *ws = gsl_eigen_nonsymmv_alloc((size_t)n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) gsl_matrix_set(A, (size_t)i, (size_t)j, L.A[i * n + j]);
  ENSURE(gsl_eigen_nonsymmv(A, ev, V, ws) == 0);
  int best = -1;
  for (int i = 0; i < n; i++) {
    gsl_complex z = gsl_vector_complex_get(ev, (size_t)i);
    if (fabs(GSL_IMAG(z)) < 1e-9 && GSL_REAL(z) > 0.1 &&
        (best < 0 || GSL_REAL(z) > GSL_REAL(gsl_vector_complex_get(ev, (size_t)best))))
      best = i;
  }
  ENSURE(best >= 0);
  if (best < 0) goto out;
  double lam = GSL_REAL(gsl_vector_complex_get(ev, (size_t)best));
  ENSURE_NEAR(lam, 0.4691, 1e-3);

  /* the trim plus eps v in the linearization's coordinates */
  int nc = awe_lin_nchan(&m->reg.state);
  ENSURE(nc == n);
  awe_lin_chan *xc = malloc(sizeof(*xc) * (size_t)nc);
  awe_lin_channels(&m->reg.state, xc);
  double *x = malloc(sizeof(double) * (size_t)s->w->nx), vmax = 0.0;
  for (int k = 0; k < n; k++) {
    double v = GSL_REAL(gsl_matrix_complex_get(V, (size_t)k, (size_t)best));
    if (fabs(v) > vmax) vmax = fabs(v);
  }
  double eps = 1e-3 / vmax;
  memcpy(x, op.x, sizeof(double) * (size_t)s->w->nx);
  for (int k = 0; k < n; k++) {
    const awe_var *var = &m->reg.state.v[xc[k].var];
    double v = eps * GSL_REAL(gsl_matrix_complex_get(V, (size_t)k, (size_t)best));
    if (!(var->flags & AWE_VF_QUAT)) {
      x[xc[k].scalar] += v;
      continue;
    }
    if (xc[k].k != 0) continue; /* the rotation is composed once, from its first coordinate */
    double th[3], dq[4], q[4];
    for (int a = 0; a < 3; a++)
      th[a] = eps * GSL_REAL(gsl_matrix_complex_get(V, (size_t)(k + a), (size_t)best));
    awe_quat_from_rotvec(th, dq);
    awe_quat_mul(op.x + xc[k].scalar, dq, q);
    memcpy(x + xc[k].scalar, q, sizeof(q));
  }
  double dt = 0.05;
  long nsteps = 60;
  double *Y = malloc(sizeof(double) * (size_t)(nsteps + 1));
  int ysel = yc[0].scalar;
  ENSURE(awe_step_simulate(s, x, op.u, op.u, 0, dt, nsteps, &ysel, 1, Y, NULL, NULL, &err) ==
         AWE_OK);
  double y0 = L.y_op[0], d1 = Y[20] - y0, d3 = Y[60] - y0;
  double rate = log(d3 / d1) / 2.0;
  printf("  2plate unstable mode: lambda %.6f 1/s; simulated from the trim + its shape: "
         "azimuth %.3g -> %.3g rad from 1 to 3 s, growth %.6f 1/s (%.2f %%)\n",
         lam, d1, d3, rate, 100.0 * (rate - lam) / lam);
  ENSURE(d1 * d3 > 0.0);
  ENSURE_REL(rate, lam, 0.05);
  free(Y);
  free(x);
  free(xc);
out:
  gsl_eigen_nonsymmv_free(ws);
  gsl_matrix_complex_free(V);
  gsl_vector_complex_free(ev);
  gsl_matrix_free(A);
  awe_linsys_free(&L);
  free(uc);
  free(yc);
out0:
  awe_op_free(&op);
  awe_sim_free(s);
  awe_model_free(m);
  awe_spec_free(spec);
}


int main(void) {
  RUN(test_mode_growth);
  return harness_report();
}
