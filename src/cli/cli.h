/* cli.h: subcommands and shared command-line helpers. Only the CLI layer prints or exits. */
#ifndef AWE_CLI_H
#define AWE_CLI_H

#include <signal.h>
#include <stdio.h>

#include "analysis/linearize.h"
#include "model/model.h"
#include "io/spec.h"
#include "util/status.h"

/* A subcommand: returns the process exit code. argv[0] is the subcommand name. */
typedef int (*awe_cmd_fn)(int argc, char **argv);

int awe_cmd_check(int argc, char **argv);
int awe_cmd_simulate(int argc, char **argv);
int awe_cmd_linearize(int argc, char **argv);
int awe_cmd_trim(int argc, char **argv);
int awe_cmd_step_response(int argc, char **argv);
int awe_cmd_polar(int argc, char **argv);
int awe_cmd_sweep(int argc, char **argv);
int awe_cmd_wind(int argc, char **argv);
int awe_cmd_convert(int argc, char **argv);

/* Print warnings ("awesim: warning: ...") and the error ("awesim: error: ...") to stderr. */
void awe_cli_print_warnings(const awe_diag *d);
int awe_cli_fail(const awe_err *err);

/* "awesim ARGS..." as one malloc'd string, for the log's command_line attribute (NULL when out
 * of memory). argv[0] is the subcommand name. */
char *awe_cli_command_line(int argc, char **argv);

/* Parse a finite number for option opt of command cmd; on failure print
 * "awesim CMD: OPT: 'S' is not a number" and return 2 (the usage exit code), else 0. */
int awe_cli_parse_double(const char *cmd, const char *opt, const char *s, double *v);

/* Command-line options, one table per subcommand (awe_cli_parse). */
typedef enum {
  AWE_CLI_FLAG,     /* --name: *(int *)dest = 1 */
  AWE_CLI_STR,      /* --name VALUE or --name=VALUE: *(const char **)dest = VALUE */
  AWE_CLI_NUM,      /* the same with a finite number: *(double *)dest; *(int *)dest2 = 1 if set */
  AWE_CLI_LIST,     /* repeatable STR: ((const char **)dest)[(*(int *)dest2)++] = VALUE */
  AWE_CLI_FLAG_STR  /* --name or --name=VALUE (no separate value): *(int *)dest = 1 and
                       *(const char **)dest2 = VALUE */
} awe_cli_opt_kind;

typedef struct {
  const char *name;  /* long form, e.g. "--output" */
  const char *alias; /* short form, e.g. "-o", or NULL */
  awe_cli_opt_kind kind;
  void *dest, *dest2;
} awe_cli_opt;

/* Parse argv[1..argc-1] of subcommand cmd against opts: -h/--help prints usage to stdout and
 * returns -1; the one positional argument (a noun such as "scenario") goes to *positional.
 * Errors ("awesim CMD: unknown option 'X'", "option 'X' needs a value", "OPT: 'S' is not a
 * number", "more than one NOUN", "no NOUN given") are printed to stderr and return 2; 0 on
 * success. A LIST destination must hold argc entries. */
int awe_cli_parse(const char *cmd, int argc, char **argv, const awe_cli_opt *opts, int nopt,
                  const char *noun, const char **positional, const char *usage);

/* The operating point of linearize and step-response: awe_op_find at time at (NAN: after the
 * steady state), holding the winch torques unless keep_torque, the wings' aerodynamics
 * linearized there; a note on stderr names held torques (unless quiet). */
awe_status awe_cli_operating_point(awe_sim *sim, double at, int keep_torque, int quiet,
                                   awe_op *op, awe_err *err);

/* Output channels from --outputs patterns, or the defaults (with a note on stderr when they
 * fall back to point positions, unless quiet). Returns 0, 2 when the patterns select nothing
 * valid (usage; err says why) or 1 on another error. */
int awe_cli_outputs(const awe_model *m, const char *patterns, int quiet, awe_lin_chan **yc,
                    int *ny, awe_err *err);

/* Catch SIGINT, SIGTERM and the signals that end a session or job like it (SIGHUP unless
 * nohup(1) ignores it, SIGQUIT, SIGUSR1, SIGALRM) from now on: the handler only stores the signal number in the
 * flag returned (0 until a signal arrives), which the commands hand to their loops
 * (awe_sim_set_stop, awe_lin_problem.stop) and turn into exit 128 + signal. */
const awe_stop_flag *awe_cli_catch_signals(void);

/* Hold back those same stop signals while a folder or file is swapped in place (they stay
 * pending; old receives the previous mask, to restore with sigprocmask(SIG_SETMASK, ...)), and
 * the first of them pending meanwhile, or 0. */
void awe_cli_block_stop_signals(sigset_t *old);
int awe_cli_pending_stop_signal(void);

/* Report a failed command: AWE_EINTR as "awesim: interrupted ..." with exit 128 + the signal
 * in *stop (130 when unknown), anything else as awe_cli_fail. */
int awe_cli_fail_run(const awe_err *err, const awe_stop_flag *stop);

/* Name of a caught signal ("SIGINT", "SIGTERM", "SIGHUP", ...). */
const char *awe_cli_signal_name(int sig);

/* Check before any long work that output file path can be written: not a directory, a
 * device or a FIFO, its directory exists (mkdir_parent: missing folders are created, every
 * level, like mkdir -p) and is writable, an existing file is writable. Nothing is created or
 * truncated but those folders. AWE_EIO with "PATH: REASON" on failure. */
awe_status awe_cli_check_output(const char *path, int mkdir_parent, awe_err *err);

/* The start-up the run commands (simulate, linearize, step-response) share once their own
 * options are parsed: parse_rc is parse_args' result (0 go on, < 0 --help was printed, > 0 an
 * exit code); then the scenario is loaded and the model built (awe_cli_load). Returns the same
 * convention: 0 with *spec and *model set, < 0 done (exit 0), > 0 the exit code (printed). The
 * caller keeps the --set list. */
int awe_cli_begin(int parse_rc, const char *scenario, int nset, const char *const *sets,
                  awe_spec **spec, awe_model **model);

/* A simulation of m whose loops stop on a caught signal (awe_cli_catch_signals; *stop receives
 * the flag), with the model's stepper. NULL with err set on failure. */
awe_sim *awe_cli_new_sim(const awe_model *m, const awe_stop_flag **stop, awe_err *err);

/* Load scenario + --set overrides, build and validate the model, print warnings.
 * Returns 0 and fills *spec, *model, or returns the exit code after printing the error. */
int awe_cli_load(const char *scenario, int nset, const char *const *sets, awe_spec **spec,
                 awe_model **model);

#endif
