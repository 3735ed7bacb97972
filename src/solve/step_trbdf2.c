/* step_trbdf2.c: the TR-BDF2 stepper (a gsl_odeiv2_step_type).
 *
 * R. E. Bank, W. M. Coughran, W. Fichtner, E. H. Grosse, D. J. Rose, R. K. Smith, "Transient
 * simulation of silicon devices and circuits", IEEE Trans. CAD 4 (1985) 436-451;
 * M. E. Hosea, L. F. Shampine, "Analysis and implementation of TR-BDF2", Appl. Numer. Math. 20
 * (1996) 21-37 (the method of MATLAB's ode23tb). One step from t to t + h, gamma = 2 - sqrt(2),
 * d = gamma/2, w = sqrt(2)/4, stages z_i = h f(Y_i):
 *   z1 = h f(t, y)
 *   TR    z2 = h f(t + gamma h, Y2),  Y2 = y + d z1 + d z2
 *   BDF2  z3 = h f(t + h, Y3),        Y3 = y + w z1 + w z2 + d z3,   y_new = Y3
 * Second order, L-stable; both implicit stages have the diagonal d, so one iteration matrix
 * M = I - d h J serves both.
 * Error: the embedded third-order weights bhat = ((1 - w)/3, (3w + 1)/3, d/3) (H&S) give
 * est = sum (b_i - bhat_i) z_i = O(h^3), filtered by M^-1 twice. H&S filter once; for a stiff
 * component (h lambda -> -inf) whose start value is off its slow manifold by delta (which the
 * 20 Hz aerodynamic refresh causes at every log step) that estimate tends to 1.6 delta for
 * every h, so GSL's control halved h again and again (measured on the V3 kite), while the
 * method's true error there is O(delta / (h lambda)) (R(-inf) = 0): the second filter gives
 * that order and leaves the non-stiff estimate unchanged (M = I + O(h)).
 * GSL's standard control (order 2) accepts or shrinks the step from it.
 *
 * Newton (simplified, Hairer & Wanner, "Solving ODEs II", IV.8): predictors z2 = h fp (f
 * constant) and z3 = h fp + (z2 - h fp)/gamma (f linear), fp the derivative at the end of the
 * previous step, z3/h, when this step starts there (at its t, and its y to within 1e-3 of the
 * tolerance: a quaternion's renormalisation stays, a new state at the same t does not; after
 * a step that the error test rejected, the retry does not), else f(t, y); stop when
 * eta ||dY|| <= kappa, eta = theta/(1 - theta) with theta the observed contraction (the first
 * correction must be below kappa itself), in GSL's error norm max_i |dY_i| / D_i (D_i from the
 * driver's control at the step start). A contraction above 2 after three iterations, a
 * non-finite value, a right-hand-side failure or no convergence within TB_MAXIT iterations
 * fails the stage. M is refactorised when d h moved by more than TB_REFACTOR from the
 * factorised value (a stiff mode then still contracts by that ratio).
 * Why fp and not f(t, y): a stiff component sits on its slow manifold only to within the
 * tolerance, and f amplifies that offset by its stiffness (a V3 bridle point, k/m ~ 4e6 1/s^2:
 * 4000 m/s^2 from a millimetre), while z3/h of the implicit stage is the slow derivative.
 * J is kept across steps while Newton converges within TB_SLOW iterations per stage and
 * contracts by TB_THETA or better from its third iteration on (the first corrections carry the
 * predictor's error, not J's age); after a slower step, or when Newton fails with an old J, J
 * is recomputed at the predicted midpoint
 * of the step, y + (h/2) fp (then the step is repeated once). Why not at y: the stiffest terms
 * are dampers along lines that turn with the wing (the V3's trailing-edge wires and
 * diagonals, c/m ~ 1e6 1/s), and Newton's contraction is their turn during the step times the
 * stiffness ratio d h c/m ~ 3000. Measured on 30 s of the V3 figure eight: J at y (kept while
 * Newton converged) failed with an old J in 6356 and with a fresh one in 3013 of 12073
 * attempts (3.9 s); J at y + a h fp, a = 0.25 / 0.5 / 0.75 / 1: 2.75 / 2.12 / 2.24 / 2.01 s.
 * The midpoint, not the end: a line within the predicted move of its rest length (the 2plate's
 * steering lines) may be slack at one end of the step and taut at the other, and the end's
 * branch in the error filter M^-1 cost the parked 2plate twice the steps (600 s: 26103
 * against 14173 at the midpoint, 13481 with those lines made symmetric). A failure with a
 * fresh J returns the error, on which gsl_odeiv2_evolve_apply restores y and halves h
 * (GSL 2.7, ode-initval2/evolve.c). y is written only when the step succeeds.
 *
 * Anderson mixing (H. F. Walker, P. Ni, "Anderson acceleration for fixed-point iterations",
 * SIAM J. Numer. Anal. 49 (2011) 1715-1735; type II, depth TB_AA) on the simplified Newton
 * map z -> z + r, r = M^-1 (h f(ts, base + d z) - z): the next iterate is z + r minus the
 * combination of the last TB_AA differences of r and z that best cancels r (least squares in
 * GSL's error weights); the history restarts when a correction does not shrink, and a stage
 * ends with the plain correction. Why: the corrections of the V3 kite alternate in sign and
 * shrink only 0.1-0.3 per two iterations (traced: the velocity of te_2 after a 100 Hz VSM
 * refresh, 144, 173, 16, 9.0, 1.2, 0.47, 0.076, 0.026, 0.0048 in tolerance units). A damper
 * c along a line u whose J holds u0, |u - u0| = phi, gives the simplified Newton a 2 x 2
 * block of eigenvalues +-phi sqrt(d h c/m): a period-two error in a small subspace, which a
 * secant method over two differences removes. Measured (whole runs, this machine):
 * figure eight 30 s 2.32 -> 2.02 s, v3_kite 60 s 0.87 -> 0.69 s, cold V3 60 s 10.1 -> 5.7 s,
 * 2plate 120 s 0.45 -> 0.33 s, particle 2plate 60 s 0.24 -> 0.15 s, pumping 90 s 6.8 ->
 * 5.5 s; depth 1 alike, 3 and 4 slower (stale differences); a fresh J at the iterate when
 * the contraction is slow doubled the figure eight's time (its rejected steps doubled).
 *
 * Co-rotation (optional, the pattern's frames): a kite's stiffest terms turn with its wing, and
 * J at one attitude is wrong at another by the turn phi between them (Newton's contraction
 * ~ phi sqrt(d h c/m) above, and J had to be renewed at nearly every step of a figure eight).
 * The right-hand side of a system of points is equivariant under a rotation Q of the blocks
 * that turn together, f(Q y) = Q f(y) up to the slow forces (gravity, wind), so J(Q y) =
 * Q J(y) Q^T and M(Q y)^-1 = Q M(y)^-1 Q^T. With R_j the frames at J's state and R(y) at the
 * iterate, every solve applies T = R(y) R_j^T to the frame's position and velocity blocks,
 * x = T M_j^-1 T^T r: the factorisation of J's state, turned to the iterate's attitude.
 * Measured: 30 s of the V3 figure eight (20 Hz linearized aerodynamics) 78111 -> 37968
 * right-hand sides, 4190 -> 2499 Jacobians, 1171 -> 36 Newton failures, 2.01 -> 1.17 s;
 * test_stepper's 3-D whirl 651 -> 6 Jacobians.
 *
 * J: the pattern's analytic columns from its callback (jacobian.h), the others by
 * coloured finite differences of the system function on the pattern (jac_color.h),
 * h_j = sqrt(eps) max(|y_j|, 1) as awe_jacobian_fd, stored on the pattern and factorised by
 * the sparse LU (sparse_lu.h). Memory is allocated in alloc / awe_trbdf2_set_pattern only
 * (a stepper used without a pattern allocates the dense default once, at its first step).
 */
