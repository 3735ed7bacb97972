/* step_rosw.c: the ROS34PW2 stepper (a gsl_odeiv2_step_type).
 *
 * J. Rang, L. Angermann, "New Rosenbrock W-methods of order 3 for partial differential
 * algebraic equations of index 1", BIT Numer. Math. 45 (2005) 761-787, method ROS34PW2
 * (coefficients as printed there and in Julia's OrdinaryDiffEq.jl ROS34PW2 tableau; checked
 * against the order conditions and by observed convergence in tests/test_rosw.c). A
 * four-stage Rosenbrock-W method of order 3 with an embedded method of order 2; stiffly
 * accurate (b_i = alpha_4i + gamma_4i), L-stable, gamma = 0.43586652150845900. A W-method
 * keeps its order with any matrix W = I - gamma h A in place of I - gamma h J, so J may be
 * old, co-rotated, or factorised at a nearby h (A = (h'/h) J).
 * One step (Hairer & Wanner, "Solving ODEs II", IV.7, the form (7.25) without products J v):
 * with Gamma = (gamma_ij) and G = Gamma^-1, a'_ij = (alpha G)_ij, c'_ij = -G_ij (i > j),
 * m = b G, mhat = bhat G, alpha_i = sum_j alpha_ij, gamma_i = sum_j gamma_ij,
 *   (I - gamma h J) u_i = gamma h [f(t + alpha_i h, y + sum_j<i a'_ij u_j)
 *                                  + sum_j<i (c'_ij / h) u_j + gamma_i h df/dt]
 *   y_new = y + sum m_i u_i,   err = sum (m_i - mhat_i) u_i = O(h^3).
 * One factorisation and five solves (four stages, the estimate's filter below) and four
 * right-hand sides per step (the first is f(t, y));
 * no iterations, hence no convergence failures. GSL's standard control (order 2, as the
 * estimate's) accepts or shrinks the step; a step that gives a non-finite value or a zero
 * pivot returns GSL_FAILURE (evolve restores y and halves h). The integrator stops at every
 * output and input breakpoint (evolve clips the step), so no interpolant is needed.
 *
 * J (as trbdf2: analytic columns from the pattern's callback, the others by coloured
 * differences; df/dt by a forward difference in t, which stays inside the step's input
 * interval) is evaluated at the start of a step and kept while steps are accepted: after a
 * rejected step the retry gets a fresh J (a W-method's error with an old J is still
 * controlled by the estimate, so a rejection is the sign that J has aged). The factorisation
 * is kept while gamma h is within ROSW_REFACTOR of the factorised value. Measured (bench_kite):
 * never renewing J, the parked 2plate took 100934 steps for 60 s instead of 1509 and the V3
 * figure eight did not finish; a fresh J at every step took fewer steps but more time (figure
 * eight 120 s: 30012 steps, 11.9 s, against 32641 steps, 7.5 s).
 * Accuracy (docs/speed.md): on lines and the rigid 2plate 5-15 times closer to a 1e-8
 * reference than trbdf2 at the same tolerance; on the particle V3 4-50 times further (the stiff
 * lines reduce a Rosenbrock method's order and its estimate does not see it).
 * Co-rotation (the pattern's frames, step_trbdf2.c head): each step's solves use the
 * factorisation of J's state turned to the attitude at the step's start (without it the V3
 * figure eight took 78209 steps and 21.9 s for 120 s instead of 32641 and 7.5 s).
 */
#include "solve/step_rosw.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solve/sparse_jac.h"

#define NS 4                /* stages */
#define ROSW_REFACTOR 0.15  /* refactorise when gamma h moved by more than this ratio */

/* Rang & Angermann (2005), ROS34PW2 */
static const double RW_GAMMA = 4.3586652150845900e-01;
static const double RW_ALPHA[NS * NS] = {
    0.0, 0.0, 0.0, 0.0,
    8.7173304301691801e-01, 0.0, 0.0, 0.0,
    8.4457060015369423e-01, -1.1299064236397981e-01, 0.0, 0.0,
    0.0, 0.0, 1.0, 0.0};
