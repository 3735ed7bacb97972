/* test_npz.c: AtmosphericModels.jl's .npz wind fields (io/npz_read.h, io/wind_box_read.h),
 * written here by numpy (np.savez: stored entries; np.savez_compressed: deflated) and read back
 * exactly: C and Fortran order, float64 and float32, the longer horizontal axis made x, the axes
 * from the grid; and bad files (truncated, a missing array, NaN, a 2-D array, not a zip) refused
 * with a message naming the file and what is wrong. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "io/npz_read.h"
#include "io/wind_box_read.h"

static char dir[64];

/* numpy writes the test files (Debian's python3, tools/find-python) */
static int write_files(void) {
  char cmd[4096];
  snprintf(cmd, sizeof(cmd),
           "/usr/bin/python3 - <<'EOF'\n"
           "import numpy as np\n"
           "d = '%s'\n"
           "i, j, l = np.meshgrid(np.arange(6), np.arange(4), np.arange(3), indexing='ij')\n"
           "u = i * 100 + j * 10 + l + 0.25\n"
           "np.savez(d + '/c.npz', u=u, v=-u, w=0.5 * u, param=np.array([0.08, 8.0]))\n"
           "uf = np.asfortranarray(u.transpose(1, 0, 2)).astype(np.float32)\n"
           "np.savez_compressed(d + '/f.npz', u=uf, v=-uf, w=0.5 * uf, "
           "param=np.array([0.08, 5.3]))\n"
           "b = open(d + '/c.npz', 'rb').read()\n"
           "open(d + '/trunc.npz', 'wb').write(b[:len(b) // 2])\n"
           "np.savez(d + '/nokey.npz', u=u, v=-u, x=u, param=np.array([0.08, 8.0]))\n"
           "n = u.copy(); n[1, 2, 0] = np.nan\n"
           "np.savez(d + '/nan.npz', u=u, v=-u, w=n, param=np.array([0.08, 8.0]))\n"
           "np.savez(d + '/flat.npz', u=u[:, :, 0], v=u[:, :, 0], w=u[:, :, 0], "
           "param=np.array([0.08, 8.0]))\n"
           "np.savez(d + '/int.npz', u=u.astype(np.int64), v=-u, w=u, param=np.array([0.0, 8.0]))\n"
           "open(d + '/text.npz', 'w').write('not a zip archive at all\\n' * 3)\n"
           "EOF\n", dir);
  return system(cmd);
}


static void test_read_back(void) {
  char p[128];
  awe_wind_box b;
  awe_err err = {0};
  /* C order, float64, stored; grid_step 4, height_step 2, z_min 70 */
  snprintf(p, sizeof(p), "%s/c.npz", dir);
  awe_npz_grid g = {4.0, 2.0, 70.0};
  ENSURE(awe_wind_box_read_grid(p, &g, &b, &err) == AWE_OK);
  ENSURE(b.n[0] == 6 && b.n[1] == 4 && b.n[2] == 3);
  ENSURE(b.d[0] == 4.0 && b.d[1] == 4.0 && b.d[2] == 2.0);
  ENSURE(b.x0[0] == 0.0 && b.x0[1] == -6.0 && b.x0[2] == 70.0 && b.periodic_x);
  ENSURE(b.v_ref == 8.0);
  int bad = 0;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 4; j++)
      for (int l = 0; l < 3; l++) {
        size_t at = ((size_t)i * 4 + j) * 3 + l;
        float x = (float)(i * 100 + j * 10 + l + 0.25);
        bad += b.u[at] != x || b.v[at] != -x || b.w[at] != 0.5f * x;
      }
  ENSURE(bad == 0);
  awe_wind_box_free(&b);
  /* Fortran order, float32, deflated, shape (4, 6, 3): the longer axis (6) becomes x */
  snprintf(p, sizeof(p), "%s/f.npz", dir);
  ENSURE(awe_wind_box_read_grid(p, NULL, &b, &err) == AWE_OK);
  ENSURE(b.n[0] == 6 && b.n[1] == 4 && b.n[2] == 3);
  ENSURE(b.d[0] == 2.0 && b.d[2] == 2.0 && b.x0[2] == 0.0 && b.v_ref == (double)5.3);
  bad = 0;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 4; j++)
      for (int l = 0; l < 3; l++) {
        size_t at = ((size_t)i * 4 + j) * 3 + l;
        float x = (float)(i * 100 + j * 10 + l + 0.25);
        bad += b.u[at] != x || b.v[at] != -x || b.w[at] != 0.5f * x;
      }
  ENSURE(bad == 0);
  /* the look-up at a grid point gives it */
  double o[3];
  ENSURE(awe_wind_box_at(&b, 2 * 2.0, b.x0[1] + 3 * 2.0, 1 * 2.0, o) == 0);
  ENSURE(o[0] == (double)(float)231.25 && o[2] == 0.5 * (double)(float)231.25);
  awe_wind_box_free(&b);
}


