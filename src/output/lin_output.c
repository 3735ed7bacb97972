/* lin_output.c: HDF5, OpenFAST-style text and CSV files of a linear model; step-response group.
 *
 * Layouts: see lin_output.h.
 */
#include "output/lin_output.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/h5_util.h"

#include "output/out_file.h"
#include "util/mem_budget.h"

#ifndef AWE_VERSION
#define AWE_VERSION "unknown"
#endif

/* ---- "C" locale for number formatting ---- */

typedef struct {
  locale_t c, old;
} cloc;

static void cloc_push(cloc *l) {
  l->c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  l->old = l->c != (locale_t)0 ? uselocale(l->c) : (locale_t)0;
}

static void cloc_pop(cloc *l) {
  if (l->old != (locale_t)0) uselocale(l->old);
  if (l->c != (locale_t)0) freelocale(l->c);
}

/* ---- HDF5 helpers (errors silenced, reported through awe_err) ---- */

static int put_num_attr(hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *v) {
  hid_t s = H5Screate(H5S_SCALAR);
  if (s < 0) return -1;
  hid_t a = H5Acreate2(loc, name, ftype, s, H5P_DEFAULT, H5P_DEFAULT);
  int rc = -1;
  if (a >= 0) {
    rc = H5Awrite(a, mtype, v) < 0 ? -1 : 0;
    if (H5Aclose(a) < 0) rc = -1;
  }
  H5Sclose(s);
  return rc;
}


static int put_double_attr(hid_t loc, const char *name, double v) {
  return put_num_attr(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v);
}


static int put_int_attr(hid_t loc, const char *name, long long v) {
  return put_num_attr(loc, name, H5T_STD_I64LE, H5T_NATIVE_LLONG, &v);
}


