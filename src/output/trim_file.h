/* trim_file.h: an operating point (the trim, solve/trim.h) as an HDF5 file that linearize and
 * step-response start from (--from).
 *
 * Layout (schema "awesim-trim-1"): /x [nx] the full state (quaternions as 4 components),
 * /x_names its scalar names (registry.h: "points.kcu.pos.x", "wings.kite.Q.w"), /u [nu] the
 * inputs with the controllers' outputs and the scheduled inputs at t = 0 folded in, /u_names;
 * root attributes residual_rel, residual_force [N], force_ref [N], scenario (the text).
 * Reading checks every state and input name against the model, in order: a file of another
 * model is refused with the first name that differs.
 */
#ifndef AWE_TRIM_FILE_H
#define AWE_TRIM_FILE_H

#include <hdf5.h>

#include "model/model.h"
#include "util/status.h"

awe_status awe_trim_write_h5(const char *path, const awe_model *m, const double *x,
                             const double *u, double rel, double force, double force_ref,
                             const char *scenario, awe_err *err);

/* x [state size], u [input size] from path. AWE_ENOFILE when it cannot be opened, AWE_EIO
 * when it cannot be read, AWE_EINVAL when it is not a trim file of m. */
awe_status awe_trim_read_h5(const char *path, const awe_model *m, double *x, double *u,
                            awe_err *err);
/* The same from an open file f (path names it in messages). */
awe_status awe_trim_read_file(hid_t f, const char *path, const awe_model *m, double *x,
                              double *u, awe_err *err);

#endif
