/* fuzz_sweep_grid.c: a sweep grid file (awesim sweep GRID.yaml), read and expanded.
 *
 * The grid reader works on a path (it resolves the scenario beside the grid file), so each
 * input is written to grid.yaml in a private folder under build/fuzz/ (made once per process,
 * removed by `make clean`) that also holds the scenario s.yaml the seeds name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "sweep/sweep.h"

static char dir[64];

static int setup(void) {
  snprintf(dir, sizeof(dir), "build/fuzz/grid-%ld", (long)getpid());
  if (mkdir(dir, 0777) != 0) return -1;
  char p[128];
  snprintf(p, sizeof(p), "%s/s.yaml", dir);
  FILE *f = fopen(p, "w");
  if (!f) return -1;
  fputs("awesim: 1\nmodel: none.yaml\n", f);
  return fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0] && setup() != 0) return 0;
  char path[128];
  snprintf(path, sizeof(path), "%s/grid.yaml", dir);
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  awe_err err;
  awe_sweep_grid *g = awe_sweep_grid_load(path, &err);
  awe_sweep_grid_free(g);
  return 0;
}
