/* cli.c: shared command-line helpers: printing diagnostics, loading a model for a command. */
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/out_paths.h"
#include "control/controller.h"
#include "io/load.h"
#include "io/yaml_doc.h"
#include "output/log_select.h"
#include "turb/wind_box.h"


/* The one piece of global mutable state in awesim: a signal handler can only talk to the
 * program through a lock-free atomic int (awe_stop_flag) with static storage (C11 7.14.1.1).
 * It holds the number of the signal received (awe_cli_catch_signals), 0 until then; the library only reads it,
 * through the pointer the commands pass down. */
static awe_stop_flag stop_signal = 0;

static void on_signal(int sig) { stop_signal = sig; }


/* The signals that end a run cleanly (the log closed as "interrupted", every block written):
 * SIGINT and SIGTERM, and those that end a shell session or a job the same way: SIGHUP (the
 * terminal or ssh session closed), SIGQUIT, SIGUSR1, SIGALRM. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM};


const awe_stop_flag *awe_cli_catch_signals(void) {
  struct sigaction sa, old;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++) {
    int sig = stop_signals[i];
    /* nohup(1) ignores SIGHUP so that the run outlives the terminal: keep it ignored */
    if (sig == SIGHUP && sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, NULL);
  }
  return &stop_signal;
}


void awe_cli_block_stop_signals(sigset_t *old) {
  sigset_t block;
  sigemptyset(&block);
  for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++)
    sigaddset(&block, stop_signals[i]);
  sigprocmask(SIG_BLOCK, &block, old);
}


int awe_cli_pending_stop_signal(void) {
  sigset_t pend;
  if (sigpending(&pend) != 0) return 0;
  for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++)
    if (sigismember(&pend, stop_signals[i]) == 1) return stop_signals[i];
  return 0;
}


int awe_cli_fail_run(const awe_err *err, const awe_stop_flag *stop) {
  if (err->code != AWE_EINTR) return awe_cli_fail(err);
  int sig = stop ? (int)*stop : 0;
  if (strncmp(err->msg, "interrupted", 11) == 0)
    fprintf(stderr, "awesim: %s\n", err->msg);
  else
    fprintf(stderr, "awesim: interrupted by %s (%s)\n", awe_cli_signal_name(sig), err->msg);
  return sig > 0 ? 128 + sig : awe_exit_code(AWE_EINTR);
}


const char *awe_cli_signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    case SIGUSR1: return "SIGUSR1";
    case SIGALRM: return "SIGALRM";
    default: return "a signal";
  }
}


awe_status awe_cli_check_output(const char *path, int mkdir_parent, awe_err *err) {
  struct stat sb;
  if (!path || !*path) return awe_err_set(err, AWE_EIO, "empty output file name");
  if (stat(path, &sb) == 0) {
    if (S_ISDIR(sb.st_mode)) return awe_err_set(err, AWE_EIO, "%s: Is a directory", path);
    /* a FIFO or a device would block or swallow the output after a long run */
    if (!S_ISREG(sb.st_mode))
      return awe_err_set(err, AWE_EIO, "%s: not a regular file (a device, FIFO or socket); "
                         "give a file name", path);
    if (access(path, W_OK) != 0)
      return awe_err_set(err, AWE_EIO, "%s: cannot write: %s", path, strerror(errno));
    return AWE_OK;
  }
  if (mkdir_parent) AWE_TRY(awe_cli_make_parents(path, err));
  char dir[4096];
  snprintf(dir, sizeof(dir), "%s", path);
  char *slash = strrchr(dir, '/');
  if (!slash) snprintf(dir, sizeof(dir), ".");
  else if (slash == dir) dir[1] = 0;
  else *slash = 0;
  if (stat(dir, &sb) != 0)
    return awe_err_set(err, AWE_EIO, "%s: cannot create: directory %s: %s", path, dir,
                       strerror(errno));
  if (!S_ISDIR(sb.st_mode))
    return awe_err_set(err, AWE_EIO, "%s: cannot create: %s is not a directory", path, dir);
  if (access(dir, W_OK | X_OK) != 0)
    return awe_err_set(err, AWE_EIO, "%s: cannot create in %s: %s", path, dir, strerror(errno));
  return AWE_OK;
}


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
  awe_model *m = awe_model_build_controlled(s, &s->warnings, &err);
  awe_cli_print_warnings(&s->warnings);
  if (!m) {
    awe_spec_free(s);
    return awe_cli_fail(&err);
  }
  /* output.channels names channels of this model: checked by every command (check too) */
  awe_varlist sel;
  if (awe_log_select(s, &m->reg.output, &sel, &err)) {
    awe_model_free(m);
    awe_spec_free(s);
    return awe_cli_fail(&err);
  }
  awe_varlist_free(&sel);
  if (m->env.box && !isnan(m->env.box_gen_seconds)) {
    const awe_wind_box *b = m->env.box;
    fprintf(stderr, "awesim: wind.field: drew a %d x %d x %d Mann box (%g x %g x %g m, seed "
            "%llu, alpha eps^(2/3) %.4g) in %.2f s\n", b->n[0], b->n[1], b->n[2], b->d[0],
            b->d[1], b->d[2], (unsigned long long)b->seed, b->ae, m->env.box_gen_seconds);
  }
  *spec = s;
  *model = m;
  return 0;
}


