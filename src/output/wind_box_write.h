/* wind_box_write.h: a wind box (turb/wind_box.h) to an HDF5 file.
 *
 * Layout (schema "awesim-wind-box-1"): datasets /u, /v, /w float32 [n_x][n_y][n_z] (m/s,
 * fluctuations about the mean profile), /x, /y, /z float64 axes (m); root attributes
 * schema, units ("m/s"), axes ("x along the mean wind, y lateral (left), z up"), d [3] (m),
 * origin [3] (m), periodic_x, the spectral parameters model ("mann"), gamma, length (m),
 * ae (alpha eps^(2/3), m^(4/3)/s^2), ti, seed, and the mean profile the box is meant for:
 * v_ref (m/s) at h_ref (m).
 */
#ifndef AWE_WIND_BOX_WRITE_H
#define AWE_WIND_BOX_WRITE_H

#include "turb/wind_box.h"
#include "util/status.h"

awe_status awe_wind_box_write(const char *path, const awe_wind_box *b, const char *cmdline,
                              awe_err *err);

#endif
