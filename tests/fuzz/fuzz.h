/* fuzz.h: shared part of the libFuzzer harnesses (tests/fuzz/fuzz_*.c, `make fuzz`).
 *
 * Each harness feeds the input to one reader the way awesim does after reading a file: YAML text
 * -> node tree (awe_ydoc_load_string) -> the reader -> (structure) the model builder, then frees
 * everything. A reader may reject the input; it must not crash, leak, hang or trip UBSan.
 */
#ifndef AWE_FUZZ_H
#define AWE_FUZZ_H

#include <stdint.h>
#include <stdlib.h>

#include "util/pool.h"
#include "io/spec.h"
#include "io/spec_load.h"
#include "io/yaml_doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A spec with the defaults, as awe_spec_load starts from. */
static inline awe_spec *fuzz_spec_new(void) { return awe_spec_new(); }

/* Parse data as a YAML file named name, kept alive by the spec; NULL root when rejected. */
static inline const awe_ynode *fuzz_parse(awe_spec *s, const uint8_t *data, size_t size,
                                          const char *name, awe_err *err) {
  awe_ydoc *d = awe_ydoc_load_string((const char *)data, size, name, err);
  if (!d) return NULL;
  s->docs[s->ndocs++] = d;
  return awe_ydoc_root(d);
}

#endif