#include "solve/step_trbdf2.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solve/sparse_jac.h"

/* Chosen by measurement on the V3 kite (60 s at 1e-3; rhs evaluations and wall time): */
#define TB_MAXIT 10        /* Newton iterations per stage */
#define TB_KAPPA 0.01      /* Newton tolerance in units of the error tolerance: 0.03..0.3 */
                           /* took more steps (the Newton error enters the estimate) */
#define TB_REFACTOR 0.15   /* refactorise when d h moved by more than this ratio: 0.3..0.8 */
                           /* cost more Newton failures, hence Jacobians, than it saved */
#define TB_PATIENCE 3      /* iterations before a contraction above TB_DIVERGE fails: the */
#define TB_DIVERGE 2.0     /* first corrections of a kinked right-hand side (slack lines) */
                           /* may grow and still converge (0.9 from the start: 2x the J) */
#define TB_SLOW 6          /* more iterations in a stage, or a contraction above TB_THETA */
#define TB_THETA 0.3       /* from the third iteration on: a fresh J for the next step */
#define TB_AA 2            /* Anderson depth (1 and 2 alike, 3 and 4 slower; see the head) */

static const double TB_GAMMA = 2.0 - M_SQRT2;
static const double TB_D = (2.0 - M_SQRT2) / 2.0;
static const double TB_W = M_SQRT2 / 4.0;

