/* airfoil.c: 2D section coefficients cl, cd, cm as functions of the angle of attack alpha [rad].
 *
 * INVISCID   thin-airfoil theory: cl = 2 pi alpha, cd = cm = 0.
 * POLARS     table (alpha_k, cl_k, cd_k, cm_k), alpha strictly increasing [rad]; linear
 *            interpolation inside, the end rows held constant outside (numpy.interp, as the
 *            Python Vortex-Step-Method: a table's last rows are often a deep-stall fit whose
 *            slope, extrapolated, gives unbounded cl; on the V3 CAD polars at 12.5 deg and
 *            12 deg sideslip it stopped the circulation from converging).
 *            A one-row table is constant. The segment is found from an even-spacing guess
 *            checked against the table (bisection where the guess misses), so any strictly
 *            increasing table works and the result does not depend on the lookup.
 * BREUKELS   Breukels (2011) regression for leading-edge-inflatable kite sections, with
 *            t = tube diameter/chord and k = camber/chord; a = alpha in DEGREES:
 *              S9  = -0.008011 t^2 - 0.000336 t + 0.000992
 *              S10 =  0.013936 t^2 - 0.003838 t - 0.000161
 *              S11 =  0.001243 t^2 - 0.009288 t - 0.002124
 *              S12 =  0.012267 t^2 - 0.002398 t - 0.000274
 *              S13 =  0
 *              S14 = -3.371000 t^2 + 0.858039 t + 0.141600
 *              S15 =  7.201140 t^2 - 0.676007 t + 0.806629
 *              S16 =  0.170454 t^2 - 0.390563 t + 0.101966
 *              l5 = S9 k + S10, l6 = S11 k + S12, l7 = S13 k + S14, l8 = S15 k + S16
 *              cl = l5 a^3 + l6 a^2 + l7 a + l8
 *              cd = [(0.546094 t + 0.022247) k^2 + (-0.071462 t - 0.006527) k
 *                    + (0.002733 t + 0.000686)] a^2
 *                   + (0.123685 t + 0.143755) k + (0.495159 t^2 - 0.105362 t + 0.033468)
 *              cm = [(-0.284793 t - 0.026199) k + (-0.024060 t + 0.000559)] a^2
 *                   + (-1.787703 t + 0.352443) k + (-0.839323 t + 0.137932)
 *            and for |alpha| > 20 deg (pi/9): cl = 2 cos(alpha) sin(alpha)^2,
 *            cd = 2 sin(alpha)^3, cm unchanged.
 *
 * Sources: Breukels, "An engineering methodology for kite design", PhD thesis, TU Delft (2011);
 * VortexStepMethod.jl src/panel.jl compute_lei_coeffs / calculate_cl / calculate_cd_cm
 * (vsm.md §8).
 */
#include "aero/airfoil.h"

#include <math.h>
#include <stddef.h>

static const double PI = 3.14159265358979323846;

/* Breukels (2011) regression, see the file comment. */
static void eval_breukels(double t, double k, double alpha, double *cl, double *cd,
                          double *cm) {
  const double a = alpha*(180.0/PI);
  const double t2 = t*t;
  if (cl) {
    const double s9 = -0.008011*t2 - 0.000336*t + 0.000992;
    const double s10 = 0.013936*t2 - 0.003838*t - 0.000161;
    const double s11 = 0.001243*t2 - 0.009288*t - 0.002124;
    const double s12 = 0.012267*t2 - 0.002398*t - 0.000274;
    const double s13 = 0.0;
    const double s14 = -3.371000*t2 + 0.858039*t + 0.141600;
    const double s15 = 7.201140*t2 - 0.676007*t + 0.806629;
    const double s16 = 0.170454*t2 - 0.390563*t + 0.101966;
    const double l5 = s9*k + s10, l6 = s11*k + s12, l7 = s13*k + s14, l8 = s15*k + s16;
    *cl = ((l5*a + l6)*a + l7)*a + l8;
  }
  if (cd) {
    const double c2 = (0.546094*t + 0.022247)*k*k + (-0.071462*t - 0.006527)*k
                      + (0.002733*t + 0.000686);
    const double c0 = (0.123685*t + 0.143755)*k + (0.495159*t2 - 0.105362*t + 0.033468);
    *cd = c2*a*a + c0;
  }
  if (cm) {
    const double m2 = (-0.284793*t - 0.026199)*k + (-0.024060*t + 0.000559);
    const double m0 = (-1.787703*t + 0.352443)*k + (-0.839323*t + 0.137932);
    *cm = m2*a*a + m0;
  }
  // post-stall flat-plate branch
  if (fabs(alpha) > PI/9.0) {
    const double sa = sin(alpha);
    if (cl) *cl = 2.0*cos(alpha)*sa*sa;
    if (cd) *cd = 2.0*sa*sa*sa;
  }
}


