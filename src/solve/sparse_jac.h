/* sparse_jac.h: the sparse Jacobian the implicit steppers share (step_trbdf2.c, step_rosw.c):
 * an owned copy of the pattern, its column colouring, J on it (analytic columns from the
 * pattern's callback, the others by coloured finite differences of the system function), its
 * sparse LU of I - c J, and the co-rotation of the solves with the pattern's frames
 * (corotate.h; why: step_trbdf2.c, head).
 *
 * Memory is allocated by awe_sjac_set_pattern / awe_sjac_set_dense only; evaluation and
 * solves allocate nothing. The stepper owns when J is renewed and when I - c J is factorised.
 */
#ifndef AWE_SOLVE_SPARSE_JAC_H
#define AWE_SOLVE_SPARSE_JAC_H

#include <gsl/gsl_odeiv2.h>

#include "solve/sparse_lu.h"

/* Sparsity of df/dy: column j has rows rows[col_adr[j] + k], k < col_num[j] (the diagonal
 * is implied). */
typedef struct {
  int n;
  const int *col_adr, *col_num, *rows;
  unsigned long *njac; /* incremented per Jacobian; may be NULL */
  unsigned long *nfact, *nsolve; /* incremented per factorisation and per solve; may be NULL */
  /* the stepper's Newton iterations in its two stages and its failed stages
   * (step_trbdf2.c); may be NULL */
  unsigned long *nnewton_tr, *nnewton_bdf, *nnewton_fail;
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

typedef struct {
  int n;
  /* pattern (owned, columns packed in order: the LU's value array is indexed the same way)
   * and its colouring: colour c has the columns color_cols[color_adr[c] .. color_adr[c+1]) */
  int ncolor, *color_adr, *color_cols, *col_adr, *col_num, *rows;
  unsigned long *njac, *nfact, *nsolve;  /* the pattern's counters (may be NULL) */
  unsigned long *nnewton_tr, *nnewton_bdf, *nnewton_fail;
  int (*jac)(void *, double, const double *, double *); /* analytic columns, or NULL */
  void *jac_ctx;
  awe_slu *lu;
  double *jval;              /* J on the pattern */
  /* co-rotation (the pattern's frames) */
  int nframe, *rot_adr, *rot_num, *rot_idx;
  void (*frame)(void *, const double *, double *);
  void *frame_ctx;
  double *R_j, *R_s, *R_d;   /* [9 nframe] frames at J's state, at the iterate, R_s R_j^T */
  int have_rd;               /* R_d holds a rotation (else identity) */
} awe_sjac;

/* Free the arrays (w itself is the caller's); w is then empty (lu NULL). */
void awe_sjac_free(awe_sjac *w);

/* Copy p into w, colour and analyse it; GSL_EBADLEN when p's size is not n, GSL_ENOMEM when
 * out of memory (w then keeps its previous pattern). */
int awe_sjac_set_pattern(awe_sjac *w, int n, const awe_jac_pattern *p);

/* The dense default (every row depends on every column) for n states. */
int awe_sjac_set_dense(awe_sjac *w, int n);

/* J at (t, y) against fy = f(t, y) (used only when a column is differenced), with yp and f1
 * n-vectors of scratch; the frames at y become J's. The system's status on failure. */
int awe_sjac_eval(awe_sjac *w, const gsl_odeiv2_system *sys, double t, const double *y,
                  const double *fy, double *yp, double *f1);

/* Factorise I - c J (counted); nonzero on a zero pivot. */
int awe_sjac_factor(awe_sjac *w, double c);

/* R_d = R(y) R_j^T: how the frames turned since J's state (no frames: nothing). */
void awe_sjac_turn_at(awe_sjac *w, const double *y);

/* Solve M x = v in place with M = T M_j T^T, M_j factorised at J's state (counted). */
void awe_sjac_solve(const awe_sjac *w, double *v);

#endif
