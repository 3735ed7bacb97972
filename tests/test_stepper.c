/* test_stepper.c: the TR-BDF2 stepper (step_trbdf2.h) and its sparse linear algebra
 * (sparse_lu.h, jac_color.h).
 *
 * Linear algebra: the minimum-degree LU against GSL's dense LU on a mechanical-like pattern
 * (position rows coupled to their velocity only, a dense column like a tether length), its
 * dropping of negligible entries (no fill from them, the same solution bit for bit), the
 * colouring's defining property. Method: order 2 of the fixed-step global error and order 3 of
 * the local error estimate on a damped oscillator (exact solution); Robertson's stiff kinetics
 * against Hairer & Wanner's reference values at t = 40; a mass whirling on a very viscous line
 * (exact uniform circular motion; the stiff damper turns with the line), and in 3-D with
 * Newton's matrix co-rotated with the line. Physics through the simulation API:
 * the damped spring-mass frequency and logarithmic decrement against k, m, c (and the
 * trajectory against rk8pd); a hanging
 * tether with a brake released at t = 5 s (an input event) against msbdf (the exact drum
 * speed after a torque step between log steps: test_simulate.c); the rigid 2plate kite.
 */
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_odeiv2.h>

#include "solve/jac_color.h"
#include "io/solver_names.h"
#include "solve/sparse_lu.h"
#include "solve/step_trbdf2.h"
#include "test_physics_util.h"

/* ---- a mechanical-like sparse pattern: NB blocks (pos k, vel NB + k) in a chain, and a
 * "length" unknown 2 NB that every velocity depends on and that depends on vel 0 ---- */

#define NB 10
#define NM (2 * NB + 1)

typedef struct {
  int adr[NM], num[NM], rows[NM * NM];
  double val[NM * NM];
} pattern;


static double rnd(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return (double)(*s >> 8) / 16777216.0 * 2.0 - 1.0;
}


static void make_pattern(pattern *p, unsigned seed) {
  int e = 0;
  for (int j = 0; j < NM; j++) {
    p->adr[j] = e;
    for (int i = 0; i < NM; i++) {
      int on = 0;
      if (i < NB) on = j == i + NB;                        /* d pos/dt = vel */
      else if (i < 2 * NB) {
        int bi = i - NB, bj = j < NB ? j : j < 2 * NB ? j - NB : -9;
        on = j == 2 * NB || abs(bi - bj) <= 1;            /* springs to the neighbours */
      } else {
        on = j == NB || j == i;                           /* d len/dt from vel 0 */
      }
      if (!on) continue;
      p->rows[e] = i;
      p->val[e] = i < NB ? 1.0 : 50.0 * rnd(&seed) - (i == j ? 100.0 : 0.0);
      e++;
    }
    p->num[j] = e - p->adr[j];
  }
}