/* float64 dataset of rank 1 or 2 */
static int put_doubles(hid_t loc, const char *name, int rank, hsize_t d0, hsize_t d1,
                       const double *data) {
  hsize_t dims[2] = {d0, d1};
  hid_t s = H5Screate_simple(rank, dims, NULL);
  if (s < 0) return -1;
  hid_t d = H5Dcreate2(loc, name, H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int rc = -1;
  if (d >= 0) {
    hsize_t n = rank == 1 ? d0 : d0 * d1;
    rc = (n == 0 || H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0)
             ? 0 : -1;
    if (H5Dclose(d) < 0) rc = -1;
  }
  H5Sclose(s);
  return rc;
}


static int put_ints(hid_t loc, const char *name, hsize_t d0, hsize_t d1, const int *data) {
  hsize_t dims[2] = {d0, d1};
  hid_t s = H5Screate_simple(2, dims, NULL);
  if (s < 0) return -1;
  hid_t d = H5Dcreate2(loc, name, H5T_STD_I32LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int rc = -1;
  if (d >= 0) {
    rc = (d0 * d1 == 0 || H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0)
             ? 0 : -1;
    if (H5Dclose(d) < 0) rc = -1;
  }
  H5Sclose(s);
  return rc;
}


/* fixed-length string vector */
static int put_strings(hid_t loc, const char *name, int n, const char *const *v) {
  size_t w = 1;
  for (int i = 0; i < n; i++) {
    size_t l = strlen(v[i] ? v[i] : "");
    if (l > w) w = l;
  }
  char *buf = calloc((size_t)(n > 0 ? n : 1), w);
  if (!buf) return -1;
  for (int i = 0; i < n; i++)
    if (v[i]) memcpy(buf + (size_t)i * w, v[i], strlen(v[i]));
  hsize_t dim = (hsize_t)n;
  hid_t t = awe_h5_str_type(w), s = H5Screate_simple(1, &dim, NULL);
  int rc = -1;
  if (t >= 0 && s >= 0) {
    hid_t d = H5Dcreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (d >= 0) {
      rc = (n == 0 || H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0) ? 0 : -1;
      if (H5Dclose(d) < 0) rc = -1;
    }
  }
  if (t >= 0) H5Tclose(t);
  if (s >= 0) H5Sclose(s);
  free(buf);
  return rc;
}


static int put_string_dataset(hid_t loc, const char *name, const char *text) {
  size_t n = strlen(text);
  hid_t t = awe_h5_str_type(n), s = H5Screate(H5S_SCALAR);
  int rc = -1;
  if (t >= 0 && s >= 0) {
    hid_t d = H5Dcreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (d >= 0) {
      rc = H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, n ? text : "") < 0 ? -1 : 0;
      if (H5Dclose(d) < 0) rc = -1;
    }
  }
  if (t >= 0) H5Tclose(t);
  if (s >= 0) H5Sclose(s);
  return rc;
}


awe_status awe_lin_write_h5(const char *path, const awe_linsys *L, const awe_mode *modes,
                            int nmodes, const awe_lin_info *info, awe_err *err) {
  /* claim the path first (lock, then truncate) and reserve what the file can need, so a
     file in use is not touched and a full disk fails before anything is written */
  long long nmat = (long long)(L->nx + L->ny) * (L->nx + L->nu) + 8LL * (L->nx + L->nu + L->ny);
  long long need = 8 * nmat + 200LL * (L->nx + L->nu + L->ny) + 64LL * (nmodes > 0 ? nmodes : 0) +
                   (info && info->scenario ? (long long)strlen(info->scenario) : 0) + 65536;
  awe_out_file of;
  awe_h5_quiet q;
  hid_t f = awe_h5_out_create(&of, path, need, &q, err);
  if (f < 0) return AWE_EIO;
  hsize_t nx = (hsize_t)L->nx, nu = (hsize_t)L->nu, ny = (hsize_t)L->ny;
  int rc = 0;
  rc |= awe_h5_put_str_attr(f, "awesim_version", AWE_VERSION);
  rc |= awe_h5_put_str_attr(f, "schema", "awesim-linear-1");
  rc |= awe_h5_put_str_attr(f, "command_line", info && info->command_line ? info->command_line : "");
  rc |= put_double_attr(f, "t_op", info ? info->t_op : 0.0);
  rc |= put_int_attr(f, "steady", info ? info->steady : 0);
  rc |= put_double_attr(f, "residual", L->residual);
  rc |= put_int_attr(f, "nx", L->nx);
  rc |= put_int_attr(f, "nu", L->nu);
  rc |= put_int_attr(f, "ny", L->ny);
  if (info && info->scenario) rc |= put_string_dataset(f, "scenario", info->scenario);
  rc |= put_doubles(f, "A", 2, nx, nx, L->A);
  rc |= put_doubles(f, "B", 2, nx, nu, L->B);
  rc |= put_doubles(f, "C", 2, ny, nx, L->C);
  rc |= put_doubles(f, "D", 2, ny, nu, L->D);
  rc |= put_doubles(f, "x_op", 1, nx, 0, L->x_op);
  rc |= put_doubles(f, "u_op", 1, nu, 0, L->u_op);
  rc |= put_doubles(f, "y_op", 1, ny, 0, L->y_op);
  rc |= put_doubles(f, "dx_op", 1, nx, 0, L->dx_op);
  rc |= put_doubles(f, "x_perturb", 1, nx, 0, L->x_perturb);
  rc |= put_doubles(f, "u_perturb", 1, nu, 0, L->u_perturb);
  rc |= put_strings(f, "x_names", L->nx, (const char *const *)L->x_name);
  rc |= put_strings(f, "u_names", L->nu, (const char *const *)L->u_name);
  rc |= put_strings(f, "y_names", L->ny, (const char *const *)L->y_name);
  rc |= put_strings(f, "x_units", L->nx, L->x_unit);
  rc |= put_strings(f, "u_units", L->nu, L->u_unit);
  rc |= put_strings(f, "y_units", L->ny, L->y_unit);
  if (modes && nmodes >= 0) {
    size_t nm = (size_t)nmodes;
    double *md = calloc(nm * 5 + 1, sizeof(double)), *sh = calloc(nm * 3 + 1, sizeof(double));
    int *ms = calloc(nm * 3 + 1, sizeof(int));
    if (!md || !sh || !ms) {
      rc = -1;
    } else {
      for (size_t i = 0; i < nm; i++) {
        md[5 * i + 0] = modes[i].re;
        md[5 * i + 1] = modes[i].im;
        md[5 * i + 2] = modes[i].freq;
        md[5 * i + 3] = modes[i].zeta;
        md[5 * i + 4] = modes[i].tau;
        for (int k = 0; k < 3; k++) {
          ms[3 * i + (size_t)k] = modes[i].top[k];
          sh[3 * i + (size_t)k] = modes[i].share[k];
        }
      }
      rc |= put_doubles(f, "modes", 2, nm, 5, md);
      rc |= put_ints(f, "mode_states", nm, 3, ms);
      rc |= put_doubles(f, "mode_shares", 2, nm, 3, sh);
      const char **cls = calloc(nm + 1, sizeof(char *));
      if (!cls) rc = -1;
      else {
        for (size_t i = 0; i < nm; i++) cls[i] = awe_mode_class_name(modes[i].cls);
        rc |= put_strings(f, "mode_class", (int)nm, cls);
      }
      free(cls);
      if (!rc) {
        hid_t d = H5Dopen2(f, "modes", H5P_DEFAULT);
        rc |= d < 0 ? -1 : awe_h5_put_str_attr(d, "columns", "re [1/s], im [1/s], frequency [Hz], "
                                                      "damping ratio [-], time constant [s]");
        double zr = info && info->zero_rel > 0.0 ? info->zero_rel : AWE_MODE_ZERO_REL;
        if (d >= 0) rc |= put_double_attr(d, "zero_rel", zr);
        if (d >= 0) rc |= put_double_attr(d, "zero_abs", AWE_MODE_ZERO_ABS);
        if (d >= 0) H5Dclose(d);
      }
    }
    free(md);
    free(sh);
    free(ms);
  }
  rc |= awe_h5_put_str_attr(f, "modes", info && info->modes_note ? info->modes_note
                                          : modes ? "computed" : "not computed");
  if (H5Fclose(f) < 0) rc = -1;
  awe_h5_quiet_off(&q);
  awe_out_file_release(&of);
  if (rc) return awe_err_set(err, AWE_EIO, "%s: cannot write the linear model", path);
  return AWE_OK;
}

/* [K, d0, d1] (rank 3) or [K, d0] (rank 2) from K per-point arrays at byte offset off of L[k],
 * one hyperslab per point (no copy of the whole stack) */
static int put_stack(hid_t loc, const char *name, const awe_linsys *L, int K, size_t off,
                     hsize_t d0, hsize_t d1, int rank) {
  hsize_t per = d0 * (rank == 3 ? d1 : 1);
  hsize_t dims[3] = {(hsize_t)K, d0, d1};
  hid_t s = H5Screate_simple(rank, dims, NULL);
  if (s < 0) return -1;
  int rc = -1;
  hid_t d = H5Dcreate2(loc, name, H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d >= 0) {
    rc = 0;
    hid_t ms = per ? H5Screate_simple(1, &per, NULL) : -1;
    if (per && ms < 0) rc = -1;
    for (int k = 0; per && !rc && k < K; k++) {
      const double *src = *(double *const *)((const char *)&L[k] + off);
      hsize_t start[3] = {(hsize_t)k, 0, 0}, count[3] = {1, d0, d1};
      if (H5Sselect_hyperslab(s, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
          H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, s, H5P_DEFAULT, src) < 0)
        rc = -1;
    }
    if (ms >= 0) H5Sclose(ms);
    if (H5Dclose(d) < 0) rc = -1;
  }
  H5Sclose(s);
  return rc;
}


awe_status awe_lin_write_along_h5(const char *path, const awe_linsys *L, const double *t, int K,
                                  const awe_lin_info *info, const char *status, awe_err *err) {
  if (K < 1) return awe_err_set(err, AWE_EUSAGE, "%s: no linear model to write", path);
  const awe_linsys *L0 = &L[0];
  long long per = (long long)(L0->nx + L0->ny) * (L0->nx + L0->nu) +
                  8LL * (L0->nx + L0->nu + L0->ny);
  long long need = 8 * per * K + 200LL * (L0->nx + L0->nu + L0->ny) +
                   (info && info->scenario ? (long long)strlen(info->scenario) : 0) + 65536;
  awe_out_file of;
  awe_h5_quiet q;
  hid_t f = awe_h5_out_create(&of, path, need, &q, err);
  if (f < 0) return AWE_EIO;
  hsize_t nx = (hsize_t)L0->nx, nu = (hsize_t)L0->nu, ny = (hsize_t)L0->ny;
  int rc = 0;
  rc |= awe_h5_put_str_attr(f, "awesim_version", AWE_VERSION);
  rc |= awe_h5_put_str_attr(f, "schema", "awesim-linear-tv-1");
  rc |= awe_h5_put_str_attr(f, "command_line", info && info->command_line ? info->command_line : "");
  rc |= awe_h5_put_str_attr(f, "status", status ? status : "complete");
  rc |= put_int_attr(f, "K", K);
  rc |= put_int_attr(f, "nx", L0->nx);
  rc |= put_int_attr(f, "nu", L0->nu);
  rc |= put_int_attr(f, "ny", L0->ny);
  if (info && info->scenario) rc |= put_string_dataset(f, "scenario", info->scenario);
  rc |= put_doubles(f, "time", 1, (hsize_t)K, 0, t);
  double *res = malloc(sizeof(double) * ((size_t)K + 1));
  if (!res) rc = -1;
  else {
    for (int k = 0; k < K; k++) res[k] = L[k].residual;
    rc |= put_doubles(f, "residual", 1, (hsize_t)K, 0, res);
    free(res);
  }
  if (info && info->log_diff) {
    rc |= put_doubles(f, "log_diff", 1, (hsize_t)K, 0, info->log_diff);
    rc |= awe_h5_put_str_attr(f, "log", info->log_path ? info->log_path : "");
  }
  rc |= put_stack(f, "A", L, K, offsetof(awe_linsys, A), nx, nx, 3);
  rc |= put_stack(f, "B", L, K, offsetof(awe_linsys, B), nx, nu, 3);
  rc |= put_stack(f, "C", L, K, offsetof(awe_linsys, C), ny, nx, 3);
  rc |= put_stack(f, "D", L, K, offsetof(awe_linsys, D), ny, nu, 3);
  rc |= put_stack(f, "x0", L, K, offsetof(awe_linsys, x_op), nx, 0, 2);
  rc |= put_stack(f, "u0", L, K, offsetof(awe_linsys, u_op), nu, 0, 2);
  rc |= put_stack(f, "y0", L, K, offsetof(awe_linsys, y_op), ny, 0, 2);
  rc |= put_stack(f, "f0", L, K, offsetof(awe_linsys, dx_op), nx, 0, 2);
  rc |= put_doubles(f, "x_perturb", 1, nx, 0, L0->x_perturb);
  rc |= put_doubles(f, "u_perturb", 1, nu, 0, L0->u_perturb);
  rc |= put_strings(f, "x_names", L0->nx, (const char *const *)L0->x_name);
  rc |= put_strings(f, "u_names", L0->nu, (const char *const *)L0->u_name);
  rc |= put_strings(f, "y_names", L0->ny, (const char *const *)L0->y_name);
  rc |= put_strings(f, "x_units", L0->nx, L0->x_unit);
  rc |= put_strings(f, "u_units", L0->nu, L0->u_unit);
  rc |= put_strings(f, "y_units", L0->ny, L0->y_unit);
  if (H5Fclose(f) < 0) rc = -1;
  awe_h5_quiet_off(&q);
  awe_out_file_release(&of);
  if (rc) return awe_err_set(err, AWE_EIO, "%s: cannot write the linear models", path);
  return AWE_OK;
}

/* ---- OpenFAST-style text ---- */

/* unit of a time derivative: "m" -> "m/s", "m/s" -> "m/s^2", "-" -> "1/s" */
static void deriv_unit(const char *u, char *buf, size_t n) {
  size_t l = strlen(u);
  if (!strcmp(u, "-") || !l) snprintf(buf, n, "1/s");
  else if (l > 2 && !strcmp(u + l - 2, "/s")) snprintf(buf, n, "%s^2", u);
  else snprintf(buf, n, "%s/s", u);
}


static void write_order(FILE *f, const char *title, int n, const double *op, char *const *name,
                        const char *const *unit, int deriv_col, const char *prefix, int deriv) {
  fprintf(f, "%s\n", title);
  if (deriv_col)
    fprintf(f, "   Row/Column   Operating Point             Rotating Frame?   Derivative Order?"
               "   Description\n");
  else
    fprintf(f, "   Row/Column   Operating Point             Rotating Frame?   Description\n");
  for (int i = 0; i < n; i++) {
    fprintf(f, "   %10d   %24.17g   F", i + 1, op[i]);
    if (deriv_col) fprintf(f, "   %d", 0);
    char du[64];
    if (deriv) deriv_unit(unit[i], du, sizeof(du));
    fprintf(f, "   %s%s, %s\n", prefix, name[i], deriv ? du : unit[i]);
  }
  fprintf(f, "\n");
}


static void write_matrix(FILE *f, const char *label, int r, int c, const double *M) {
  fprintf(f, "%s: %d x %d\n", label, r, c);
  if (c <= 0) return;
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < c; j++)
      fprintf(f, "%s%.17g", j ? "  " : "  ", M[(size_t)i * (size_t)c + (size_t)j]);
    fputc('\n', f);
  }
}


