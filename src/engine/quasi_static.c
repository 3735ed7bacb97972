/* quasi_static.c: warm-started Newton solve of the quasi-static points and pulleys.
 *
 * Equations, method and sources: see quasi_static.h.
 */
#include "engine/quasi_static.h"

#include <gsl/gsl_linalg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/point.h"
#include "engine/segment.h"

#define QS_MAXITER 50
#define QS_XTOL 1e-11

struct awe_qs {
  int n;                  /* unknowns */
  int npt, npul;          /* quasi-static points and pulleys */
  int *pts, *pul;
  int nseg, *segs;        /* segments that touch an unknown */
  double *x, *x0, *xgood, *xbest, *dx, *r, *J;
  double res;             /* last |R|_inf */
  gsl_permutation *perm;
};


struct awe_qs *awe_qs_alloc(const awe_model *m, awe_work *w) {
  struct awe_qs *q = calloc(1, sizeof(*q));
  if (!q) return NULL;
  int n = w->nqs;
  q->n = n;
  q->pts = calloc((size_t)m->npoint + 1, sizeof(int));
  q->pul = calloc((size_t)m->npulley + 1, sizeof(int));
  q->segs = calloc((size_t)m->nsegment + 1, sizeof(int));
  q->x = calloc((size_t)n, sizeof(double));
  q->x0 = calloc((size_t)n, sizeof(double));
  q->xgood = calloc((size_t)n, sizeof(double));
  q->xbest = calloc((size_t)n, sizeof(double));
  q->dx = calloc((size_t)n, sizeof(double));
  q->r = calloc((size_t)n, sizeof(double));
  q->J = calloc((size_t)n * (size_t)n, sizeof(double));
  q->perm = gsl_permutation_alloc((size_t)n);
  if (!q->pts || !q->pul || !q->segs || !q->x || !q->x0 || !q->xgood || !q->xbest || !q->dx || !q->r || !q->J ||
      !q->perm) {
    awe_qs_free(q);
    return NULL;
  }
  for (int i = 0; i < m->npoint; i++)
    if (w->point_qs[i] >= 0) q->pts[q->npt++] = i;
  for (int i = 0; i < m->npulley; i++)
    if (w->pulley_qs[i] >= 0) q->pul[q->npul++] = i;
  for (int s = 0; s < m->nsegment; s++) {
    int a = m->segment_p[2 * s], b = m->segment_p[2 * s + 1], p = m->segment_pulley[s];
    if (w->point_qs[a] >= 0 || w->point_qs[b] >= 0 || (p >= 0 && w->pulley_qs[p] >= 0))
      q->segs[q->nseg++] = s;
  }
  return q;
}


void awe_qs_free(struct awe_qs *q) {
  if (!q) return;
  free(q->pts);
  free(q->pul);
  free(q->segs);
  free(q->x);
  free(q->x0);
  free(q->xgood);
  free(q->xbest);
  free(q->dx);
  free(q->r);
  free(q->J);
  if (q->perm) gsl_permutation_free(q->perm);
  free(q);
}


static double residual(const awe_model *m, awe_work *w, const double *x, double *r);


void awe_qs_reset(const awe_model *m, awe_work *w) {
  struct awe_qs *q = w->qs;
  for (int k = 0; k < q->npt; k++) {
    int i = q->pts[k];
    memcpy(q->x + w->point_qs[i], m->point_pos0 + 3 * i, 3 * sizeof(double));
  }
  for (int k = 0; k < q->npul; k++) q->x[w->pulley_qs[q->pul[k]]] = m->pulley_len0[q->pul[k]];
  memcpy(q->xgood, q->x, sizeof(double) * (size_t)q->n);
}


/* a failed solve restores the last converged warm start, so a retried step starts sane */
static int fail(const awe_model *m, awe_work *w, int kind, double t) {
  struct awe_qs *q = w->qs;
  awe_work_warn(w, kind, t, 0);
  memcpy(q->x, q->xgood, sizeof(double) * (size_t)q->n);
  residual(m, w, q->x, q->r);
  return -1;
}


static int done(awe_work *w, double res) {
  struct awe_qs *q = w->qs;
  q->res = res;
  memcpy(q->xgood, q->x, sizeof(double) * (size_t)q->n);
  return 0;
}


/* put x into the workspace and evaluate the residual into r; returns |r|_2 (NAN if not
 * finite) */