/* M = I - c J solved by the sparse LU and by GSL's dense LU */
static void test_sparse_lu(void) {
  static pattern p;
  make_pattern(&p, 7u);
  awe_slu *lu = awe_slu_alloc(NM, p.adr, p.num, p.rows);
  ENSURE(lu != NULL);
  if (!lu) return;
  /* the position pivots go first without fill: the factors stay near the pattern's size */
  long nnz = 0;
  for (int j = 0; j < NM; j++) nnz += p.num[j];
  ENSURE(awe_slu_nnz(lu) <= 2 * nnz);
  const double cs[] = {1e-3, 0.05, 10.0};
  for (int q = 0; q < 3; q++) {
    gsl_matrix *a = gsl_matrix_alloc(NM, NM);
    gsl_permutation *perm = gsl_permutation_alloc(NM);
    gsl_vector *b = gsl_vector_alloc(NM), *x = gsl_vector_alloc(NM);
    gsl_matrix_set_identity(a);
    for (int j = 0; j < NM; j++)
      for (int k = 0; k < p.num[j]; k++) {
        int i = p.rows[p.adr[j] + k];
        gsl_matrix_set(a, i, j, gsl_matrix_get(a, i, j) - cs[q] * p.val[p.adr[j] + k]);
      }
    double sol[NM];
    unsigned seed = 11u;
    for (int i = 0; i < NM; i++) {
      sol[i] = rnd(&seed);
      gsl_vector_set(b, i, sol[i]);
    }
    int sg;
    gsl_linalg_LU_decomp(a, perm, &sg);
    gsl_linalg_LU_solve(a, perm, b, x);
    ENSURE(awe_slu_factor(lu, cs[q], p.val) == 0);
    awe_slu_solve(lu, sol);
    double err = 0.0, mx = 0.0;
    for (int i = 0; i < NM; i++) {
      err = fmax(err, fabs(sol[i] - gsl_vector_get(x, i)));
      mx = fmax(mx, fabs(gsl_vector_get(x, i)));
    }
    ENSURE(err <= 1e-12 * mx);
    gsl_matrix_free(a);
    gsl_permutation_free(perm);
    gsl_vector_free(b);
    gsl_vector_free(x);
  }
  /* entries of c J below AWE_SLU_DROP are dropped: the velocity rows' coupling to the length
   * column at 1e-3 of the drop gives the factors and the solution of that column set to zero
   * (bit for bit), at 10 times the drop it is kept (more nonzeros) */
  static pattern z;
  long nz[3];
  double xs[3][NM];
  const double scale[3] = {0.0, 1e-3, 10.0};
  for (int q = 0; q < 3; q++) {
    z = p;
    for (int k = 0; k < z.num[2 * NB]; k++) {
      int i = z.rows[z.adr[2 * NB] + k];
      if (i >= NB && i < 2 * NB) z.val[z.adr[2 * NB] + k] = scale[q] * AWE_SLU_DROP / 0.05;
    }
    ENSURE(awe_slu_factor(lu, 0.05, z.val) == 0);
    nz[q] = awe_slu_factor_nnz(lu);
    unsigned seed = 5u;
    for (int i = 0; i < NM; i++) xs[q][i] = rnd(&seed);
    awe_slu_solve(lu, xs[q]);
  }
  printf("    factor nonzeros: coupling 0 / 1e-3 / 10 x drop: %ld / %ld / %ld\n", nz[0], nz[1],
         nz[2]);
  ENSURE(nz[1] == nz[0] && nz[2] > nz[0]);
  ENSURE(memcmp(xs[0], xs[1], sizeof(xs[0])) == 0);
  /* a singular matrix (J = I / c) is reported, not divided by */
  double ones[NM * NM];
  int adr[NM], num[NM], rows[NM];
  for (int j = 0; j < NM; j++) adr[j] = j, num[j] = 1, rows[j] = j, ones[j] = 1.0;
  awe_slu *d = awe_slu_alloc(NM, adr, num, rows);
  ENSURE(d && awe_slu_factor(d, 1.0, ones) == -1);
  awe_slu_free(d);
  awe_slu_free(lu);
}


/* columns of one colour share no row; at least as many colours as the longest row */
static void test_coloring(void) {
  static pattern p;
  make_pattern(&p, 3u);
  int color[NM], rowcount[NM] = {0};
  int nc = awe_color_columns(NM, p.adr, p.num, p.rows, color);
  ENSURE(nc > 0);
  int clash = 0, maxrow = 0;
  for (int i = 0; i < NM; i++) {
    int seen[NM] = {0};
    for (int j = 0; j < NM; j++)
      for (int k = 0; k < p.num[j]; k++)
        if (p.rows[p.adr[j] + k] == i) {
          clash += seen[color[j]]++;
          rowcount[i]++;
        }
    if (rowcount[i] > maxrow) maxrow = rowcount[i];
  }
  ENSURE(clash == 0);
  ENSURE(nc >= maxrow);
  ENSURE(nc < NM); /* sparse: fewer evaluations than columns */
  printf("  colouring: %d colours for %d columns (longest row %d)\n", nc, NM, maxrow);
}


/* ---- a damped oscillator x'' + 2 zeta w x' + w^2 x = 0, x(0) = 1, x'(0) = 0 ---- */

#define OSC_W 2.0
#define OSC_Z 0.1

static int osc(double t, const double y[], double f[], void *params) {
  (void)t;
  (void)params;
  f[0] = y[1];
  f[1] = -OSC_W * OSC_W * y[0] - 2.0 * OSC_Z * OSC_W * y[1];
  return GSL_SUCCESS;
}


static double osc_exact(double t) {
  double wd = OSC_W * sqrt(1.0 - OSC_Z * OSC_Z);
  return exp(-OSC_Z * OSC_W * t) * (cos(wd * t) + OSC_Z * OSC_W / wd * sin(wd * t));
}


