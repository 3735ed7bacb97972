/* fuzz_polar.c: a polar CSV file (alpha, cl, cd, cm), read from memory. */
#include <stdio.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;  /* fmemopen needs a buffer */
  awe_spec *s = fuzz_spec_new();
  if (!s) return 0;
  FILE *f = fmemopen((void *)data, size, "r");
  if (f) {
    awe_err err;
    awe_airfoil a = {0};
    awe_polar_csv_read_stream(s, f, "polar.csv", &a, &err);
    fclose(f);
  }
  awe_spec_free(s);
  return 0;
}
