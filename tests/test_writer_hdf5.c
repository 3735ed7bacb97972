/* test_writer_hdf5.c: the HDF5 log (writer_hdf5.c), read back through the HDF5 C API.
 *
 * A fake output registry (two points with pos, three segments with force, a non-logged entry,
 * a group-level wind.v_wind, tethers whose datasets cover different components, a quaternion)
 * and rows of known numbers: shapes, units, names, root attributes, bit-exact values, status
 * on failure/interrupt, a file left by SIGKILL between flushes, bit-identical reruns.
 */
#include <hdf5.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "output/writer.h"

#define NROW_MAX 64

static char dir[256];

static void path_of(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }


/* the fake output list (18 scalars) */
static void make_list(awe_varlist *l) {
  memset(l, 0, sizeof(*l));
  const unsigned L = AWE_VF_LOG;
  awe_varlist_add(l, "points", "a", 0, "pos", "m", 3, 0, L);          /* 0..2 */
  awe_varlist_add(l, "points", "b", 1, "pos", "m", 3, 0, L);          /* 3..5 */
  awe_varlist_add(l, "segments", "s1", 0, "force", "N", 1, 0, L);     /* 6 */
  awe_varlist_add(l, "segments", "s2", 1, "force", "N", 1, 0, L);     /* 7 */
  awe_varlist_add(l, "segments", "s3", 2, "force", "N", 1, 0, L);     /* 8 */
  awe_varlist_add(l, "wind", "", 0, "v_wind", "m/s", 1, 0, L);        /* 9 */
  awe_varlist_add(l, "segments", "s1", 0, "hidden", "m", 1, 0, 0);    /* 10: not logged */
  awe_varlist_add(l, "tethers", "t1", 0, "len", "m", 1, 0, L);        /* 11 */
  awe_varlist_add(l, "tethers", "t2", 1, "len", "m", 1, 0, L);        /* 12 */
  awe_varlist_add(l, "tethers", "t2", 1, "stretched_len", "m", 1, 0, L); /* 13 */
  awe_varlist_add(l, "wings", "w", 0, "quat", "-", 4, 0, L);          /* 14..17 */
}


/* element k of row r: distinct, non-trivial doubles (bit-exact round trip expected) */
static double val(int r, int k) { return (r + 1) * 1.1 + k / 3.0 - 1e-7 * r * k; }
static double tim(int r) { return 0.05 * r; }


static void fill(double *out, int size, int r) {
  for (int k = 0; k < size; k++) out[k] = val(r, k);
}


/* write nrow rows to path; returns the open writer (not closed) */
static awe_h5 *write_rows_gz(const char *path, const awe_varlist *l, int block, int nrow,
                             int gzip) {
  awe_err err = {0};
  awe_h5_info info = {.solver = "rk8pd", .command_line = "awesim simulate x.yaml -o out.h5",
                      .scenario = "name: test\nrun: {duration: 1}\n", .block_rows = block,
                      .gzip_level = gzip};
  awe_h5 *w = awe_h5_open(path, l, &info, &err);
  if (!w) {
    fprintf(stderr, "open: %s\n", err.msg);
    return NULL;
  }
  double out[32];
  for (int r = 0; r < nrow; r++) {
    fill(out, l->size, r);
    if (awe_h5_write_row(w, tim(r), out, &err)) fprintf(stderr, "write: %s\n", err.msg);
  }
  return w;
}


static awe_h5 *write_rows(const char *path, const awe_varlist *l, int block, int nrow) {
  return write_rows_gz(path, l, block, nrow, 0);
}

/* ---- reading helpers ---------------------------------------------------------------------- */

static hid_t open_file(const char *path) { return H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT); }


/* string attribute (fixed or variable length) into buf; "" if absent */
static const char *str_attr(hid_t loc, const char *obj, const char *name, char *buf, size_t n) {
  buf[0] = 0;
  if (H5Aexists_by_name(loc, obj, name, H5P_DEFAULT) <= 0) return "(absent)";
  hid_t a = H5Aopen_by_name(loc, obj, name, H5P_DEFAULT, H5P_DEFAULT);
  hid_t t = H5Aget_type(a);
  if (H5Tis_variable_str(t) > 0) {
    char *s = NULL;
    H5Aread(a, t, &s);
    snprintf(buf, n, "%s", s ? s : "");
    H5free_memory(s);
  } else {
    size_t sz = H5Tget_size(t);
    char *tmp = calloc(1, sz + 1);
    H5Aread(a, t, tmp);
    snprintf(buf, n, "%s", tmp);
    free(tmp);
  }
  H5Tclose(t);
  H5Aclose(a);
  return buf;
}


