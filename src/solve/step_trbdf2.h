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

/* Sparsity of df/dy: column j has rows rows[col_adr[j] + k], k < col_num[j] (the diagonal
 * is implied). */
typedef struct {
  int n;
  const int *col_adr, *col_num, *rows;
  unsigned long *njac; /* incremented per Jacobian; may be NULL */
  unsigned long *nfact, *nsolve; /* incremented per factorisation and per solve; may be NULL */
  /* optional analytic columns (jacobian.h): analytic[j] != 0 marks them; jac(jac_ctx, t, y,
   * jval) fills them on the packed pattern (columns in order from 0) before the finite
   * differences of the others; its status is the Jacobian's */
  const unsigned char *analytic;
  int (*jac)(void *jac_ctx, double t, const double *y, double *jval);
  void *jac_ctx;
  /* optional co-rotation (step_trbdf2.c): nframe frames turn 3-vector blocks of the state;
   * frame(frame_ctx, y, R) writes their rotations at y (body -> world, 3x3 row-major each);
   * frame f turns the blocks that start at rot_idx[rot_adr[f] + b], b < rot_num[f]. Newton's
   * solves then use the factorisation of J's state turned by each frame's rotation since */
  int nframe;
  const int *rot_adr, *rot_num, *rot_idx;
  void (*frame)(void *frame_ctx, const double *y, double *R);
  void *frame_ctx;
} awe_jac_pattern;

extern const gsl_odeiv2_step_type *const awe_step_trbdf2;

/* Use pattern p (copied; njac is kept as a pointer) instead of the dense default: colours it
 * (jac_color.h), analyses it for the sparse LU (sparse_lu.h) and forgets the Jacobian. p->n
 * must equal the stepper's dimension. GSL_SUCCESS, GSL_EBADLEN, or GSL_ENOMEM (the previous
 * pattern is kept). Call it before the first step (it allocates). */
int awe_trbdf2_set_pattern(gsl_odeiv2_step *s, const awe_jac_pattern *p);

#endif
