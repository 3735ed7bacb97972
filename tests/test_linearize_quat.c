/* test_linearize_quat.c: the orientation path of the linearizer on a synthetic rigid body.
 *
 * States: Q (unit quaternion w,x,y,z, body -> world, flag AWE_VF_QUAT), omega (body rates);
 * input: body torque tau; outputs: Q (QUAT) and omega. Dynamics (physics.md §4):
 *   dQ/dt     = 1/2 Q (x) (0, omega) + k_n (1 - |Q|^2) Q     (Baumgarte normalisation, k_n = 10)
 *   domega/dt = I^-1 (tau + tau_s - omega x I omega)
 * with an optional angular spring tau_s = -K Log(Q_ref* Q).
 * Checks:
 *   torque-free at an arbitrary attitude, omega = 0: A = [[0, I3], [0, 0]] exactly (rigid-body
 *   structure), 6 zero eigenvalues (free rotation) and no mode from the normalisation term
 *   (component-wise perturbation would add an eigenvalue -2 k_n), B = [0; I^-1], C = [I 0];
 *   angular spring about Q_ref = Q_op: eigenvalues +-i sqrt(K/I_k);
 *   spin omega = (0, 0, W) about the major axis: A_theta,theta = -1/2 [omega]x and the rate
 *   block has the Euler eigenvalues +-i W sqrt((I3 - I1)(I3 - I2)/(I1 I2)).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "analysis/linearize.h"
#include "analysis/modal.h"

typedef struct {
  double I[3];
  double K;            /* angular spring [N m/rad], 0 = none */
  double qref[4];
  double kn;           /* normalisation gain [1/s] */
} body;


static void qmul(const double a[4], const double b[4], double r[4]) {
  r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}


static void qlog(const double q[4], double th[3]) {
  double s = q[0] < 0 ? -1.0 : 1.0, v = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  double a = 2.0 * atan2(v, s * q[0]);
  double f = v > 1e-12 ? s * a / v : 2.0;
  for (int k = 0; k < 3; k++) th[k] = f * q[k + 1];
}


static int eval(void *ctx, const double *x, const double *u, double *dx, double *y) {
  const body *b = ctx;
  const double *q = x, *w = x + 4;
  double p[4] = {0.0, w[0], w[1], w[2]}, qd[4];
  qmul(q, p, qd);
  double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  for (int k = 0; k < 4; k++) dx[k] = 0.5 * qd[k] + b->kn * (1.0 - n2) * q[k];
  double tau[3] = {u[0], u[1], u[2]};
  if (b->K != 0.0) {
    double c[4] = {b->qref[0], -b->qref[1], -b->qref[2], -b->qref[3]}, e[4], th[3];
    qmul(c, q, e);
    qlog(e, th);
    for (int k = 0; k < 3; k++) tau[k] -= b->K * th[k];
  }
  double Iw[3] = {b->I[0] * w[0], b->I[1] * w[1], b->I[2] * w[2]};
  double gyro[3] = {w[1] * Iw[2] - w[2] * Iw[1], w[2] * Iw[0] - w[0] * Iw[2],
                    w[0] * Iw[1] - w[1] * Iw[0]};
  for (int k = 0; k < 3; k++) dx[4 + k] = (tau[k] - gyro[k]) / b->I[k];
  memcpy(y, x, 7 * sizeof(double));
  return 0;
}


typedef struct {
  awe_varlist x, u, y;
  awe_lin_chan *uc, *yc;
  int nu, ny;
  awe_lin_problem p;
} problem;


