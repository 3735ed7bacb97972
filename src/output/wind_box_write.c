/* wind_box_write.c: a wind box to HDF5 (layout in wind_box_write.h). */
#include "output/wind_box_write.h"

#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

#include "output/h5_util.h"
#include "output/out_file.h"


static int put_doubles_attr(hid_t loc, const char *name, int n, const double *x) {
  hsize_t dim = (hsize_t)n;
  hid_t s = n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &dim, NULL);
  if (s < 0) return -1;
  int rc = awe_h5_put_attr(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, s, x);
  H5Sclose(s);
  return rc;
}


static int put_u64_attr(hid_t loc, const char *name, unsigned long long x) {
  hid_t s = H5Screate(H5S_SCALAR);
  if (s < 0) return -1;
  int rc = awe_h5_put_attr(loc, name, H5T_STD_U64LE, H5T_NATIVE_ULLONG, s, &x);
  H5Sclose(s);
  return rc;
}


static int put_dataset(hid_t f, const char *name, int rank, const hsize_t *dims, hid_t ftype,
                       hid_t mtype, const void *data, const char *units) {
  hid_t s = H5Screate_simple(rank, dims, NULL);
  if (s < 0) return -1;
  /* no modification times: one seed gives one file, byte for byte */
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  if (dcpl >= 0) H5Pset_obj_track_times(dcpl, 0);
  hid_t d = H5Dcreate2(f, name, ftype, s, H5P_DEFAULT, dcpl >= 0 ? dcpl : H5P_DEFAULT,
                       H5P_DEFAULT);
  if (dcpl >= 0) H5Pclose(dcpl);
  int rc = d < 0 ? -1 : 0;
  if (d >= 0 && H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) rc = -1;
  if (d >= 0 && units && awe_h5_put_str_attr(d, "units", units)) rc = -1;
  if (d >= 0 && H5Dclose(d) < 0) rc = -1;
  H5Sclose(s);
  return rc;
}


awe_status awe_wind_box_write(const char *path, const awe_wind_box *b, const char *cmdline,
                              awe_err *err) {
  size_t n = (size_t)b->n[0] * b->n[1] * b->n[2];
  awe_out_file of;
  awe_h5_quiet q;
  hid_t f = awe_h5_out_create(&of, path, (long long)(12 * n + 65536), &q, err);
  if (f < 0) return AWE_EIO;
  int rc = 0;
  rc |= awe_h5_put_str_attr(f, "awesim_version", AWE_VERSION);
  rc |= awe_h5_put_str_attr(f, "schema", "awesim-wind-box-1");
  rc |= awe_h5_put_str_attr(f, "command_line", cmdline ? cmdline : "");
  rc |= awe_h5_put_str_attr(f, "units", "m/s");
  rc |= awe_h5_put_str_attr(f, "axes", "x along the mean wind, y lateral (left), z up");
  rc |= awe_h5_put_str_attr(f, "model", "mann");
  rc |= put_doubles_attr(f, "d", 3, b->d);
  rc |= put_doubles_attr(f, "origin", 3, b->x0);
  double px = b->periodic_x;
  rc |= put_doubles_attr(f, "periodic_x", 1, &px);
  rc |= put_doubles_attr(f, "gamma", 1, &b->gamma);
  rc |= put_doubles_attr(f, "length", 1, &b->length);
  rc |= put_doubles_attr(f, "ae", 1, &b->ae);
  rc |= put_doubles_attr(f, "ti", 1, &b->ti);
  rc |= put_doubles_attr(f, "v_ref", 1, &b->v_ref);
  rc |= put_doubles_attr(f, "h_ref", 1, &b->h_ref);
  rc |= put_u64_attr(f, "seed", (unsigned long long)b->seed);
  hsize_t dims[3] = {(hsize_t)b->n[0], (hsize_t)b->n[1], (hsize_t)b->n[2]};
  rc |= put_dataset(f, "u", 3, dims, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, b->u, "m/s");
  rc |= put_dataset(f, "v", 3, dims, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, b->v, "m/s");
  rc |= put_dataset(f, "w", 3, dims, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, b->w, "m/s");
  static const char *const ax[3] = {"x", "y", "z"};
  for (int a = 0; a < 3 && !rc; a++) {
    double *x = malloc(sizeof(double) * (size_t)b->n[a]);
    if (!x) {
      rc = -1;
      break;
    }
    for (int i = 0; i < b->n[a]; i++) x[i] = b->x0[a] + i * b->d[a];
    hsize_t na = (hsize_t)b->n[a];
    rc |= put_dataset(f, ax[a], 1, &na, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, x, "m");
    free(x);
  }
  if (H5Fclose(f) < 0) rc = -1;
  awe_h5_quiet_off(&q);
  awe_out_file_release(&of);
  if (rc) return awe_err_set(err, AWE_EIO, "%s: cannot write the wind box", path);
  return AWE_OK;
}