/* fixed steps: global error ~ h^2; the step's error estimate ~ h^3 */
static void test_order(void) {
  gsl_odeiv2_system sys = {osc, NULL, 2, NULL};
  gsl_odeiv2_step *st = gsl_odeiv2_step_alloc(awe_step_trbdf2, 2);
  ENSURE_STR(gsl_odeiv2_step_name(st), "trbdf2");
  ENSURE(gsl_odeiv2_step_order(st) == 2);
  double err[4], est[4];
  for (int q = 0; q < 4; q++) {
    int n = 20 << q;
    double h = 2.0 / n, y[2] = {1.0, 0.0}, ye[2], t = 0.0;
    for (int k = 0; k < n; k++) {
      ENSURE(gsl_odeiv2_step_apply(st, t, h, y, ye, NULL, NULL, &sys) == GSL_SUCCESS);
      if (k == 0) est[q] = fabs(ye[0]) + fabs(ye[1]);
      t = (k + 1) * h;
    }
    err[q] = fabs(y[0] - osc_exact(2.0));
    gsl_odeiv2_step_reset(st);
  }
  for (int q = 0; q + 1 < 4; q++) {
    double p = log2(err[q] / err[q + 1]), pe = log2(est[q] / est[q + 1]);
    printf("  h = %.4f: global error %.3e (order %.3f), first-step estimate %.3e (order %.3f)\n",
           2.0 / (20 << q), err[q], p, est[q], pe);
    ENSURE_NEAR(p, 2.0, 0.1);
    ENSURE_NEAR(pe, 3.0, 0.15);
  }
  gsl_odeiv2_step_free(st);
}


/* ---- Robertson's chemical kinetics (stiff; Hairer & Wanner II, IV.1 and IV.10) ---- */

static int robertson(double t, const double y[], double f[], void *params) {
  (void)t;
  (void)params;
  f[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
  f[2] = 3e7 * y[1] * y[1];
  f[1] = -f[0] - f[2];
  return GSL_SUCCESS;
}


static void test_robertson(void) {
  gsl_odeiv2_system sys = {robertson, NULL, 3, NULL};
  gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, awe_step_trbdf2, 1e-6, 1e-12, 1e-6);
  gsl_odeiv2_driver *e = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rkf45, 1e-6, 1e-12,
                                                       1e-6);
  double y[3] = {1.0, 0.0, 0.0}, t = 0.0;
  ENSURE(gsl_odeiv2_driver_apply(d, &t, 40.0, y) == GSL_SUCCESS);
  /* reference at t = 40 (Hairer & Wanner) */
  ENSURE_REL(y[0], 0.7158270687, 1e-4); /* global error <= 100 rel_tol */
  ENSURE_REL(y[1], 9.185534765e-6, 1e-4);
  ENSURE_REL(y[2], 0.2841637457, 1e-4);
  /* the stages conserve y1 + y2 + y3 (the Newton corrections do: 1^T M = 1^T) */
  ENSURE_NEAR(y[0] + y[1] + y[2], 1.0, 1e-12);
  /* stiff: far fewer steps than an explicit pair at the same tolerance */
  double ye[3] = {1.0, 0.0, 0.0}, te = 0.0;
  ENSURE(gsl_odeiv2_driver_apply(e, &te, 40.0, ye) == GSL_SUCCESS);
  printf("  Robertson: %lu steps to t = 40 (rkf45: %lu), y2(40) = %.9e\n",
         d->e->count, e->e->count, y[1]);
  ENSURE(10 * d->e->count < e->e->count);
  gsl_odeiv2_driver_free(d);
  gsl_odeiv2_driver_free(e);
}


/* ---- a whirling mass on a very viscous line (the V3's trailing-edge wires: c/m ~ 1e6 1/s) ----
 * m = 1 kg on a line of EA/l0 = 1e5 N/m and damping c = 1e6 N s/m along it, pivot at the
 * origin, no gravity, spinning at omega = 10 rad/s: started on the exact whirl (radius
 * r0 = k l0/(k - m omega^2), tangential speed omega r0) the motion is uniform circular motion,
 * the damper sees no stretch rate. The stiff term turns with the line, a tenth of a radian per
 * step; Newton with J at the step start failed in 1218 of 2866 attempts (measured), with J at
 * the predicted midpoint (step_trbdf2.c) in 84 of 1175, with Anderson mixing too in 51 of 1076. */
