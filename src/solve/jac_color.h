/* jac_color.h: column colouring of a sparse Jacobian for finite differences.
 *
 * Columns that share no row get one colour and are perturbed together (Curtis, Powell & Reid,
 * "On the estimation of sparse Jacobian matrices", IMA J. Appl. Math. 13 (1974) 117-119):
 * one Jacobian costs 1 + ncolour evaluations. Greedy, columns by decreasing count (largest
 * first, Coleman & More 1983), each the smallest colour none of its row-sharing columns has.
 * The number of colours is at least the largest row count.
 */
#ifndef AWE_JAC_COLOR_H
#define AWE_JAC_COLOR_H

/* Pattern by columns (column j: rows[col_adr[j] + k], k < col_num[j]). Fills color[n] and
 * returns the number of colours, or -1 when out of memory. */
int awe_color_columns(int n, const int *col_adr, const int *col_num, const int *rows,
                      int *color);

#endif