awe_status awe_lin_write_text(const char *path, const awe_linsys *L, const awe_lin_info *info,
                              awe_err *err) {
  FILE *f = fopen(path, "w");
  if (!f) return awe_err_set(err, AWE_EIO, "%s: %s", path, strerror(errno));
  cloc l;
  cloc_push(&l);
  fprintf(f, "Linearized model: awesim %s (layout of OpenFAST .lin files)\n\n", AWE_VERSION);
  fprintf(f, "Simulation information:\n");
  fprintf(f, "Simulation time:                      %.17g s\n", info ? info->t_op : 0.0);
  fprintf(f, "Operating point:                      %s\n",
          info && info->steady ? "steady state" : "simulation");
  fprintf(f, "Operating-point residual:             %.17g\n", L->residual);
  fprintf(f, "Number of continuous states:          %d\n", L->nx);
  fprintf(f, "Number of discrete states:            0\n");
  fprintf(f, "Number of constraint states:          0\n");
  fprintf(f, "Number of inputs:                     %d\n", L->nu);
  fprintf(f, "Number of outputs:                    %d\n", L->ny);
  fprintf(f, "Jacobians included in this file?      Yes\n\n");
  write_order(f, "Order of continuous states:", L->nx, L->x_op, L->x_name, L->x_unit, 1, "", 0);
  write_order(f, "Order of continuous state derivatives:", L->nx, L->dx_op, L->x_name, L->x_unit,
              1, "First time derivative of ", 1);
  write_order(f, "Order of inputs:", L->nu, L->u_op, L->u_name, L->u_unit, 1, "", 0);
  write_order(f, "Order of outputs:", L->ny, L->y_op, L->y_name, L->y_unit, 0, "", 0);
  fprintf(f, "\nLinearized state matrices:\n\n");
  write_matrix(f, "A", L->nx, L->nx, L->A);
  write_matrix(f, "B", L->nx, L->nu, L->B);
  write_matrix(f, "C", L->ny, L->nx, L->C);
  write_matrix(f, "D", L->ny, L->nu, L->D);
  cloc_pop(&l);
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) return awe_err_set(err, AWE_EIO, "%s: write error", path);
  return AWE_OK;
}


