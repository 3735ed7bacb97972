/* cmd_simulate.c: `awesim simulate` — load, build, integrate, log to HDF5 and/or CSV.
 *
 * Life cycle per log step (sim.h): initialize -> pre-calculate -> integrate ->
 * post-calculate -> complete (this file writes the row). The simulation itself lives in the
 * library (awe_sim_*); this file owns the command line, the writers, progress, the summary and
 * the signals.
 *
 * Exit status: 0 complete; 3 crashed (a wing hit the ground, sim.h awe_crash); 1 the run
 * failed (non-finite state, stepper failure, steady state, a limit of guard.h: step size,
 * run.max_steps, run.max_wall_time, a diverged state); 2 usage;
 * 65/66 bad or missing input; 74 output error (also an output that is a file the run reads or
 * another of its outputs); 128 + signal for SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM
 * and 141 when the CSV reader closed the pipe (after the HDF5 file was closed with status
 * "interrupted"). A log that did not complete records the phase the run
 * stopped in (root attribute `phase`: start, settling, simulation).
 */
#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/aero_coupling.h"
#include "cli/cli.h"
#include "output/awesio_write.h"
#include "cli/cycles_report.h"
#include "cli/out_paths.h"
#include "control/controller.h"
#include "solve/sim.h"
#include "solve/steady.h"
#include "output/log_select.h"
#include "output/writer.h"

static const char simulate_usage[] =
    "usage: awesim simulate [OPTIONS] SCENARIO\n"
    "\n"
    "Simulate a scenario (model, settings, run options, scheduled inputs) and log every output\n"
    "channel at each log step (run.dt) to an HDF5 file and/or CSV on stdout.\n"
    "\n"
    "  -o FILE               write the HDF5 log to FILE (overrides output.hdf5; missing\n"
    "                        folders are created)\n"
    "  --no-hdf5             do not write the HDF5 log named in the scenario\n"
    "  --csv[=PATTERNS]      CSV on stdout: all channels, or those matching the comma-separated\n"
    "                        globs, e.g. --csv='time,winches.*.force,points.kcu.pos.z'\n"
    "  --set KEY.PATH=VALUE  override a scenario key (repeatable), e.g. --set run.duration=20\n"
    "  --summary-json FILE   write the run summary as JSON to FILE\n"
    "  -q, --quiet           no progress, summary or warnings (errors only)\n"
    "  -h, --help            show this help\n"
    "\n"
    "Channels are named GROUP.NAME.VAR[.x|.y|.z] (GROUP = points, segments, tethers, winches,\n"
    "pulleys) with the unit in brackets in the CSV header. A progress line is shown when stderr\n"
    "is a terminal; a one-line summary always ends the run (unless -q).\n"
    "No output may be a file the run reads (scenario, model files) or another output.\n"
    "Exit status: 0 complete, 1 the simulation failed, 2 usage, 3 crashed (a wing hit the\n"
    "ground), 65 invalid input, 66 missing input, 74 output error, 128 + N interrupted by\n"
    "signal N (SIGINT 130, SIGTERM 143, SIGHUP 129...), 141 the reader of the CSV closed the\n"
    "pipe.\n";

typedef struct {
  const char *scenario, *out, *csv, *json;
  int want_csv, quiet, nset, no_hdf5;
  const char **sets;
} options;


static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof(*o));
  o->sets = calloc((size_t)argc + 1, sizeof(char *));
  if (!o->sets) return 70;
  const awe_cli_opt opts[] = {
      {"--quiet", "-q", AWE_CLI_FLAG, &o->quiet, NULL},
      {"--no-hdf5", NULL, AWE_CLI_FLAG, &o->no_hdf5, NULL},
      {"--csv", NULL, AWE_CLI_FLAG_STR, &o->want_csv, &o->csv},
      {"--output", "-o", AWE_CLI_STR, &o->out, NULL},
      {"--summary-json", NULL, AWE_CLI_STR, &o->json, NULL},
      {"--set", NULL, AWE_CLI_LIST, o->sets, &o->nset},
  };
  return awe_cli_parse("simulate", argc, argv, opts, (int)AWE_ARRLEN(opts), "scenario",
                       &o->scenario, simulate_usage);
}


static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* the writers, kept in one place */
typedef struct {
  awe_h5 *h5;
  awe_csv *csv;
  int csv_closed;  /* the reader of stdout went away */
} sinks;