int awe_cli_begin(int parse_rc, const char *scenario, int nset, const char *const *sets,
                  awe_spec **spec, awe_model **model) {
  *spec = NULL;
  *model = NULL;
  if (parse_rc) return parse_rc;
  return awe_cli_load(scenario, nset, sets, spec, model);
}


awe_sim *awe_cli_new_sim(const awe_model *m, const awe_stop_flag **stop, awe_err *err) {
  *stop = awe_cli_catch_signals();
  awe_sim *sim = awe_sim_alloc(m, NULL, err);
  if (sim) awe_sim_set_stop(sim, *stop);
  return sim;
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


/* the option of the table that argument a names, and its inline "=VALUE" (or NULL) */
static const awe_cli_opt *find_opt(const awe_cli_opt *opts, int nopt, const char *a, const char **inl) {
  for (int k = 0; k < nopt; k++) {
    const char *names[2] = {opts[k].name, opts[k].alias};
    for (int j = 0; j < 2; j++) {
      const char *n = names[j];
      if (!n) continue;
      size_t len = strlen(n);
      if (strncmp(a, n, len)) continue;
      if (a[len] == '\0') {
        *inl = NULL;
        return &opts[k];
      }
      if (a[len] == '=' && opts[k].kind != AWE_CLI_FLAG) {
        *inl = a + len + 1;
        return &opts[k];
      }
    }
  }
  return NULL;
}


int awe_cli_parse(const char *cmd, int argc, char **argv, const awe_cli_opt *opts, int nopt,
                  const char *noun, const char **positional, const char *usage) {
  *positional = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *val = NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage, stdout);
      return -1;
    }
    if (a[0] != '-' || !a[1]) {
      if (*positional) {
        fprintf(stderr, "awesim %s: more than one %s ('%s', '%s')\n", cmd, noun, *positional, a);
        return 2;
      }
      *positional = a;
      continue;
    }
    const awe_cli_opt *o = find_opt(opts, nopt, a, &val);
    if (!o) {
      fprintf(stderr, "awesim %s: unknown option '%s'\n%s", cmd, a, usage);
      return 2;
    }
    switch (o->kind) {
      case AWE_CLI_FLAG:
        *(int *)o->dest = 1;
        continue;
      case AWE_CLI_FLAG_STR:
        *(int *)o->dest = 1;
        if (val) *(const char **)o->dest2 = val;
        continue;
      default:
        break;
    }
    if (!val) {
      if (i + 1 >= argc) {
        fprintf(stderr, "awesim %s: option '%s' needs a value\n", cmd, a);
        return 2;
      }
      val = argv[++i];
    }
    if (o->kind == AWE_CLI_STR) {
      *(const char **)o->dest = val;
    } else if (o->kind == AWE_CLI_LIST) {
      ((const char **)o->dest)[(*(int *)o->dest2)++] = val;
    } else {
      if (awe_cli_parse_double(cmd, o->name, val, (double *)o->dest)) return 2;
      if (o->dest2) *(int *)o->dest2 = 1;
    }
  }
  if (!*positional) {
    fprintf(stderr, "awesim %s: no %s given\n%s", cmd, noun, usage);
    return 2;
  }
  return 0;
}


awe_status awe_cli_operating_point(awe_sim *sim, double at, int keep_torque, int quiet,
                                   awe_op *op, awe_err *err) {
  AWE_TRY(awe_op_find(sim, at, keep_torque ? 0u : AWE_OP_HOLD_TORQUE, op, err));
  if (!isnan(at)) sim->ctx.nadd = 0; /* the controllers' outputs are in op->u */
  awe_sim_aero_refresh(sim); /* the wings' aerodynamics linearized at the operating point */
  if (!quiet && op->nheld)
    fprintf(stderr, "awesim: note: %d winch torque%s set to the holding torque (--keep-torque "
                    "keeps the scenario's)\n", op->nheld, op->nheld == 1 ? "" : "s");
  return AWE_OK;
}


int awe_cli_outputs(const awe_model *m, const char *patterns, int quiet, awe_lin_chan **yc,
                    int *ny, awe_err *err) {
  if (patterns) return awe_lin_select(&m->reg.output, patterns, 0, yc, ny, err) ? 2 : 0;
  int fb = 0;
  if (awe_lin_default_outputs(m, yc, ny, &fb, err)) return 1;
  if (fb && !quiet)
    fprintf(stderr, "awesim: note: the model has no wing, tether or winch: outputs are the "
                    "positions of its moving points (--outputs selects others)\n");
  return 0;
}