/* file f must fail with AWE_EINVAL and a message holding want */
static void refused(const char *f, const char *want) {
  char p[128];
  snprintf(p, sizeof(p), "%s/%s", dir, f);
  awe_wind_box b;
  awe_err err = {0};
  awe_status st = awe_wind_box_read(p, &b, &err);
  if (st != AWE_EINVAL || !strstr(err.msg, want) || !strstr(err.msg, p))
    HARNESS_FAIL("%s: status %d, message '%s' (wanted '%s')", f, (int)st, err.msg, want);
  ENSURE(b.u == NULL && b.uvw == NULL);
}


static void test_bad_files(void) {
  refused("trunc.npz", "end of central directory (truncated?)");
  refused("nokey.npz", "no array 'w'");
  refused("nan.npz", "w[1, 2, 0] = nan is not finite");
  refused("flat.npz", "array u has 2 dimensions");
  refused("int.npz", "u.npy: type '<i8'");
  refused("text.npz", "end of central directory");
  /* a missing file: AWE_ENOFILE (exit 66) */
  char p[128];
  snprintf(p, sizeof(p), "%s/none.npz", dir);
  awe_wind_box b;
  awe_err err = {0};
  ENSURE(awe_wind_box_read(p, &b, &err) == AWE_ENOFILE);
  /* every cut of a good deflated file fails cleanly (no crash, no leak under ASan) */
  snprintf(p, sizeof(p), "%s/f.npz", dir);
  FILE *f = fopen(p, "rb");
  ENSURE(f != NULL);
  if (!f) return;
  unsigned char buf[8192];
  size_t n = fread(buf, 1, sizeof(buf), f);
  fclose(f);
  int ok = 0;
  for (size_t k = 0; k < n; k++) {
    awe_status st = awe_wind_box_read_npz(buf, k, "cut.npz", NULL, &b, &err);
    ok += st == AWE_EINVAL && b.u == NULL;
  }
  ENSURE(ok == (int)n);
  ENSURE(awe_wind_box_read_npz(buf, n, "whole.npz", NULL, &b, &err) == AWE_OK);
  awe_wind_box_free(&b);
}


/* a file shorter than a zip64 end record whose locator points into it: found by fuzz_wind_npz
 * (the bound n - 56 wrapped for n < 56 and the reader read 16 MB past the buffer) */
static void test_short_zip64(void) {
  for (size_t n = 42; n < 56 + 22; n++) {
    unsigned char b[80] = {0};
    size_t e = n - 22;
    const unsigned char loc[] = {0x50, 0x4b, 0x06, 0x07}, end[] = {0x50, 0x4b, 0x05, 0x06};
    memcpy(b + e - 20, loc, 4);
    b[e - 20 + 8 + 3] = 0x01;                /* zip64 end record at 16 MB */
    memcpy(b + e, end, 4);
    memset(b + e + 16, 0xff, 4);             /* central directory offset: see zip64 */
    awe_wind_box box;
    awe_err err = {0};
    awe_status st = awe_wind_box_read_npz(b, n, "short.npz", NULL, &box, &err);
    if (st != AWE_EINVAL || !strstr(err.msg, "zip64 end record"))
      HARNESS_FAIL("%zu bytes: status %d, message '%s'", n, (int)st, err.msg);
  }
}


int main(void) {
  snprintf(dir, sizeof(dir), "/tmp/awe_npz_XXXXXX");
  if (!mkdtemp(dir) || write_files() != 0) {
    fprintf(stderr, "test_npz: cannot write the .npz files with /usr/bin/python3 and numpy\n");
    return 1;
  }
  RUN(test_read_back);
  RUN(test_bad_files);
  RUN(test_short_zip64);
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "test_npz: could not remove %s\n", dir);
  return harness_report();
}
