/* cli.c: shared command-line helpers: printing diagnostics, loading a model for a command. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "yaml_doc.h"


void awe_cli_print_warnings(const awe_diag *d) {
  if (!d) return;
  for (int i = 0; i < d->n; i++) fprintf(stderr, "awesim: warning: %s\n", d->msg[i]);
}


int awe_cli_fail(const awe_err *err) {
  fprintf(stderr, "awesim: error: %s\n", err->msg[0] ? err->msg : awe_strerror(err->code));
  return awe_exit_code(err->code);
}


/* Is path a scenario (top-level 'awesim:' key) rather than a model file? */
static int is_scenario(const char *path, awe_err *err, int *is) {
  awe_ydoc *d = awe_ydoc_load_file(path, err);
  if (!d) return -1;
  /* model files are recognised by their keys; anything else is read (and judged) as a
     scenario */
  const awe_ynode *r = awe_ydoc_root(d);
  *is = !(awe_ymap_get(r, "system") || awe_ymap_get(r, "points")) ||
        awe_ymap_get(r, "awesim") != NULL;
  awe_ydoc_free(d);
  return 0;
}


int awe_cli_load(const char *path, int nset, const char *const *sets, awe_spec **spec,
                 awe_model **model) {
  awe_err err = {0};
  awe_diag early = {0};
  int scen = 1;
  *spec = NULL;
  *model = NULL;
  if (is_scenario(path, &err, &scen)) return awe_cli_fail(&err);
  awe_spec *s;
  if (scen) {
    s = awe_spec_load(path, nset, sets, &early, &err);
  } else {
    if (nset) {
      fprintf(stderr, "awesim: error: --set needs a scenario file; %s is a model file\n", path);
      return 2;
    }
    s = awe_spec_load_model(path, &early, &err);
  }
  if (!s) {
    awe_cli_print_warnings(&early);
    awe_diag_free(&early);
    return awe_cli_fail(&err);
  }
  awe_diag_free(&early);
  awe_model *m = awe_model_build(s, &s->warnings, &err);
  awe_cli_print_warnings(&s->warnings);
  if (!m) {
    awe_spec_free(s);
    return awe_cli_fail(&err);
  }
  *spec = s;
  *model = m;
  return 0;
}


char *awe_cli_command_line(int argc, char **argv) {
  size_t n = 8;
  for (int i = 0; i < argc; i++) n += strlen(argv[i]) + 1;
  char *s = malloc(n);
  if (!s) return NULL;
  strcpy(s, "awesim");
  for (int i = 0; i < argc; i++) {
    strcat(s, " ");
    strcat(s, argv[i]);
  }
  return s;
}


int awe_cli_parse_double(const char *cmd, const char *opt, const char *s, double *v) {
  char *e;
  *v = strtod(s, &e);
  if (e == s || *e || !isfinite(*v)) {
    fprintf(stderr, "awesim %s: %s: '%s' is not a number\n", cmd, opt, s);
    return 2;
  }
  return 0;
}