static awe_status sinks_open_lists(sinks *k, const options *o, const awe_spec *spec,
                                   const awe_model *m, const char *solver, const char *cmdline,
                                   const char *h5path, const char *pat, const awe_varlist *sel,
                                   awe_err *err);

static awe_status sinks_open(sinks *k, const options *o, const awe_spec *spec,
                             const awe_model *m, const char *solver, const char *cmdline,
                             awe_err *err) {
  memset(k, 0, sizeof(*k));
  const char *h5path = o->out ? o->out : o->no_hdf5 ? NULL : spec->scenario.hdf5;
  /* output.channels: what the HDF5 log holds, and the CSV when no patterns choose columns */
  awe_varlist sel;
  AWE_TRY(awe_log_select(spec, &m->reg.output, &sel, err));
  const char *pat = o->csv ? o->csv : spec->scenario.csv;
  awe_status st = sinks_open_lists(k, o, spec, m, solver, cmdline, h5path, pat, &sel, err);
  awe_varlist_free(&sel);
  return st;
}


static awe_status sinks_open_lists(sinks *k, const options *o, const awe_spec *spec,
                                   const awe_model *m, const char *solver, const char *cmdline,
                                   const char *h5path, const char *pat, const awe_varlist *sel,
                                   awe_err *err) {
  if (h5path) {
    /* the log carries the model's structure: a viewer needs no model files */
    char *topo = awe_awesio_string(m, spec->scenario.name, spec->scenario.path, err);
    if (!topo) return err->code;
    awe_h5_info info = {.solver = solver, .command_line = cmdline,
                        .scenario = spec->scenario_text, .topology = topo};
    awe_log_compression(spec, &info);
#ifdef M_TRIM_THRESHOLD
    /* HDF5's deflate filter mallocs and frees a chunk-sized buffer per chunk; glibc gave that
       memory back to the kernel each time (brk up and down, pages zeroed again): 1.75 s of
       system time against 0.25 s of deflating for 2plate_parked, 300 s. Keep 4 MiB. */
    if (info.gzip_level > 0) mallopt(M_TRIM_THRESHOLD, 4 << 20);
#endif
    k->h5 = awe_h5_open(h5path, sel, &info, err);
    free(topo);
    if (!k->h5) return err->code ? err->code : AWE_EIO;
  }
  if (o->want_csv || spec->scenario.csv) {
    /* stdout to a pipe or file is fully buffered by the C library already; CSV patterns
       choose among every channel, output.channels only stands in for none */
    int rc = awe_csv_open(&k->csv, stdout, pat && *pat ? &m->reg.output : sel, pat, err);
    if (rc == AWE_WRITER_EPIPE) k->csv_closed = 1;
    else if (rc) return (awe_status)rc;
  }
  return AWE_OK;
}


/* write one row; returns AWE_OK or an error (a closed CSV pipe is not one) */
static awe_status sinks_row(sinks *k, double t, const double *y, awe_err *err) {
  awe_status st = awe_h5_write_row(k->h5, t, y, err);
  if (st) return st;
  if (k->csv && !k->csv_closed) {
    int rc = awe_csv_write_row(k->csv, t, y, err);
    if (rc == AWE_WRITER_EPIPE) k->csv_closed = 1;
    else if (rc) return (awe_status)rc;
  }
  return AWE_OK;
}


/* flush and close the CSV stream: AWE_OK, AWE_WRITER_EPIPE (its reader went away) or an
 * error in err */
static int sinks_close_csv(sinks *k, awe_err *err) {
  if (!k->csv) return AWE_OK;
  int rc = awe_csv_close(k->csv, err);
  k->csv = NULL;
  if (rc == AWE_WRITER_EPIPE) k->csv_closed = 1;
  return rc;
}


