/* step_trbdf2.h: TR-BDF2, an L-stable one-step implicit GSL odeiv2 stepper with a sparse
 * Jacobian (method and references: step_trbdf2.c).
 *
 *   gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, awe_step_trbdf2, h0, atol, rtol);
 *   awe_trbdf2_set_pattern(d->s, &pattern);   // optional: without it J is dense
 *
 * The stepper evaluates its own Jacobian by coloured finite differences of sys.function on
 * the pattern (sys.jacobian is not used), the pattern's analytic columns from its callback,
 * and keeps it across steps while Newton converges.
 */
#ifndef AWE_STEP_TRBDF2_H
#define AWE_STEP_TRBDF2_H

#include <gsl/gsl_odeiv2.h>

#include "solve/sparse_jac.h" /* awe_jac_pattern */


extern const gsl_odeiv2_step_type *const awe_step_trbdf2;

/* Use pattern p (copied; njac is kept as a pointer) instead of the dense default: colours it
 * (jac_color.h), analyses it for the sparse LU (sparse_lu.h) and forgets the Jacobian. p->n
 * must equal the stepper's dimension. GSL_SUCCESS, GSL_EBADLEN, or GSL_ENOMEM (the previous
 * pattern is kept). Call it before the first step (it allocates). */
int awe_trbdf2_set_pattern(gsl_odeiv2_step *s, const awe_jac_pattern *p);

#endif