static double residual(const awe_model *m, awe_work *w, const double *x, double *r) {
  struct awe_qs *q = w->qs;
  for (int k = 0; k < q->npt; k++) {
    int i = q->pts[k];
    memcpy(w->pos + 3 * i, x + w->point_qs[i], 3 * sizeof(double));
    w->vel[3 * i] = w->vel[3 * i + 1] = w->vel[3 * i + 2] = 0.0;
  }
  for (int k = 0; k < q->npul; k++) w->pulley_len[q->pul[k]] = x[w->pulley_qs[q->pul[k]]];
  for (int k = 0; k < q->nseg; k++) {
    int s = q->segs[k];
    w->seg_l0[s] = awe_segment_rest_length(m, w, s);
    awe_segment_eval(m, w, s);
  }
  for (int k = 0; k < q->npt; k++) {
    int i = q->pts[k];
    awe_point_mass(m, w, i);
    awe_point_force(m, w, i);
    memcpy(r + w->point_qs[i], w->force + 3 * i, 3 * sizeof(double));
  }
  for (int k = 0; k < q->npul; k++) {
    int p = q->pul[k];
    r[w->pulley_qs[p]] = w->seg_force[m->pulley_seg[2 * p]] - w->seg_force[m->pulley_seg[2 * p + 1]];
  }
  double nrm = 0.0;
  for (int k = 0; k < q->n; k++) nrm += r[k] * r[k];
  return isfinite(nrm) ? sqrt(nrm) : NAN;
}


/* analytic stiffness Jacobian dR/dx at the current workspace state */
static void jacobian(const awe_model *m, const awe_work *w, double *J) {
  const struct awe_qs *q = w->qs;
  int n = q->n;
  memset(J, 0, sizeof(double) * (size_t)n * (size_t)n);
  for (int k = 0; k < q->nseg; k++) {
    int s = q->segs[k];
    int a = m->segment_p[2 * s], b = m->segment_p[2 * s + 1];
    int qa = w->point_qs[a], qb = w->point_qs[b];
    const double *u = w->seg_dir + 3 * s;
    double len = w->seg_len[s], fs = w->seg_force[s];
    /* grad F_s wrt p_b (= -grad wrt p_a): spring alpha u plus the damper's direction change,
     * F_s = kappa EA (1 - l0/len) - (c_u/len) dv.u,  dv = v_a - v_b */
    const double *va = w->vel + 3 * a, *vb = w->vel + 3 * b;
    double dv[3] = {va[0] - vb[0], va[1] - vb[1], va[2] - vb[2]};
    double g = awe_v3_dot(dv, u), cu = m->segment_unit_c[s] * awe_segment_damping_factor(m, w, s);
    double alpha = awe_segment_dforce_dlen(m, w, s) + cu * g / (len * len);
    double grad[3];
    for (int i = 0; i < 3; i++) grad[i] = alpha * u[i] - cu / (len * len) * (dv[i] - g * u[i]);
    double K[3][3];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        K[i][j] = u[i] * grad[j] + fs / len * ((i == j ? 1.0 : 0.0) - u[i] * u[j]);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        if (qa >= 0) J[(qa + i) * n + qa + j] -= K[i][j];
        if (qb >= 0) J[(qb + i) * n + qb + j] -= K[i][j];
        if (qa >= 0 && qb >= 0) {
          J[(qa + i) * n + qb + j] += K[i][j];
          J[(qb + i) * n + qa + j] += K[i][j];
        }
      }
    int p = m->segment_pulley[s];
    int qp = p >= 0 ? w->pulley_qs[p] : -1;
    if (qp < 0) continue;
    /* l0 = l (leg 1) or sum - l (leg 2): dF_s/dl = -+ kappa EA / len */
    double leg = m->segment_pulley_leg[s] == 0 ? 1.0 : -1.0;
    double gl = -leg * awe_segment_kappa(m, w, s) * m->segment_unit_k[s] / len;
    for (int i = 0; i < 3; i++) {
      if (qa >= 0) J[(qa + i) * n + qp] += gl * u[i];
      if (qb >= 0) J[(qb + i) * n + qp] -= gl * u[i];
      /* pulley row R_p = F_s(leg 1) - F_s(leg 2); dF_s/dp_b = grad, dF_s/dp_a = -grad */
      if (qa >= 0) J[qp * n + qa + i] -= leg * grad[i];
      if (qb >= 0) J[qp * n + qb + i] += leg * grad[i];
    }
    J[qp * n + qp] += leg * gl;
  }
}


/* solve J dx = r in place (J overwritten by its LU); -1 if singular */
static int lu_solve(struct awe_qs *q) {
  int n = q->n, sgn, singular = 0;
  gsl_matrix_view Jv = gsl_matrix_view_array(q->J, (size_t)n, (size_t)n);
  gsl_vector_view rv = gsl_vector_view_array(q->r, (size_t)n);
  gsl_vector_view dxv = gsl_vector_view_array(q->dx, (size_t)n);
  if (gsl_linalg_LU_decomp(&Jv.matrix, q->perm, &sgn)) singular = 1;
  /* check the pivots ourselves: LU_solve would call GSL's (process-global) error handler */
  for (int k = 0; k < n && !singular; k++)
    if (!(fabs(q->J[k * n + k]) > 0.0)) singular = 1;
  if (singular || gsl_linalg_LU_solve(&Jv.matrix, q->perm, &rv.vector, &dxv.vector)) return -1;
  return 0;
}