static void sinks_close(sinks *k, awe_run_status rs, const char *msg, const awe_stats *st,
                        const awe_stats *settle, const awe_aero_stats *as, awe_err *err) {
  awe_err e2 = {0};
  sinks_close_csv(k, &e2);

  if (k->h5) {
    /* deterministic numbers only (no wall time): identical runs give identical files */
    awe_h5_set_attr_int(k->h5, "steps", (long long)st->steps, err);
    awe_h5_set_attr_int(k->h5, "rejected_steps", (long long)st->rejected, err);
    awe_h5_set_attr_int(k->h5, "rhs_calls", (long long)st->rhs, err);
    awe_h5_set_attr_int(k->h5, "jacobian_calls", (long long)st->jac, err);
    if (settle) {
      awe_h5_set_attr_int(k->h5, "settling_steps", (long long)settle->steps, err);
      awe_h5_set_attr_int(k->h5, "settling_rhs_calls", (long long)settle->rhs, err);
    }
    if (as) {
      awe_h5_set_attr_int(k->h5, "vsm_refreshes", (long long)as->refreshes, err);
      awe_h5_set_attr_int(k->h5, "vsm_failures", (long long)as->failures, err);
      awe_h5_set_attr_int(k->h5, "vsm_low_wind", (long long)as->low_wind, err);
      awe_h5_set_attr_int(k->h5, "vsm_reversed_flow", (long long)as->reversed, err);
      awe_h5_set_attr_int(k->h5, "vsm_solves", (long long)as->solves, err);
      awe_h5_set_attr_int(k->h5, "vsm_linearizations", (long long)as->jacobians, err);
    }
    awe_h5_close(k->h5, rs, msg, err);
    k->h5 = NULL;
  }
}


static void json_str(FILE *f, const char *str) {
  fputc('"', f);
  for (const char *c = str; c && *c; c++) {
    if (*c == '"' || *c == '\\') fputc('\\', f);
    fputc((unsigned char)*c >= 0x20 ? *c : ' ', f);
  }
  fputc('"', f);
}


/* what ended a run early, for the summary */
typedef struct {
  const char *status; /* "complete" | "interrupted" | "failed" | "crashed" */
  const char *why;    /* an interrupted run: the signal's name, or "EPIPE" */
  const char *error;  /* a failed run: the message */
  int code;           /* exit code */
} run_end;


/* one JSON record: the run and the final value of every logged output; written beside path
 * and renamed onto it, every write checked */
static awe_status write_json(const char *path, const options *o, const run_end *end,
                             double wall, long rows, const char *solver, const awe_sim *sim,
                             const awe_stats *st, const awe_stats *settle,
                             const awe_cycles_report *cycles, awe_err *err) {
  char tmp[4200];
  FILE *f = awe_cli_replace_open(path, tmp, sizeof(tmp), err);
  if (!f) return err->code;
  const char *status = end->status, *error = end->error;
  int code = end->code;
  fputs("{\"scenario\": ", f);
  json_str(f, o->scenario);
  fputs(", \"overrides\": [", f);
  for (int i = 0; i < o->nset; i++) {
    if (i) fputs(", ", f);
    json_str(f, o->sets[i]);
  }
  fprintf(f, "], \"status\": \"%s\", \"exit_code\": %d, \"t_end\": %.9g, \"wall_time\": %.6g, ",
          status, code, sim->t, wall);
  fprintf(f, "\"realtime_factor\": %.6g, \"rows\": %ld, \"solver\": \"%s\", ",
          wall > 0 ? sim->t / wall : 0.0, rows, solver);
  fprintf(f, "\"steps\": %lu, \"rejected_steps\": %lu, \"rhs_calls\": %lu, \"jacobian_calls\": %lu",
          st->steps, st->rejected, st->rhs, st->jac);
  if (settle)
    fprintf(f, ", \"settling_steps\": %lu, \"settling_rhs_calls\": %lu", settle->steps,
            settle->rhs);
  if (end->why) {
    fputs(", \"interrupted_by\": ", f);
    json_str(f, end->why);
  }
  if (sim->w->aero) {
    awe_aero_stats as = awe_aero_get_stats(sim->w);
    fprintf(f, ", \"vsm_refreshes\": %lu, \"vsm_failures\": %lu, \"vsm_low_wind\": %lu, "
               "\"vsm_reversed_flow\": %lu, \"vsm_solves\": %lu, \"vsm_linearizations\": %lu",
            as.refreshes, as.failures, as.low_wind, as.reversed, as.solves, as.jacobians);
  }
  if (strcmp(status, "complete") != 0) {
    fputs(", \"phase\": ", f);
    json_str(f, sim->guard.phase);
  }
  if (sim->steady_residual == sim->steady_residual)
    fprintf(f, ", \"steady_state_residual\": %.6g", sim->steady_residual);
  if (sim->m->nwinch > 0) {
    /* winch energy since t = 0, summed over the winches (outputs.c), and its mean power */
    double e = 0.0;
    for (int i = 0; i < sim->m->nwinch; i++) e += sim->w->winch_energy[i];
    fprintf(f, ", \"energy\": %.9g, \"mean_power\": %.9g", e, sim->t > 0 ? e / sim->t : 0.0);
  }
  if (sim->ctrl) {
    int cyc;
    double e, tc, pk;
    awe_ctrl_pump_stats(sim->ctrl, &cyc, &e, &tc, &pk);
    if (pk > 0.0)
      fprintf(f, ", \"pumping\": {\"cycles\": %d, \"energy_per_cycle\": %.9g, "
                 "\"mean_cycle_power\": %.9g, \"peak_force\": %.9g}",
              cyc, cyc ? e / cyc : 0.0, tc > 0 ? e / tc : 0.0, pk);
  }
  awe_cycles_report_json(f, cycles);
  if (sim->crash.happened) {
    const awe_crash *c = &sim->crash;
    fputs(", \"crash\": {\"wing\": ", f);
    json_str(f, sim->m->wing_name[c->wing]);
    fputs(", \"point\": ", f);
    json_str(f, c->point >= 0 ? sim->m->point_name[c->point] : "origin");
    fprintf(f, ", \"time\": %.9g, \"z\": %.9g, \"impact_speed\": %.9g, "
               "\"impact_vertical_speed\": %.9g, \"point_speed\": %.9g, "
               "\"point_vertical_speed\": %.9g, \"stopped\": %s}",
            c->t, c->z, c->v_total, c->v_vertical, c->pt_total, c->pt_vertical,
            sim->m->opt.on_crash_continue ? "false" : "true");
  }
  if (error) {
    fputs(", \"error\": ", f);
    json_str(f, error);
  }
  /* final values (NaN/inf are not JSON: null) */
  fputs(", \"final\": {", f);
  const awe_varlist *l = &sim->m->reg.output;
  int first = 1;
  for (int k = 0; k < l->n; k++) {
    if (!(l->v[k].flags & AWE_VF_LOG)) continue;
    for (int j = 0; j < l->v[k].dim; j++) {
      char name[512];
      double v = sim->yout[l->v[k].offset + j];
      awe_var_scalar_name(&l->v[k], j, name, sizeof(name));
      fprintf(f, first ? "" : ", ");
      first = 0;
      json_str(f, name);
      if (isfinite(v)) fprintf(f, ": %.9g", v);
      else fputs(": null", f);
    }
  }
  fputs("}}\n", f);
  return awe_cli_replace_commit(f, tmp, path, err);
}


