/* h5_read.h: the one checked way awesim reads a dataset or attribute of an HDF5 file it did not
 * write itself (logs merged by a sweep, trims, `linearize --along` logs, wind boxes).
 *
 * Nothing in such a file is trusted: class, rank, shape, string kind and byte size are checked
 * against what the caller expects before anything is allocated, and the bytes to allocate
 * against the memory budget (util/mem_budget.h), computed so that no product of extents can
 * wrap. Callers switch HDF5's error printing off around these calls (library code never
 * prints); errors come back through awe_err naming the path and the object.
 */
#ifndef AWE_H5_READ_H
#define AWE_H5_READ_H

#include <hdf5.h>
#include <stddef.h>

#include "util/status.h"

/* Longest string awesim reads from a file [bytes]: a scenario text, a status, a units label. */
#define AWE_H5_STR_READ_MAX (16u << 20)

/* The numeric dataset `name` of loc, read into a malloc'ed buffer of mem_type (native double or
 * float; esize its size): it must exist, be of integer or floating class, have a rank in
 * [rank_min, rank_max] (<= 4), and fit the memory budget. dims[0..3] get its extents (1 beyond
 * the rank), *rank its rank, *n the element count. *out is non-NULL also for zero elements.
 * AWE_EINVAL (wrong class, rank or shape; unreadable data), AWE_ENOMEM (over the budget). */
awe_status awe_h5_read_num(hid_t loc, const char *path, const char *name, int rank_min,
                           int rank_max, hid_t mem_type, size_t esize, void **out,
                           hsize_t dims[4], int *rank, size_t *n, awe_err *err);

/* The string of obj (a dataset when is_attr == 0, else an attribute), fixed or variable length:
 * it must be of string class and hold exactly one element (scalar, or an array of one), of at
 * most max_bytes. A malloc'ed, NUL-terminated copy in *out. what names it in errors. */
awe_status awe_h5_read_str(hid_t obj, int is_attr, size_t max_bytes, const char *path,
                           const char *what, char **out, awe_err *err);

/* The same for a named dataset (is_attr 0) or attribute (is_attr 1) of loc; AWE_ENOFILE when it
 * does not exist (callers that treat it as optional test for that code). */
awe_status awe_h5_read_str_named(hid_t loc, const char *name, int is_attr, size_t max_bytes,
                                 const char *path, char **out, awe_err *err);

/* The element count of a dataset's or attribute's dataspace (a scalar counts 1), -1 when it is
 * not simple or scalar. */
long long awe_h5_npoints(hid_t obj, int is_attr);

#endif