typedef struct {
  double k, c, m, l0;
  long nfe; /* right-hand sides */
} whirl_par;


static int whirl(double t, const double y[], double f[], void *params) {
  (void)t;
  whirl_par *p = params;
  p->nfe++;
  double r = sqrt(y[0] * y[0] + y[1] * y[1]), ux = y[0] / r, uz = y[1] / r;
  double tension = p->k * (r - p->l0) + p->c * (y[2] * ux + y[3] * uz);
  f[0] = y[2];
  f[1] = y[3];
  f[2] = -tension * ux / p->m;
  f[3] = -tension * uz / p->m;
  return GSL_SUCCESS;
}


static void test_whirl(void) {
  whirl_par p = {1e5, 1e6, 1.0, 1.0, 0};
  const double w = 10.0, T = 2.0, r0 = p.k * p.l0 / (p.k - p.m * w * w);
  gsl_odeiv2_system sys = {whirl, NULL, 4, &p};
  gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, awe_step_trbdf2, 1e-4, 1e-6, 1e-6);
  double y[4] = {r0, 0.0, 0.0, w * r0}, t = 0.0;
  ENSURE(gsl_odeiv2_driver_apply(d, &t, T, y) == GSL_SUCCESS);
  double r = hypot(y[0], y[1]), L = y[0] * y[3] - y[1] * y[2];
  double dang = remainder(atan2(y[1], y[0]) - w * T, 2.0 * M_PI);
  printf("  whirl: r - r0 %.2e m, angular momentum %.2e rel, angle %.2e rad after %.1f turns; "
         "%lu steps, %lu failed, %ld right-hand sides\n", r - r0, L / (w * r0 * r0) - 1.0, dang,
         w * T / (2 * M_PI), d->e->count, d->e->failed_steps, p.nfe);
  ENSURE_NEAR(r, r0, 1e-5 * r0);          /* 3 turns at 1e-6: the whirl holds its radius */
  ENSURE_NEAR(L, w * r0 * r0, 1e-4 * w * r0 * r0);
  ENSURE_NEAR(dang, 0.0, 2e-3);
  ENSURE(5 * d->e->failed_steps < d->e->count);
  /* Newton's cost: Anderson mixing removes the period-two error of the turning damper
   * (11821 right-hand sides, 51 failed steps; plain simplified Newton 18893 and 84) */
  ENSURE(p.nfe < 15000);
  gsl_odeiv2_driver_free(d);
}

/* ---- the same whirl in 3-D with Newton's matrix turned with the line (co-rotation) ----
 * The pattern names a frame (here: the line's direction, a rotation about y by the whirl
 * angle) and the 3-vector blocks that turn with it (position and velocity); the stepper then
 * solves with R_d M_j R_d^T, R_d the frame's turn since the Jacobian's state (step_trbdf2.c).
 * The damper's Jacobian c u u^T is then exact at every iterate, and simplified Newton keeps
 * its Jacobian for the whole run: measured 6 Jacobians and 5667 right-hand sides against 651
 * and 13123 without it (48 and 51 failed steps: the error test), the same whirl to 1e-5. */
static int whirl3(double t, const double y[], double f[], void *params) {
  (void)t;
  whirl_par *p = params;
  p->nfe++;
  double r = sqrt(y[0] * y[0] + y[2] * y[2]), ux = y[0] / r, uz = y[2] / r;
  double tension = p->k * (r - p->l0) + p->c * (y[3] * ux + y[5] * uz);
  f[0] = y[3];
  f[1] = y[4];
  f[2] = y[5];
  f[3] = -tension * ux / p->m;
  f[4] = -1e3 * y[1] - 10.0 * y[4]; /* a stiff spring keeps y at 0 */
  f[5] = -tension * uz / p->m;
  return GSL_SUCCESS;
}


static void whirl3_frame(void *ctx, const double *y, double *R) {
  (void)ctx;
  double r = sqrt(y[0] * y[0] + y[2] * y[2]), c = y[0] / r, s = y[2] / r;
  const double Rf[9] = {c, 0.0, -s, 0.0, 1.0, 0.0, s, 0.0, c};
  memcpy(R, Rf, sizeof(Rf));
}