/* One simulate run: what it reads, runs and writes, and how it ended. */
typedef struct {
  options o;
  awe_spec *spec;
  awe_model *m;
  awe_sim *sim;
  sinks k;
  const awe_stop_flag *stop;
  char *cmdline;
  const char *solver;
  int tty;                 /* progress line on stderr */
  double wall0;            /* wall clock at the start [s] */
  long rows;               /* rows logged */
  const char *status;      /* "complete" | "interrupted" | "failed" */
  const char *why;         /* interrupted: the signal's name or "EPIPE" */
  awe_run_status rs;
  int rc;                  /* exit code */
  awe_cycles_report cycles; /* pumping cycles of the logged rows */
  int settled;             /* start() returned: settle holds the settling's counts */
  awe_stats settle;        /* the counters at the end of the start (the settling's work) */
} run;


/* exit code of a run whose CSV reader closed standard output: what a process killed by
 * SIGPIPE reports, which `set -o pipefail` scripts already expect of `... | head` */
#define EXIT_EPIPE (128 + SIGPIPE)
/* share of a pumping controller's seconds in which its command rang (awe_ctrl_pump_ringing)
 * above which the run warns: the V3 runs stay at 0-2 %; its force loop at 20 Hz in 11 m/s of
 * wind rings in 74 % of them, the hanging load's reel-in speed loop in 18 % */
#define AWE_PUMP_RINGING_WARN 0.05


static void set_interrupted(run *r) {
  r->status = "interrupted";
  r->rs = AWE_RUN_INTERRUPTED;
  if (*r->stop) {
    r->why = awe_cli_signal_name((int)*r->stop);
    r->rc = 128 + (int)*r->stop;
  } else if (r->k.csv_closed) {
    r->why = "EPIPE";
    r->rc = EXIT_EPIPE;
  } else {
    r->why = NULL;
    r->rc = awe_exit_code(AWE_EINTR);
  }
}


