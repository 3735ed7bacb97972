/* fuzz_aero.c: an aero geometry file (wing sections, airfoils; the polar files it names are
 * looked up relative to tests/fuzz/ and usually missing). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  awe_spec *s = fuzz_spec_new();
  if (!s) return 0;
  awe_err err;
  const awe_ynode *root = fuzz_parse(s, data, size, "tests/fuzz/aero.yaml", &err);
  if (root) awe_spec_read_aero(s, root, "tests/fuzz/aero.yaml", &err);
  awe_spec_free(s);
  return 0;
}