static const double RW_GAMMA_IJ[NS * NS] = { /* strictly lower part; the diagonal is gamma */
    0.0, 0.0, 0.0, 0.0,
    -8.7173304301691801e-01, 0.0, 0.0, 0.0,
    -9.0338057013044082e-01, 5.4180672388095326e-02, 0.0, 0.0,
    2.4212380706095346e-01, -1.2232505839045147e+00, 5.4526025533510214e-01, 0.0};
static const double RW_B[NS] = {2.4212380706095346e-01, -1.2232505839045147e+00,
                                1.5452602553351020e+00, 4.3586652150845900e-01};
static const double RW_BHAT[NS] = {3.7810903145819369e-01, -9.6042292212423178e-02,
                                   5.0000000000000000e-01, 2.1793326075422950e-01};

typedef struct {
  size_t n;
  /* the transformed coefficients (see the head) */
  double a[NS * NS], c[NS * NS], m[NS], e[NS], alpha[NS], gam[NS];
  awe_sjac w;                /* the pattern, J on it, its LU and co-rotation (as trbdf2) */
  double *ft;                /* df/dt */
  int have_j, age, max_age;  /* jval holds a Jacobian, accepted steps since, limit (0: none) */
  double c_fact;             /* gamma h of the factorisation (0: none) */
  double t_try;              /* t of the last attempt (a retry at the same t: rejected) */
  int fresh;                 /* J was computed for the last attempt */
  double *f0, *u, *ys, *fs, *yp, *f1, *y0;
} rosw_state;


void awe_rosw_tableau(double *alpha, double *gamma, double *b, double *bhat) {
  memcpy(alpha, RW_ALPHA, sizeof(RW_ALPHA));
  memcpy(gamma, RW_GAMMA_IJ, sizeof(RW_GAMMA_IJ));
  for (int i = 0; i < NS; i++) gamma[i * NS + i] = RW_GAMMA;
  memcpy(b, RW_B, sizeof(RW_B));
  memcpy(bhat, RW_BHAT, sizeof(RW_BHAT));
}


/* a', c', m, m - mhat, alpha_i, gamma_i from the tableau (G = Gamma^-1 by forward
 * substitution) */
static void transform(rosw_state *s) {
  double g[NS * NS] = {0}, gm[NS * NS];
  awe_rosw_tableau(s->a, gm, s->m, s->e); /* scratch: a holds alpha for now */
  for (int j = 0; j < NS; j++) {
    g[j * NS + j] = 1.0 / RW_GAMMA;
    for (int i = j + 1; i < NS; i++) {
      double v = 0.0;
      for (int k = j; k < i; k++) v += gm[i * NS + k] * g[k * NS + j];
      g[i * NS + j] = -v / RW_GAMMA;
    }
  }
  double alpha[NS * NS];
  memcpy(alpha, s->a, sizeof(alpha));
  for (int i = 0; i < NS; i++) {
    s->alpha[i] = s->gam[i] = 0.0;
    for (int j = 0; j < NS; j++) {
      double v = 0.0;
      for (int k = 0; k < NS; k++) v += alpha[i * NS + k] * g[k * NS + j];
      s->a[i * NS + j] = v;
      s->c[i * NS + j] = i > j ? -g[i * NS + j] : 0.0;
      s->alpha[i] += alpha[i * NS + j];
      s->gam[i] += gm[i * NS + j];
    }
  }
  for (int j = 0; j < NS; j++) {
    double mb = 0.0, mh = 0.0;
    for (int i = 0; i < NS; i++) {
      mb += RW_B[i] * g[i * NS + j];
      mh += RW_BHAT[i] * g[i * NS + j];
    }
    s->m[j] = mb;
    s->e[j] = mb - mh;
  }
}