static void make(problem *pr, body *b) {
  memset(pr, 0, sizeof(*pr));
  awe_varlist_add(&pr->x, "wings", "kite", 0, "Q", "-", 4, 1e-6, AWE_VF_QUAT);
  awe_varlist_add(&pr->x, "wings", "kite", 0, "omega", "rad/s", 3, 1e-6, 0);
  awe_varlist_add(&pr->u, "wings", "kite", 0, "torque", "N m", 3, 1e-3, 0);
  awe_varlist_add(&pr->y, "wings", "kite", 0, "Q", "-", 4, 0.0, AWE_VF_QUAT);
  awe_varlist_add(&pr->y, "wings", "kite", 0, "omega", "rad/s", 3, 0.0, 0);
  awe_err err = {0};
  ENSURE(awe_lin_select(&pr->u, "*", 0, &pr->uc, &pr->nu, &err) == AWE_OK);
  ENSURE(awe_lin_select(&pr->y, "*", 0, &pr->yc, &pr->ny, &err) == AWE_OK);
  awe_lin_problem p = {.xl = &pr->x, .ul = &pr->u, .yl = &pr->y, .eval = eval, .ctx = b,
                       .uc = pr->uc, .nu = pr->nu, .yc = pr->yc, .ny = pr->ny,
                       .integrating = NULL};
  pr->p = p;
}


static void unmake(problem *pr) {
  free(pr->uc);
  free(pr->yc);
  awe_varlist_free(&pr->x);
  awe_varlist_free(&pr->u);
  awe_varlist_free(&pr->y);
}


/* an arbitrary attitude: 50 deg about (1, 2, 3)/|.| */
static void attitude(double q[4]) {
  double n = sqrt(14.0), a = 50.0 * AWE_PI / 180.0;
  q[0] = cos(a / 2);
  q[1] = sin(a / 2) / n;
  q[2] = 2 * sin(a / 2) / n;
  q[3] = 3 * sin(a / 2) / n;
}


static void test_channels(void) {
  body b = {{1, 2, 3}, 0, {1, 0, 0, 0}, 10};
  problem pr;
  make(&pr, &b);
  ENSURE(awe_lin_nchan(&pr.x) == 6);
  ENSURE(pr.ny == 6);
  char nm[128];
  awe_lin_chan_name(&pr.x, &(awe_lin_chan){0, 2, 0}, nm, sizeof(nm));
  ENSURE_STR(nm, "wings.kite.Q.rz");
  ENSURE_STR(awe_lin_chan_unit(&pr.x, &(awe_lin_chan){0, 0, 0}), "rad");
  unmake(&pr);
}


static void test_free_rotation(void) {
  body b = {{1.0, 2.0, 3.0}, 0.0, {1, 0, 0, 0}, 10.0};
  problem pr;
  make(&pr, &b);
  double x[7], u[3] = {0, 0, 0};
  attitude(x);
  x[4] = x[5] = x[6] = 0.0;
  awe_linsys L;
  awe_err err = {0};
  ENSURE(awe_linearize(&pr.p, x, u, &L, &err) == AWE_OK);
  if (err.code) {
    unmake(&pr);
    return;
  }
  ENSURE(L.nx == 6 && L.nu == 3 && L.ny == 6);
  ENSURE_STR(L.x_name[0], "wings.kite.Q.rx");
  ENSURE_STR(L.x_unit[0], "rad");
  double emax = 0.0;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) {
      double want = (i < 3 && j == i + 3) ? 1.0 : 0.0;
      emax = fmax(emax, fabs(L.A[i * 6 + j] - want));
    }
  printf("  free rotation: |A - [[0, I], [0, 0]]|max = %.2e\n", emax);
  ENSURE(emax < 1e-8);
  double bmax = 0.0, cmax = 0.0;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 3; j++) {
      double want = i >= 3 && j == i - 3 ? 1.0 / b.I[j] : 0.0;
      bmax = fmax(bmax, fabs(L.B[i * 3 + j] - want));
    }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) cmax = fmax(cmax, fabs(L.C[i * 6 + j] - (i == j ? 1.0 : 0.0)));
  printf("  |B - [0; I^-1]|max = %.2e, |C - I|max = %.2e\n", bmax, cmax);
  ENSURE(bmax < 1e-8);
  ENSURE(cmax < 1e-8);
  /* x_op holds the rotation vector of the attitude: 50 deg about (1,2,3) */
  double a = 50.0 * AWE_PI / 180.0 / sqrt(14.0);
  ENSURE_NEAR(L.x_op[0], a, 1e-12);
  ENSURE_NEAR(L.x_op[2], 3 * a, 1e-12);
  awe_mode *md = NULL;
  int nm = 0;
  ENSURE(awe_modal(L.A, L.nx, &md, &nm, &err) == AWE_OK);
  double lmax = 0.0;
  int n_eig = 0;
  for (int i = 0; i < nm; i++) {
    lmax = fmax(lmax, hypot(md[i].re, md[i].im));
    n_eig += md[i].pair ? 2 : 1;
  }
  printf("  %d eigenvalues, largest |lambda| = %.2e (normalisation gain %g 1/s)\n", n_eig, lmax,
         b.kn);
  ENSURE(n_eig == 6);
  ENSURE(lmax < 1e-6);
  free(md);
  awe_linsys_free(&L);
  unmake(&pr);
}


