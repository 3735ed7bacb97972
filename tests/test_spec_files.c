/* test_spec_files.c: what the run must not write over, and how values print in messages.
 *   - awe_spec_note_file: loading scenarios/v3_kite.yaml records the scenario, every model file
 *     and each polar table, with the device and inode stat(2) gives for it (so an output that
 *     is a hard link of one is recognised by simulate; tests/output_guard.sh for the CLI);
 *   - awe_num_str: the shortest of %.6g ... %.17g that reads back, for range errors.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "io/load.h"

/* the entry of s->files that is the file at path (by device and inode), or NULL */
static const awe_spec_file *find(const awe_spec *s, const char *path) {
  struct stat sb;
  if (stat(path, &sb) != 0) return NULL;
  for (const awe_spec_file *f = s->files; f; f = f->next)
    if (f->dev == (unsigned long long)sb.st_dev && f->ino == (unsigned long long)sb.st_ino)
      return f;
  return NULL;
}


static void test_files_read(void) {
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load("scenarios/v3_kite.yaml", 0, NULL, &warn, &err);
  ENSURE(s != NULL);
  if (!s) return;
  static const char *const read[] = {
      "scenarios/v3_kite.yaml",          "models/v3_kite/system.yaml",
      "models/v3_kite/structure.yaml",   "models/v3_kite/settings.yaml",
      "models/v3_kite/aero_geometry.yaml", "models/v3_kite/vsm_settings.yaml",
      "models/v3_kite/polars/3.csv",     "models/v3_kite/polars/7.csv",
      "models/v3_kite/polars/11.csv"};
  for (size_t i = 0; i < sizeof(read) / sizeof(*read); i++) {
    const awe_spec_file *f = find(s, read[i]);
    if (!f) fprintf(stderr, "  not recorded: %s\n", read[i]);
    ENSURE(f != NULL);
  }
  /* a file not read is not there */
  ENSURE(find(s, "scenarios/pendulum.yaml") == NULL);
  awe_diag_free(&warn);
  awe_spec_free(s);
}


static void test_num_str(void) {
  ENSURE(!strcmp(awe_num_str(0.1).s, "0.1"));
  ENSURE(!strcmp(awe_num_str(0.1000001).s, "0.1000001"));
  ENSURE(!strcmp(awe_num_str(600.0).s, "600"));
  ENSURE(!strcmp(awe_num_str(1e-300).s, "1e-300"));
  ENSURE(!strcmp(awe_num_str(1e6).s, "1e+06"));
  ENSURE(!strcmp(awe_num_str(1.5).s, "1.5"));
  /* 0.1 + 0.2 needs all 17 digits to read back */
  ENSURE(!strcmp(awe_num_str(0.1 + 0.2).s, "0.30000000000000004"));
  ENSURE(strtod(awe_num_str(2.0 / 3.0).s, NULL) == 2.0 / 3.0);
}


int main(void) {
  RUN(test_files_read);
  RUN(test_num_str);
  return harness_report();
}
