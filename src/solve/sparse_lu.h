/* sparse_lu.h: LU factorisation of a sparse n x n matrix with a fixed pattern, for the
 * iteration matrix M = I - c J of an implicit stepper.
 *
 * Why not a band LU: after reverse Cuthill-McKee the V3 kite's Jacobian (272 states) still has
 * bandwidths 189/245, because the wing's reference points and the tether length are columns
 * that nearly every row depends on; moving those 24 columns into a border left bandwidth 43
 * (1.8 M multiply-adds per factorisation). Minimum degree eliminates such columns last:
 * 0.48 M on the block pattern, 0.31 M with position rows reduced to their velocity, less with
 * the fill-free first pass and the zero skipping below (dense: 6.7 M).
 *
 * Setup (once, from the pattern of J):
 *   ordering  first the fill-free pivots: an unknown whose row has a single off-diagonal
 *             entry j (a position, d pos/dt = vel) and whose dependants all depend on j too;
 *             eliminating it changes existing entries only. Then minimum degree on the
 *             symmetrised pattern of the rest (Tinney & Walker 1967, scheme 2; George & Liu,
 *             "The evolution of the minimum degree ordering algorithm", SIAM Review 31 (1989)
 *             1-19)
 *   symbolic  the elimination graph gives, for every pivot k, the later unknowns adj(k)
 *             coupled to it (U's row pattern), and by transposition each row's L pattern;
 *             M's entries are grouped by row. Memory is O(fill), no n x n array
 * Numeric (whenever c or J changes), in the new order, row by row (Doolittle): row i of
 *   M = I - c J scattered into a dense work row w; for the k < i of its L pattern, ascending:
 *   l_ik = w[k] / U(k, k) and w[j] -= l_ik U(k, j) for U's nonzeros of row k (skipped when
 *   l_ik = 0: the symmetric pattern is wider than the numbers, a position row holds one
 *   entry); U's row i is w's nonzeros on adj(i). Each entry gets the updates of right-looking
 *   elimination in the same order. The solves read L and U by rows (gathers: a row's sum stays
 *   in a register; the column form's scattered updates were slower, the numbers the same).
 * Entries of c J below AWE_SLU_DROP in magnitude are taken as zero (M's diagonal is 1 + O(c J):
 * such an entry changes a Newton correction by that fraction of itself). Why: the analytic
 * Jacobian carries slopes that finite differences round to zero (a tether's drag against
 * height through density and wind profile, ~1e-12 of the identity at the step's c), and each
 * filled the factors along its elimination path: the 10-segment tether in wind had 368 + 174
 * nonzeros in L + U per factorisation (199 + 107 without them, 283 + 146 from finite
 * differences), which made trbdf2 with the analytic Jacobian slower than with differences
 * (60 s: 0.0477 s against 0.0405 s now, best of five); the V3 kite 5199 + 2627 -> 4726 + 2398.
 * Pivots stay on the diagonal (the pattern is fixed). I - c J of a damped mechanical system
 * has a dominant diagonal for small c and, once the positions are eliminated, velocity pivots
 * 1 + c d + c^2 k for large c; a pivot below 1e-10 of its row's largest entry is reported
 * (the stepper then fails the step and GSL halves it).
 * Why not SuiteSparse's KLU (bench/bench_lu.c, docs/speed.md): with the pattern fixed
 * (klu_refactor, pivots kept) it took 87 us per factorisation and 6.0 us per solve on the V3
 * against 48 and 3.8 us here (1.5-1.9 and 1.5-2.2 times ours over the V3 and the tethers of
 * 10 and 1000 segments), at the same residual: no pivoting is needed, so the permutations,
 * scaling and the zeros that KLU keeps in its factors are cost only.
 */
#ifndef AWE_SPARSE_LU_H
#define AWE_SPARSE_LU_H

#include <stddef.h>

#define AWE_SLU_DROP 1e-12 /* |c J_ij| taken as zero (see above) */

typedef struct awe_slu awe_slu;

/* Analyse the pattern (columns: column j has rows rows[col_adr[j] + k], k < col_num[j], no
 * repeats; the diagonal is implied). NULL when out of memory. */
awe_slu *awe_slu_alloc(int n, const int *col_adr, const int *col_num, const int *rows);
void awe_slu_free(awe_slu *s);

/* Positions of L + U in the symbolic pattern (fill included, the diagonal once). */
long awe_slu_nnz(const awe_slu *s);

/* Factorise M = I - c J, J given by its values on the pattern: jval[col_adr[j] + k] is
 * J(rows[col_adr[j] + k], j). Returns 0, or -1 on a (near-)zero pivot. */
int awe_slu_factor(awe_slu *s, double c, const double *jval);

/* Nonzeros of L and U (the diagonal once) in the last successful factorisation: the pattern's
 * positions less the entries that came out zero or were dropped. */
long awe_slu_factor_nnz(const awe_slu *s);

/* Solve M x = b in place (b has n entries). Uses the factorisation of the last successful
 * awe_slu_factor. */
void awe_slu_solve(awe_slu *s, double *b);

#endif
