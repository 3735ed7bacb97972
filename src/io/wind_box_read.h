/* wind_box_read.h: a wind box from its HDF5 file (layout: output/wind_box_write.h).
 *
 * Checked on reading, each failure naming the file and what is wrong: the file opens (66) and
 * is an HDF5 file with schema awesim-wind-box-1 (65; a truncated file fails here), /u, /v, /w
 * have one shape of at least 2 points per axis (65: a grid of one cell cannot interpolate),
 * spacing finite and > 0, every value finite (65, naming the dataset and the point).
 */
#ifndef AWE_WIND_BOX_READ_H
#define AWE_WIND_BOX_READ_H

#include <hdf5.h>
#include <stdio.h>

#include "turb/wind_box.h"
#include "util/status.h"

/* Read path into b (arrays malloc'd; awe_wind_box_free). A name ending in .bts is read as
 * TurbSim's binary full-field file (wind_box_read.c: its layout, the box's axes, the mean
 * removed), one ending in .npz as AtmosphericModels.jl's field (awe_wind_box_read_npz, the
 * default grid); anything else as awesim's HDF5 box. */
awe_status awe_wind_box_read(const char *path, awe_wind_box *b, awe_err *err);

/* awesim's HDF5 box from an open file f (path names it in messages; the fuzzing harness builds
 * the file in memory). b is empty on failure. */
awe_status awe_wind_box_read_h5file(hid_t f, const char *path, awe_wind_box *b, awe_err *err);

/* TurbSim's .bts from an open stream (path names it in messages; the fuzzing harness reads
 * memory). b is empty on failure. */
awe_status awe_wind_box_read_bts(FILE *f, const char *path, awe_wind_box *b, awe_err *err);

/* The grid of an AtmosphericModels.jl .npz field: its axes are not in the file but rebuilt
 * from the settings (AtmosphericModels' grid_axes): x from 0, y centred on 0, both every
 * grid_step [m]; z from z_min every height_step [m]. NAN: 2 m, 2 m, 0 m. */
typedef struct {
  double grid_step, height_step, z_min;
} awe_npz_grid;

/* An AtmosphericModels.jl wind field (.npz with arrays u, v, w of one 3-D shape, float64 or
 * float32, either order, and param = [alpha, v_wind_gnd]) from buf[0 .. n) into b. The longer
 * of the first two axes becomes x (the package advects along it), the other y; u stays the
 * along-wind component. Periodic along x. Errors (AWE_EINVAL) name the file and the array. */
awe_status awe_wind_box_read_npz(const unsigned char *buf, size_t n, const char *path,
                                 const awe_npz_grid *g, awe_wind_box *b, awe_err *err);

/* awe_wind_box_read with the grid of a .npz (g NULL: the defaults). */
awe_status awe_wind_box_read_grid(const char *path, const awe_npz_grid *g, awe_wind_box *b,
                                  awe_err *err);

void awe_wind_box_free(awe_wind_box *b);

#endif
