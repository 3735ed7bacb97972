/* fuzz_structure.c: a structural geometry file, SymbolicAWEModels' YAML or an awesIO
 * structure document (told apart by content, as io/load.c does), and the model built from it
 * (name resolution, generated tethers, masses, placement, bodies and tubes, validation). */
#include "fuzz.h"
#include "control/controller.h"
#include "io/awesio_read.h"
#include "model/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  awe_spec *s = fuzz_spec_new();
  if (!s) return 0;
  awe_err err;
  awe_diag warn = {0};
  const awe_ynode *root = fuzz_parse(s, data, size, "structure.yaml", &err);
  awe_status st = AWE_EINVAL;
  if (root)
    st = awe_awesio_is_doc(root) ? awe_spec_read_awesio(s, root, "structure.yaml", &err)
                                 : awe_spec_read_structure(s, root, "structure.yaml", &err);
  if (st == AWE_OK) {
    s->settings.g_earth = 9.81;
    awe_model_free(awe_model_build_controlled(s, &warn, &err));
  }
  awe_diag_free(&warn);
  awe_spec_free(s);
  return 0;
}