/* the dense default at the first step of a stepper given no pattern */
static int dense_pattern(rosw_state *s) {
  s->have_j = 0;
  s->c_fact = 0.0;
  return awe_sjac_set_dense(&s->w, (int)s->n);
}


static void rosw_free(void *vstate) {
  rosw_state *s = vstate;
  if (!s) return;
  awe_sjac_free(&s->w);
  double **v[] = {&s->f0, &s->u, &s->ys, &s->fs, &s->yp, &s->f1, &s->y0, &s->ft};
  for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) free(*v[k]);
  free(s);
}


static void *rosw_alloc(size_t dim) {
  rosw_state *s = calloc(1, sizeof(*s));
  if (!s) return NULL;
  s->n = dim;
  s->t_try = NAN;
  transform(s);
  double **v[] = {&s->f0, &s->ys, &s->fs, &s->yp, &s->f1, &s->y0, &s->ft};
  for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
    *v[k] = calloc(dim + 1, sizeof(double));
    if (!*v[k]) goto fail;
  }
  s->u = calloc(NS * dim + 1, sizeof(double));
  if (!s->u) goto fail;
  return s;
fail:
  rosw_free(s);
  return NULL;
}


static int rosw_reset(void *vstate, size_t dim) {
  (void)dim;
  ((rosw_state *)vstate)->t_try = NAN; /* a new start is no retry */
  return GSL_SUCCESS;
}


static unsigned int rosw_order(void *vstate) {
  (void)vstate;
  return 2; /* the estimate's order (its error is O(h^3)), as trbdf2 */
}


/* J and df/dt at (t, y) against f0 = f(t, y) */
static int jacobian(rosw_state *s, const gsl_odeiv2_system *sys, double t, const double *y) {
  int st = awe_sjac_eval(&s->w, sys, t, y, s->f0, s->yp, s->f1);
  if (st != GSL_SUCCESS) return st;
  /* df/dt forward: the step's input interval starts at t (the integrator stops at breaks) */
  const double sq = sqrt(DBL_EPSILON);
  double dt = sq * (fabs(t) > 1.0 ? fabs(t) : 1.0);
  volatile double t1 = t + dt;
  st = GSL_ODEIV_FN_EVAL(sys, t1, y, s->f1);
  if (st != GSL_SUCCESS) return st;
  double inv = 1.0 / (t1 - t);
  for (size_t i = 0; i < s->n; i++) s->ft[i] = (s->f1[i] - s->f0[i]) * inv;
  s->have_j = 1;
  s->age = 0;
  s->c_fact = 0.0;
  return GSL_SUCCESS;
}


/* the four stages into u from f0 = f(t, y); GSL_FAILURE on a zero pivot or a non-finite
 * value */
static int stages(rosw_state *s, const gsl_odeiv2_system *sys, double t, double h,
                  const double *y) {
  size_t n = s->n;
  double gh = RW_GAMMA * h;
  if (s->c_fact == 0.0 || fabs(gh / s->c_fact - 1.0) > ROSW_REFACTOR) {
    if (awe_sjac_factor(&s->w, gh)) {
      s->c_fact = 0.0;
      return GSL_FAILURE;
    }
    s->c_fact = gh;
  }
  awe_sjac_turn_at(&s->w, y);
  for (int i = 0; i < NS; i++) {
    double *ui = s->u + (size_t)i * n;
    const double *fi = s->f0;
    if (i > 0) {
      for (size_t k = 0; k < n; k++) {
        double v = y[k];
        for (int j = 0; j < i; j++) v += s->a[i * NS + j] * s->u[(size_t)j * n + k];
        s->ys[k] = v;
      }
      int st = GSL_ODEIV_FN_EVAL(sys, t + s->alpha[i] * h, s->ys, s->fs);
      if (st != GSL_SUCCESS) return st;
      fi = s->fs;
    }
    /* a factorisation at gamma h' stands for gamma h: the W-method's A = (h'/h) J */
    double gt = s->gam[i] * h;
    for (size_t k = 0; k < n; k++) {
      double v = fi[k] + gt * s->ft[k];
      for (int j = 0; j < i; j++) v += s->c[i * NS + j] / h * s->u[(size_t)j * n + k];
      ui[k] = gh * v;
    }
    awe_sjac_solve(&s->w, ui);
    for (size_t k = 0; k < n; k++)
      if (!isfinite(ui[k])) return GSL_FAILURE;
  }
  return GSL_SUCCESS;
}