/* 2 s of the 3-D whirl, with or without co-rotation: failed steps and right-hand sides */
static void whirl3_run(int corot, unsigned long *failed, long *nfe, unsigned long *njac) {
  whirl_par p = {1e5, 1e6, 1.0, 1.0, 0};
  const double w = 10.0, T = 2.0, r0 = p.k * p.l0 / (p.k - p.m * w * w);
  gsl_odeiv2_system sys = {whirl3, NULL, 6, &p};
  gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, awe_step_trbdf2, 1e-4, 1e-6, 1e-6);
  static int adr[6], num[6], rows[36];
  static const int rot_adr[1] = {0}, rot_num[1] = {2}, rot_idx[2] = {0, 3};
  for (int j = 0; j < 6; j++) {
    adr[j] = 6 * j;
    num[j] = 6;
    for (int i = 0; i < 6; i++) rows[6 * j + i] = i;
  }
  *njac = 0;
  awe_jac_pattern pat = {.n = 6, .col_adr = adr, .col_num = num, .rows = rows, .njac = njac};
  if (corot) {
    pat.nframe = 1;
    pat.rot_adr = rot_adr;
    pat.rot_num = rot_num;
    pat.rot_idx = rot_idx;
    pat.frame = whirl3_frame;
  }
  ENSURE(awe_trbdf2_set_pattern(d->s, &pat) == GSL_SUCCESS);
  double y[6] = {r0, 0.0, 0.0, 0.0, 0.0, w * r0}, t = 0.0;
  ENSURE(gsl_odeiv2_driver_apply(d, &t, T, y) == GSL_SUCCESS);
  double r = hypot(y[0], y[2]), L = y[2] * y[3] - y[0] * y[5];
  double dang = remainder(atan2(y[2], y[0]) - w * T, 2.0 * M_PI);
  printf("  whirl 3-D %s: r - r0 %.2e m, angle %.2e rad; %lu steps, %lu failed, %ld right-hand "
         "sides, %lu Jacobians\n", corot ? "co-rotated" : "plain     ", r - r0, dang,
         d->e->count, d->e->failed_steps, p.nfe, *njac);
  ENSURE_NEAR(r, r0, 1e-5 * r0);
  ENSURE_NEAR(-L, w * r0 * r0, 1e-4 * w * r0 * r0);
  ENSURE_NEAR(dang, 0.0, 2e-3);
  *failed = d->e->failed_steps;
  *nfe = p.nfe;
  gsl_odeiv2_driver_free(d);
}


static void test_whirl_corot(void) {
  unsigned long f0, f1, j0, j1;
  long n0, n1;
  whirl3_run(0, &f0, &n0, &j0);
  whirl3_run(1, &f1, &n1, &j1);
  ENSURE(f1 <= f0);
  ENSURE(2 * n1 < n0);
  ENSURE(3 * j1 < j0);
}

/* ---- physics through the simulation API ---- */

static int extrema(const double *v, int n, int sign, double *tk, double *vk, int cap) {
  int c = 0;
  for (int i = 1; i + 1 < n && c < cap; i++) {
    double a = sign * v[i - 1], b = sign * v[i], d = sign * v[i + 1];
    if (b > a && b >= d) {
      double den = a - 2 * b + d, off = den != 0 ? 0.5 * (a - d) / den : 0.0;
      tk[c] = i + off;
      vk[c] = sign * (b - 0.25 * (a - d) * off);
      c++;
    }
  }
  return c;
}


/* models/spring_mass: k = 1000 N/m, m = 1 kg, c = 2 N s/m: omega_d and zeta from the peaks
 * (test_physics.c's bounds); the trajectory against rk8pd at 1e-10 on the same (slightly
 * nonlinear) line law: 15 periods at 1e-8 stay within 1e-5 m of it */
