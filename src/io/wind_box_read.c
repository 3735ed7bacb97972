/* wind_box_read.c: a wind box from HDF5 (checks in wind_box_read.h). */
#include "io/wind_box_read.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/h5_read.h"
#include "io/npz_read.h"
#include "util/mem_budget.h"


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
  /* shape, class and the memory budget are checked before the buffer is allocated */
  hsize_t dims[4];
  int rank;
  size_t np;
  void *buf = NULL;
  awe_status st = awe_h5_read_num(f, path, name, 3, 3, H5T_NATIVE_FLOAT, sizeof(float), &buf,
                                  dims, &rank, &np, err);
  if (st) return st;
  *out = buf;
  if (n[0] == 0) {
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
  for (size_t i = 0; i < np && st == AWE_OK; i++)
    if (!isfinite((*out)[i])) {
      size_t l = i % (size_t)n[2], j = i / (size_t)n[2] % (size_t)n[1];
      size_t k = i / ((size_t)n[2] * (size_t)n[1]);
      st = awe_err_set(err, AWE_EINVAL, "%s: /%s[%zu][%zu][%zu] = %g is not finite", path,
                       name, k, j, l, (double)(*out)[i]);
    }
  return st;
}


/* little-endian fields of a .bts file */
static int rd(FILE *f, void *p, size_t n) { return fread(p, 1, n, f) == n ? 0 : -1; }
static int rd_i16(FILE *f, int *v) {
  unsigned char c[2];
  if (rd(f, c, 2)) return -1;
  *v = (int16_t)(uint16_t)(c[0] | c[1] << 8);
  return 0;
}
static int rd_i32(FILE *f, long *v) {
  unsigned char c[4];
  if (rd(f, c, 4)) return -1;
  *v = (int32_t)((uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 |
                 (uint32_t)c[3] << 24);
  return 0;
}
static int rd_f32(FILE *f, double *v) {
  unsigned char c[4];
  if (rd(f, c, 4)) return -1;
  uint32_t u = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
  float x;
  memcpy(&x, &u, 4);
  *v = x;
  return 0;
}


/* TurbSim's binary full-field file (.bts, TurbSim user's guide, appendix "binary full-field
 * files"): ID (8 periodic, 7 not: InflowWind's reading), nz, ny, ntower, nt, dz, dy, dt, u_hub, z_hub, z_bottom, the
 * (slope, offset) of u, v, w, a description, then int16 u, v, w per point, y fastest, then z,
 * then time (tower points after each time). Time step i passes x = 0 at i dt: in the box it lies
 * at x = -i u_hub dt (the box's x runs from -(nt - 1) dx to 0). The time mean at every point is
 * removed (the scenario's profile is the mean). Both IDs repeat along x: the box arrives with
 * the wind, so a downwind kite would leave a box that does not repeat at its first step; an
 * ID 7 box has a jump where it wraps. */
awe_status awe_wind_box_read_bts(FILE *f, const char *path, awe_wind_box *b, awe_err *err) {
  memset(b, 0, sizeof(*b));
  int id;
  long nz, ny, ntw, nt, nch;
  double dz, dy, dt, uh, zh, zb, sl[3], of[3];
  awe_status st = AWE_OK;
  if (rd_i16(f, &id) || rd_i32(f, &nz) || rd_i32(f, &ny) || rd_i32(f, &ntw) || rd_i32(f, &nt) ||
      rd_f32(f, &dz) || rd_f32(f, &dy) || rd_f32(f, &dt) || rd_f32(f, &uh) || rd_f32(f, &zh) ||
      rd_f32(f, &zb) || rd_f32(f, &sl[0]) || rd_f32(f, &of[0]) || rd_f32(f, &sl[1]) ||
      rd_f32(f, &of[1]) || rd_f32(f, &sl[2]) || rd_f32(f, &of[2]) || rd_i32(f, &nch)) {
    st = awe_err_set(err, AWE_EINVAL, "%s: TurbSim file: the header is cut short", path);
    goto out;
  }
  if (id != 7 && id != 8) {
    st = awe_err_set(err, AWE_EINVAL, "%s: TurbSim file: ID %d, 7 or 8 expected (a full-field "
                     "binary .bts)", path, id);
    goto out;
  }
  if (nz < 2 || ny < 2 || nt < 2 || ntw < 0 || nz > 1 << 16 || ny > 1 << 16 || nt > 1 << 24 ||
      ntw > 1 << 16 || (double)nz * ny * nt > 2e9) {
    st = awe_err_set(err, AWE_EINVAL, "%s: TurbSim file: grid %ld x %ld points, %ld time steps: "
                     "a box needs at least 2 of each", path, ny, nz, nt);
    goto out;
  }
  if (!(dz > 0 && dy > 0 && dt > 0 && uh > 0) || !isfinite(dz + dy + dt + uh + zh + zb) ||
      !(sl[0] != 0 && sl[1] != 0 && sl[2] != 0) ||
      !isfinite(sl[0] + sl[1] + sl[2] + of[0] + of[1] + of[2])) {
    st = awe_err_set(err, AWE_EINVAL, "%s: TurbSim file: dz %g, dy %g, dt %g, u_hub %g must be "
                     "> 0 and the scales non-zero", path, dz, dy, dt, uh);
    goto out;
  }
  /* the largest wind an int16 can encode must be a finite float: a scale of 1e-44 gave inf */
  for (int k = 0; k < 3; k++) {
    double vmax = (32768.0 + fabs(of[k])) / fabs(sl[k]);
    if (!(vmax < 1e4)) {
      st = awe_err_set(err, AWE_EINVAL, "%s: TurbSim file: the %c scale %g and offset %g encode "
                       "winds up to %g m/s; allowed: |(32768 + |offset|) / scale| < 1e4 m/s",
                       path, "uvw"[k], sl[k], of[k], vmax);
      goto out;
    }
  }
  if (nch < 0 || nch > 1 << 20 || fseek(f, nch, SEEK_CUR)) {
    st = awe_err_set(err, AWE_EINVAL, "%s: TurbSim file: bad description length %ld", path, nch);
    goto out;
  }
  size_t n = (size_t)nt * (size_t)ny * (size_t)nz;
  /* the data the header announces must be there before anything is allocated for them */
  long here = ftell(f);
  double need = 6.0 * (double)nt * ((double)ny * (double)nz + (double)ntw);
  if (here >= 0 && fseek(f, 0, SEEK_END) == 0) {
    long end = ftell(f);
    if (end >= 0 && (double)(end - here) < need) {
      st = awe_err_set(err, AWE_EINVAL, "%s: TurbSim file: %ld bytes of data, the header's grid "
                       "needs %.0f (truncated)", path, end - here, need);
      goto out;
    }
    fseek(f, here, SEEK_SET);
  }
  st = awe_mem_check(12.0 * (double)n, "the TurbSim wind box", err);
  if (st) goto out;
  b->u = malloc(sizeof(float) * n);
  b->v = malloc(sizeof(float) * n);
  b->w = malloc(sizeof(float) * n);
  if (!b->u || !b->v || !b->w) {
    st = awe_err_set(err, AWE_ENOMEM, "%s: out of memory", path);
    goto out;
  }
  float *c[3] = {b->u, b->v, b->w};
  for (long it = 0; it < nt && st == AWE_OK; it++) {
    size_t ix = (size_t)(nt - 1 - it); /* upstream first */
    for (long iz = 0; iz < nz && st == AWE_OK; iz++)
      for (long iy = 0; iy < ny && st == AWE_OK; iy++)
        for (int k = 0; k < 3; k++) {
          int v;
          if (rd_i16(f, &v)) {
            st = awe_err_set(err, AWE_EINVAL, "%s: TurbSim file: the data end at time step %ld "
                             "of %ld (truncated)", path, it + 1, nt);
            break;
          }
          c[k][(ix * (size_t)ny + (size_t)iy) * (size_t)nz + (size_t)iz] =
              (float)((v - of[k]) / sl[k]);
        }
    for (long q = 0; q < 3 * ntw && st == AWE_OK; q++) {
      int v;
      if (rd_i16(f, &v))
        st = awe_err_set(err, AWE_EINVAL, "%s: TurbSim file: the data end at time step %ld "
                         "of %ld (truncated)", path, it + 1, nt);
    }
  }
  if (st == AWE_OK) {
    /* fluctuations: the time mean at each point removed */
    for (int k = 0; k < 3; k++)
      for (size_t p = 0; p < (size_t)ny * (size_t)nz; p++) {
        double s = 0.0;
        for (long i = 0; i < nt; i++) s += c[k][(size_t)i * (size_t)ny * (size_t)nz + p];
        float m = (float)(s / (double)nt);
        for (long i = 0; i < nt; i++) c[k][(size_t)i * (size_t)ny * (size_t)nz + p] -= m;
      }
    b->n[0] = (int)nt;
    b->n[1] = (int)ny;
    b->n[2] = (int)nz;
    b->d[0] = uh * dt;
    b->d[1] = dy;
    b->d[2] = dz;
    b->x0[0] = -(double)(nt - 1) * b->d[0];
    b->x0[1] = -0.5 * (double)(ny - 1) * dy;
    b->x0[2] = zb;
    b->periodic_x = 1;
    b->gamma = b->length = b->ae = b->ti = NAN;
    b->v_ref = uh;
    b->h_ref = zh;
    b->seed = 0;
  }
out:
  if (st != AWE_OK) awe_wind_box_free(b);
  return st;
}


awe_status awe_wind_box_read_npz(const unsigned char *buf, size_t n, const char *path,
                                 const awe_npz_grid *g, awe_wind_box *b, awe_err *err) {
  memset(b, 0, sizeof(*b));
  static const char *const nm[3] = {"u", "v", "w"};
  awe_npy a[4];
  memset(a, 0, sizeof(a));
  awe_status st = AWE_OK;
  for (int c = 0; c < 4 && st == AWE_OK; c++)
    st = awe_npz_array(buf, n, path, c < 3 ? nm[c] : "param", &a[c], NULL, err);
  for (int c = 0; c < 3 && st == AWE_OK; c++) {
    if (a[c].ndim != 3 || a[c].shape[0] < 2 || a[c].shape[1] < 2 || a[c].shape[2] < 2 ||
        a[c].shape[0] > 1u << 24 || a[c].shape[1] > 1u << 24 || a[c].shape[2] > 1u << 24)
      st = awe_err_set(err, AWE_EINVAL, "%s: array %s has %d dimensions (%zu x %zu x ...): a "
                       "wind field has 3 of at least 2 points each", path, nm[c], a[c].ndim,
                       a[c].ndim > 0 ? a[c].shape[0] : 0, a[c].ndim > 1 ? a[c].shape[1] : 0);
    else if (c > 0 && memcmp(a[c].shape, a[0].shape, 3 * sizeof(size_t)))
      st = awe_err_set(err, AWE_EINVAL, "%s: array %s is %zu x %zu x %zu, u is %zu x %zu x %zu",
                       path, nm[c], a[c].shape[0], a[c].shape[1], a[c].shape[2], a[0].shape[0],
                       a[0].shape[1], a[0].shape[2]);
  }
  if (st == AWE_OK && (a[3].ndim != 1 || a[3].n < 2 || !isfinite(a[3].data[0]) ||
                       !isfinite(a[3].data[1]) || !(a[3].data[1] >= 0)))
    st = awe_err_set(err, AWE_EINVAL, "%s: array param must be [alpha, v_wind_gnd] (finite, "
                     "v_wind_gnd >= 0)", path);
  double gs = g && !isnan(g->grid_step) ? g->grid_step : 2.0;
  double hs = g && !isnan(g->height_step) ? g->height_step : 2.0;
  double z0 = g && !isnan(g->z_min) ? g->z_min : 0.0;
  if (st == AWE_OK && (!(gs > 0) || !(hs > 0) || !isfinite(gs + hs + z0)))
    st = awe_err_set(err, AWE_EINVAL, "%s: grid_step %g m and height_step %g m must be > 0",
                     path, gs, hs);
  if (st == AWE_OK) {
    const size_t *sh = a[0].shape;
    int swap = sh[1] > sh[0]; /* the longer horizontal axis is x */
    size_t nx = swap ? sh[1] : sh[0], ny = swap ? sh[0] : sh[1], nz = sh[2], np = nx * ny * nz;
    float *out[3] = {NULL, NULL, NULL};
    st = awe_mem_check(12.0 * (double)nx * (double)ny * (double)nz, "the .npz wind box", err);
    for (int c = 0; c < 3 && st == AWE_OK; c++) out[c] = malloc(sizeof(float) * np);
    b->u = out[0];
    b->v = out[1];
    b->w = out[2];
    if (st == AWE_OK && (!out[0] || !out[1] || !out[2]))
      st = awe_err_set(err, AWE_ENOMEM, "%s: out of memory", path);
    for (int c = 0; c < 3 && st == AWE_OK; c++)
      for (size_t i = 0; i < nx && st == AWE_OK; i++)
        for (size_t j = 0; j < ny && st == AWE_OK; j++)
          for (size_t l = 0; l < nz; l++) {
            size_t a0 = swap ? j : i, a1 = swap ? i : j;
            size_t at = a[c].fortran ? a0 + sh[0] * (a1 + sh[1] * l) : (a0 * sh[1] + a1) * nz + l;
            double x = a[c].data[at];
            if (!isfinite(x) || fabs(x) > 3e38) {
              st = awe_err_set(err, AWE_EINVAL, "%s: %s[%zu, %zu, %zu] = %g is not finite", path,
                               nm[c], a0, a1, l, x);
              break;
            }
            out[c][(i * ny + j) * nz + l] = (float)x;
          }
    if (st == AWE_OK) {
      b->n[0] = (int)nx;
      b->n[1] = (int)ny;
      b->n[2] = (int)nz;
      b->d[0] = b->d[1] = gs;
      b->d[2] = hs;
      b->x0[0] = 0.0;
      b->x0[1] = -0.5 * (double)(ny - 1) * gs;
      b->x0[2] = z0;
      b->periodic_x = 1;
      b->gamma = b->length = b->ae = b->ti = b->h_ref = NAN;
      b->v_ref = a[3].data[1];
      b->seed = 0;
    }
  }
  for (int c = 0; c < 4; c++) awe_npy_free(&a[c]);
  if (st != AWE_OK) awe_wind_box_free(b);
  return st;
}


static awe_status read_npz_file(const char *path, const awe_npz_grid *g, awe_wind_box *b,
                                awe_err *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return awe_err_set(err, AWE_ENOFILE, "%s: %s", path, strerror(errno));
  unsigned char *buf = NULL;
  long len = -1;
  if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
  awe_status st = AWE_OK;
  if (len < 0 || fseek(f, 0, SEEK_SET)) {
    st = awe_err_set(err, AWE_EIO, "%s: cannot find its size: %s", path, strerror(errno));
  } else if (!(buf = malloc(len ? (size_t)len : 1))) {
    st = awe_err_set(err, AWE_ENOMEM, "%s: out of memory for %ld bytes", path, len);
  } else if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
    st = awe_err_set(err, AWE_EIO, "%s: read error", path);
  } else {
    st = awe_wind_box_read_npz(buf, (size_t)len, path, g, b, err);
  }
  free(buf);
  fclose(f);
  return st;
}