static void test_angular_spring(void) {
  body b = {{1.0, 2.0, 3.0}, 50.0, {1, 0, 0, 0}, 10.0};
  attitude(b.qref);
  problem pr;
  make(&pr, &b);
  double x[7], u[3] = {0, 0, 0};
  memcpy(x, b.qref, sizeof(b.qref));
  x[4] = x[5] = x[6] = 0.0;
  awe_linsys L;
  awe_err err = {0};
  ENSURE(awe_linearize(&pr.p, x, u, &L, &err) == AWE_OK);
  ENSURE(L.residual < 1e-12);
  awe_mode *md = NULL;
  int nm = 0;
  ENSURE(awe_modal(L.A, L.nx, &md, &nm, &err) == AWE_OK);
  ENSURE(nm == 3);
  for (int i = 0; i < nm && i < 3; i++) {
    /* sorted by frequency: I = 3, 2, 1 */
    double want = sqrt(b.K / b.I[2 - i]);
    printf("  spring mode %d: %.3g + %.12g i, expected %.12g i\n", i + 1, md[i].re, md[i].im,
           want);
    ENSURE_REL(md[i].im, want, 1e-6);
    ENSURE(fabs(md[i].re) < 1e-6 * want);
  }
  free(md);
  awe_linsys_free(&L);
  unmake(&pr);
}


static void test_spin(void) {
  body b = {{1.0, 2.0, 3.0}, 0.0, {1, 0, 0, 0}, 10.0};
  problem pr;
  make(&pr, &b);
  double W = 2.0, x[7], u[3] = {0, 0, 0};
  attitude(x);
  x[4] = 0.0;
  x[5] = 0.0;
  x[6] = W;
  awe_linsys L;
  awe_err err = {0};
  ENSURE(awe_linearize(&pr.p, x, u, &L, &err) == AWE_OK);
  /* -1/2 [omega]x with omega = (0, 0, W): [[0, W/2, 0], [-W/2, 0, 0], [0, 0, 0]] */
  double want[9] = {0, W / 2, 0, -W / 2, 0, 0, 0, 0, 0}, emax = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) emax = fmax(emax, fabs(L.A[i * 6 + j] - want[i * 3 + j]));
  printf("  spin: |A_theta,theta + [omega]x/2|max = %.2e, dtheta/dt at op = (%.3g, %.3g, %.12g)\n",
         emax, L.dx_op[0], L.dx_op[1], L.dx_op[2]);
  ENSURE(emax < 1e-8);
  ENSURE_NEAR(L.dx_op[2], W, 1e-12);
  /* Euler: rate block eigenvalues */
  double Aw[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) Aw[i * 3 + j] = L.A[(i + 3) * 6 + j + 3];
  awe_mode *md = NULL;
  int nm = 0;
  ENSURE(awe_modal(Aw, 3, &md, &nm, &err) == AWE_OK);
  double I1 = b.I[0], I2 = b.I[1], I3 = b.I[2];
  double wn = W * sqrt((I3 - I1) * (I3 - I2) / (I1 * I2));
  int found = 0;
  for (int i = 0; i < nm; i++)
    if (md[i].pair) {
      found++;
      printf("  spin nutation: %.12g i, Euler %.12g i\n", md[i].im, wn);
      ENSURE_REL(md[i].im, wn, 1e-6);
    }
  ENSURE(found == 1);
  free(md);
  awe_linsys_free(&L);
  unmake(&pr);
}


int main(void) {
  RUN(test_channels);
  RUN(test_free_rotation);
  RUN(test_angular_spring);
  RUN(test_spin);
  return harness_report();
}