/* Newton from q->x: 0 converged, 1 stuck (no descent), -1 singular, 2 iteration cap */
static int newton(const awe_model *m, awe_work *w, double *res_out) {
  struct awe_qs *q = w->qs;
  int n = q->n;
  double res = residual(m, w, q->x, q->r);
  for (int it = 0; it < QS_MAXITER; it++) {
    *res_out = res;
    if (!isfinite(res)) return 1;
    if (res == 0.0) return 0;
    w->stats.qs_iter++;
    jacobian(m, w, q->J);
    if (lu_solve(q)) return -1;
    /* dx solves J dx = R; the Newton step is -dx. Backtracking (Armijo on |R|_2, halving
     * up to 30 times): a slack line makes the stiffness jump, and a full step can overshoot */
    double xmax = 0.0, dmax = 0.0, lambda = 1.0, res_new = res;
    int ok = 0;
    memcpy(q->x0, q->x, sizeof(double) * (size_t)n);
    for (int ls = 0; ls < 30 && !ok; ls++) {
      for (int k = 0; k < n; k++) q->x[k] = q->x0[k] - lambda * q->dx[k];
      res_new = residual(m, w, q->x, q->r);
      if (res_new <= (1.0 - 1e-4 * lambda) * res) ok = 1;
      else lambda *= 0.5;
    }
    for (int k = 0; k < n; k++) {
      if (fabs(q->x0[k]) > xmax) xmax = fabs(q->x0[k]);
      if (fabs(q->dx[k]) > dmax) dmax = fabs(q->dx[k]);
    }
    if (!ok) {
      /* no descent: at the noise level of a converged solution, or stuck */
      memcpy(q->x, q->x0, sizeof(double) * (size_t)n);
      *res_out = residual(m, w, q->x, q->r);
      return dmax <= 1e3 * QS_XTOL * (1.0 + xmax) ? 0 : 1;
    }
    res = res_new;
    *res_out = res;
    if (lambda * dmax <= QS_XTOL * (1.0 + xmax) && isfinite(res)) return 0;
  }
  return 2;
}


/* Pseudo-transient continuation when Newton is stuck (a poor start: slack lines, a local
 * minimum of |R|): (sigma I - J) dx = R, x += dx, sigma from 1e-2 max|J_ii| following the
 * residual (switched evolution relaxation, Kelley & Keyes 1998). Leaves the best x found. */
static void ptc(const awe_model *m, awe_work *w) {
  struct awe_qs *q = w->qs;
  int n = q->n, stall = 0;
  double res = residual(m, w, q->x, q->r), best = res, sigma = -1.0;
  memcpy(q->xbest, q->x, sizeof(double) * (size_t)n);
  for (int it = 0; it < 300 && stall < 30 && isfinite(res) && res > 0.0; it++) {
    w->stats.qs_iter++;
    jacobian(m, w, q->J);
    if (sigma < 0.0) {
      double dmax = 0.0;
      for (int k = 0; k < n; k++) dmax = fabs(q->J[k * n + k]) > dmax ? fabs(q->J[k * n + k]) : dmax;
      sigma = 1e-2 * dmax;
    }
    for (int k = 0; k < n * n; k++) q->J[k] = -q->J[k];
    for (int k = 0; k < n; k++) q->J[k * n + k] += sigma;
    memcpy(q->x0, q->x, sizeof(double) * (size_t)n);
    double rn = NAN;
    if (!lu_solve(q)) {
      for (int k = 0; k < n; k++) q->x[k] = q->x0[k] + q->dx[k];
      rn = residual(m, w, q->x, q->r);
    }
    if (isfinite(rn) && rn < 1e3 * res) {
      if (rn < 0.999 * best) {
        best = rn;
        memcpy(q->xbest, q->x, sizeof(double) * (size_t)n);
        stall = 0;
      } else {
        stall++;
      }
      sigma *= rn < res ? (rn / res < 0.5 ? rn / res : 0.5) : rn / res;
      res = rn;
    } else {
      memcpy(q->x, q->x0, sizeof(double) * (size_t)n);
      res = residual(m, w, q->x, q->r);
      sigma *= 10.0;
      stall++;
    }
  }
  memcpy(q->x, q->xbest, sizeof(double) * (size_t)n);
}


int awe_qs_solve(const awe_model *m, awe_work *w, double t) {
  struct awe_qs *q = w->qs;
  double res = 0.0;
  w->stats.qs_solves++;
  int rc = newton(m, w, &res);
  if (rc == 1 || rc == 2) {
    /* stuck far from a solution: continuation, then Newton again */
    ptc(m, w);
    rc = newton(m, w, &res);
  }
  if (rc == 0) return done(w, res);
  q->res = res;
  return fail(m, w, rc < 0 ? AWE_WARN_QS_SINGULAR : AWE_WARN_QS_NOCONV, t);
}


double awe_qs_residual(const awe_work *w) { return w->qs ? w->qs->res : 0.0; }
