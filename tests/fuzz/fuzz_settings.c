/* fuzz_settings.c: a settings.yaml (KiteUtils sections) as a model file gives it. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  awe_spec *s = fuzz_spec_new();
  if (!s) return 0;
  awe_err err;
  const awe_ynode *root = fuzz_parse(s, data, size, "settings.yaml", &err);
  if (root) awe_spec_read_settings(s, root, "settings.yaml", 0, &err);
  awe_spec_free(s);
  return 0;
}