static void test_spring_mass(void) {
  const char *sets[] = {"run.solver=trbdf2", "run.abs_tol=1e-8", "run.rel_tol=1e-8", NULL};
  awe_spec *s = sp_load("scenarios/tests/spring_mass.yaml", sets);
  awe_spec *sr = sp_load("scenarios/tests/spring_mass.yaml", NULL);
  awe_sim *sim = sp_sim(s, NULL), *ref = sp_sim(sr, NULL);
  if (sim && ref) {
    ENSURE_STR(awe_integrator_name(sim->it), "trbdf2");
    ENSURE_STR(awe_integrator_name(ref->it), "rk8pd");
    static double z[3100], zr[3100];
    int n = sp_series(sim, "points.mass.pos.z", 3.0, z, 3100);
    ENSURE(n == 3001 && sp_series(ref, "points.mass.pos.z", 3.0, zr, 3100) == n);
    const double dt = 0.001, k = 1000.0, m = 1.0, c = 2.0;
    double wn = sqrt(k / m), zeta = c / (2 * sqrt(k * m)), wd = wn * sqrt(1 - zeta * zeta);
    double dev = 0.0;
    for (int i = 0; i < n; i++) {
      dev = fmax(dev, fabs(z[i] - zr[i]));
      z[i] += 1.0;
    }
    double tk[64], vk[64];
    int np = extrema(z, n, -1, tk, vk, 64);
    ENSURE(np >= 10);
    double T = (tk[np - 1] - tk[0]) * dt / (np - 1);
    double delta = log(vk[0] / vk[np - 1]) / (np - 1);
    double zeta_m = delta / sqrt(4 * M_PI * M_PI + delta * delta);
    ENSURE_REL(2 * M_PI / T, wd, 0.003);
    ENSURE_REL(zeta_m, zeta, 0.03);
    ENSURE(dev < 1e-5);
    printf("  spring-mass (trbdf2): omega_d %.5f rad/s (expected %.5f), zeta %.5f (expected %.5f), "
           "max |z - z_rk8pd| %.2e m in 3 s, %lu steps\n", 2 * M_PI / T, wd, zeta_m, zeta, dev,
           sim->w->stats.steps);
  }
  sp_free(sim, s);
  sp_free(ref, sr);
}


/* positions of all points of a simulation, flattened */
static int positions(const awe_sim *sim, double *p, int cap) {
  int c = 0;
  char name[256];
  for (int i = 0; i < sim->m->npoint && c + 3 <= cap; i++)
    for (int e = 0; e < 3; e++) {
      snprintf(name, sizeof(name), "points.%s.pos.%c", sim->m->point_name[i], "xyz"[e]);
      p[c++] = sp_out(sim, name);
    }
  return c;
}


/* the hanging tether (11 points, stiff damped segments) whose brake opens at t = 5 s: trbdf2
 * and msbdf at 1e-9 agree; at the scenario's 1e-6 trbdf2 stays within 1e-4 m, in far fewer
 * steps than an explicit pair */
static void test_tether_vs_msbdf(void) {
  const char *tight[] = {"run.duration=8", "run.abs_tol=1e-9", "run.rel_tol=1e-9", NULL};
  const char *loose[] = {"run.duration=8", NULL};
  awe_spec *sa = sp_load("scenarios/hanging_tether_winch.yaml", tight);
  awe_spec *sb = sp_load("scenarios/hanging_tether_winch.yaml", tight);
  awe_spec *sc = sp_load("scenarios/hanging_tether_winch.yaml", loose);
  awe_spec *sd = sp_load("scenarios/hanging_tether_winch.yaml", loose);
  awe_sim *a = sp_sim(sa, "msbdf"), *b = sp_sim(sb, "trbdf2"), *c = sp_sim(sc, "trbdf2");
  awe_sim *d = sp_sim(sd, "rkf45");
  if (a && b && c && d) {
    double dt = 0.0, dl = 0.0, dbc = 0.0, pa[256], pb[256], pc[256];
    for (int k = 1; k <= 16; k++) {
      double t = 0.5 * k;
      ENSURE(sp_run(a, t) == 0 && sp_run(b, t) == 0 && sp_run(c, t) == 0);
      int n = positions(a, pa, 256);
      positions(b, pb, 256);
      positions(c, pc, 256);
      for (int i = 0; i < n; i++) {
        dt = fmax(dt, fabs(pa[i] - pb[i]));
        dl = fmax(dl, fabs(pa[i] - pc[i]));
        dbc = fmax(dbc, fabs(pb[i] - pc[i]));
      }
    }
    ENSURE(sp_run(d, 8.0) == 0);
    ENSURE_NEAR(sp_out(b, "tethers.main_tether.len"), sp_out(a, "tethers.main_tether.len"), 1e-7);
    printf("  hanging tether: max |dpos| vs msbdf %.2e m (both 1e-9), %.2e m (trbdf2 at 1e-6); "
           "trbdf2 1e-6 vs 1e-9 %.2e m; steps trbdf2 %lu, rkf45 %lu\n", dt, dl, dbc,
           c->w->stats.steps, d->w->stats.steps);
    ENSURE(dt < 1e-6);
    ENSURE(dl < 1e-4);
    ENSURE(5 * c->w->stats.steps < d->w->stats.steps);
  }
  sp_free(a, sa);
  sp_free(b, sb);
  sp_free(c, sc);
  sp_free(d, sd);
}


