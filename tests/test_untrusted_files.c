/* test_untrusted_files.c: files awesim did not write cannot corrupt its memory (issue 35).
 *
 * Each case crafts a file the way an attacker (or another tool) would and hands it to the
 * reader that took it on trust before the checked reader (io/h5_read.h) and the memory budget
 * (util/mem_budget.h): the read must fail with a message, allocate nothing beyond the budget,
 * and (under ASan, build/asan-tests) touch no byte outside its buffers.
 *   - a log whose /scenario is an array of strings (it was copied into one string's buffer)
 *   - a log whose /time announces 2^61 rows (the size computation wrapped)
 *   - a run log whose status attribute is an array (the sweep's merge overflowed), or whose
 *     /time or forces have an extent 0 (4 x 0: no element but 4 rows; found by fuzz_h5_inputs)
 *   - a trim whose /x_names is longer than /x (--from overflowed)
 *   - a wind box whose axis lengths multiply past 2^64 (a tiny buffer, then reads far past it)
 *   - a .bts whose scale is 1e-44 (inf and NaN wind, `wind info` exited 0)
 *   - a .npz of deflated zeros that inflates past the budget (a zip bomb)
 *   - a wind box over the budget, and the budget's parser
 *   - a linear model's text announcing 20000 states (3.2 GB of matrices) in 200 bytes
 */
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "io/load.h"
#include "io/wind_box_read.h"
#include "model/model.h"
#include "output/lin_output.h"
#include "output/log_read.h"
#include "output/trim_file.h"
#include "sweep/sweep.h"
#include "turb/mann.h"
#include "util/mem_budget.h"

static char dir[64];

static void path_of(char *p, size_t n, const char *name) { snprintf(p, n, "%s/%s", dir, name); }

/* an array of k fixed strings of width w, all "abc...", as dataset (attr 0) or attribute */
static void put_str_array(hid_t loc, const char *name, int attr, hsize_t k, size_t w) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, w);
  hid_t s = H5Screate_simple(1, &k, NULL);
  char *buf = malloc(k * w);
  memset(buf, 'a', k * w);
  if (attr) {
    hid_t a = H5Acreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, t, buf);
    H5Aclose(a);
  } else {
    hid_t d = H5Dcreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    H5Dclose(d);
  }
  free(buf);
  H5Sclose(s);
  H5Tclose(t);
}

/* a chunked dataset of the given extents with nothing written (HDF5 allocates no storage) */
static void put_huge(hid_t f, const char *name, int rank, const hsize_t *dims, hid_t type) {
  hsize_t chunk[3] = {1, 1, 1};
  hid_t s = H5Screate_simple(rank, dims, NULL);
  hid_t p = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(p, rank, chunk);
  hid_t d = H5Dcreate2(f, name, type, s, H5P_DEFAULT, p, H5P_DEFAULT);
  H5Dclose(d);
  H5Pclose(p);
  H5Sclose(s);
}

static void put_time(hid_t f, hsize_t n) {
  double t[4] = {0, 0.1, 0.2, 0.3};
  hid_t s = H5Screate_simple(1, &n, NULL);
  hid_t d = H5Dcreate2(f, "time", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t);
  H5Dclose(d);
  H5Sclose(s);
}

static void test_log_scenario_array(void) {
  char p[128];
  path_of(p, sizeof(p), "scen_array.h5");
  hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  put_time(f, 4);
  put_str_array(f, "scenario", 0, 64, 256); /* 16 KB of strings for a 256-byte buffer */
  H5Fclose(f);
  awe_log_data d;
  awe_err err = {0};
  ENSURE(awe_log_read(p, NULL, NULL, 0, &d, &err) == AWE_EINVAL);
  ENSURE_CONTAINS(err.msg, "/scenario holds 64 strings, one expected");
  awe_log_data_free(&d);
}