typedef struct {
  FILE *f;
  char *line;
  size_t cap;
  long lineno;
  const char *path;
} reader;


static int next_line(reader *r) {
  ssize_t n = getline(&r->line, &r->cap, r->f);
  if (n < 0) return 0;
  r->lineno++;
  while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r')) r->line[--n] = 0;
  return 1;
}


/* advance to the line starting with key; returns a pointer after the key or NULL at EOF */
static const char *seek(reader *r, const char *key) {
  size_t kl = strlen(key);
  while (next_line(r)) {
    const char *s = r->line;
    while (*s == ' ') s++;
    if (!strncmp(s, key, kl)) return s + kl;
  }
  return NULL;
}


static awe_status perr(reader *r, awe_err *err, const char *what) {
  return awe_err_set(err, AWE_EPARSE, "%s:%ld: %s", r->path, r->lineno, what);
}


static awe_status read_count(reader *r, const char *key, int *n, awe_err *err) {
  const char *s = seek(r, key);
  if (!s) return awe_err_set(err, AWE_EPARSE, "%s: no '%s' line", r->path, key);
  char *e;
  long v = strtol(s, &e, 10);
  if (e == s || v < 0 || v > 10000000) return perr(r, err, "bad count");
  *n = (int)v;
  return AWE_OK;
}