static double num_attr(hid_t loc, const char *name) {
  double v = -999;
  hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
  if (a < 0) return v;
  H5Aread(a, H5T_NATIVE_DOUBLE, &v);
  H5Aclose(a);
  return v;
}


/* string-array attribute `name` on obj as "a,b,c" */
static const char *list_attr(hid_t f, const char *obj, const char *name, char *buf, size_t n) {
  buf[0] = 0;
  if (H5Aexists_by_name(f, obj, name, H5P_DEFAULT) <= 0) return "(absent)";
  hid_t a = H5Aopen_by_name(f, obj, name, H5P_DEFAULT, H5P_DEFAULT);
  hid_t t = H5Aget_type(a), s = H5Aget_space(a);
  hssize_t cnt = H5Sget_simple_extent_npoints(s);
  size_t sz = H5Tget_size(t);
  char *tmp = calloc((size_t)cnt, sz);
  H5Aread(a, t, tmp);
  size_t o = 0;
  for (hssize_t i = 0; i < cnt; i++)
    o += (size_t)snprintf(buf + o, n - o, "%s%.*s", i ? "," : "", (int)sz, tmp + (size_t)i * sz);
  free(tmp);
  H5Sclose(s);
  H5Tclose(t);
  H5Aclose(a);
  return buf;
}


static const char *names_attr(hid_t f, const char *obj, char *buf, size_t n) {
  return list_attr(f, obj, "names", buf, n);
}


/* dataset shape as "10x2x3"; data read into v (capacity cap) */
static const char *shape(hid_t f, const char *name, char *buf, size_t n, double *v, size_t cap) {
  buf[0] = 0;
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return "(absent)";
  hid_t s = H5Dget_space(d);
  hsize_t dims[4] = {0};
  int rank = H5Sget_simple_extent_ndims(s);
  H5Sget_simple_extent_dims(s, dims, NULL);
  size_t o = 0, total = 1;
  for (int k = 0; k < rank; k++) {
    o += (size_t)snprintf(buf + o, n - o, "%s%llu", k ? "x" : "", (unsigned long long)dims[k]);
    total *= dims[k];
  }
  if (v && total <= cap && total > 0)
    H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
  H5Sclose(s);
  H5Dclose(d);
  return buf;
}


static int nfilters(hid_t f, const char *name) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  hid_t p = H5Dget_create_plist(d);
  int n = H5Pget_nfilters(p);
  hsize_t chunk[3] = {0};
  H5Pget_chunk(p, 3, chunk);
  H5Pclose(p);
  H5Dclose(d);
  return n * 100000 + (int)chunk[0];
}


/* root attributes and every dataset of a file with nrow rows, values bit-exact */
static void check_file(const char *path, int nrow, const char *status) {
  static double v[NROW_MAX * 8];
  const size_t cap = sizeof(v) / sizeof(v[0]);
  char b[256], e[64];
  hid_t f = open_file(path);
  ENSURE(f >= 0);
  if (f < 0) return;
  ENSURE_STR(str_attr(f, ".", "status", b, sizeof(b)), status);
  ENSURE_STR(str_attr(f, ".", "awesim_version", b, sizeof(b)), AWE_VERSION);
  ENSURE(num_attr(f, "schema_version") == 1.0);
  if (nrow) ENSURE(num_attr(f, "t_end") == tim(nrow - 1));
  else ENSURE(isnan(num_attr(f, "t_end")));

  snprintf(e, sizeof(e), "%d", nrow);
  ENSURE_STR(shape(f, "time", b, sizeof(b), v, cap), e);
  for (int r = 0; r < nrow; r++) ENSURE(v[r] == tim(r));
  ENSURE_STR(str_attr(f, "time", "units", b, sizeof(b)), "s");

  snprintf(e, sizeof(e), "%dx2x3", nrow);
  memset(v, 0, sizeof(v));
  ENSURE_STR(shape(f, "points/pos", b, sizeof(b), v, cap), e);
  int bad = 0;
  for (int r = 0; r < nrow; r++)
    for (int k = 0; k < 6; k++) bad += v[r * 6 + k] != val(r, k);
  ENSURE(bad == 0);

  snprintf(e, sizeof(e), "%dx3", nrow);
  ENSURE_STR(shape(f, "segments/force", b, sizeof(b), v, cap), e);
  bad = 0;
  for (int r = 0; r < nrow; r++)
    for (int k = 0; k < 3; k++) bad += v[r * 3 + k] != val(r, 6 + k);
  ENSURE(bad == 0);

  snprintf(e, sizeof(e), "%d", nrow);
  ENSURE_STR(shape(f, "wind/v_wind", b, sizeof(b), v, cap), e);
  bad = 0;
  for (int r = 0; r < nrow; r++) bad += v[r] != val(r, 9);
  ENSURE(bad == 0);

  snprintf(e, sizeof(e), "%dx2", nrow);
  ENSURE_STR(shape(f, "tethers/len", b, sizeof(b), v, cap), e);
  bad = 0;
  for (int r = 0; r < nrow; r++)
    for (int k = 0; k < 2; k++) bad += v[r * 2 + k] != val(r, 11 + k);
  ENSURE(bad == 0);
  snprintf(e, sizeof(e), "%dx1", nrow);
  ENSURE_STR(shape(f, "tethers/stretched_len", b, sizeof(b), v, cap), e);
  bad = 0;
  for (int r = 0; r < nrow; r++) bad += v[r] != val(r, 13);
  ENSURE(bad == 0);

  snprintf(e, sizeof(e), "%dx1x4", nrow);
  ENSURE_STR(shape(f, "wings/quat", b, sizeof(b), v, cap), e);
  bad = 0;
  for (int r = 0; r < nrow; r++)
    for (int k = 0; k < 4; k++) bad += v[r * 4 + k] != val(r, 14 + k);
  ENSURE(bad == 0);
  H5Fclose(f);
}