static void test_log_time_huge(void) {
  char p[128];
  path_of(p, sizeof(p), "time_huge.h5");
  hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t n = (hsize_t)1 << 61;
  put_huge(f, "time", 1, &n, H5T_NATIVE_DOUBLE);
  H5Fclose(f);
  awe_log_data d;
  awe_err err = {0};
  ENSURE(awe_log_read(p, NULL, NULL, 0, &d, &err) == AWE_ENOMEM);
  ENSURE_CONTAINS(err.msg, "/time");
  ENSURE_CONTAINS(err.msg, "more than the memory budget");
  awe_log_data_free(&d);
}

static void test_runlog_status_array(void) {
  char p[128];
  path_of(p, sizeof(p), "status_array.h5");
  hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  put_time(f, 4);
  put_str_array(f, "status", 1, 8, 4000); /* 32 KB into a 4 KB buffer */
  H5Fclose(f);
  awe_sweep_results r;
  awe_err err = {0};
  ENSURE(awe_sweep_h5_results(p, NAN, &r, &err) == AWE_OK);
  ENSURE_STR(r.status, ""); /* not one string: no status, the merge reports the run as such */
  ENSURE(r.rows == 4);
  /* the same as a variable-length string array */
  f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  put_time(f, 4);
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  hsize_t k = 3;
  hid_t s = H5Screate_simple(1, &k, NULL);
  const char *v[3] = {"complete", "diverged", "x"};
  hid_t a = H5Acreate2(f, "status", t, s, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, t, v);
  H5Aclose(a);
  H5Sclose(s);
  H5Tclose(t);
  H5Fclose(f);
  ENSURE(awe_sweep_h5_results(p, NAN, &r, &err) == AWE_OK);
  ENSURE_STR(r.status, "");
}

/* found by fuzz_h5_inputs: a /time of 4 x 0 (no element, 4 "rows") read 4 times past an empty
 * buffer in the merge; /winches/force of 4 x 2 x 0 the same way. Both are no data now. */
