/* log_read.c: a simulate log's scenario, times and output channels (log_read.h). The layout
 * (writer_hdf5.c): /time [T]; /GROUP/VAR, one dataset per run of consecutive registry entries
 * with equal (group, var): [T,N] for dim 1, [T,N,3] for dim 3; a group-level variable [T] or
 * [T,dim]; attr units. Read-only; HDF5's error printing is off (library code never prints). */
#include "output/log_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/h5_util.h"
#include "util/mem_budget.h"

static char *units_of(hid_t f, const char *name) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return NULL;
  char *u = NULL;
  awe_h5_read_str_named(d, "units", 1, 256, "", &u, NULL); /* absent or not one string: no unit */
  H5Dclose(d);
  return u;
}


void awe_log_data_free(awe_log_data *d) {
  if (!d) return;
  free(d->scenario);
  free(d->status);
  free(d->t);
  free(d->Y);
  memset(d, 0, sizeof(*d));
}


awe_status awe_log_read(const char *path, const awe_varlist *yl, const awe_lin_chan *yc, int ny,
                        awe_log_data *out, awe_err *err) {
  memset(out, 0, sizeof(*out));
  awe_h5_quiet q;
  awe_h5_quiet_on(&q);
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    awe_h5_quiet_off(&q);
    return awe_err_set(err, AWE_ENOFILE, "%s: cannot open it as an HDF5 file", path);
  }
  awe_status st = awe_log_read_file(f, path, yl, yc, ny, out, err);
  H5Fclose(f);
  awe_h5_quiet_off(&q);
  return st;
}


awe_status awe_log_read_file(hid_t f, const char *path, const awe_varlist *yl,
                             const awe_lin_chan *yc, int ny, awe_log_data *out, awe_err *err) {
  memset(out, 0, sizeof(*out));
  awe_status st = AWE_OK;
  hsize_t dims[3];
  int rank;
  if (H5Lexists(f, "time", H5P_DEFAULT) <= 0) {
    st = awe_err_set(err, AWE_EPARSE, "%s: no /time: not a log of awesim simulate", path);
    goto done;
  }
  {
    hsize_t d4[4];
    size_t nt;
    void *tb = NULL;
    st = awe_h5_read_num(f, path, "time", 1, 3, H5T_NATIVE_DOUBLE, sizeof(double), &tb, d4, &rank,
                         &nt, err);
    out->t = tb;
    dims[0] = d4[0];
    if (st) goto done;
  }
  if (rank != 1) {
    st = awe_err_set(err, AWE_EPARSE, "%s: /time has %d dimensions, 1 expected", path, rank);
    goto done;
  }
  out->T = (long)dims[0];
  out->ny = ny;
  st = awe_h5_read_str_named(f, "scenario", 0, AWE_H5_STR_READ_MAX, path, &out->scenario, err);
  if (st == AWE_ENOFILE) st = AWE_OK; /* optional */
  if (!st) st = awe_h5_read_str_named(f, "status", 1, 4096, path, &out->status, err);
  if (st == AWE_ENOFILE) st = AWE_OK;
  if (!st) st = awe_mem_check(8.0 * (double)out->T * (double)(ny > 0 ? ny : 1), path, err);
  if (st) goto done;
  out->Y = malloc(sizeof(double) * ((size_t)out->T * (size_t)ny + 1));
  if (!out->Y) {
    st = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto done;
  }
  for (size_t i = 0; i < (size_t)out->T * (size_t)ny; i++) out->Y[i] = NAN;
  for (int j = 0; j < ny; j++) {
    int vi = yc[j].var, k = yc[j].k;
    const awe_var *v = &yl->v[vi];
    if (v->dim != 1 && v->dim != 3) continue; /* orientations: not compared */
    int s0 = vi; /* the start of its run of equal (group, var) */
    while (s0 > 0 && !strcmp(yl->v[s0 - 1].group, v->group) && !strcmp(yl->v[s0 - 1].var, v->var))
      s0--;
    char name[512];
    snprintf(name, sizeof(name), "%s/%s", v->group, v->var);
    if (H5Lexists(f, v->group, H5P_DEFAULT) <= 0) continue;
    double *buf = awe_h5_read_doubles(f, name, dims, &rank);
    if (!buf) continue;
    char *u = units_of(f, name);
    int unit_ok = u && !strcmp(u, v->unit);
    free(u);
    long col = -1, ncol = 1;
    if (!*v->comp) { /* group level: [T] or [T,dim] */
      if (rank == 1 && v->dim == 1) col = 0;
      else if (rank == 2 && (long)dims[1] == v->dim) col = k, ncol = v->dim;
    } else if (rank == 2 && v->dim == 1 && (long)dims[1] > vi - s0) {
      col = vi - s0, ncol = (long)dims[1];
    } else if (rank == 3 && v->dim == 3 && dims[2] == 3 && (long)dims[1] > vi - s0) {
      col = 3L * (vi - s0) + k, ncol = 3L * (long)dims[1];
    }
    if (unit_ok && col >= 0 && (long)dims[0] == out->T)
      for (long r = 0; r < out->T; r++)
        out->Y[(size_t)r * (size_t)ny + (size_t)j] = buf[r * ncol + col];
    free(buf);
  }
done:
  if (st) awe_log_data_free(out);
  return st;
}