static void test_layout(void) {
  char path[300], b[256];
  path_of(path, sizeof(path), "layout.h5");
  awe_varlist l;
  make_list(&l);
  ENSURE(l.size == 18);
  awe_h5 *w = write_rows(path, &l, 4, 10);  /* two full blocks + two buffered rows */
  ENSURE(w != NULL);
  ENSURE(awe_h5_rows(w) == 10);
  awe_err err = {0};
  ENSURE(awe_h5_set_attr_int(w, "steps", 123456789012LL, &err) == AWE_OK);
  ENSURE(awe_h5_set_attr_double(w, "wall_time", 0.25, &err) == AWE_OK);
  ENSURE(awe_h5_set_attr_str(w, "note", "first", &err) == AWE_OK);
  ENSURE(awe_h5_set_attr_str(w, "note", "second, longer", &err) == AWE_OK);  /* replaced */
  ENSURE(awe_h5_close(w, AWE_RUN_COMPLETE, NULL, &err) == AWE_OK);
  check_file(path, 10, "complete");

  hid_t f = open_file(path);
  ENSURE_STR(str_attr(f, ".", "solver", b, sizeof(b)), "rk8pd");
  ENSURE_STR(str_attr(f, ".", "command_line", b, sizeof(b)), "awesim simulate x.yaml -o out.h5");
  ENSURE_STR(str_attr(f, ".", "note", b, sizeof(b)), "second, longer");
  ENSURE_STR(str_attr(f, ".", "error", b, sizeof(b)), "(absent)");
  ENSURE(num_attr(f, "wall_time") == 0.25);
  {
    long long steps = 0;
    hid_t a = H5Aopen(f, "steps", H5P_DEFAULT);
    hid_t t = H5Aget_type(a);
    ENSURE(H5Tget_class(t) == H5T_INTEGER && H5Tget_size(t) == 8);
    H5Aread(a, H5T_NATIVE_LLONG, &steps);
    ENSURE(steps == 123456789012LL);
    H5Tclose(t);
    H5Aclose(a);
  }
  /* /scenario: the text as given */
  {
    hid_t d = H5Dopen2(f, "scenario", H5P_DEFAULT);
    hid_t t = H5Dget_type(d);
    char text[128] = {0};
    ENSURE(H5Tget_class(t) == H5T_STRING && H5Tget_size(t) < sizeof(text));
    H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, text);
    ENSURE_STR(text, "name: test\nrun: {duration: 1}\n");
    H5Tclose(t);
    H5Dclose(d);
  }
  /* units and names */
  ENSURE_STR(str_attr(f, "points/pos", "units", b, sizeof(b)), "m");
  ENSURE_STR(str_attr(f, "segments/force", "units", b, sizeof(b)), "N");
  ENSURE_STR(str_attr(f, "wind/v_wind", "units", b, sizeof(b)), "m/s");
  ENSURE_STR(str_attr(f, "wings/quat", "units", b, sizeof(b)), "-");
  ENSURE_STR(names_attr(f, "points", b, sizeof(b)), "a,b");
  ENSURE_STR(names_attr(f, "segments", b, sizeof(b)), "s1,s2,s3");
  ENSURE_STR(names_attr(f, "tethers", b, sizeof(b)), "t1,t2");
  ENSURE_STR(names_attr(f, "wings", b, sizeof(b)), "w");
  ENSURE_STR(names_attr(f, "wind", b, sizeof(b)), "(absent)");  /* group-level only */
  ENSURE_STR(names_attr(f, "tethers/len", b, sizeof(b)), "(absent)");  /* same as group */
  ENSURE_STR(names_attr(f, "tethers/stretched_len", b, sizeof(b)), "t2");
  ENSURE(H5Lexists(f, "segments/hidden", H5P_DEFAULT) == 0);  /* not AWE_VF_LOG */
  /* chunked along time (4 rows per chunk), uncompressed by default (deflate costs more than
     the physics) */
  ENSURE(nfilters(f, "points/pos") == 4);
  ENSURE(nfilters(f, "time") == 4);
  H5Fclose(f);

  /* with compression asked for: shuffle + deflate, same values */
  int filt = (H5Zfilter_avail(H5Z_FILTER_SHUFFLE) > 0) + (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0);
  ENSURE(filt == 2);  /* Debian's libhdf5 has both */
  awe_err err2 = {0};
  path_of(path, sizeof(path), "gzip.h5");
  w = write_rows_gz(path, &l, 3, 7, 4);
  ENSURE(awe_h5_close(w, AWE_RUN_COMPLETE, NULL, &err2) == AWE_OK);
  check_file(path, 7, "complete");
  f = open_file(path);
  ENSURE(nfilters(f, "points/pos") == filt * 100000 + 3);
  ENSURE(nfilters(f, "time") == filt * 100000 + 3);
  H5Fclose(f);
  awe_varlist_free(&l);
}


