/* cli.h: subcommands and shared command-line helpers. Only the CLI layer prints or exits. */
#ifndef AWE_CLI_H
#define AWE_CLI_H

#include <stdio.h>

#include "model.h"
#include "spec.h"
#include "status.h"

/* A subcommand: returns the process exit code. argv[0] is the subcommand name. */
typedef int (*awe_cmd_fn)(int argc, char **argv);

int awe_cmd_check(int argc, char **argv);
int awe_cmd_simulate(int argc, char **argv);
int awe_cmd_linearize(int argc, char **argv);
int awe_cmd_step_response(int argc, char **argv);
int awe_cmd_polar(int argc, char **argv);

/* Print warnings ("awesim: warning: ...") and the error ("awesim: error: ...") to stderr. */
void awe_cli_print_warnings(const awe_diag *d);
int awe_cli_fail(const awe_err *err);

/* "awesim ARGS..." as one malloc'd string, for the log's command_line attribute (NULL when out
 * of memory). argv[0] is the subcommand name. */
char *awe_cli_command_line(int argc, char **argv);

/* Parse a finite number for option opt of command cmd; on failure print
 * "awesim CMD: OPT: 'S' is not a number" and return 2 (the usage exit code), else 0. */
int awe_cli_parse_double(const char *cmd, const char *opt, const char *s, double *v);

/* Load scenario + --set overrides, build and validate the model, print warnings.
 * Returns 0 and fills *spec, *model, or returns the exit code after printing the error. */
int awe_cli_load(const char *scenario, int nset, const char *const *sets, awe_spec **spec,
                 awe_model **model);

#endif