/* the rigid 2plate kite (quaternion wing, VSM linearized at 20 Hz) for 1 s: it runs, the
 * quaternion stays a unit one (renormalised after every accepted step) and the wing's centre
 * of mass follows msbdf at 1e-8 (later the parked kite grows sensitive: at 2 s msbdf at 1e-7
 * and 1e-9 differ by 0.15 m) */
static void test_rigid_wing(void) {
  /* from the transform pose: the settled state lies where the VSM has two solution branches
   * (scenarios/2plate_parked.yaml), so which refresh converges there depends on roundoff */
  const char *sets[] = {"run.duration=1", "run.abs_tol=1e-8", "run.rel_tol=1e-8",
                        "run.steady_state=false", NULL};
  awe_spec *sa = sp_load("scenarios/2plate_parked.yaml", sets);
  awe_spec *sb = sp_load("scenarios/2plate_parked.yaml", sets);
  awe_sim *a = sp_sim(sa, "trbdf2"), *b = sp_sim(sb, "msbdf");
  if (a && b) {
    double dmax = 0.0, qdev = 0.0;
    for (int k = 1; k <= 20; k++) {
      double t = 0.05 * k;
      ENSURE(sp_run(a, t) == 0 && sp_run(b, t) == 0);
      const awe_model *m = a->m;
      for (int j = 0; j < m->nwing; j++) {
        int o = a->w->wing_x[j];
        if (o < 0) continue;
        const double *q = a->y + o + 6;
        qdev = fmax(qdev, fabs(sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) - 1));
        for (int e = 0; e < 3; e++) dmax = fmax(dmax, fabs(a->y[o + e] - b->y[o + e]));
      }
    }
    ENSURE(a->t == 1.0);
    ENSURE(a->m->nwing > 0 && a->w->wing_x[0] >= 0);
    printf("  2plate (rigid wing): |q| - 1 <= %.1e, max |d com| vs msbdf %.2e m\n", qdev, dmax);
    ENSURE(qdev < 1e-12);
    ENSURE(dmax < 1e-5);
  }
  sp_free(a, sa);
  sp_free(b, sb);
}


static void test_names(void) {
  ENSURE(awe_solver_implicit("trbdf2") == 1);
  ENSURE_CONTAINS(awe_solver_names(), "trbdf2");
  ENSURE(!strcmp(awe_solver_names(), "rkf45, rkck, rk8pd, msbdf, rk4imp, bsimp, rk2, rk4, "
                                      "msadams, rk1imp, rk2imp, trbdf2, ros34pw2"));
  /* the engine has a step type for every name of the one list, and nothing else */
  int n;
  const char *const *names = awe_solver_list(&n);
  ENSURE(n == 13);
  for (int i = 0; i < n; i++) ENSURE(awe_solver_implicit(names[i]) >= 0);
  ENSURE(awe_solver_implicit("msbdf") == 1 && awe_solver_implicit("msadams") == 0);
  ENSURE(awe_solver_implicit("rk45") == -1 && awe_solver_index("rk45") == -1);
  const char *sets[] = {"run.solver=trbdf2", NULL};
  awe_spec *s = sp_load("scenarios/tests/spring_mass.yaml", sets);
  ENSURE(s && s->scenario.run.solver && !strcmp(s->scenario.run.solver, "trbdf2"));
  awe_spec_free(s);
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_sparse_lu);
  RUN(test_coloring);
  RUN(test_order);
  RUN(test_robertson);
  RUN(test_whirl);
  RUN(test_whirl_corot);
  RUN(test_spring_mass);
  RUN(test_tether_vs_msbdf);
  RUN(test_rigid_wing);
  RUN(test_names);
  return harness_report();
}
