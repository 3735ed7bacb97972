/* fuzz_lin_model.c: a linear model in OpenFAST's text form (output/lin_output.h,
 * awe_lin_read_text: the counts, the "Order of ..." tables, the matrices). The counts come from
 * the file: the matrices they announce must be asked of the memory budget (16 MiB here; run.sh
 * fails any allocation past 64 MiB) before they are allocated. Seeds: the pendulum's and the
 * 2plate kite's models as `awesim linearize --lin` writes them (tests/fuzz/seeds_lin_model/). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis/linearize.h"
#include "fuzz.h"
#include "output/lin_output.h"

static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  setenv("AWESIM_MAX_MEMORY", "16M", 1);
  snprintf(path, sizeof(path), "/dev/shm/fuzz_lin_model_%d.lin", (int)getpid());
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  size_t w = fwrite(data, 1, size, f);
  fclose(f);
  if (w == size) {
    awe_linsys L;
    awe_err err;
    double t;
    awe_lin_read_text(path, &L, &t, &err);
    awe_linsys_free(&L);
  }
  unlink(path);
  return 0;
}
