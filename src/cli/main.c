/* main.c: `awesim COMMAND ...` — dispatch to a subcommand. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "cli/cli.h"
#include "util/mem_budget.h"
#include "util/status.h"

typedef struct {
  const char *name;
  awe_cmd_fn fn;
  const char *help;
} command;

static const command commands[] = {
    {"check", awe_cmd_check, "load and validate a scenario or model, print a summary"},
    {"simulate", awe_cmd_simulate, "run a scenario, log to HDF5 and/or CSV"},
    {"trim", awe_cmd_trim, "the free equilibrium (trim) of a flying system"},
    {"linearize", awe_cmd_linearize, "linear model A, B, C, D about an operating point, modes"},
    {"step-response", awe_cmd_step_response, "step response from an operating point, metrics"},
    {"polar", awe_cmd_polar, "wing polar (CL, CD, CS, CM vs alpha) from the VSM solver"},
    {"sweep", awe_cmd_sweep, "expand a sweep grid into runs (plan.tsv, sweep.sh); merge results"},
    {"wind", awe_cmd_wind, "turbulent wind boxes: generate (Mann), info"},
    {"convert", awe_cmd_convert, "write a model's structure as an awesIO structure document"},
};

static void usage(FILE *f) {
  fprintf(f,
          "usage: awesim [--version] [--help] [--max-memory SIZE] COMMAND [ARGS]\n"
          "\n"
          "awesim simulates airborne wind energy systems (kites, tethers, winches, pulleys)\n"
          "from SymbolicAWEModels.jl model files.\n"
          "\n"
          "commands:\n");
  for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++)
    fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].help);
  fprintf(f, "\n'awesim COMMAND --help' describes a command; see also awesim(1).\n");
}


/* A descriptor 0, 1 or 2 the caller closed (`>&-`) would be the next file opened, and stdout
 * or stderr would write into it (CSV rows inside the HDF5 log). Each closed one gets /dev/null,
 * opened read-only: writes to it fail (EBADF) rather than vanish, and `simulate --csv` sees by
 * its access mode that standard output is not there (awe_cli_stdout_writable). Returns -1 when
 * that fails. */
static int reopen_std_fds(void) {
  for (int fd = 0; fd <= 2; fd++) {
    if (fcntl(fd, F_GETFD) != -1) continue;
    /* the lower ones are open by now, so open() returns fd itself */
    if (open("/dev/null", O_RDONLY) != fd) return -1;
  }
  return 0;
}


/* --max-memory SIZE (or =SIZE), anywhere before "--", for every command: the memory budget of
 * what one input may make awesim allocate (util/mem_budget.h), passed on as AWESIM_MAX_MEMORY
 * so that the library reads it where it allocates. Removed from argv. 0, or 2 (usage). */
static int take_max_memory(int *argc, char **argv) {
  for (int i = 1; i < *argc; i++) {
    if (!strcmp(argv[i], "--")) break;
    const char *v = NULL;
    int used = 0;
    if (!strncmp(argv[i], "--max-memory=", 13)) v = argv[i] + 13, used = 1;
    else if (!strcmp(argv[i], "--max-memory")) v = i + 1 < *argc ? argv[i + 1] : NULL, used = 2;
    if (!used) continue;
    double b;
    if (!v || awe_mem_parse(v, &b) || b < 1024.0 * 1024.0) {
      fprintf(stderr, "awesim: --max-memory %s: expected a size of at least 1M, e.g. 512M, 16G\n",
              v ? v : "(missing)");
      return 2;
    }
    setenv("AWESIM_MAX_MEMORY", v, 1);
    for (int k = i; k + used <= *argc; k++) argv[k] = argv[k + used];
    *argc -= used;
    i--;
  }
  return 0;
}


int main(int argc, char **argv) {
  if (reopen_std_fds()) return 71; /* EX_OSERR; nothing can be reported without stderr */
  if (take_max_memory(&argc, argv)) return 2;
  /* GSL's default handler aborts; every GSL call's status is checked instead */
  gsl_set_error_handler_off();
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
    printf("awesim %s\n", AWE_VERSION);
    return 0;
  }
  const char *names[16];
  int n = (int)(sizeof(commands) / sizeof(*commands));
  for (int i = 0; i < n; i++) {
    names[i] = commands[i].name;
    if (!strcmp(cmd, commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
  }
  const char *best = awe_closest(cmd, names, n);
  if (best)
    fprintf(stderr, "awesim: unknown command '%s' (did you mean '%s'?)\n", cmd, best);
  else
    fprintf(stderr, "awesim: unknown command '%s'\n", cmd);
  usage(stderr);
  return 2;
}