/* rows of an "Order of ..." table; name[i] = "NAME\0UNIT" with unit[i] into it */
static awe_status read_order(reader *r, const char *title, int n, int deriv_col, double *op,
                             char **name, const char **unit, awe_err *err) {
  if (!seek(r, title)) return awe_err_set(err, AWE_EPARSE, "%s: no '%s' section", r->path, title);
  if (!next_line(r)) return perr(r, err, "missing table header");
  for (int i = 0; i < n; i++) {
    if (!next_line(r)) return perr(r, err, "table ends early");
    char *s = r->line, *e;
    long idx = strtol(s, &e, 10);
    if (e == s || idx != i + 1) return perr(r, err, "bad row number");
    s = e;
    double v = strtod(s, &e);
    if (e == s) return perr(r, err, "bad operating point");
    if (op) op[i] = v;
    s = e;
    int skip = deriv_col ? 2 : 1;
    for (int k = 0; k < skip; k++) {
      while (*s == ' ' || *s == '\t') s++;
      if (!*s) return perr(r, err, "missing column");
      while (*s && *s != ' ' && *s != '\t') s++;
    }
    while (*s == ' ' || *s == '\t') s++;
    if (!name) continue;
    const char *comma = NULL;
    for (const char *c = s; (c = strstr(c, ", ")) != NULL; c += 2) comma = c;
    size_t nl = comma ? (size_t)(comma - s) : strlen(s);
    const char *u = comma ? comma + 2 : "";
    size_t ul = strlen(u);
    char *buf = malloc(nl + ul + 2);
    if (!buf) return awe_err_set(err, AWE_ENOMEM, "out of memory");
    memcpy(buf, s, nl);
    buf[nl] = 0;
    memcpy(buf + nl + 1, u, ul + 1);
    name[i] = buf;
    unit[i] = buf + nl + 1;
  }
  return AWE_OK;
}