/* the run's own counters: all of them less the settling's */
static awe_stats own_stats(const run *r) {
  awe_stats a = r->sim->w->stats, b = r->settled ? r->settle : a;
  a.rhs -= b.rhs;
  a.jac -= b.jac;
  a.steps -= b.steps;
  a.rejected -= b.rejected;
  a.qs_solves -= b.qs_solves;
  a.qs_iter -= b.qs_iter;
  a.lu -= b.lu;
  a.lu_solves -= b.lu_solves;
  a.newton_tr -= b.newton_tr;
  a.newton_bdf -= b.newton_bdf;
  a.newton_fail -= b.newton_fail;
  return a;
}


/* how the run ended when a call failed: a writer's failure (io) fails the run, a stop signal
 * seen by the simulation interrupts it */
static void set_failed(run *r, int io, const awe_err *err) {
  if (!io && err->code == AWE_EINTR) {
    set_interrupted(r);
  } else {
    r->status = "failed";
    r->rs = AWE_RUN_FAILED;
    r->rc = awe_exit_code(err->code);
  }
}


/* The outputs before anything is created or truncated: their folders made (every level, like
 * mkdir -p), none of them a file the run reads, no two of them the same file, and standard
 * output there and writable when CSV goes to it. */
static awe_status check_outputs(const run *r, awe_err *err) {
  const options *o = &r->o;
  const char *h5 = o->out ? o->out : o->no_hdf5 ? NULL : r->spec->scenario.hdf5;
  const char *h5opt = o->out ? "-o" : "output.hdf5";
  if (h5) AWE_TRY(awe_cli_make_parents(h5, err));
  if (o->json) {
    AWE_TRY(awe_cli_check_output(o->json, 1, err));
    AWE_TRY(awe_cli_replace_check(o->json, err));
  }
  AWE_TRY(awe_cli_output_not_input(r->spec, h5opt, h5, err));
  AWE_TRY(awe_cli_output_not_input(r->spec, "--summary-json", o->json, err));
  AWE_TRY(awe_cli_outputs_distinct(h5opt, h5, "--summary-json", o->json, err));
  if (!o->want_csv && !r->spec->scenario.csv) return AWE_OK;
  /* main() put a read-only /dev/null on a closed descriptor 1 */
  int fl = fcntl(STDOUT_FILENO, F_GETFL);
  if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
    return awe_err_set(err, AWE_EIO, "standard output is closed or not open for writing: the "
                       "CSV rows (--csv or output.csv) have nowhere to go; redirect it to a file "
                       "or a pipe");
  const char *what = "standard output (the CSV rows)";
  AWE_TRY(awe_cli_fd_not_input(r->spec, STDOUT_FILENO, what, err));
  AWE_TRY(awe_cli_fd_not_path(STDOUT_FILENO, what, h5opt, h5, err));
  return awe_cli_fd_not_path(STDOUT_FILENO, what, "--summary-json", o->json, err);
}


/* the simulation, and every output checked and opened before the run, which may be long */
static awe_status setup(run *r, awe_err *err) {
  /* signals: every loop of the run polls the flag (guard.h); a closed stdout pipe is reported
   * by the CSV writer */
  signal(SIGPIPE, SIG_IGN);
  AWE_TRY(check_outputs(r, err));
  r->sim = awe_cli_new_sim(r->m, &r->stop, err);
  if (!r->sim) return err->code;
  r->solver = awe_integrator_name(r->sim->it);
  awe_cycles_report_init(&r->cycles, r->m);
  return sinks_open(&r->k, &r->o, r->spec, r->m, r->solver, r->cmdline, err);
}


/* initialize (and settle when run.steady_state); the first row. *io: the failure is the
 * writer's */
static awe_status start(run *r, int *io, awe_err *err) {
  const awe_model *m = r->m;
  awe_sim *sim = r->sim;
  AWE_TRY(awe_sim_start(sim, err));
  r->settle = sim->w->stats;
  r->settled = 1;
  if (m->opt.steady_state && !r->o.quiet) {
    fprintf(stderr, "awesim: steady state: residual %.3g N (max |acc| %.3g m/s^2)%s\n",
            sim->steady_residual, sim->steady_acc,
            m->nwing ? "; winches braked, wings free only radially" : "");
    /* settled as SymbolicAWEModels and the acceptance criterion mean it: accelerations < 1e-3 g */
    if (!(sim->steady_acc < AWE_STEADY_ACC_OK))
      fprintf(stderr,
              "awesim: warning: the steady state was not reached (max |acc| %.3g m/s^2 > %.3g "
              "after %g s of settling): the run starts with a transient; run.steady_state_time "
              "settles longer\n",
              sim->steady_acc, AWE_STEADY_ACC_OK,
              m->opt.steady_state_time > 0.0 ? m->opt.steady_state_time : AWE_RUN_STEADY_TIME);
  }
  if (r->k.h5 && m->opt.steady_state) {
    awe_h5_set_attr_double(r->k.h5, "steady_state_residual", sim->steady_residual, err);
    awe_h5_set_attr_double(r->k.h5, "steady_state_acc", sim->steady_acc, err);
  }
  *io = 1;
  AWE_TRY(sinks_row(&r->k, sim->t, sim->yout, err));
  *io = 0;
  r->rows++;
  awe_cycles_report_add(&r->cycles, sim->t, sim->yout);
  return AWE_OK;
}


