/* fuzz_scenario.c: a scenario file (run, inputs, output, transforms, wing overrides, settings
 * overrides) and its re-emission into the log (awe_ynode_emit). */
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  awe_spec *s = fuzz_spec_new();
  if (!s) return 0;
  awe_err err;
  const awe_ynode *root = fuzz_parse(s, data, size, "scenario.yaml", &err);
  if (root && root->kind == AWE_Y_MAP) {
    const awe_ynode *set = awe_ymap_get(root, "settings");
    if (!set || !awe_spec_read_settings(s, set, "settings", 1, &err))
      awe_spec_read_scenario(s, root, &err);
    free(awe_ynode_emit(root));
  }
  awe_spec_free(s);
  return 0;
}
