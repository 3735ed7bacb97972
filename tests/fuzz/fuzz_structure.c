/* fuzz_structure.c: a structural geometry file, and the model built from it (name resolution,
 * generated tethers, masses, placement, validation). */
#include "fuzz.h"
#include "control/controller.h"
#include "model/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  awe_spec *s = fuzz_spec_new();
  if (!s) return 0;
  awe_err err;
  awe_diag warn = {0};
  const awe_ynode *root = fuzz_parse(s, data, size, "structure.yaml", &err);
  if (root && !awe_spec_read_structure(s, root, "structure.yaml", &err)) {
    s->settings.g_earth = 9.81;
    awe_model_free(awe_model_build_controlled(s, &warn, &err));
  }
  awe_diag_free(&warn);
  awe_spec_free(s);
  return 0;
}
