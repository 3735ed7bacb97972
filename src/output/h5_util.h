/* h5_util.h: the HDF5 helpers awesim's files share. Writers (the log, writer_hdf5.c; the linear
 * models, lin_output.c; the trim, trim_file.c; wind boxes, wind_box_write.c): one string type,
 * one string attribute, one start; readers (log_read.c, sweep_h5.c): one dataset read; all: one
 * way to silence HDF5's own error printing while awesim reports through awe_err.
 */
#ifndef AWE_H5_UTIL_H
#define AWE_H5_UTIL_H

#include <hdf5.h>
#include <stddef.h>

#include "io/h5_read.h"
#include "output/out_file.h"

/* Longest string attribute written [bytes]; longer values are cut (HDF5 keeps attributes in the
 * object header, 64 KiB). */
#define AWE_H5_ATTR_STR_MAX 60000

/* HDF5's automatic error printing, switched off for the duration of one public call. */
typedef struct {
  H5E_auto2_t fn;
  void *data;
} awe_h5_quiet;

void awe_h5_quiet_on(awe_h5_quiet *q);
void awe_h5_quiet_off(const awe_h5_quiet *q);

/* Fixed-length, NUL-padded UTF-8 string type of size n (0 counts as 1); H5Tclose it. -1 on
 * failure. h5py reads it as bytes, MATLAB as char. */
hid_t awe_h5_str_type(size_t n);

/* Create (or replace) attribute name on loc: file type ftype, memory type mtype. 0 or -1. */
int awe_h5_put_attr(hid_t loc, const char *name, hid_t ftype, hid_t mtype, hid_t space,
                    const void *data);

/* Scalar string attribute (NULL = ""), cut at AWE_H5_ATTR_STR_MAX bytes; replaces one of the
 * same name. 0 or -1. */
int awe_h5_put_str_attr(hid_t loc, const char *name, const char *value);

/* Create (or truncate) the HDF5 file at path without HDF5's own file locking (awesim's flock on
 * the path, out_file.h, guards it); the file id, or -1. */
hid_t awe_h5_create_unlocked(const char *path);

/* The start every one-shot writer shares (linear models, trim, wind boxes): claim path
 * (out_file.h), reserve `need` bytes on disk, switch HDF5's error printing off (q) and create
 * the file. The file id, or -1 with err set ("PATH: <errno text>" when the disk has no room,
 * "PATH: cannot create the HDF5 file"), the path removed, the claim released and printing
 * restored. On success the caller closes the file, then awe_h5_quiet_off(q) and
 * awe_out_file_release(of). */
hid_t awe_h5_out_create(awe_out_file *of, const char *path, long long need, awe_h5_quiet *q,
                        awe_err *err);

/* Dataset name of f (a path) as doubles, row-major, when it has rank 1..3: dims[0..2] get its
 * extents (1 beyond its rank), *rank its rank. A malloc'ed buffer (non-NULL also for zero
 * elements) or NULL when absent, of another rank or unreadable; HDF5 converts other numeric
 * types. Read by the log reader (log_read.c) and the sweep's results (sweep_h5.c). */
double *awe_h5_read_doubles(hid_t f, const char *name, hsize_t dims[3], int *rank);

/* The same through the checked reader (io/h5_read.h): numeric class, rank 1..3 and the memory
 * budget are checked before allocating; err (may be NULL) says why NULL came back. An empty
 * dataset (an extent 0) comes back with dims[0] = 0: dims' product is always its count. */
double *awe_h5_read_doubles_checked(hid_t f, const char *path, const char *name, hsize_t dims[3],
                                    int *rank, awe_err *err);

#endif