/* the log steps, until the end, a stop signal or nobody listening. *io: the failure is the
 * writer's */
static awe_status march(run *r, int *io, awe_err *err) {
  const awe_model *m = r->m;
  awe_sim *sim = r->sim;
  long nsteps = awe_sim_log_steps(m);
  double last_progress = r->wall0;
  for (long step = 1; step <= nsteps; step++) {
    /* a stop signal, or the CSV's reader went away (`| head`): the run ends as interrupted */
    if (*r->stop || r->k.csv_closed) break;
    AWE_TRY(awe_sim_step(sim, awe_sim_log_time(m, step), err));
    *io = 1;
    AWE_TRY(sinks_row(&r->k, sim->t, sim->yout, err));
    *io = 0;
    r->rows++;
    awe_cycles_report_add(&r->cycles, sim->t, sim->yout);
    if (sim->crash.happened && !m->opt.on_crash_continue) break; /* at the crash's row */
    if (r->tty) {
      double now = wall_now();
      if (now - last_progress > 0.2) {
        last_progress = now;
        fprintf(stderr, "\r  t = %.6g / %.6g s  %.0fx real time ", sim->t, m->opt.duration,
                sim->t / (now - r->wall0));
      }
    }
  }
  return AWE_OK;
}


/* the end of the run on stderr (unless -q): warnings, the one-line summary, the pumping
 * cycles */
static void summary(const run *r, double wall, const awe_aero_stats *ast, const awe_stats *stt,
                    const awe_stats *settle) {
  const awe_sim *sim = r->sim;
  const awe_work *w = sim->w;
  if (r->o.quiet) return;
  if (w->warn[AWE_WARN_QS_NOCONV].count || w->warn[AWE_WARN_QS_SINGULAR].count)
    fprintf(stderr,
            "awesim: warning: quasi-static solve failed %lu times (first at t = %.6g s); "
            "the steps were retried\n",
            w->warn[AWE_WARN_QS_NOCONV].count + w->warn[AWE_WARN_QS_SINGULAR].count,
            w->warn[AWE_WARN_QS_NOCONV].count ? w->warn[AWE_WARN_QS_NOCONV].t
                                                : w->warn[AWE_WARN_QS_SINGULAR].t);
  if (ast->failures)
    fprintf(stderr,
            "awesim: warning: %lu VSM refreshes failed (first at t = %.6g s); the wings kept "
            "their previous aerodynamic model\n", ast->failures, ast->t_fail);
  fprintf(stderr,
          "awesim: %s: simulated %.6g s in %.3g s (%.0fx real time); steps %lu (rejected "
          "%lu), rhs %lu, jacobian %lu; %s",
          r->status, sim->t, wall, wall > 0 ? sim->t / wall : 0.0, stt->steps, stt->rejected,
          stt->rhs, stt->jac, r->solver);
  if (w->aero)
    fprintf(stderr, "; VSM refreshes %lu (failed %lu, low wind %lu, reversed flow %lu)",
            ast->refreshes, ast->failures, ast->low_wind, ast->reversed);
  if (ast->jacobians) fprintf(stderr, ", linearized %lu", ast->jacobians);
  fputc('\n', stderr);
  /* the counts above are the run's own; the settling's are apart */
  if (settle)
    fprintf(stderr, "awesim: settling: steps %lu (rejected %lu), rhs %lu, jacobian %lu\n",
            settle->steps, settle->rejected, settle->rhs, settle->jac);
  int cyc;
  double e, tc, pk;
  awe_ctrl_pump_stats(sim->ctrl, &cyc, &e, &tc, &pk);
  if (pk > 0.0)
    /* the controller's own cycles (from one switch to reel-out to the next, the first one
     * included): the cycle table below starts them where the winch turns and takes medians */
    fprintf(stderr, "awesim: pumping: %d full cycle%s (controller switch to switch), energy per "
            "cycle %.4g kJ, mean power over %s %.4g kW, peak tether force %.4g kN\n", cyc,
            cyc == 1 ? "" : "s", cyc ? e / cyc / 1e3 : 0.0, cyc == 1 ? "it" : "them",
            tc > 0 ? e / tc / 1e3 : 0.0, pk / 1e3);
  double ring;
  long nring[2], nsec;
  int ic = awe_ctrl_pump_ringing(sim->ctrl, &ring, nring, &nsec);
  if (ic >= 0 && ring > AWE_PUMP_RINGING_WARN) {
    const awe_ctrl *c = &r->m->ctrl[ic];
    fprintf(stderr, "awesim: warning: controllers.%s: the winch command rang (its steps "
            "reversing at most samples) in %ld s of reel-out and %ld s of reel-in of %ld s: "
            "a sampled loop beyond its stability bound (reel-out or reel-in on force: "
            "force_kp %g, needs the kite's -dF/dv below 2 J / (ratio^2 force_kp period); "
            "speed: kp %g, ki %g); lower the gain or the period %g s (awesim-scenario(5), "
            "pumping)\n", c->cfg.name, nring[0], nring[1], nsec, c->cfg.force_kp, c->cfg.kp,
            c->cfg.ki, c->period);
  }
  awe_cycles_report_print(stderr, &r->cycles);
}