static void test_failed_and_interrupted(void) {
  char path[300], b[256];
  awe_varlist l;
  make_list(&l);
  awe_err err = {0};

  path_of(path, sizeof(path), "failed.h5");
  awe_h5 *w = write_rows(path, &l, 0, 3);  /* automatic block: all three rows buffered */
  ENSURE(awe_h5_close(w, AWE_RUN_FAILED, "t=0.1: non-finite state points.a.pos.z", &err) ==
         AWE_OK);
  check_file(path, 3, "failed");
  hid_t f = open_file(path);
  ENSURE_STR(str_attr(f, ".", "error", b, sizeof(b)), "t=0.1: non-finite state points.a.pos.z");
  H5Fclose(f);

  path_of(path, sizeof(path), "interrupted.h5");
  w = write_rows(path, &l, 2, 5);
  ENSURE(awe_h5_close(w, AWE_RUN_INTERRUPTED, NULL, &err) == AWE_OK);
  check_file(path, 5, "interrupted");

  /* no rows at all: /time is [0], t_end NaN */
  path_of(path, sizeof(path), "empty.h5");
  w = write_rows(path, &l, 0, 0);
  ENSURE(awe_h5_close(w, AWE_RUN_COMPLETE, NULL, &err) == AWE_OK);
  check_file(path, 0, "complete");

  /* explicit flush mid-block, then more rows: still one consistent series */
  path_of(path, sizeof(path), "flush.h5");
  w = write_rows(path, &l, 4, 0);
  double out[32];
  for (int r = 0; r < 11; r++) {
    fill(out, l.size, r);
    ENSURE(awe_h5_write_row(w, tim(r), out, &err) == AWE_OK);
    if (r == 1 || r == 6) ENSURE(awe_h5_flush(w, &err) == AWE_OK);
  }
  ENSURE(awe_h5_close(w, AWE_RUN_COMPLETE, NULL, &err) == AWE_OK);
  check_file(path, 11, "complete");

  /* NULL writer: everything is a no-op */
  ENSURE(awe_h5_write_row(NULL, 0.0, out, &err) == AWE_OK);
  ENSURE(awe_h5_set_attr_double(NULL, "x", 1.0, &err) == AWE_OK);
  ENSURE(awe_h5_rows(NULL) == 0);
  ENSURE(awe_h5_close(NULL, AWE_RUN_COMPLETE, NULL, &err) == AWE_OK);
  awe_varlist_free(&l);
}


