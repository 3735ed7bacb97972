/* cmd_convert.c: `awesim convert` — a model or scenario's structure as an awesIO document. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/out_paths.h"
#include "output/awesio_write.h"

static const char convert_usage[] =
    "usage: awesim convert --to awesio -o FILE [--set KEY.PATH=VALUE]... MODEL|SCENARIO\n"
    "\n"
    "Build the model (a scenario, a model's system.yaml or its structural geometry) and write\n"
    "its structure as an awesIO structure document (structure_schema.yml " AWE_AWESIO_VERSION
    "):\n"
    "fully expanded, tables referencing by name, positions in ENU relative to the ground\n"
    "station at the initial placement, extra masses only, with its connectivity_sha; rigid\n"
    "bodies and tubes in the blocks bodies and tubes; awesim's own columns (awesim_*) and\n"
    "tool blocks (awesim_wings, awesim_transforms) hold what the build needs, so the\n"
    "document read back as a structural geometry builds the same model.\n"
    "\n"
    "  --to FORMAT           the format to write: awesio (the only one)\n"
    "  -o, --output FILE     the document to write (never a file the model reads)\n"
    "  --set KEY.PATH=VALUE  override a scenario key (repeatable)\n"
    "  -h, --help            show this help\n";

int awe_cmd_convert(int argc, char **argv) {
  const char **sets = calloc((size_t)argc + 1, sizeof(char *));
  int nset = 0;
  const char *file = NULL, *to = NULL, *out = NULL;
  if (!sets) return 70;
  const awe_cli_opt opts[] = {
      {"--to", NULL, AWE_CLI_STR, &to, NULL},
      {"--output", "-o", AWE_CLI_STR, &out, NULL},
      {"--set", NULL, AWE_CLI_LIST, sets, &nset},
  };
  int rc = awe_cli_parse("convert", argc, argv, opts, (int)AWE_ARRLEN(opts),
                         "MODEL|SCENARIO", &file, convert_usage);
  if (rc) {
    free(sets);
    return rc < 0 ? 0 : rc;
  }
  if (!to || strcmp(to, "awesio") != 0) {
    fprintf(stderr, "awesim convert: --to: '%s' is not a format awesim writes (allowed: "
            "awesio)\n", to ? to : "");
    free(sets);
    return 2;
  }
  if (!out) {
    fprintf(stderr, "awesim convert: no output given (-o FILE)\n");
    free(sets);
    return 2;
  }
  awe_spec *s;
  awe_model *m;
  rc = awe_cli_load(file, nset, sets, &s, &m);
  free(sets);
  if (rc) return rc;
  awe_err err = {0};
  char tmp[4200];
  FILE *f = NULL;
  if (awe_cli_output_not_input(s, "-o", out, &err) || awe_cli_make_parents(out, &err) ||
      !(f = awe_cli_replace_open(out, tmp, sizeof(tmp), &err)))
    goto fail;
  char note[4200];
  snprintf(note, sizeof(note), "written by awesim convert from %s", file);
  if (awe_awesio_write(f, m, s->scenario.name, note, &err)) {
    fclose(f);
    remove(tmp);
    goto fail;
  }
  if (awe_cli_replace_commit(f, tmp, out, &err)) goto fail;
  awe_model_free(m);
  awe_spec_free(s);
  return 0;
fail:
  awe_model_free(m);
  awe_spec_free(s);
  return awe_cli_fail(&err);
}
