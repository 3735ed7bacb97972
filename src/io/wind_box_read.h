/* wind_box_read.h: a wind box from its HDF5 file (layout: output/wind_box_write.h).
 *
 * Checked on reading, each failure naming the file and what is wrong: the file opens (66) and
 * is an HDF5 file with schema awesim-wind-box-1 (65; a truncated file fails here), /u, /v, /w
 * have one shape of at least 2 points per axis (65: a grid of one cell cannot interpolate),
 * spacing finite and > 0, every value finite (65, naming the dataset and the point).
 */
#ifndef AWE_WIND_BOX_READ_H
#define AWE_WIND_BOX_READ_H

#include <stdio.h>

#include "turb/wind_box.h"
#include "util/status.h"

/* Read path into b (arrays malloc'd; awe_wind_box_free). A name ending in .bts is read as
 * TurbSim's binary full-field file (wind_box_read.c: its layout, the box's axes, the mean
 * removed); anything else as awesim's HDF5 box. */
awe_status awe_wind_box_read(const char *path, awe_wind_box *b, awe_err *err);

/* TurbSim's .bts from an open stream (path names it in messages; the fuzzing harness reads
 * memory). b is empty on failure. */
awe_status awe_wind_box_read_bts(FILE *f, const char *path, awe_wind_box *b, awe_err *err);

void awe_wind_box_free(awe_wind_box *b);

#endif
