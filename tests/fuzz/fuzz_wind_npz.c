/* fuzz_wind_npz.c: an AtmosphericModels.jl .npz as a scenario's wind.field gives it
 * (io/wind_box_read.h, io/npz_read.h): the zip directory, the entries (stored or deflated), the
 * .npy headers, the arrays. */
#include <stdio.h>

#include "fuzz.h"
#include "io/wind_box_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  awe_wind_box b;
  awe_err err;
  if (awe_wind_box_read_npz(data, size, "field.npz", NULL, &b, &err) == AWE_OK) {
    double o[3];
    awe_wind_box_at(&b, 0.0, 0.0, b.x0[2], o);
    awe_wind_box_free(&b);
  }
  return 0;
}