awe_status awe_wind_box_read_h5file(hid_t f, const char *path, awe_wind_box *b, awe_err *err) {
  memset(b, 0, sizeof(*b));
  awe_status st = AWE_OK;
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
  if (st != AWE_OK) awe_wind_box_free(b);
  return st;
}


awe_status awe_wind_box_read(const char *path, awe_wind_box *b, awe_err *err) {
  return awe_wind_box_read_grid(path, NULL, b, err);
}


awe_status awe_wind_box_read_grid(const char *path, const awe_npz_grid *g, awe_wind_box *b,
                                  awe_err *err) {
  memset(b, 0, sizeof(*b));
  FILE *probe = fopen(path, "rb");
  if (!probe) return awe_err_set(err, AWE_ENOFILE, "%s: %s", path, strerror(errno));
  fclose(probe);
  size_t len = strlen(path);
  if (len > 4 && !strcmp(path + len - 4, ".bts")) {
    FILE *f = fopen(path, "rb");
    if (!f) return awe_err_set(err, AWE_ENOFILE, "%s: %s", path, strerror(errno));
    awe_status st = awe_wind_box_read_bts(f, path, b, err);
    fclose(f);
    return st;
  }
  if (len > 4 && !strcmp(path + len - 4, ".npz")) return read_npz_file(path, g, b, err);
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
  st = awe_wind_box_read_h5file(f, path, b, err);
  H5Fclose(f);
out:
  H5Eset_auto2(H5E_DEFAULT, fn, data);
  if (st != AWE_OK) awe_wind_box_free(b);
  return st;
}