/* A child writes 20 rows with blocks of 8 and is killed: the file holds the 16 flushed rows. */
static void test_sigkill_partial(void) {
  char path[300], b[64];
  awe_varlist l;
  make_list(&l);
  for (int variant = 0; variant < 2; variant++) {
    path_of(path, sizeof(path), variant ? "killed_open.h5" : "killed.h5");
    int nrow = variant ? 0 : 20;
    fflush(NULL);
    pid_t pid = fork();
    ENSURE(pid >= 0);
    if (pid == 0) {
      awe_h5 *w = write_rows(path, &l, 8, nrow);
      if (!w) _exit(3);
      if (variant) _exit(0);  /* exit without closing */
      raise(SIGKILL);
      _exit(4);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (variant) ENSURE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    else ENSURE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    check_file(path, variant ? 0 : 16, "running");
    hid_t f = open_file(path);
    ENSURE_STR(str_attr(f, ".", "solver", b, sizeof(b)), "rk8pd");
    if (f >= 0) H5Fclose(f);
  }

  /* the time bound: 3 rows of a 1000-row block, then a row after more than
     AWE_H5_FLUSH_SECONDS of wall time writes the partial block; a SIGKILL then loses nothing */
  path_of(path, sizeof(path), "killed_slow.h5");
  fflush(NULL);
  pid_t pid = fork();
  ENSURE(pid >= 0);
  if (pid == 0) {
    awe_h5 *w = write_rows(path, &l, 1000, 3);
    if (!w) _exit(3);
    struct timespec nap = {1, 100000000};
    nanosleep(&nap, NULL);
    double out[32];
    awe_err err = {0};
    fill(out, l.size, 3);
    if (awe_h5_write_row(w, tim(3), out, &err)) _exit(5);
    raise(SIGKILL);
    _exit(4);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  ENSURE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  check_file(path, 4, "running");
  awe_varlist_free(&l);
}


static int same_bytes(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  int same = fa && fb;
  while (same) {
    int ca = fgetc(fa), cb = fgetc(fb);
    if (ca != cb) same = 0;
    if (ca == EOF || cb == EOF) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same;
}


static void test_bit_identical(void) {
  char p1[300], p2[300];
  path_of(p1, sizeof(p1), "same1.h5");
  path_of(p2, sizeof(p2), "same2.h5");
  awe_varlist l;
  make_list(&l);
  awe_err err = {0};
  awe_h5 *w = write_rows(p1, &l, 4, 30);
  awe_h5_set_attr_double(w, "wall_time", 1.5, &err);
  awe_h5_close(w, AWE_RUN_COMPLETE, NULL, &err);
  sleep(1);  /* any timestamp would now differ */
  w = write_rows(p2, &l, 4, 30);
  awe_h5_set_attr_double(w, "wall_time", 1.5, &err);
  awe_h5_close(w, AWE_RUN_COMPLETE, NULL, &err);
  ENSURE(same_bytes(p1, p2));
  awe_varlist_free(&l);
}


static void test_errors(void) {
  awe_varlist l;
  make_list(&l);
  awe_err err = {0};
  /* nothing may be printed: send stderr to a file for the duration */
  char epath[300];
  path_of(epath, sizeof(epath), "stderr.txt");
  fflush(stderr);
  int saved = dup(2);
  FILE *ef = fopen(epath, "w");
  dup2(fileno(ef), 2);

  awe_h5 *w = awe_h5_open("/nonexistent-dir/x/out.h5", &l, NULL, &err);
  ENSURE(w == NULL);
  ENSURE(err.code == AWE_EIO);
  ENSURE_CONTAINS(err.msg, "/nonexistent-dir/x/out.h5");

  /* a (group, var) split into two runs cannot become one dataset */
  awe_varlist bad;
  memset(&bad, 0, sizeof(bad));
  awe_varlist_add(&bad, "points", "a", 0, "pos", "m", 3, 0, AWE_VF_LOG);
  awe_varlist_add(&bad, "points", "a", 0, "vel", "m/s", 3, 0, AWE_VF_LOG);
  awe_varlist_add(&bad, "points", "b", 1, "pos", "m", 3, 0, AWE_VF_LOG);
  char path[300];
  path_of(path, sizeof(path), "bad.h5");
  err.code = AWE_OK;
  ENSURE(awe_h5_open(path, &bad, NULL, &err) == NULL);
  ENSURE(err.code == AWE_EINTERNAL);
  ENSURE_CONTAINS(err.msg, "points.pos");
  awe_varlist_free(&bad);

  /* components of different units in one dataset (controllers on a length and on a speed):
   * units "mixed", component_units one per component */
  awe_varlist_add(&bad, "controllers", "a", 0, "measure", "m", 1, 0, AWE_VF_LOG);
  awe_varlist_add(&bad, "controllers", "b", 1, "measure", "m/s", 1, 0, AWE_VF_LOG);
  err.code = AWE_OK;
  awe_h5 *h = awe_h5_open(path, &bad, NULL, &err);
  ENSURE(h != NULL);
  if (h) {
    double row[2] = {1.0, 2.0};
    ENSURE(awe_h5_write_row(h, 0.0, row, &err) == AWE_OK);
    ENSURE(awe_h5_close(h, AWE_RUN_COMPLETE, NULL, &err) == AWE_OK);
    hid_t f = open_file(path);
    char b[128];
    ENSURE_STR(str_attr(f, "controllers/measure", "units", b, sizeof(b)), "mixed");
    ENSURE_STR(list_attr(f, "controllers/measure", "component_units", b, sizeof(b)), "m,m/s");
    H5Fclose(f);
  }
  awe_varlist_free(&bad);

  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  fclose(ef);
  FILE *in = fopen(epath, "r");
  char text[512] = {0};
  size_t n = in ? fread(text, 1, sizeof(text) - 1, in) : 0;
  if (in) fclose(in);
  ENSURE(n == 0);
  if (n) fprintf(stderr, "printed: %s\n", text);
  awe_varlist_free(&l);
}


/* output.channels leaves components out: points a and c logged, b between them not (the
 * writer gathers a and c into one dataset); deflate without shuffle has one filter */
static void test_gaps_and_deflate(void) {
  awe_varlist l;
  memset(&l, 0, sizeof(l));
  const unsigned L = AWE_VF_LOG;
  awe_varlist_add(&l, "points", "a", 0, "pos", "m", 3, 0, L);   /* 0..2 */
  awe_varlist_add(&l, "points", "b", 1, "pos", "m", 3, 0, 0);   /* 3..5: left out */
  awe_varlist_add(&l, "points", "c", 2, "pos", "m", 3, 0, L);   /* 6..8 */
  awe_varlist_add(&l, "segments", "s1", 0, "force", "N", 1, 0, 0); /* 9 */
  awe_varlist_add(&l, "segments", "s2", 1, "force", "N", 1, 0, L); /* 10 */
  char path[300];
  path_of(path, sizeof(path), "gaps.h5");
  awe_err err = {0};
  awe_h5_info info = {.block_rows = 4, .gzip_level = 5, .no_shuffle = 1};
  awe_h5 *w = awe_h5_open(path, &l, &info, &err);
  ENSURE(w != NULL);
  if (!w) return;
  double out[16];
  for (int r = 0; r < 10; r++) {
    fill(out, l.size, r);
    ENSURE(awe_h5_write_row(w, tim(r), out, &err) == AWE_OK);
  }
  ENSURE(awe_h5_close(w, AWE_RUN_COMPLETE, NULL, &err) == AWE_OK);
  hid_t f = open_file(path);
  char b[128];
  double v[64];
  ENSURE_STR(shape(f, "points/pos", b, sizeof(b), v, 64), "10x2x3");
  for (int r = 0; r < 10; r++)
    for (int k = 0; k < 3; k++) {
      ENSURE(v[r * 6 + k] == val(r, k));
      ENSURE(v[r * 6 + 3 + k] == val(r, 6 + k));
    }
  ENSURE_STR(names_attr(f, "points", b, sizeof(b)), "a,c");
  ENSURE_STR(shape(f, "segments/force", b, sizeof(b), v, 64), "10x1");
  for (int r = 0; r < 10; r++) ENSURE(v[r] == val(r, 10));
  ENSURE(nfilters(f, "points/pos") / 100000 == 1);
  ENSURE(nfilters(f, "time") / 100000 == 1);
  H5Fclose(f);
  awe_varlist_free(&l);
}


int main(void) {
  snprintf(dir, sizeof(dir), "/tmp/awe_test_writer_hdf5_XXXXXX");
  if (!mkdtemp(dir)) return 1;
  RUN(test_layout);
  RUN(test_failed_and_interrupted);
  RUN(test_sigkill_partial);
  RUN(test_bit_identical);
  RUN(test_errors);
  RUN(test_gaps_and_deflate);
  if (!harness_failed) {
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0) return 1;
  }
  return harness_report();
}
