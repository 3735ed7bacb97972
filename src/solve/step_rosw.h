/* step_rosw.h: ROS34PW2, a linearly implicit (Rosenbrock-W) GSL odeiv2 stepper with a sparse
 * Jacobian (method, coefficients and references: step_rosw.c).
 *
 *   gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, awe_step_ros34pw2, h0, at, rt);
 *   awe_rosw_set_pattern(d->s, &pattern);   // optional: without it J is dense
 *
 * Like trbdf2 (step_trbdf2.h) it builds its own J on the pattern (analytic columns from the
 * pattern's callback, the others by coloured differences of sys.function), turns its
 * linear solves with the pattern's frames, and counts Jacobians, factorisations and solves
 * through the pattern's counters. df/dt (scheduled inputs) by a forward difference in t.
 */
#ifndef AWE_STEP_ROSW_H
#define AWE_STEP_ROSW_H

#include <gsl/gsl_odeiv2.h>

#include "solve/step_trbdf2.h" /* awe_jac_pattern */

extern const gsl_odeiv2_step_type *const awe_step_ros34pw2;

/* As awe_trbdf2_set_pattern, for a ros34pw2 stepper. */
int awe_rosw_set_pattern(gsl_odeiv2_step *s, const awe_jac_pattern *p);

/* Tuning knobs for measurements and tests (0: the default): keep J for at most max_age
 * accepted steps (the default keeps it until a step is rejected). */
void awe_rosw_set_max_age(gsl_odeiv2_step *s, int max_age);

/* The method's coefficients in Hairer & Wanner's form (for the order-condition test):
 * alpha[16], gamma[16] (row-major 4 x 4, gamma's diagonal included), b[4], bhat[4]. */
void awe_rosw_tableau(double *alpha, double *gamma, double *b, double *bhat);

#endif
