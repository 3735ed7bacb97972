/* npz_read.h: one array of a NumPy .npz file (numpy.savez, NPZ.jl's npzwrite): a zip archive
 * of .npy files, each entry stored or deflated (zlib's raw inflate).
 *
 * Zip: the end-of-central-directory record, then the central directory's entry NAME.npy, then
 * its local header and data (PKWARE APPNOTE 4.3; zip64 is refused: no array here nears 4 GB).
 * .npy (NumPy's format.py): "\x93NUMPY", version 1.x (2-byte header length) or 2.x / 3.x
 * (4-byte), a Python dict {'descr': '<f8', 'fortran_order': False, 'shape': (2, 3, 4), }.
 * Accepted types: little-endian float64 and float32 ('<f8', '<f4'), converted to double.
 * Every failure names the file and what is wrong (AWE_EINVAL: truncated archive, missing entry,
 * unsupported compression or type, a shape that does not match the data).
 */
#ifndef AWE_NPZ_READ_H
#define AWE_NPZ_READ_H

#include <stddef.h>

#include "util/status.h"

typedef struct {
  int ndim;             /* 0 ... 8 */
  size_t shape[8];
  int fortran;          /* 1: the first index varies fastest (Julia's and Fortran's order) */
  size_t n;             /* elements */
  double *data;         /* malloc'd, in the file's order */
} awe_npy;

/* Array name ("u" reads entry "u.npy") of the .npz in buf[0 .. size) into a (free with
 * awe_npy_free). *found is 0 when the archive is sound but has no such entry (a is empty,
 * AWE_OK); pass NULL to make a missing entry an error. */
awe_status awe_npz_array(const unsigned char *buf, size_t size, const char *path,
                         const char *name, awe_npy *a, int *found, awe_err *err);

void awe_npy_free(awe_npy *a);

#endif