/* a wing hit the ground: the log's attributes (before it is closed) */
static void crash_attrs(run *r) {
  const awe_crash *c = &r->sim->crash;
  const awe_model *m = r->m;
  const char *pt = c->point >= 0 ? m->point_name[c->point] : "origin";
  awe_err e = {0};
  awe_h5_set_attr_str(r->k.h5, "crash_wing", m->wing_name[c->wing], &e);
  awe_h5_set_attr_str(r->k.h5, "crash_point", pt, &e);
  awe_h5_set_attr_double(r->k.h5, "crash_time", c->t, &e);
  awe_h5_set_attr_double(r->k.h5, "crash_z", c->z, &e);
  awe_h5_set_attr_double(r->k.h5, "crash_impact_speed", c->v_total, &e);
  awe_h5_set_attr_double(r->k.h5, "crash_impact_vertical_speed", c->v_vertical, &e);
  awe_h5_set_attr_double(r->k.h5, "crash_point_speed", c->pt_total, &e);
}


/* and on stderr, always (a crash is not a warning to silence), as the run's last line (a
 * sweep shows a run's last line) */
static void crash_report(const run *r) {
  const awe_crash *c = &r->sim->crash;
  const awe_model *m = r->m;
  const char *pt = c->point >= 0 ? m->point_name[c->point] : "origin";
  fprintf(stderr, "awesim: %s: wing %s hit the ground at t = %.6g s with %.3g m/s (vertical "
          "%.3g m/s); %s %s at z = %.3g m (ground %g m + clearance %g m) at %.3g m/s%s\n",
          m->opt.on_crash_continue ? "warning" : "crashed", m->wing_name[c->wing], c->t,
          c->v_total, c->v_vertical, c->point >= 0 ? "point" : "its", pt, c->z,
          m->ground.height, m->opt.crash_clearance, c->pt_total,
          m->opt.on_crash_continue ? "; the run went on (run.on_crash: continue)" : "");
}