typedef struct {
  size_t n;
  const gsl_odeiv2_driver *drv;
  awe_sjac w;                /* the pattern, J on it, its LU and co-rotation */
  int have_j;                /* jval holds a Jacobian */
  double c_fact;             /* d h of the factorisation (0: none) */
  int iters;                 /* most Newton iterations of a stage in the current attempt */
  double theta_max;          /* slowest contraction of a stage in the current attempt */
  double *f0, *z1, *z2, *z3, *base, *ys, *fs, *del, *inv_d, *yp, *f1, *fj, *fp;
  double *aa_r, *aa_z;       /* Anderson: TB_AA differences of corrections and iterates */
  double *r_prev, *z_prev;   /* the last correction and iterate */
  double *y_fp, t_fp;        /* fp = z3/h is the derivative at the end of the last step, */
  int use_fp;                /* (t_fp, y_fp) (t_fp NAN: none); use_fp: this step starts there */
} trbdf2_state;


/* the dense default at the first step of a stepper given no pattern */
static int dense_pattern(trbdf2_state *s) {
  s->have_j = 0;
  s->c_fact = 0.0;
  return awe_sjac_set_dense(&s->w, (int)s->n);
}


static void trbdf2_free(void *vstate) {
  trbdf2_state *s = vstate;
  if (!s) return;
  awe_sjac_free(&s->w);
  double **v[] = {&s->f0, &s->z1, &s->z2, &s->z3, &s->base, &s->ys, &s->fs,
                  &s->del, &s->inv_d, &s->yp, &s->f1, &s->fj, &s->fp, &s->y_fp,
                  &s->r_prev, &s->z_prev, &s->aa_r, &s->aa_z};
  for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) free(*v[k]);
  free(s);
}


static void *trbdf2_alloc(size_t dim) {
  trbdf2_state *s = calloc(1, sizeof(*s));
  if (!s) return NULL;
  s->n = dim;
  s->t_fp = NAN;
  double **v[] = {&s->f0, &s->z1, &s->z2, &s->z3, &s->base, &s->ys, &s->fs,
                  &s->del, &s->inv_d, &s->yp, &s->f1, &s->fj, &s->fp, &s->y_fp,
                  &s->r_prev, &s->z_prev};
  for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
    *v[k] = calloc(dim + 1, sizeof(double));
    if (!*v[k]) goto fail;
  }
  s->aa_r = calloc(TB_AA * dim + 1, sizeof(double));
  s->aa_z = calloc(TB_AA * dim + 1, sizeof(double));
  if (!s->aa_r || !s->aa_z) goto fail;
  /* no pattern yet: awe_trbdf2_set_pattern installs one before the first step (integrate.c);
   * a stepper used without one gets the dense default at its first step (colouring and
   * ordering a dense pattern is the slow part of start-up, so it is not done eagerly) */
  return s;
fail:
  trbdf2_free(s);
  return NULL;
}


static int trbdf2_set_driver(void *vstate, const gsl_odeiv2_driver *d) {
  ((trbdf2_state *)vstate)->drv = d;
  return GSL_SUCCESS;
}


/* after a discontinuity: a one-step method keeps no history; J stays (Newton checks it), and
 * so does fp while a step starts where the last one ended (an input that changes does not move
 * y; the V3 figure eight's controller resets the stepper every 50 ms: dropping fp there cost
 * its pumping cycles 19 % in time) */