/* Linear interpolation/extrapolation in a strictly increasing table. */
static void eval_polar(const awe_airfoil *a, double alpha, double *cl, double *cd,
                       double *cm) {
  const int n = a->n;
  if (n <= 0 || !a->alpha) {
    if (cl) *cl = 0.0;
    if (cd) *cd = 0.0;
    if (cm) *cm = 0.0;
    return;
  }
  if (n == 1) {
    if (cl) *cl = a->cl ? a->cl[0] : 0.0;
    if (cd) *cd = a->cd ? a->cd[0] : 0.0;
    if (cm) *cm = a->cm ? a->cm[0] : 0.0;
    return;
  }

  // segment k with alpha[k] <= alpha < alpha[k+1], clamped to the end segments (and x to [0, 1])
  int k;
  if (alpha <= a->alpha[0] || isnan(alpha)) {
    k = 0;
  } else if (alpha >= a->alpha[n - 1]) {
    k = n - 2;
  } else {
    // guess from an even spacing and walk a few rows (tables are usually evenly spaced; the
    // VSM calls this in its inner loop), else bisect: both find the same unique segment
    const double span = a->alpha[n - 1] - a->alpha[0];
    k = (int)((alpha - a->alpha[0])/span*(double)(n - 1));
    if (k < 0) k = 0;
    if (k > n - 2) k = n - 2;
    for (int s = 0; s < 2 && k > 0 && a->alpha[k] > alpha; s++) k--;
    for (int s = 0; s < 2 && k < n - 2 && a->alpha[k + 1] <= alpha; s++) k++;
    if (!(a->alpha[k] <= alpha && alpha < a->alpha[k + 1])) {
      int lo = 0, hi = n - 1;
      while (hi - lo > 1) {
        int mid = (lo + hi)/2;
        if (a->alpha[mid] <= alpha) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      k = lo;
    }
  }
  const double x = fmin(1.0, fmax(0.0, (alpha - a->alpha[k])/(a->alpha[k + 1] - a->alpha[k])));
  if (cl) *cl = a->cl ? a->cl[k] + x*(a->cl[k + 1] - a->cl[k]) : 0.0;
  if (cd) *cd = a->cd ? a->cd[k] + x*(a->cd[k + 1] - a->cd[k]) : 0.0;
  if (cm) *cm = a->cm ? a->cm[k] + x*(a->cm[k + 1] - a->cm[k]) : 0.0;
}


void awe_airfoil_eval(const awe_airfoil *a, double alpha, double *cl, double *cd, double *cm) {
  if (!a) {
    if (cl) *cl = 2.0*PI*alpha;
    if (cd) *cd = 0.0;
    if (cm) *cm = 0.0;
    return;
  }
  switch (a->type) {
    case AWE_AIRFOIL_POLARS:
      eval_polar(a, alpha, cl, cd, cm);
      return;
    case AWE_AIRFOIL_BREUKELS:
      eval_breukels(a->t, a->kappa, alpha, cl, cd, cm);
      return;
    case AWE_AIRFOIL_INVISCID:
    default:
      if (cl) *cl = 2.0*PI*alpha;
      if (cd) *cd = 0.0;
      if (cm) *cm = 0.0;
      return;
  }
}