static int rosw_apply(void *vstate, size_t dim, double t, double h, double y[], double yerr[],
                      const double dydt_in[], double dydt_out[], const gsl_odeiv2_system *sys) {
  rosw_state *s = vstate;
  (void)dydt_in;
  if (dim != s->n) return GSL_EBADLEN;
  if (!s->w.lu && dense_pattern(s)) return GSL_ENOMEM;
  int st = GSL_ODEIV_FN_EVAL(sys, t, y, s->f0);
  if (st != GSL_SUCCESS) return st;
  /* a retry at the same t: the last attempt was rejected; an old J is renewed */
  int retry = s->t_try == t;
  s->t_try = t;
  if (!s->have_j || (retry && !s->fresh) || (s->max_age > 0 && s->age >= s->max_age)) {
    st = jacobian(s, sys, t, y);
    if (st != GSL_SUCCESS) return st;
    s->fresh = 1;
  } else {
    s->fresh = 0;
  }
  st = stages(s, sys, t, h, y);
  if (st != GSL_SUCCESS) {
    s->have_j = s->have_j && s->fresh; /* the next attempt renews an old J */
    return st;                         /* evolve restores y and halves h */
  }
  size_t n = s->n;
  memcpy(s->y0, y, sizeof(double) * n);
  for (size_t k = 0; k < n; k++) {
    double v = 0.0, e = 0.0;
    for (int i = 0; i < NS; i++) {
      v += s->m[i] * s->u[(size_t)i * n + k];
      e += s->e[i] * s->u[(size_t)i * n + k];
    }
    y[k] += v;
    yerr[k] = e;
    if (dydt_out) dydt_out[k] = v / h; /* the mean slope (gives_exact_dydt_out: no) */
  }
  /* the estimate filtered by W^-1 (Shampine; trbdf2 does it too): a stiff component off its
   * slow manifold by delta (the 20 Hz aerodynamic refresh) is damped away by the L-stable
   * method but left at O(delta) in the unfiltered estimate. Measured (bench_kite, counts):
   * V3 figure eight 120 s 38481 -> 32641 steps, 178747 -> 153267 rhs; 2plate 60 s 1509 ->
   * 1360 steps; filtering twice saved as many rhs as it cost solves */
  awe_sjac_solve(&s->w, yerr);
  s->age++;
  return GSL_SUCCESS;
}


static int rosw_set_driver(void *vstate, const gsl_odeiv2_driver *d) {
  (void)vstate;
  (void)d;
  return GSL_SUCCESS;
}


static const gsl_odeiv2_step_type rosw_type = {
    "ros34pw2",
    0, /* can_use_dydt_in: no, y may change between steps (quaternion renormalisation) */
    0, /* gives_exact_dydt_out: no */
    rosw_alloc, rosw_apply, rosw_set_driver, rosw_reset, rosw_order, rosw_free};

const gsl_odeiv2_step_type *const awe_step_ros34pw2 = &rosw_type;


int awe_rosw_set_pattern(gsl_odeiv2_step *step, const awe_jac_pattern *p) {
  rosw_state *s = step->state;
  int st = awe_sjac_set_pattern(&s->w, (int)s->n, p);
  if (st == GSL_SUCCESS) {
    s->have_j = 0;
    s->c_fact = 0.0;
  }
  return st;
}


void awe_rosw_set_max_age(gsl_odeiv2_step *step, int max_age) {
  ((rosw_state *)step->state)->max_age = max_age > 0 ? max_age : 0;
}