static int trbdf2_reset(void *vstate, size_t dim) {
  (void)vstate;
  (void)dim;
  return GSL_SUCCESS;
}


static unsigned int trbdf2_order(void *vstate) {
  (void)vstate;
  return 2;
}


/* J at (t, y) by coloured differences against fy = f(t, y), or NULL when the differences
 * need it computed (into fj) */
static int jacobian(trbdf2_state *s, const gsl_odeiv2_system *sys, double t, const double *y,
                    const double *fy) {
  if (!fy && s->w.ncolor > 0) {
    int st = GSL_ODEIV_FN_EVAL(sys, t, y, s->fj);
    if (st != GSL_SUCCESS) return st;
    fy = s->fj;
  }
  int st = awe_sjac_eval(&s->w, sys, t, y, fy, s->yp, s->f1);
  if (st != GSL_SUCCESS) return st;
  s->have_j = 1;
  s->c_fact = 0.0;
  return GSL_SUCCESS;
}


/* GSL's error norm of v times scale */
static double norm(const trbdf2_state *s, const double *v, double scale) {
  double m = 0.0;
  for (size_t i = 0; i < s->n; i++) {
    double r = fabs(v[i]) * s->inv_d[i];
    if (r > m) m = r;
  }
  return scale * m;
}


/* Anderson's correction of the next iterate from the history of this stage (type II, depth
 * na): gamma = argmin ||r - dR gamma|| in GSL's error weights (normal equations, Cholesky; a
 * pivot below 1e-10 of its diagonal means dependent differences: no correction, and the
 * history restarts), z_next = z + r - (dZ + dR) gamma. Returns the history length to keep. */
static int anderson(trbdf2_state *s, int na, double *z, const double *r) {
  size_t n = s->n;
  double a[TB_AA * TB_AA], b[TB_AA], l[TB_AA * TB_AA], g[TB_AA];
  for (int p = 0; p < na; p++) {
    const double *fp = s->aa_r + (size_t)p * n;
    b[p] = 0.0;
    for (size_t i = 0; i < n; i++) b[p] += fp[i] * r[i] * s->inv_d[i] * s->inv_d[i];
    for (int q = 0; q <= p; q++) {
      const double *fq = s->aa_r + (size_t)q * n;
      double v = 0.0;
      for (size_t i = 0; i < n; i++) v += fp[i] * fq[i] * s->inv_d[i] * s->inv_d[i];
      a[p * TB_AA + q] = v;
    }
  }
  for (int p = 0; p < na; p++) {
    for (int q = 0; q <= p; q++) {
      double v = a[p * TB_AA + q];
      for (int k = 0; k < q; k++) v -= l[p * TB_AA + k] * l[q * TB_AA + k];
      if (p > q) {
        l[p * TB_AA + q] = v / l[q * TB_AA + q];
      } else if (v > 1e-10 * a[p * TB_AA + p]) {
        l[p * TB_AA + p] = sqrt(v);
      } else {
        for (size_t i = 0; i < n; i++) z[i] += r[i];
        return 0;
      }
    }
  }
  for (int p = 0; p < na; p++) { /* L L^T g = b */
    double v = b[p];
    for (int k = 0; k < p; k++) v -= l[p * TB_AA + k] * g[k];
    g[p] = v / l[p * TB_AA + p];
  }
  for (int p = na - 1; p >= 0; p--) {
    double v = g[p];
    for (int k = p + 1; k < na; k++) v -= l[k * TB_AA + p] * g[k];
    g[p] = v / l[p * TB_AA + p];
  }
  for (size_t i = 0; i < n; i++) {
    double v = z[i] + r[i];
    for (int p = 0; p < na; p++) v -= g[p] * (s->aa_z[(size_t)p * n + i] + s->aa_r[(size_t)p * n + i]);
    z[i] = v;
  }
  return na;
}


/* z = h f(ts, base + d z) by simplified Newton from the predictor in z, accelerated by
 * Anderson mixing (see the file head). GSL_SUCCESS, GSL_FAILURE (no convergence) or the
 * function's status. */