/* close the logs with the run's status, report, write the JSON summary */
static void finish(run *r, const awe_err *err) {
  double wall = wall_now() - r->wall0;
  if (r->tty) fputs("\r\033[K", stderr);
  char msg[sizeof(err->msg)];
  snprintf(msg, sizeof(msg), "%s", err->msg);
  const awe_sim *sim = r->sim;
  if (sim->crash.happened) crash_attrs(r);
  /* the CSV's last rows leave the buffer now: a reader gone interrupts a complete run, a
   * failed write fails it */
  awe_err cerr = {0};
  int crc = sinks_close_csv(&r->k, &cerr);
  if (crc == AWE_WRITER_EPIPE && r->rs == AWE_RUN_COMPLETE) {
    set_interrupted(r);
  } else if (crc && crc != AWE_WRITER_EPIPE) {
    if (r->rs == AWE_RUN_FAILED) {
      fprintf(stderr, "awesim: error: %s\n", cerr.msg);
    } else {
      snprintf(msg, sizeof(msg), "%s", cerr.msg);
      r->status = "failed";
      r->rs = AWE_RUN_FAILED;
      r->rc = awe_exit_code((awe_status)crc);
      r->why = NULL;
    }
  }
  cerr = (awe_err){0};
  if (r->rs == AWE_RUN_FAILED) fprintf(stderr, "awesim: error: %s\n", msg);
  const char *phase = awe_guard_phase_text(sim->guard.phase);
  int epipe = r->why && !strcmp(r->why, "EPIPE");
  if (r->rs == AWE_RUN_INTERRUPTED && epipe && !r->o.quiet)
    fprintf(stderr, "awesim: interrupted: the reader of standard output (the CSV rows) closed "
                    "it; the run stopped at t = %.9g s in %s\n", sim->t, phase);
  else if (r->rs == AWE_RUN_INTERRUPTED && !epipe)
    fprintf(stderr, "awesim: interrupted by %s at t = %.9g s in %s\n",
            r->why ? r->why : "a signal", sim->t, phase);
  /* where an unfinished run stopped: start, settling or simulation */
  if (r->rs != AWE_RUN_COMPLETE) awe_h5_set_attr_str(r->k.h5, "phase", sim->guard.phase, &cerr);
  if (r->why) awe_h5_set_attr_str(r->k.h5, "interrupted_by", r->why, &cerr);
  awe_aero_stats ast = awe_aero_get_stats(sim->w);
  awe_stats own = own_stats(r), settle = r->settled ? r->settle : sim->w->stats;
  const awe_stats *sp = r->m->opt.steady_state ? &settle : NULL;
  sinks_close(&r->k, r->rs, r->rs == AWE_RUN_FAILED ? msg : NULL, &own, sp,
              sim->w->aero ? &ast : NULL, &cerr);
  if (cerr.code) {
    fprintf(stderr, "awesim: error: %s\n", cerr.msg);
    if (!r->rc) r->rc = awe_exit_code(cerr.code);
  }
  summary(r, wall, &ast, &own, sp);
  if (sim->crash.happened) crash_report(r);
  if (r->o.json) {
    awe_err jerr = {0};
    run_end end = {r->status, r->why, r->rs == AWE_RUN_FAILED ? msg : NULL, r->rc};
    if (write_json(r->o.json, &r->o, &end, wall, r->rows, r->solver, r->sim, &own, sp,
                   &r->cycles, &jerr)) {
      fprintf(stderr, "awesim: error: %s\n", jerr.msg);
      if (!r->rc) r->rc = awe_exit_code(jerr.code);
    }
  }
}


static void run_free(run *r) {
  free(r->o.sets);
  awe_cycles_report_free(&r->cycles);
  awe_sim_free(r->sim);
  free(r->cmdline);
  awe_model_free(r->m);
  awe_spec_free(r->spec);
}


int awe_cmd_simulate(int argc, char **argv) {
  run r = {.status = "complete", .rs = AWE_RUN_COMPLETE};
  int rc = parse_args(argc, argv, &r.o);
  rc = awe_cli_begin(rc, r.o.scenario, r.o.nset, r.o.sets, &r.spec, &r.m);
  if (rc) {
    free(r.o.sets);
    return rc < 0 ? 0 : rc;
  }
  awe_err err = {0};
  r.cmdline = awe_cli_command_line(argc, argv);
  r.tty = isatty(STDERR_FILENO) && !r.o.quiet;
  r.wall0 = wall_now();
  if (setup(&r, &err)) {
    rc = awe_cli_fail(&err);
    sinks_close(&r.k, AWE_RUN_FAILED, err.msg, &(awe_stats){0}, NULL, NULL, &err);
    run_free(&r);
    return rc;
  }
  int io = 0;
  if (start(&r, &io, &err) || march(&r, &io, &err)) {
    set_failed(&r, io, &err);
  } else if (*r.stop || r.k.csv_closed) {
    set_interrupted(&r);
  } else if (awe_sim_finish(r.sim, &err)) {
    /* an external controller that fails to exit cleanly fails the run (rows are kept); a
     * signal while waiting for it interrupts it */
    set_failed(&r, 0, &err);
  } else if (r.sim->crash.happened && !r.m->opt.on_crash_continue) {
    r.status = "crashed";
    r.rs = AWE_RUN_CRASHED;
    r.rc = AWE_EXIT_CRASHED;
  }
  finish(&r, &err);
  rc = r.rc;
  run_free(&r);
  return rc;
}