static void test_runlog_empty_extents(void) {
  char p[128];
  path_of(p, sizeof(p), "empty_extents.h5");
  hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t d2[2] = {4, 0};
  hid_t s = H5Screate_simple(2, d2, NULL);
  hid_t d = H5Dcreate2(f, "time", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dclose(d);
  H5Sclose(s);
  H5Fclose(f);
  awe_sweep_results r;
  awe_err err = {0};
  ENSURE(awe_sweep_h5_results(p, 0.05, &r, &err) == AWE_OK);
  ENSURE(r.rows == -1); /* no /time column: not 4 rows */
  /* a sound /time, forces of 4 x 2 x 0 */
  f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  put_time(f, 4);
  hsize_t d3[3] = {4, 2, 0};
  s = H5Screate_simple(3, d3, NULL);
  hid_t l = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(l, 1);
  d = H5Dcreate2(f, "winches/force", H5T_NATIVE_DOUBLE, s, l, H5P_DEFAULT, H5P_DEFAULT);
  H5Dclose(d);
  H5Pclose(l);
  H5Sclose(s);
  H5Fclose(f);
  ENSURE(awe_sweep_h5_results(p, 0.05, &r, &err) == AWE_OK);
  ENSURE(r.rows == 4);
  ENSURE(isnan(r.force_mean)); /* no forces, not 4 rows of whatever lies past the buffer */
}

static void test_trim_names_longer(void) {
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *spec = awe_spec_load("scenarios/2plate_parked.yaml", 0, NULL, &warn, &err);
  awe_diag_free(&warn);
  awe_model *m = spec ? awe_model_build(spec, &spec->warnings, &err) : NULL;
  ENSURE(m != NULL);
  if (!m) {
    awe_spec_free(spec);
    return;
  }
  int nx = m->reg.state.size, nu = m->reg.input.size;
  double *x = calloc((size_t)nx + 1, sizeof(double)), *u = calloc((size_t)nu + 1, sizeof(double));
  char p[128];
  path_of(p, sizeof(p), "trim.h5");
  ENSURE(awe_trim_write_h5(p, m, x, u, 0.0, 0.0, 1.0, NULL, &err) == AWE_OK);
  ENSURE(awe_trim_read_h5(p, m, x, u, &err) == AWE_OK); /* the file as written reads */
  hid_t f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
  H5Ldelete(f, "x_names", H5P_DEFAULT);
  put_str_array(f, "x_names", 0, (hsize_t)nx + 500, 128);
  H5Fclose(f);
  ENSURE(awe_trim_read_h5(p, m, x, u, &err) == AWE_EINVAL);
  ENSURE_CONTAINS(err.msg, "/x_names has");
  free(x);
  free(u);
  awe_model_free(m);
  awe_spec_free(spec);
}

static void test_box_dims_wrap(void) {
  char p[128];
  path_of(p, sizeof(p), "box_wrap.h5");
  hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  /* 2^22 cubed is 2^66 points: the old size_t product wrapped to 0 */
  hsize_t dims[3] = {(hsize_t)1 << 22, (hsize_t)1 << 22, (hsize_t)1 << 22};
  put_huge(f, "u", 3, dims, H5T_NATIVE_FLOAT);
  put_huge(f, "v", 3, dims, H5T_NATIVE_FLOAT);
  put_huge(f, "w", 3, dims, H5T_NATIVE_FLOAT);
  H5Fclose(f);
  awe_wind_box b;
  awe_err err = {0};
  ENSURE(awe_wind_box_read(p, &b, &err) == AWE_ENOMEM);
  ENSURE_CONTAINS(err.msg, "more than the memory budget");
  ENSURE(b.u == NULL);
}

/* a .bts header (TurbSim's layout, wind_box_read.c) with the given u scale, and its data */
static void write_bts(const char *p, float scale_u) {
  FILE *f = fopen(p, "wb");
  if (!f) return;
  int16_t id = 7;
  int32_t nz = 2, ny = 2, ntw = 0, nt = 2, nch = 0;
  float hdr[15] = {1, 1, 0.1f, 10, 50, 49, scale_u, 0, 100, 0, 100, 0};
  fwrite(&id, 2, 1, f);
  fwrite(&nz, 4, 1, f);
  fwrite(&ny, 4, 1, f);
  fwrite(&ntw, 4, 1, f);
  fwrite(&nt, 4, 1, f);
  fwrite(hdr, 4, 12, f);
  fwrite(&nch, 4, 1, f);
  int16_t v[24];
  for (int i = 0; i < 24; i++) v[i] = (int16_t)(1000 * (i % 3) + i);
  fwrite(v, 2, 24, f);
  fclose(f);
}

static void test_bts_tiny_scale(void) {
  char p[128];
  path_of(p, sizeof(p), "tiny.bts");
  write_bts(p, 1e-44f);
  awe_wind_box b;
  awe_err err = {0};
  ENSURE(awe_wind_box_read(p, &b, &err) == AWE_EINVAL);
  ENSURE_CONTAINS(err.msg, "the u scale");
  ENSURE(b.u == NULL);
  write_bts(p, 100.0f); /* the same file with a sane scale reads, and its wind is finite */
  ENSURE(awe_wind_box_read(p, &b, &err) == AWE_OK);
  int finite = 1;
  for (int i = 0; b.u && i < 8; i++) finite &= isfinite(b.u[i]) && isfinite(b.v[i]);
  ENSURE(finite);
  awe_wind_box_free(&b);
}

static void test_npz_bomb(void) {
  char cmd[1024];
  snprintf(cmd, sizeof(cmd),
           "/usr/bin/python3 -c \"import numpy as np; z = np.zeros((64, 64, 256)); "
           "np.savez_compressed('%s/bomb.npz', u=z, v=z, w=z, param=np.array([0.1, 8.0]))\"",
           dir);
  ENSURE(system(cmd) == 0);
  char p[128];
  path_of(p, sizeof(p), "bomb.npz");
  awe_wind_box b;
  awe_err err = {0};
  setenv("AWESIM_MAX_MEMORY", "4M", 1); /* 8 MiB of zeros per array, in about 8 KB */
  ENSURE(awe_wind_box_read(p, &b, &err) == AWE_ENOMEM);
  ENSURE_CONTAINS(err.msg, "u.npy (8388736 bytes inflated)");
  setenv("AWESIM_MAX_MEMORY", "1G", 1);
  ENSURE(awe_wind_box_read(p, &b, &err) == AWE_OK);
  awe_wind_box_free(&b);
  unsetenv("AWESIM_MAX_MEMORY");
}

/* a linear model's text whose counts announce 20000 states (3.2 GB of matrices in a 200-byte
 * file): refused by the budget before the matrices are allocated */
static void test_lin_counts(void) {
  char p[128];
  path_of(p, sizeof(p), "big.lin");
  FILE *f = fopen(p, "w");
  fputs("Linearized model\nSimulation time: 0 s\nNumber of continuous states: 20000\n"
        "Number of inputs: 0\nNumber of outputs: 0\n", f);
  fclose(f);
  setenv("AWESIM_MAX_MEMORY", "1G", 1);
  awe_linsys L;
  awe_err err = {0};
  ENSURE(awe_lin_read_text(p, &L, NULL, &err) == AWE_ENOMEM);
  ENSURE_CONTAINS(err.msg, "a linear model of 20000 states, 0 inputs, 0 outputs");
  ENSURE_CONTAINS(err.msg, "more than the memory budget");
  awe_linsys_free(&L);
  unsetenv("AWESIM_MAX_MEMORY");
}

static void test_budget(void) {
  double v;
  ENSURE(awe_mem_parse("16G", &v) == 0 && v == 16.0 * 1073741824.0);
  ENSURE(awe_mem_parse("512MiB", &v) == 0 && v == 512.0 * 1048576.0);
  ENSURE(awe_mem_parse("2.5e9", &v) == 0 && v == 2.5e9);
  ENSURE(awe_mem_parse("-1G", &v) != 0 && awe_mem_parse("12Q", &v) != 0);
  ENSURE(awe_mem_parse("", &v) != 0 && awe_mem_parse(NULL, &v) != 0);
  /* default: half the physical memory */
  unsetenv("AWESIM_MAX_MEMORY");
  double half = 0.5 * (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
  ENSURE_REL(awe_mem_budget(), half, 1e-12);
  /* a generated box is refused before its spectra are allocated */
  setenv("AWESIM_MAX_MEMORY", "64M", 1);
  awe_mann_spec s;
  awe_mann_defaults(&s);
  s.n[0] = 1024, s.n[1] = 256, s.n[2] = 256;
  awe_wind_box b;
  awe_err err = {0};
  ENSURE(awe_mann_box(&s, &b, &err) == AWE_ENOMEM);
  ENSURE_CONTAINS(err.msg, "a 1024 x 256 x 256 wind box needs");
  unsetenv("AWESIM_MAX_MEMORY");
}

int main(void) {
  snprintf(dir, sizeof(dir), "/tmp/awe_untrusted_XXXXXX");
  if (!mkdtemp(dir)) return 1;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* the crafted files' own errors are expected */
  RUN(test_log_scenario_array);
  RUN(test_log_time_huge);
  RUN(test_runlog_status_array);
  RUN(test_runlog_empty_extents);
  RUN(test_trim_names_longer);
  RUN(test_box_dims_wrap);
  RUN(test_bts_tiny_scale);
  RUN(test_npz_bomb);
  RUN(test_lin_counts);
  RUN(test_budget);
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
  if (system(cmd)) return 1;
  return harness_report();
}