static int newton(trbdf2_state *s, const gsl_odeiv2_system *sys, double ts, double h, double *z,
                  unsigned long *count) {
  size_t n = s->n;
  double prev = 0.0;
  int na = 0, head = 0; /* history: na differences in a ring, the next one goes to head */
  for (int k = 0; k < TB_MAXIT; k++) {
    if (k + 1 > s->iters) s->iters = k + 1;
    if (count) (*count)++;
    for (size_t i = 0; i < n; i++) s->ys[i] = s->base[i] + TB_D * z[i];
    int st = GSL_ODEIV_FN_EVAL(sys, ts, s->ys, s->fs);
    if (st != GSL_SUCCESS) return st;
    for (size_t i = 0; i < n; i++) s->del[i] = h * s->fs[i] - z[i];
    awe_sjac_turn_at(&s->w, s->ys);
    awe_sjac_solve(&s->w, s->del); /* the simplified Newton correction r_k */
    double dn = norm(s, s->del, TB_D); /* Y moves by d dz */
    if (!isfinite(dn)) return GSL_FAILURE;
    if (k > 0) {
      double theta = dn / prev;
      if (k >= 2 && theta > s->theta_max) s->theta_max = theta;
      if (theta >= TB_DIVERGE && k >= TB_PATIENCE) return GSL_FAILURE;
      double eta = theta < 1.0 ? theta / (1.0 - theta) : INFINITY;
      if (eta * dn <= TB_KAPPA) {
        for (size_t i = 0; i < n; i++) z[i] += s->del[i];
        return GSL_SUCCESS;
      }
      if (theta >= 1.0) na = head = 0; /* no contraction: the history misleads, restart it */
      /* the newest differences r_k - r_k-1, z_k - z_k-1 */
      double *dr = s->aa_r + (size_t)head * n, *dz = s->aa_z + (size_t)head * n;
      for (size_t i = 0; i < n; i++) {
        dr[i] = s->del[i] - s->r_prev[i];
        dz[i] = z[i] - s->z_prev[i];
      }
      head = (head + 1) % TB_AA;
      if (na < TB_AA) na++;
    } else if (dn <= TB_KAPPA) {
      for (size_t i = 0; i < n; i++) z[i] += s->del[i];
      return GSL_SUCCESS;
    }
    memcpy(s->r_prev, s->del, sizeof(double) * n);
    memcpy(s->z_prev, z, sizeof(double) * n);
    na = anderson(s, na, z, s->del);
    if (na == 0) head = 0;
    prev = dn;
  }
  return GSL_FAILURE;
}


/* the derivative the predictors start from: fp when this step starts where the last one
 * ended (use_fp, decided in apply), else f0 = f(t, y) */
static const double *slow_derivative(const trbdf2_state *s) {
  return s->use_fp ? s->fp : s->f0;
}


/* a fresh J at the predicted midpoint of the step, y + (h/2) fp (y itself without fp) */
static int predicted_jacobian(trbdf2_state *s, const gsl_odeiv2_system *sys, double t, double h,
                              const double *y) {
  if (!s->use_fp) return jacobian(s, sys, t, y, s->f0);
  for (size_t i = 0; i < s->n; i++) s->ys[i] = y[i] + 0.5 * h * s->fp[i];
  return jacobian(s, sys, t + 0.5 * h, s->ys, NULL);
}


/* the two implicit stages from f0 = f(t, y) */
static int stages(trbdf2_state *s, const gsl_odeiv2_system *sys, double t, double h,
                  const double *y) {
  size_t n = s->n;
  double c = TB_D * h;
  if (s->c_fact == 0.0 || fabs(c / s->c_fact - 1.0) > TB_REFACTOR) {
    if (awe_sjac_factor(&s->w, c)) return GSL_FAILURE;
    s->c_fact = c;
  }
  const double *fp = slow_derivative(s);
  s->iters = 0;
  s->theta_max = 0.0;
  for (size_t i = 0; i < n; i++) {
    s->z1[i] = h * s->f0[i];
    s->z2[i] = h * fp[i];
    s->base[i] = y[i] + TB_D * s->z1[i];
  }
  int st = newton(s, sys, t + TB_GAMMA * h, h, s->z2, s->w.nnewton_tr);
  if (st != GSL_SUCCESS) return st;
  for (size_t i = 0; i < n; i++) {
    double zp = h * fp[i];
    s->z3[i] = zp + (s->z2[i] - zp) / TB_GAMMA;
    s->base[i] = y[i] + TB_W * (s->z1[i] + s->z2[i]);
  }
  return newton(s, sys, t + h, h, s->z3, s->w.nnewton_bdf);
}


