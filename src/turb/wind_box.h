/* wind_box.h: a frozen-turbulence box of wind fluctuations on a regular grid and its look-up.
 *
 * Axes: x along the mean wind, y lateral (to its left), z up; point (i, j, l) sits at
 * (x0 + i dx, y0 + j dy, z0 + l dz), u, v, w [m/s] along x, y, z stored at (i n_y + j) n_z + l.
 * The look-up interpolates trilinearly; along x the box repeats (periodic_x, as any FFT box),
 * along y and z a point outside [first, last] point is refused (no clamping).
 */
#ifndef AWE_WIND_BOX_H
#define AWE_WIND_BOX_H

#include <stdint.h>

typedef struct awe_wind_box_s {
  int n[3];                /* points in x, y, z (>= 2 each) */
  double d[3];             /* spacing [m] */
  double x0[3];            /* position of point (0, 0, 0) [m] */
  int periodic_x;          /* 1: u(x + n_x dx) = u(x) */
  float *u, *v, *w;        /* [n_x n_y n_z] */
  float *uvw;              /* [3 n_x n_y n_z] u, v, w of each point together (the look-up's
                            * layout: 8 nodes in 4 cache-line runs), NULL until interleaved */
  /* how it was made (attributes of the file; NAN / 0 when unknown) */
  double gamma, length, ae, ti, v_ref, h_ref;
  uint64_t seed;
} awe_wind_box;

/* Build b->uvw from u, v, w and free those (-1 when out of memory, b unchanged). */
int awe_wind_box_interleave(awe_wind_box *b);

/* The fluctuation at box coordinates (x, y, z) [m] into out [m/s]; 0, or -1 (out untouched)
 * when (y, z), or x of a non-periodic box, is outside the box. */
int awe_wind_box_at(const awe_wind_box *b, double x, double y, double z, double out[3]);

#endif
