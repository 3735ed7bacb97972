/* modal.h: eigen-analysis of a linear state matrix A (modes of a linearized model).
 *
 * Eigenvalues and right eigenvectors by GSL's gsl_eigen_nonsymmv (Francis QR after balancing).
 * One mode per real eigenvalue and per complex-conjugate pair (the member with Im > 0):
 *   natural frequency  f_n  = |lambda| / (2 pi)                      [Hz]
 *   damping ratio      zeta = -Re(lambda) / |lambda|                 [-] (NAN for lambda = 0)
 *   time constant      tau  = -1 / Re(lambda)                        [s] (INFINITY for Re = 0;
 *                      negative for an unstable mode: its e-folding growth time)
 * Participation (Perez-Arriaga, Verghese & Schweppe 1982): with right eigenvectors V and left
 * eigenvectors W^H = V^-1, the share of state k in mode i is
 *   p_ki = |V_ki (V^-1)_ik| / sum_k |V_ki (V^-1)_ik|
 * which does not depend on the units of the states. When V is (nearly) singular, as with the
 * Jordan block of a free rigid-body motion (pos' = vel, vel' = 0), the left eigenvector of each
 * mode is taken from A^T (the eigenvector of the closest eigenvalue, w^T A = lambda w^T) and
 * p_ki = |V_ki w_k| / sum_k |V_ki w_k|; for a defective eigenvalue (w^T v = 0, no dual exists)
 * the share falls back to |V_ki|^2 / sum_k |V_ki|^2.
 * Modes are sorted by natural frequency, then by real part.
 */
#ifndef AWE_MODAL_H
#define AWE_MODAL_H

#include "util/status.h"

#define AWE_MODE_TOP 3

typedef struct {
  double re, im;      /* eigenvalue [1/s] (im >= 0) */
  int pair;           /* 1: a complex-conjugate pair, 0: a real eigenvalue */
  double freq;        /* natural frequency [Hz] */
  double zeta;        /* damping ratio [-] */
  double tau;         /* time constant [s] */
  int top[AWE_MODE_TOP];      /* states with the largest share, -1 when fewer states */
  double share[AWE_MODE_TOP]; /* their shares [0..1] */
  int fallback;       /* 1: shares from |V|^2 (defective eigenvalue), 0: participation */
} awe_mode;

/* Modes of the n x n row-major matrix A (not modified). *modes is malloc'ed (free it);
 * *nmodes <= n. n = 0 gives no modes. AWE_ENOCONV when the QR iteration fails, AWE_EINVAL for
 * a non-finite A. */
awe_status awe_modal(const double *A, int n, awe_mode **modes, int *nmodes, awe_err *err);

#endif
