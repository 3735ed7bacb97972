/* wind_box_read.c: a wind box from HDF5 (checks in wind_box_read.h). */
#include "io/wind_box_read.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void awe_wind_box_free(awe_wind_box *b) {
  free(b->u);
  free(b->v);
  free(b->w);
  free(b->uvw);
  b->u = b->v = b->w = b->uvw = NULL;
}


/* double attribute (n values); NAN-filled and -1 when absent */
static int get_attr(hid_t f, const char *name, int n, double *x) {
  for (int i = 0; i < n; i++) x[i] = NAN;
  if (H5Aexists(f, name) <= 0) return -1;
  hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  if (a < 0) return -1;
  hid_t s = H5Aget_space(a);
  hssize_t np = s >= 0 ? H5Sget_simple_extent_npoints(s) : -1;
  int rc = -1;
  if (np == n) rc = H5Aread(a, H5T_NATIVE_DOUBLE, x) < 0 ? -1 : 0;
  if (s >= 0) H5Sclose(s);
  H5Aclose(a);
  return rc;
}


static awe_status read_component(hid_t f, const char *path, const char *name, int n[3],
                                 float **out, awe_err *err) {
  if (H5Lexists(f, name, H5P_DEFAULT) <= 0)
    return awe_err_set(err, AWE_EINVAL, "%s: no dataset /%s (a wind box has /u, /v, /w)", path,
                       name);
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  hid_t s = d >= 0 ? H5Dget_space(d) : -1;
  hsize_t dims[3] = {0, 0, 0};
  int rank = s >= 0 ? H5Sget_simple_extent_ndims(s) : -1;
  if (rank == 3) H5Sget_simple_extent_dims(s, dims, NULL);
  if (s >= 0) H5Sclose(s);
  awe_status st = AWE_OK;
  if (rank != 3) {
    st = awe_err_set(err, AWE_EINVAL, "%s: /%s has %d dimensions, 3 expected (x, y, z)", path,
                     name, rank);
  } else if (n[0] == 0) {
    for (int a = 0; a < 3; a++) n[a] = dims[a] > 1u << 30 ? -1 : (int)dims[a];
  } else if ((int)dims[0] != n[0] || (int)dims[1] != n[1] || (int)dims[2] != n[2]) {
    st = awe_err_set(err, AWE_EINVAL, "%s: /%s is %llu x %llu x %llu, /u is %d x %d x %d", path,
                     name, (unsigned long long)dims[0], (unsigned long long)dims[1],
                     (unsigned long long)dims[2], n[0], n[1], n[2]);
  }
  for (int a = 0; a < 3 && st == AWE_OK; a++)
    if (n[a] < 2)
      st = awe_err_set(err, AWE_EINVAL, "%s: /%s has %d point%s along %c: a box needs at least 2 "
                       "per axis to interpolate", path, name, n[a], n[a] == 1 ? "" : "s",
                       "xyz"[a]);
  if (st == AWE_OK) {
    size_t np = (size_t)n[0] * n[1] * n[2];
    *out = malloc(sizeof(float) * np);
    if (!*out) st = awe_err_set(err, AWE_ENOMEM, "%s: out of memory for /%s", path, name);
    else if (H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, *out) < 0)
      st = awe_err_set(err, AWE_EINVAL, "%s: cannot read /%s (truncated or damaged file)", path,
                       name);
    for (size_t i = 0; i < np && st == AWE_OK; i++)
      if (!isfinite((*out)[i])) {
        size_t l = i % (size_t)n[2], j = i / (size_t)n[2] % (size_t)n[1];
        size_t k = i / ((size_t)n[2] * (size_t)n[1]);
        st = awe_err_set(err, AWE_EINVAL, "%s: /%s[%zu][%zu][%zu] = %g is not finite", path,
                         name, k, j, l, (double)(*out)[i]);
      }
  }
  if (d >= 0) H5Dclose(d);
  return st;
}


awe_status awe_wind_box_read(const char *path, awe_wind_box *b, awe_err *err) {
  memset(b, 0, sizeof(*b));
  FILE *probe = fopen(path, "rb");
  if (!probe) return awe_err_set(err, AWE_ENOFILE, "%s: %s", path, strerror(errno));
  fclose(probe);
  H5E_auto2_t fn;
  void *data;
  H5Eget_auto2(H5E_DEFAULT, &fn, &data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
#if H5_VERSION_GE(1, 10, 7)
  if (fapl >= 0) H5Pset_file_locking(fapl, 0, 1);
#endif
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, fapl >= 0 ? fapl : H5P_DEFAULT);
  if (fapl >= 0) H5Pclose(fapl);
  awe_status st = AWE_OK;
  if (f < 0) {
    st = awe_err_set(err, AWE_EINVAL, "%s: not a readable HDF5 file (truncated or not HDF5)",
                     path);
    goto out;
  }
  st = read_component(f, path, "u", b->n, &b->u, err);
  if (st == AWE_OK) st = read_component(f, path, "v", b->n, &b->v, err);
  if (st == AWE_OK) st = read_component(f, path, "w", b->n, &b->w, err);
  if (st == AWE_OK) {
    if (get_attr(f, "d", 3, b->d) || !(b->d[0] > 0 && b->d[1] > 0 && b->d[2] > 0) ||
        !isfinite(b->d[0] + b->d[1] + b->d[2]))
      st = awe_err_set(err, AWE_EINVAL, "%s: attribute d (grid spacing [m], 3 values > 0) is "
                       "missing or wrong (%g, %g, %g)", path, b->d[0], b->d[1], b->d[2]);
    else if (get_attr(f, "origin", 3, b->x0) || !isfinite(b->x0[0] + b->x0[1] + b->x0[2]))
      st = awe_err_set(err, AWE_EINVAL, "%s: attribute origin (position of point 0 [m], 3 "
                       "values) is missing or not finite", path);
  }
  if (st == AWE_OK) {
    double px, seed;
    get_attr(f, "periodic_x", 1, &px);
    b->periodic_x = px == 1.0;
    get_attr(f, "gamma", 1, &b->gamma);
    get_attr(f, "length", 1, &b->length);
    get_attr(f, "ae", 1, &b->ae);
    get_attr(f, "ti", 1, &b->ti);
    get_attr(f, "v_ref", 1, &b->v_ref);
    get_attr(f, "h_ref", 1, &b->h_ref);
    get_attr(f, "seed", 1, &seed);
    b->seed = seed >= 0 ? (uint64_t)seed : 0;
  }
  H5Fclose(f);
out:
  H5Eset_auto2(H5E_DEFAULT, fn, data);
  if (st != AWE_OK) awe_wind_box_free(b);
  return st;
}