static awe_status read_matrix(reader *r, const char *label, int rows, int cols, double *M,
                              awe_err *err) {
  char key[8];
  snprintf(key, sizeof(key), "%s:", label);
  const char *s = seek(r, key);
  if (!s) return awe_err_set(err, AWE_EPARSE, "%s: no matrix %s", r->path, label);
  int rr, cc;
  if (sscanf(s, "%d x %d", &rr, &cc) != 2 || rr != rows || cc != cols)
    return perr(r, err, "matrix size does not match the counts");
  if (cols <= 0) return AWE_OK;
  for (int i = 0; i < rows; i++) {
    if (!next_line(r)) return perr(r, err, "matrix ends early");
    char *p = r->line, *e;
    for (int j = 0; j < cols; j++) {
      double v = strtod(p, &e);
      if (e == p) return perr(r, err, "bad matrix entry");
      M[(size_t)i * (size_t)cols + (size_t)j] = v;
      p = e;
    }
  }
  return AWE_OK;
}


awe_status awe_lin_read_text(const char *path, awe_linsys *L, double *t_op, awe_err *err) {
  memset(L, 0, sizeof(*L));
  reader r = {.f = fopen(path, "r"), .path = path};
  if (!r.f) return awe_err_set(err, AWE_ENOFILE, "%s: %s", path, strerror(errno));
  cloc l;
  cloc_push(&l);
  awe_status st;
  const char *s = seek(&r, "Simulation time:");
  if (!s) {
    st = awe_err_set(err, AWE_EPARSE, "%s: not a linear model file (no 'Simulation time:')",
                     path);
    goto done;
  }
  if (t_op) *t_op = strtod(s, NULL);
  if ((st = read_count(&r, "Number of continuous states:", &L->nx, err)) ||
      (st = read_count(&r, "Number of inputs:", &L->nu, err)) ||
      (st = read_count(&r, "Number of outputs:", &L->ny, err)))
    goto done;
  size_t nx = (size_t)L->nx, nu = (size_t)L->nu, ny = (size_t)L->ny;
  /* the counts come from the file: the matrices they announce are asked of the budget first */
  double dx = (double)nx, du = (double)nu, dy = (double)ny;
  char what[300];
  snprintf(what, sizeof(what), "%s: a linear model of %zu states, %zu inputs, %zu outputs", path,
           nx, nu, ny);
  if ((st = awe_mem_check(8.0 * (dx + dy) * (dx + du) + 64.0 * (dx + du + dy), what, err)))
    goto done;
  L->A = calloc(nx * nx + 1, sizeof(double));
  L->B = calloc(nx * nu + 1, sizeof(double));
  L->C = calloc(ny * nx + 1, sizeof(double));
  L->D = calloc(ny * nu + 1, sizeof(double));
  L->x_op = calloc(nx + 1, sizeof(double));
  L->dx_op = calloc(nx + 1, sizeof(double));
  L->u_op = calloc(nu + 1, sizeof(double));
  L->y_op = calloc(ny + 1, sizeof(double));
  L->x_name = calloc(nx + 1, sizeof(char *));
  L->u_name = calloc(nu + 1, sizeof(char *));
  L->y_name = calloc(ny + 1, sizeof(char *));
  L->x_unit = calloc(nx + 1, sizeof(char *));
  L->u_unit = calloc(nu + 1, sizeof(char *));
  L->y_unit = calloc(ny + 1, sizeof(char *));
  if (!L->A || !L->B || !L->C || !L->D || !L->x_op || !L->dx_op || !L->u_op || !L->y_op ||
      !L->x_name || !L->u_name || !L->y_name || !L->x_unit || !L->u_unit || !L->y_unit) {
    st = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto done;
  }
  if ((st = read_order(&r, "Order of continuous states:", L->nx, 1, L->x_op, L->x_name,
                       L->x_unit, err)) ||
      (st = read_order(&r, "Order of continuous state derivatives:", L->nx, 1, L->dx_op, NULL,
                       NULL, err)) ||
      (st = read_order(&r, "Order of inputs:", L->nu, 1, L->u_op, L->u_name, L->u_unit, err)) ||
      (st = read_order(&r, "Order of outputs:", L->ny, 0, L->y_op, L->y_name, L->y_unit, err)) ||
      (st = read_matrix(&r, "A", L->nx, L->nx, L->A, err)) ||
      (st = read_matrix(&r, "B", L->nx, L->nu, L->B, err)) ||
      (st = read_matrix(&r, "C", L->ny, L->nx, L->C, err)) ||
      (st = read_matrix(&r, "D", L->ny, L->nu, L->D, err)))
    goto done;
done:
  cloc_pop(&l);
  free(r.line);
  fclose(r.f);
  if (st) {
    /* names not yet read are NULL: awe_linsys_free copes */
    awe_linsys_free(L);
  }
  return st;
}

