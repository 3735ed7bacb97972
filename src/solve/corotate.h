/* corotate.h: the co-rotation of a Newton (or W-) matrix with the particle wings' frames.
 *
 * The forces of a system of points turn with it, f(Q y) = Q f(y), so J(Q y) = Q J(y) Q^T: a
 * matrix M_j factorised at J's state serves a later state whose frames turned by R_d = R R_j^T
 * as M = T M_j T^T, T turning each frame's 3-vector blocks by R_d (docs/speed.md, "Where the
 * V3's time goes"). Used by the implicit steppers trbdf2 and ros34pw2.
 *
 * Frames are row-major 3x3 matrices, 9 doubles each; frame f turns the blocks that start at
 * idx[adr[f] + b], b < num[f].
 */
#ifndef AWE_SOLVE_COROTATE_H
#define AWE_SOLVE_COROTATE_H

/* R_d[f] = R[f] R_j[f]^T for the nframe frames */
void awe_corot_relative(int nframe, const double *R, const double *R_j, double *R_d);

/* v = T v (tr 0) or T^T v (tr 1), T turning each frame's blocks by R_d */
void awe_corot_turn(int nframe, const double *R_d, const int *adr, const int *num,
                    const int *idx, double *v, int tr);

#endif