static int trbdf2_apply(void *vstate, size_t dim, double t, double h, double y[], double yerr[],
                        const double dydt_in[], double dydt_out[], const gsl_odeiv2_system *sys) {
  trbdf2_state *s = vstate;
  (void)dydt_in;
  if (dim != s->n) return GSL_EBADLEN;
  if (!s->w.lu && dense_pattern(s)) return GSL_ENOMEM; /* once, without a pattern */
  int st = GSL_ODEIV_FN_EVAL(sys, t, y, s->f0);
  if (st != GSL_SUCCESS) return st;
  for (size_t i = 0; i < dim; i++) {
    double dl = 0.0;
    if (s->drv && s->drv->c) gsl_odeiv2_control_errlevel(s->drv->c, y[i], s->f0[i], h, i, &dl);
    if (!(dl > 0.0)) dl = 1e-6 * (1.0 + fabs(y[i])); /* no driver: GSL's default 1e-6 */
    s->inv_d[i] = 1.0 / dl;
  }
  s->use_fp = s->t_fp == t;
  for (size_t i = 0; i < dim && s->use_fp; i++)
    if (fabs(y[i] - s->y_fp[i]) * s->inv_d[i] > 1e-3) s->use_fp = 0;
  int fresh = 0;
  if (!s->have_j) {
    st = predicted_jacobian(s, sys, t, h, y);
    if (st != GSL_SUCCESS) return st;
    fresh = 1;
  }
  st = stages(s, sys, t, h, y);
  if (st != GSL_SUCCESS && s->w.nnewton_fail) (*s->w.nnewton_fail)++;
  if (st != GSL_SUCCESS && !fresh) {
    /* an old Jacobian: renew it and try once more at this h */
    st = predicted_jacobian(s, sys, t, h, y);
    if (st != GSL_SUCCESS) return st;
    st = stages(s, sys, t, h, y);
    if (st != GSL_SUCCESS && s->w.nnewton_fail) (*s->w.nnewton_fail)++;
  }
  if (st != GSL_SUCCESS) return st; /* evolve restores y and halves h */
  /* J has aged: renew it for the next step */
  if (s->iters > TB_SLOW || s->theta_max > TB_THETA) s->have_j = 0;
  const double e1 = (4.0 * TB_W - 1.0) / 3.0, e2 = -1.0 / 3.0, e3 = 2.0 * TB_D / 3.0;
  for (size_t i = 0; i < dim; i++) yerr[i] = e1 * s->z1[i] + e2 * s->z2[i] + e3 * s->z3[i];
  awe_sjac_solve(&s->w, yerr);
  awe_sjac_solve(&s->w, yerr);
  for (size_t i = 0; i < dim; i++) {
    y[i] = s->base[i] + TB_D * s->z3[i];
    s->fp[i] = s->z3[i] / h;
    if (dydt_out) dydt_out[i] = s->fp[i];
  }
  memcpy(s->y_fp, y, sizeof(double) * dim);
  s->t_fp = t + h;
  return GSL_SUCCESS;
}


static const gsl_odeiv2_step_type trbdf2_type = {
    "trbdf2",
    0, /* can_use_dydt_in: no, y may change between steps (quaternion renormalisation) */
    0, /* gives_exact_dydt_out: z3/h is within the Newton tolerance */
    trbdf2_alloc, trbdf2_apply, trbdf2_set_driver, trbdf2_reset, trbdf2_order, trbdf2_free};

const gsl_odeiv2_step_type *const awe_step_trbdf2 = &trbdf2_type;


int awe_trbdf2_set_pattern(gsl_odeiv2_step *step, const awe_jac_pattern *p) {
  trbdf2_state *s = step->state;
  int st = awe_sjac_set_pattern(&s->w, (int)s->n, p);
  if (st == GSL_SUCCESS) {
    s->have_j = 0;
    s->c_fact = 0.0;
  }
  return st;
}
