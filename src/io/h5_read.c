/* h5_read.c: checked reads of HDF5 objects from untrusted files (h5_read.h). */
#include "io/h5_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem_budget.h"

long long awe_h5_npoints(hid_t obj, int is_attr) {
  hid_t s = is_attr ? H5Aget_space(obj) : H5Dget_space(obj);
  if (s < 0) return -1;
  long long n = -1;
  H5S_class_t c = H5Sget_simple_extent_type(s);
  if (c == H5S_SCALAR) n = 1;
  else if (c == H5S_SIMPLE) n = (long long)H5Sget_simple_extent_npoints(s);
  else if (c == H5S_NULL) n = 0;
  H5Sclose(s);
  return n;
}


/* H5Dread with a conversion buffer no larger than the data: HDF5's default is a zeroed 1 MiB
 * per read that converts (float32 or big-endian files), most of a small read's cost */
static herr_t read_converted(hid_t d, hid_t mem_type, hid_t file_type, size_t n, size_t esize,
                             void *out) {
  size_t fsize = file_type >= 0 ? H5Tget_size(file_type) : 0;
  size_t el = fsize > esize ? fsize : esize;
  size_t buf = n < ((size_t)1 << 20) / (el ? el : 1) ? n * el : (size_t)1 << 20;
  if (buf < 64) buf = 64;
  hid_t dx = H5Pcreate(H5P_DATASET_XFER);
  if (dx < 0) return -1;
  herr_t rc = H5Pset_buffer(dx, buf, NULL, NULL);
  if (rc >= 0) rc = H5Dread(d, mem_type, H5S_ALL, H5S_ALL, dx, out);
  H5Pclose(dx);
  return rc;
}

awe_status awe_h5_read_num(hid_t loc, const char *path, const char *name, int rank_min,
                           int rank_max, hid_t mem_type, size_t esize, void **out,
                           hsize_t dims[4], int *rank, size_t *n, awe_err *err) {
  *out = NULL;
  *rank = 0;
  *n = 0;
  for (int i = 0; i < 4; i++) dims[i] = 1;
  if (H5Lexists(loc, name, H5P_DEFAULT) <= 0)
    return awe_err_set(err, AWE_EINVAL, "%s: no dataset /%s", path, name);
  hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
  if (d < 0) return awe_err_set(err, AWE_EINVAL, "%s: /%s is not a dataset", path, name);
  awe_status st = AWE_OK;
  hid_t t = H5Dget_type(d), s = H5Dget_space(d);
  H5T_class_t cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
  int r = s >= 0 ? H5Sget_simple_extent_ndims(s) : -1;
  if (cls != H5T_FLOAT && cls != H5T_INTEGER) {
    st = awe_err_set(err, AWE_EINVAL, "%s: /%s does not hold numbers", path, name);
  } else if (r < rank_min || r > rank_max || r > 4) {
    st = awe_err_set(err, AWE_EINVAL, "%s: /%s has %d dimensions, %d to %d expected", path, name,
                     r, rank_min, rank_max);
  } else if (r > 0 && H5Sget_simple_extent_dims(s, dims, NULL) != r) {
    st = awe_err_set(err, AWE_EINVAL, "%s: /%s: unreadable shape", path, name);
  } else {
    /* in doubles: a product of four 64-bit extents cannot wrap there */
    double cnt = 1.0;
    for (int i = 0; i < r; i++) cnt *= (double)dims[i];
    char what[300];
    snprintf(what, sizeof(what), "%s: /%s (%.0f values)", path, name, cnt);
    st = awe_mem_check(cnt * (double)esize, what, err);
    if (!st) {
      *n = (size_t)cnt;
      *out = malloc(*n ? *n * esize : 1);
      if (!*out) st = awe_err_set(err, AWE_ENOMEM, "%s: out of memory for /%s", path, name);
      else if (*n && read_converted(d, mem_type, t, *n, esize, *out) < 0)
        st = awe_err_set(err, AWE_EINVAL, "%s: cannot read /%s (truncated or damaged file)", path,
                         name);
    }
  }
  *rank = r;
  if (st) {
    free(*out);
    *out = NULL;
    *n = 0;
  }
  if (t >= 0) H5Tclose(t);
  if (s >= 0) H5Sclose(s);
  H5Dclose(d);
  return st;
}


