/* sweep_h5.c: the results columns of a sweep's summary.csv from one run's HDF5 log
 * (writer_hdf5.c's layout: /time [T]; /winches/force, /winches/vel [T,N]; /segments/force
 * [T,N]; /wings/elevation [T,N] with attr units; /points/pos [T,N,3]). Read-only; HDF5's
 * automatic error printing is off (library code never prints). */
#include "sweep/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "output/h5_util.h"

static int has(hid_t f, const char *group, const char *name) {
  if (H5Lexists(f, group, H5P_DEFAULT) <= 0) return 0;
  return H5Lexists(f, name, H5P_DEFAULT) > 0;
}

/* is the dataset's units attribute in degrees? (absent, or not one string: no) */
static int in_degrees(hid_t f, const char *name) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return 0;
  char *s = NULL;
  awe_h5_read_str_named(d, "units", 1, 256, "", &s, NULL);
  int deg = s && !strncmp(s, "deg", 3);
  free(s);
  H5Dclose(d);
  return deg;
}

/* the root's status attribute (one fixed or variable-length string) into r->status; an array
 * or another type is refused by the checked reader and reads as no status */
static void read_status(hid_t f, awe_sweep_results *r) {
  r->status[0] = 0;
  char *s = NULL;
  if (awe_h5_read_str_named(f, "status", 1, 4096, "", &s, NULL) == AWE_OK)
    snprintf(r->status, sizeof(r->status), "%s", s);
  free(s);
}

static void from_file(hid_t f, double t0, awe_sweep_results *r) {
  hsize_t dt[3], dw[3], dv[3], ds[3], de[3], dp[3];
  int rk;
  read_status(f, r);
  double *t = awe_h5_read_doubles(f, "time", dt, &rk);
  if (t && rk != 1) { /* /time is one column */
    free(t);
    t = NULL;
  }
  if (!t) return;
  r->rows = (long)dt[0];
  hsize_t T = dt[0], first = 0;
  while (first < T && isfinite(t0) && t[first] < t0) first++;
  free(t);
  if (first >= T) return;
  double n = (double)(T - first);

  double *wf = has(f, "winches", "winches/force") ? awe_h5_read_doubles(f, "winches/force", dw, &rk) : NULL;
  double *wv = has(f, "winches", "winches/vel") ? awe_h5_read_doubles(f, "winches/vel", dv, &rk) : NULL;
  double *sf = (!wf && has(f, "segments", "segments/force"))
                   ? awe_h5_read_doubles(f, "segments/force", ds, &rk) : NULL;
  const double *fsrc = wf ? wf : sf;
  const hsize_t *fd = wf ? dw : ds;
  if (fsrc && fd[0] == T && fd[1] > 0) {
    double sum = 0, mx = -INFINITY, psum = 0;
    int power = wf && wv && dv[0] == T && dv[1] == dw[1];
    for (hsize_t i = first; i < T; i++) {
      double fi = wf ? 0 : -INFINITY, pi = 0;
      for (hsize_t j = 0; j < fd[1]; j++) {
        double x = fsrc[i * fd[1] + j];
        if (wf) fi += x;
        else if (x > fi) fi = x;
        if (power) pi += x * wv[i * fd[1] + j];
      }
      sum += fi;
      if (fi > mx) mx = fi;
      psum += pi;
    }
    r->force_mean = sum / n;
    r->force_max = mx;
    if (power) r->power_mean = psum / n;
  }
  free(wf);
  free(wv);
  free(sf);

  double *el = has(f, "wings", "wings/elevation") ? awe_h5_read_doubles(f, "wings/elevation", de, &rk) : NULL;
  if (el && de[0] == T && de[1] > 0) {
    double e = el[(T - 1) * de[1]];
    r->elevation_final = in_degrees(f, "wings/elevation") ? e : e * 180.0 / M_PI;
  } else {
    double *p = has(f, "points", "points/pos") ? awe_h5_read_doubles(f, "points/pos", dp, &rk) : NULL;
    if (p && rk == 3 && dp[0] == T && dp[2] == 3 && dp[1] > 0) {
      /* the farthest moving point at the last selected row (over the window) */
      double best = -1;
      hsize_t N = dp[1];
      for (hsize_t j = 0; j < N; j++) {
        double span = 0;
        for (int c = 0; c < 3; c++) {
          double lo = INFINITY, hi = -INFINITY;
          for (hsize_t i = first; i < T; i++) {
            double x = p[(i * N + j) * 3 + c];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
          }
          span = hi - lo > span ? hi - lo : span;
        }
        const double *q = p + ((T - 1) * N + j) * 3;
        double d = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        if (span > 1e-9 && d > best) {
          best = d;
          r->elevation_final = q[2] > 0 ? atan2(q[2], hypot(q[0], q[1])) * 180.0 / M_PI : NAN;
        }
      }
    }
    free(p);
  }
  free(el);
}

_Static_assert(sizeof(hid_t) == sizeof(int64_t), "hid_t is int64_t from HDF5 1.10 on");

void awe_sweep_h5_results_file(int64_t f, double t0, awe_sweep_results *r) {
  *r = (awe_sweep_results){NAN, NAN, NAN, NAN, -1, ""};
  from_file(f, t0, r);
}


awe_status awe_sweep_h5_results(const char *path, double t0, awe_sweep_results *r,
                                awe_err *err) {
  *r = (awe_sweep_results){NAN, NAN, NAN, NAN, -1, ""};
  H5E_auto2_t fn;
  void *data;
  H5Eget_auto2(H5E_DEFAULT, &fn, &data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  awe_status st = AWE_OK;
  if (f < 0) {
    st = awe_err_set(err, AWE_ENOFILE, "%s: cannot open as HDF5", path);
  } else {
    from_file(f, t0, r);
    H5Fclose(f);
  }
  H5Eset_auto2(H5E_DEFAULT, fn, data);
  return st;
}
