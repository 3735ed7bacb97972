/* h5_util.c: shared HDF5 helpers (h5_util.h). */
#include "output/h5_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


void awe_h5_quiet_on(awe_h5_quiet *q) {
  q->fn = NULL;
  q->data = NULL;
  H5Eget_auto2(H5E_DEFAULT, &q->fn, &q->data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  H5Eclear2(H5E_DEFAULT);
}


void awe_h5_quiet_off(const awe_h5_quiet *q) {
  H5Eclear2(H5E_DEFAULT);
  H5Eset_auto2(H5E_DEFAULT, q->fn, q->data);
}


hid_t awe_h5_str_type(size_t n) {
  hid_t t = H5Tcopy(H5T_C_S1);
  if (t < 0) return t;
  if (H5Tset_size(t, n ? n : 1) < 0 || H5Tset_strpad(t, H5T_STR_NULLPAD) < 0 ||
      H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
    H5Tclose(t);
    return -1;
  }
  return t;
}


int awe_h5_put_attr(hid_t loc, const char *name, hid_t ftype, hid_t mtype, hid_t space,
                    const void *data) {
  htri_t ex = H5Aexists(loc, name);
  if (ex < 0) return -1;
  if (ex > 0 && H5Adelete(loc, name) < 0) return -1;
  hid_t a = H5Acreate2(loc, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0) return -1;
  int rc = H5Awrite(a, mtype, data) < 0 ? -1 : 0;
  if (H5Aclose(a) < 0) rc = -1;
  return rc;
}


int awe_h5_put_str_attr(hid_t loc, const char *name, const char *value) {
  if (!value) value = "";
  size_t n = strlen(value);
  if (n > AWE_H5_ATTR_STR_MAX) n = AWE_H5_ATTR_STR_MAX;
  /* the type is n bytes, NUL-padded: H5Awrite reads n bytes of value (an empty string is its
   * one NUL byte) */
  hid_t t = awe_h5_str_type(n), s = H5Screate(H5S_SCALAR);
  int rc = (t < 0 || s < 0) ? -1 : awe_h5_put_attr(loc, name, t, t, s, value);
  if (t >= 0) H5Tclose(t);
  if (s >= 0) H5Sclose(s);
  return rc;
}


hid_t awe_h5_create_unlocked(const char *path) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
#if H5_VERSION_GE(1, 10, 7)
  if (fapl >= 0) H5Pset_file_locking(fapl, 0, 1);
#endif
  /* the HDF5 1.8 file format: attributes past 64 KiB go to dense storage (the names of more
     than ~2,700 components failed late as "cannot create /points/pos"); read by every HDF5
     since 1.8 (2008): h5py, MATLAB, pandas */
  if (fapl >= 0) H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18);
  /* no time stamps in the root group's header (the 1.8 format's object headers keep them):
     one input, one file, byte for byte, whenever it is written */
  hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
  if (fcpl >= 0) H5Pset_obj_track_times(fcpl, 0);
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, fcpl >= 0 ? fcpl : H5P_DEFAULT,
                      fapl >= 0 ? fapl : H5P_DEFAULT);
  if (fcpl >= 0) H5Pclose(fcpl);
  if (fapl >= 0) H5Pclose(fapl);
  return f;
}


hid_t awe_h5_out_create(awe_out_file *of, const char *path, long long need, awe_h5_quiet *q,
                        awe_err *err) {
  if (awe_out_file_claim(of, path, err)) return -1;
  if (awe_out_file_reserve(of, need) != 0) {
    int e = errno;
    unlink(path);
    awe_out_file_release(of);
    awe_err_set(err, AWE_EIO, "%.300s: %s", path, strerror(e));
    return -1;
  }
  awe_h5_quiet_on(q);
  hid_t f = awe_h5_create_unlocked(path); /* our flock guards the path */
  if (f < 0) {
    awe_h5_quiet_off(q);
    unlink(path);
    awe_out_file_release(of);
    awe_err_set(err, AWE_EIO, "%s: cannot create the HDF5 file", path);
  }
  return f;
}


double *awe_h5_read_doubles(hid_t f, const char *name, hsize_t dims[3], int *rank) {
  return awe_h5_read_doubles_checked(f, "", name, dims, rank, NULL);
}


double *awe_h5_read_doubles_checked(hid_t f, const char *path, const char *name, hsize_t dims[3],
                                    int *rank, awe_err *err) {
  hsize_t d4[4];
  void *buf = NULL;
  size_t n;
  awe_status st = awe_h5_read_num(f, path, name, 1, 3, H5T_NATIVE_DOUBLE, sizeof(double), &buf,
                                  d4, rank, &n, err);
  for (int i = 0; i < 3; i++) dims[i] = d4[i];
  /* an empty dataset reads as 0 rows: a (5, 0) /time is no 5 rows (the callers index rows by
   * dims[0]; the product of dims is always the element count) */
  if (!st && n == 0) dims[0] = 0;
  return st ? NULL : buf;
}