awe_status awe_h5_read_str(hid_t obj, int is_attr, size_t max_bytes, const char *path,
                           const char *what, char **out, awe_err *err) {
  *out = NULL;
  hid_t t = is_attr ? H5Aget_type(obj) : H5Dget_type(obj);
  if (t < 0) return awe_err_set(err, AWE_EINVAL, "%s: %s: unreadable type", path, what);
  awe_status st = AWE_OK;
  long long np = awe_h5_npoints(obj, is_attr);
  if (H5Tget_class(t) != H5T_STRING) {
    st = awe_err_set(err, AWE_EINVAL, "%s: %s is not a string", path, what);
  } else if (np != 1) {
    /* an array of strings read into one string's buffer overflowed it */
    st = awe_err_set(err, AWE_EINVAL, "%s: %s holds %lld strings, one expected", path, what, np);
  } else if (H5Tis_variable_str(t) > 0) {
    char *v = NULL;
    hid_t mt = H5Tcopy(H5T_C_S1);
    H5Tset_size(mt, H5T_VARIABLE);
    H5Tset_cset(mt, H5Tget_cset(t)); /* HDF5 converts no string between ASCII and UTF-8 */
    herr_t rc = is_attr ? H5Aread(obj, mt, &v) : H5Dread(obj, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                                         &v);
    if (rc < 0) {
      st = awe_err_set(err, AWE_EINVAL, "%s: cannot read %s", path, what);
    } else {
      size_t len = v ? strnlen(v, max_bytes + 1) : 0;
      if (len > max_bytes)
        st = awe_err_set(err, AWE_EINVAL, "%s: %s is longer than %zu bytes", path, what,
                         max_bytes);
      else if (!(*out = malloc(len + 1)))
        st = awe_err_set(err, AWE_ENOMEM, "out of memory");
      else {
        if (len) memcpy(*out, v, len);
        (*out)[len] = 0;
      }
    }
    if (v) H5free_memory(v);
    H5Tclose(mt);
  } else {
    size_t sz = H5Tget_size(t);
    if (sz == 0 || sz > max_bytes) {
      st = awe_err_set(err, AWE_EINVAL, "%s: %s is %zu bytes long, at most %zu read", path, what,
                       sz, max_bytes);
    } else if (!(*out = calloc(sz + 1, 1))) {
      st = awe_err_set(err, AWE_ENOMEM, "out of memory");
    } else if ((is_attr ? H5Aread(obj, t, *out)
                        : H5Dread(obj, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, *out)) < 0) {
      st = awe_err_set(err, AWE_EINVAL, "%s: cannot read %s", path, what);
    }
  }
  if (st) {
    free(*out);
    *out = NULL;
  }
  H5Tclose(t);
  return st;
}


awe_status awe_h5_read_str_named(hid_t loc, const char *name, int is_attr, size_t max_bytes,
                                 const char *path, char **out, awe_err *err) {
  *out = NULL;
  char what[300];
  snprintf(what, sizeof(what), is_attr ? "attribute '%s'" : "/%s", name);
  if (is_attr ? H5Aexists(loc, name) <= 0 : H5Lexists(loc, name, H5P_DEFAULT) <= 0)
    return awe_err_set(err, AWE_ENOFILE, "%s: no %s", path, what);
  hid_t o = is_attr ? H5Aopen(loc, name, H5P_DEFAULT) : H5Dopen2(loc, name, H5P_DEFAULT);
  if (o < 0) return awe_err_set(err, AWE_EINVAL, "%s: %s cannot be opened", path, what);
  awe_status st = awe_h5_read_str(o, is_attr, max_bytes, path, what, out, err);
  if (is_attr) H5Aclose(o);
  else H5Dclose(o);
  return st;
}