/* ---- CSV ---- */

static awe_status csv_matrix(const char *prefix, const char *label, int rows, int cols,
                             const double *M, char *const *rname, const char *const *runit,
                             char *const *cname, const char *const *cunit, awe_err *err) {
  char path[4096];
  snprintf(path, sizeof(path), "%s_%s.csv", prefix, label);
  FILE *f = fopen(path, "w");
  if (!f) return awe_err_set(err, AWE_EIO, "%s: %s", path, strerror(errno));
  cloc l;
  cloc_push(&l);
  fprintf(f, "%s", label);
  for (int j = 0; j < cols; j++) fprintf(f, ",%s[%s]", cname[j], cunit[j]);
  fputc('\n', f);
  for (int i = 0; i < rows; i++) {
    fprintf(f, "%s[%s]", rname[i], runit[i]);
    for (int j = 0; j < cols; j++) fprintf(f, ",%.17g", M[(size_t)i * (size_t)cols + (size_t)j]);
    fputc('\n', f);
  }
  cloc_pop(&l);
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) return awe_err_set(err, AWE_EIO, "%s: write error", path);
  return AWE_OK;
}


awe_status awe_lin_write_csv(const char *prefix, const awe_linsys *L, awe_err *err) {
  awe_status st;
  if ((st = csv_matrix(prefix, "A", L->nx, L->nx, L->A, L->x_name, L->x_unit, L->x_name,
                       L->x_unit, err)) ||
      (st = csv_matrix(prefix, "B", L->nx, L->nu, L->B, L->x_name, L->x_unit, L->u_name,
                       L->u_unit, err)) ||
      (st = csv_matrix(prefix, "C", L->ny, L->nx, L->C, L->y_name, L->y_unit, L->x_name,
                       L->x_unit, err)) ||
      (st = csv_matrix(prefix, "D", L->ny, L->nu, L->D, L->y_name, L->y_unit, L->u_name,
                       L->u_unit, err)))
    return st;
  return AWE_OK;
}

