/* fuzz_wind_box.c: a TurbSim .bts file as a scenario's wind.field gives it (io/wind_box_read.h):
 * the header, its sizes against the data, the data. */
#include <stdio.h>

#include "fuzz.h"
#include "io/wind_box_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  FILE *f = fmemopen((void *)(uintptr_t)data, size, "rb");
  if (!f) return 0;
  awe_wind_box b;
  awe_err err;
  if (awe_wind_box_read_bts(f, "field.bts", &b, &err) == AWE_OK) {
    double o[3];
    awe_wind_box_at(&b, 0.0, 0.0, b.x0[2], o);
    awe_wind_box_free(&b);
  }
  fclose(f);
  return 0;
}
