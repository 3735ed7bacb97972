/* fuzz_vsm_settings.c: a vsm_settings.yaml (condition, wings, solver_settings). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  awe_spec *s = fuzz_spec_new();
  if (!s) return 0;
  awe_err err;
  const awe_ynode *root = fuzz_parse(s, data, size, "vsm_settings.yaml", &err);
  if (root) awe_spec_read_vsm_settings(s, root, "vsm_settings.yaml", &err);
  awe_spec_free(s);
  return 0;
}