/* ---- step-response group ---- */

awe_status awe_lin_h5_add_step(const char *path, const awe_step_h5 *sr, awe_err *err) {
  awe_h5_quiet q;
  awe_h5_quiet_on(&q);
  hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
  if (f < 0) {
    awe_h5_quiet_off(&q);
    return awe_err_set(err, AWE_EIO, "%s: cannot open the HDF5 log", path);
  }
  int rc = 0;
  hid_t g = H5Gcreate2(f, "step_response", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (g < 0) {
    rc = -1;
  } else {
    size_t ny = (size_t)sr->ny;
    rc |= awe_h5_put_str_attr(g, "input", sr->input);
    rc |= put_double_attr(g, "amplitude", sr->amplitude);
    rc |= put_double_attr(g, "band", sr->band);
    rc |= put_double_attr(g, "t_op", sr->t_op);
    rc |= put_strings(g, "names", sr->ny, (const char *const *)sr->names);
    rc |= put_strings(g, "units", sr->ny, sr->units);
    double *mt = calloc(ny * 9 + 1, sizeof(double));
    double *le = calloc(ny * 3 + 1, sizeof(double));
    if (!mt || !le) {
      rc = -1;
    } else {
      for (size_t i = 0; i < ny; i++) {
        const awe_step_metrics *m = &sr->metrics[i];
        double v[9] = {m->initial,   m->final,     m->gain,          m->rise_time, m->peak,
                       m->peak_time, m->overshoot, m->settling_time, m->delta};
        memcpy(mt + 9 * i, v, sizeof(v));
        if (sr->Ylin) {
          le[3 * i] = sr->err_max[i];
          le[3 * i + 1] = sr->err_rms[i];
          le[3 * i + 2] = sr->err_scale[i];
        }
      }
      rc |= put_doubles(g, "metrics", 2, ny, 9, mt);
      if (!rc) {
        hid_t d = H5Dopen2(g, "metrics", H5P_DEFAULT);
        rc |= d < 0 ? -1 : awe_h5_put_str_attr(d, "columns", "initial, final, gain, rise_time [s], "
                                                      "peak, peak_time [s], overshoot [%], "
                                                      "settling_time [s], delta");
        if (d >= 0) H5Dclose(d);
      }
      if (sr->Ylin) {
        rc |= put_doubles(g, "linear", 2, (hsize_t)sr->nt, ny, sr->Ylin);
        rc |= put_doubles(g, "linear_error", 2, ny, 3, le);
      }
    }
    free(mt);
    free(le);
    if (H5Gclose(g) < 0) rc = -1;
  }
  if (H5Fclose(f) < 0) rc = -1;
  awe_h5_quiet_off(&q);
  if (rc) return awe_err_set(err, AWE_EIO, "%s: cannot write the step-response group", path);
  return AWE_OK;
}
