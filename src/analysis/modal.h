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
 *
 * Classes (awe_modal_classify). A model with a free rigid-body motion or an integrator (a
 * braked winch's length, a free position and its velocity) has zero eigenvalues, which the
 * central differences of A move off zero: a double zero (pos' = vel, vel' = 0) splits into
 * +-sqrt(e) for an error e of A's entry, e.g. a 3.6 uHz "oscillation" (|lambda| = 2.2e-5 1/s)
 * in lin_spring_mass, whose largest |lambda| is 31.6 1/s. So
 *   zero      |lambda| <= min(zero_rel max|lambda|, AWE_MODE_ZERO_ABS)
 *             zero_rel default AWE_MODE_ZERO_REL = 1e-5, about the square root of the relative
 *             error of central differences (~1e-10); the absolute cap of 1e-3 1/s (a time
 *             scale of 1000 s) keeps a stiff model's slow modes: tether400's largest |lambda|
 *             is 5.6e7 1/s, its pendulum 0.31 1/s. Printed without frequency, damping ratio
 *             or time constant (freq 0, zeta and tau NAN); re and im stay as computed.
 *   undamped  |zeta| <= AWE_MODE_UNDAMPED_ZETA (1e-5): a real part within the differences' noise
 *             (tether400's undamped tether modes: |Re| up to 2.2e-5 1/s at 2335 1/s)
 *   stable    Re < 0,   unstable  Re > 0 (otherwise).
 *
 * Cost: dense QR with eigenvectors, about 10 n^3 flop, plus the inverse of V; measured
 * AWE_MODAL_SEC_PER_N3 s per n^3 (2402 states: 145 s on a 2-core machine shared with other
 * work). awe_modal_guarded runs it in a child process (util/offload.h) that a guard trip
 * (signal, run.max_wall_time) kills within AWE_OFFLOAD_POLL_MS.
 */
#ifndef AWE_MODAL_H
#define AWE_MODAL_H

#include "solve/guard.h"
#include "util/status.h"

#define AWE_MODE_TOP 3
#define AWE_MODE_ZERO_REL 1e-5      /* zero: |lambda| <= this x max|lambda| ... */
#define AWE_MODE_ZERO_ABS 1e-3      /* ... and <= this [1/s] */
#define AWE_MODE_UNDAMPED_ZETA 1e-5 /* undamped: |zeta| <= this */
#define AWE_MODAL_SEC_PER_N3 1.0e-8 /* measured cost of awe_modal [s] / n^3 */

typedef enum {
  AWE_MODE_STABLE = 0,
  AWE_MODE_UNSTABLE,
  AWE_MODE_UNDAMPED,
  AWE_MODE_ZERO
} awe_mode_class;

typedef struct {
  double re, im;      /* eigenvalue [1/s] (im >= 0) */
  int pair;           /* 1: a complex-conjugate pair, 0: a real eigenvalue */
  double freq;        /* natural frequency [Hz] */
  double zeta;        /* damping ratio [-] */
  double tau;         /* time constant [s] */
  int top[AWE_MODE_TOP];      /* states with the largest share, -1 when fewer states */
  double share[AWE_MODE_TOP]; /* their shares [0..1] */
  int fallback;       /* 1: shares from |V|^2 (defective eigenvalue), 0: participation */
  awe_mode_class cls; /* see above */
} awe_mode;

/* "stable", "unstable", "undamped", "zero" */
const char *awe_mode_class_name(awe_mode_class c);

/* Classify modes md[0..nm-1] (see above) with zero_rel (<= 0: AWE_MODE_ZERO_REL); a zero mode
 * gets freq 0, zeta and tau NAN. */
void awe_modal_classify(awe_mode *md, int nm, double zero_rel);

/* Modes of the n x n row-major matrix A (not modified). *modes is malloc'ed (free it);
 * *nmodes <= n. n = 0 gives no modes. AWE_ENOCONV when the QR iteration fails, AWE_EINVAL for
 * a non-finite A. */
awe_status awe_modal(const double *A, int n, awe_mode **modes, int *nmodes, awe_err *err);

/* awe_modal classified with zero_rel, run in a child process that a trip of g (a signal,
 * run.max_wall_time; polled every AWE_OFFLOAD_POLL_MS with g->phase as set by the caller) ends
 * at once: then the guard's error (AWE_EINTR for a signal) and no modes. g NULL: in this
 * process. */
awe_status awe_modal_guarded(const double *A, int n, double zero_rel, awe_guard *g,
                             awe_mode **modes, int *nmodes, awe_err *err);

/* Estimated wall time of awe_modal for n states [s] (AWE_MODAL_SEC_PER_N3 n^3). */
double awe_modal_cost(int n);

#endif
