/* trim_file.c: the trim's HDF5 file (trim_file.h). */
#include "output/trim_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/h5_util.h"
#include "output/out_file.h"

#define NAME_W 128 /* stored width of a scalar name */


/* the scalar names of l, NAME_W bytes each (malloc'ed) */
static char *names(const awe_varlist *l) {
  char *b = calloc((size_t)l->size + 1, NAME_W);
  if (!b) return NULL;
  for (int i = 0; i < l->n; i++)
    for (int k = 0; k < l->v[i].dim; k++)
      awe_var_scalar_name(&l->v[i], k, b + (size_t)(l->v[i].offset + k) * NAME_W, NAME_W);
  return b;
}


static int put_vec(hid_t f, const char *name, const char *nname, const double *v, const char *nm,
                   int n) {
  hsize_t dim = (hsize_t)n;
  hid_t s = H5Screate_simple(1, &dim, NULL), t = awe_h5_str_type(NAME_W);
  int rc = -1;
  if (s >= 0 && t >= 0) {
    hid_t d = H5Dcreate2(f, name, H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t e = H5Dcreate2(f, nname, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    rc = d >= 0 && e >= 0 &&
                 (n == 0 || (H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0 &&
                             H5Dwrite(e, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, nm) >= 0))
             ? 0 : -1;
    if (d >= 0) H5Dclose(d);
    if (e >= 0) H5Dclose(e);
  }
  if (s >= 0) H5Sclose(s);
  if (t >= 0) H5Tclose(t);
  return rc;
}


static int put_num(hid_t f, const char *name, double v) {
  hid_t s = H5Screate(H5S_SCALAR);
  int rc = s >= 0 ? awe_h5_put_attr(f, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, s, &v) : -1;
  if (s >= 0) H5Sclose(s);
  return rc;
}


awe_status awe_trim_write_h5(const char *path, const awe_model *m, const double *x,
                             const double *u, double rel, double force, double force_ref,
                             const char *scenario, awe_err *err) {
  char *xn = names(&m->reg.state), *un = names(&m->reg.input);
  if (!xn || !un) {
    free(xn);
    free(un);
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  long long need = (8LL + NAME_W) * (m->reg.state.size + m->reg.input.size) + 65536 +
                   (scenario ? (long long)strlen(scenario) : 0);
  awe_out_file of;
  awe_h5_quiet q;
  hid_t f = awe_h5_out_create(&of, path, need, &q, err);
  if (f < 0) {
    free(xn);
    free(un);
    return AWE_EIO;
  }
  int rc = 0;
  rc |= awe_h5_put_str_attr(f, "awesim_version", AWE_VERSION);
  rc |= awe_h5_put_str_attr(f, "schema", "awesim-trim-1");
  rc |= awe_h5_put_str_attr(f, "scenario", scenario ? scenario : "");
  rc |= put_num(f, "residual_rel", rel);
  rc |= put_num(f, "residual_force", force);
  rc |= put_num(f, "force_ref", force_ref);
  rc |= put_vec(f, "x", "x_names", x, xn, m->reg.state.size);
  rc |= put_vec(f, "u", "u_names", u, un, m->reg.input.size);
  if (H5Fclose(f) < 0) rc = -1;
  awe_h5_quiet_off(&q);
  awe_out_file_release(&of);
  free(xn);
  free(un);
  if (rc) {
    unlink(path);
    return awe_err_set(err, AWE_EIO, "%s: cannot write the HDF5 file", path);
  }
  return AWE_OK;
}


/* dataset name [n] of doubles and its names, checked against want */
static awe_status get_vec(hid_t f, const char *path, const char *name, const char *nname,
                          const char *want, int n, double *v, awe_err *err) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT), e = H5Dopen2(f, nname, H5P_DEFAULT);
  awe_status st = AWE_OK;
  char *got = calloc((size_t)n + 1, NAME_W);
  hid_t t = awe_h5_str_type(NAME_W);
  if (d < 0 || e < 0 || !got || t < 0) {
    st = awe_err_set(err, AWE_EINVAL, "%s: not an awesim trim file (no /%s)", path, name);
    goto out;
  }
  long long k = awe_h5_npoints(d, 0), kn = awe_h5_npoints(e, 0);
  hid_t dt = H5Dget_type(d), et = H5Dget_type(e);
  int num = dt >= 0 && (H5Tget_class(dt) == H5T_FLOAT || H5Tget_class(dt) == H5T_INTEGER);
  int str = et >= 0 && H5Tget_class(et) == H5T_STRING && H5Tis_variable_str(et) == 0;
  if (dt >= 0) H5Tclose(dt);
  if (et >= 0) H5Tclose(et);
  if (!num || !str) {
    st = awe_err_set(err, AWE_EINVAL, "%s: /%s must hold numbers and /%s fixed-length strings",
                     path, name, nname);
    goto out;
  }
  if (k != n) {
    st = awe_err_set(err, AWE_EINVAL, "%s: /%s has %lld values, the model %d: a trim of another "
                     "model", path, name, k, n);
    goto out;
  }
  /* checked apart: names longer than the values overflowed the names' buffer */
  if (kn != n) {
    st = awe_err_set(err, AWE_EINVAL, "%s: /%s has %lld names, /%s %d values", path, nname, kn,
                     name, n);
    goto out;
  }
  if (n > 0 && (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0 ||
                H5Dread(e, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) < 0)) {
    st = awe_err_set(err, AWE_EIO, "%s: cannot read /%s", path, name);
    goto out;
  }
  for (int i = 0; i < n; i++)
    if (strncmp(got + (size_t)i * NAME_W, want + (size_t)i * NAME_W, NAME_W)) {
      st = awe_err_set(err, AWE_EINVAL, "%s: /%s[%d] is '%.*s', the model's '%.*s': a trim of "
                       "another model", path, nname, i, NAME_W, got + (size_t)i * NAME_W, NAME_W,
                       want + (size_t)i * NAME_W);
      goto out;
    }
out:
  if (d >= 0) H5Dclose(d);
  if (e >= 0) H5Dclose(e);
  if (t >= 0) H5Tclose(t);
  free(got);
  return st;
}


awe_status awe_trim_read_h5(const char *path, const awe_model *m, double *x, double *u,
                            awe_err *err) {
  awe_h5_quiet q;
  awe_h5_quiet_on(&q);
  awe_status st = AWE_OK;
  hid_t f = access(path, R_OK) == 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
  if (f < 0) {
    st = access(path, R_OK) != 0
             ? awe_err_set(err, AWE_ENOFILE, "%s: %s", path, strerror(errno))
             : awe_err_set(err, AWE_EINVAL, "%s: not an HDF5 file", path);
  } else {
    st = awe_trim_read_file(f, path, m, x, u, err);
    H5Fclose(f);
  }
  awe_h5_quiet_off(&q);
  return st;
}


awe_status awe_trim_read_file(hid_t f, const char *path, const awe_model *m, double *x,
                              double *u, awe_err *err) {
  char *xn = names(&m->reg.state), *un = names(&m->reg.input);
  awe_status st = AWE_OK;
  if (!xn || !un) st = awe_err_set(err, AWE_ENOMEM, "out of memory");
  if (!st) st = get_vec(f, path, "x", "x_names", xn, m->reg.state.size, x, err);
  if (!st) st = get_vec(f, path, "u", "u_names", un, m->reg.input.size, u, err);
  free(xn);
  free(un);
  return st;
}
