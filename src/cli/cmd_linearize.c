/* cmd_linearize.c: `awesim linearize` — A, B, C, D about an operating point, modal table.
 *
 * Steps: load the scenario; find the operating point (linearize.h: after the steady-state
 * march, or the state at --at T of a simulation); check that it is an equilibrium (a trim's
 * relative residual, trim.h, else ||dx/dt||_2 over the non-integrating states, <= --tol), and refuse (exit 1) otherwise unless
 * --allow-nonequilibrium; select inputs and outputs (registry names, globs); linearize by
 * central differences; eigen-analysis (modal.h); write HDF5 (-o), OpenFAST-style text (--lin),
 * CSV (--csv) and the modal table on stdout.
 *
 * The eigen-analysis (dense, minutes for thousands of states) runs in a child process
 * (modal.h) that SIGINT/SIGTERM or run.max_wall_time end; A, B, C, D are written anyway.
 *
 * Along a trajectory (--every, --times, --along LOG.h5: linearize_along): one simulation on
 * simulate's log grid, linearized at each time as --at would be, without equilibrium check
 * or modes; the K models go to one HDF5 file (lin_output.h, "awesim-linear-tv-1") written at
 * the end, also when a signal or run.max_wall_time ends the run early (status "incomplete").
 * A simulate log holds outputs, not the state: --along simulates again and compares outputs.
 *
 * Exit status: 0 done; 1 not an equilibrium, or the simulation/linearization failed, or
 * run.max_wall_time ended it; 2 usage; 65/66 bad or missing input; 74 output error; 130/143
 * SIGINT/SIGTERM (files written without modes when the signal came in the eigen-analysis).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/out_paths.h"
#include "cli/cmd_trim.h"
#include "output/lin_output.h"
#include "analysis/linearize.h"
#include "analysis/modal.h"
#include "engine/aero_coupling.h"
#include "output/log_read.h"

static const char linearize_usage[] =
    "usage: awesim linearize [OPTIONS] SCENARIO\n"
    "\n"
    "Linearize the model about an operating point,\n"
    "  d(dx)/dt = A dx + B du,   dy = C dx + D du,\n"
    "by central differences with the perturbation sizes of the variable registry (orientations\n"
    "as rotation vectors, 3 states each), and print its modes: one row per real eigenvalue or\n"
    "complex pair with natural frequency, damping ratio, time constant and the three states\n"
    "with the largest participation.\n"
    "\n"
    "  --at T                  operating point: the state at time T [s] of a simulation of the\n"
    "                          scenario (default: the trim of a model with a wing, see\n"
    "                          awesim trim; the steady state of one without)\n"
    "  --op trim|steady        without --at: the free trim (default with a wing) or the\n"
    "                          steady state with the wings held on their spheres (the\n"
    "                          behaviour before the trim existed)\n"
    "  --from TRIM.h5          operating point: a trim written by `awesim trim -o`\n"
    "  --tol R                 equilibrium tolerance (default 1e-6): on the relative\n"
    "                          residual of a trim (see awesim trim), else on ||dx/dt||_2\n"
    "  --allow-nonequilibrium  linearize even when the residual exceeds the tolerance\n"
    "  --keep-torque           keep the scenario's winch torques (default after the steady\n"
    "                          state: an unscheduled torque holds its winch, calc_steady_torque)\n"
    "  --inputs PATTERNS       inputs u: comma-separated globs over the input names, e.g.\n"
    "                          'winches.*.torque,segments.steer_*.l0,wind.v_wind'\n"
    "                          (default: winch torques; without winches: point forces)\n"
    "  --outputs PATTERNS      outputs y: globs over the channel names, e.g. 'points.kcu.pos'\n"
    "                          (default: tether lengths and winch forces; without those: the\n"
    "                          positions of the moving points)\n"
    "  --zero-tol R            zero modes: |lambda| <= min(R max|lambda|, 1e-3 1/s) (default\n"
    "                          1e-5); printed as class 'zero' without f_n, zeta, tau\n"
    "  --no-modes              no eigen-analysis (dense, ~1e-8 n^3 s: 2402 states take 2.4 min)\n"
    "  -o FILE.h5              write A, B, C, D, operating point, names, units, modes (HDF5)\n"
    "  --lin FILE              write an OpenFAST-style text file (%.17g)\n"
    "  --csv[=PREFIX]          write PREFIX_A.csv .. PREFIX_D.csv (default prefix: the -o or\n"
    "                          --lin file name without extension, else 'linearize')\n"
    "  --every DT              along the trajectory: linearize at t = 0, DT, 2 DT, ... up to\n"
    "                          --until (default run.duration) during one simulation of the\n"
    "                          scenario, and write A(t), B(t), C(t), D(t), the points and\n"
    "                          f0 = dx/dt there to -o (required; no modes, no equilibrium\n"
    "                          check: the points are not equilibria)\n"
    "  --times T1,T2,...       along the trajectory at these times [s] (increasing)\n"
    "  --until T               end of --every or --along [s]\n"
    "  --along LOG.h5          along the trajectory of a log of `awesim simulate` of this\n"
    "                          scenario (its /scenario must be the scenario as run): at its\n"
    "                          times (thinned by --every), simulated again (the log holds the\n"
    "                          outputs, not the state), each point's outputs compared with\n"
    "                          the log's (/log_diff)\n"
    "  --set KEY.PATH=VALUE    override a scenario key (repeatable)\n"
    "  -q, --quiet             no notes or warnings on stderr (errors only)\n"
    "  -h, --help              show this help\n"
    "\n"
    "Classes: zero, stable (Re < 0), unstable (Re > 0), undamped (|zeta| <= 1e-5). SIGINT,\n"
    "SIGTERM and run.max_wall_time end the eigen-analysis within 0.1 s: A, B, C, D are still\n"
    "written (without modes), exit 130/143 (signal) or 1 (wall time).\n"
    "Exit status: 0 done, 1 not an equilibrium or the computation failed, 2 usage, 65 invalid\n"
    "input, 66 missing input, 74 output error, 130/143 interrupted by SIGINT/SIGTERM.\n";

typedef struct {
  const char *scenario, *out, *lin, *csv, *inputs, *outputs, *op, *from, *times, *along;
  int want_csv, quiet, allow, keep_torque, nset, no_modes;
  double at, tol, zero_tol, every, until;
  const char **sets;
} options;


static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof(*o));
  o->at = NAN;
  o->every = NAN;
  o->until = NAN;
  o->tol = 1e-6;
  o->sets = calloc((size_t)argc + 1, sizeof(char *));
  if (!o->sets) return 70;
  const awe_cli_opt opts[] = {
      {"--quiet", "-q", AWE_CLI_FLAG, &o->quiet, NULL},
      {"--allow-nonequilibrium", NULL, AWE_CLI_FLAG, &o->allow, NULL},
      {"--keep-torque", NULL, AWE_CLI_FLAG, &o->keep_torque, NULL},
      {"--no-modes", NULL, AWE_CLI_FLAG, &o->no_modes, NULL},
      {"--zero-tol", NULL, AWE_CLI_NUM, &o->zero_tol, NULL},
      {"--csv", NULL, AWE_CLI_FLAG_STR, &o->want_csv, &o->csv},
      {"--output", "-o", AWE_CLI_STR, &o->out, NULL},
      {"--lin", NULL, AWE_CLI_STR, &o->lin, NULL},
      {"--inputs", NULL, AWE_CLI_STR, &o->inputs, NULL},
      {"--outputs", NULL, AWE_CLI_STR, &o->outputs, NULL},
      {"--set", NULL, AWE_CLI_LIST, o->sets, &o->nset},
      {"--at", NULL, AWE_CLI_NUM, &o->at, NULL},
      {"--tol", NULL, AWE_CLI_NUM, &o->tol, NULL},
      {"--op", NULL, AWE_CLI_STR, &o->op, NULL},
      {"--from", NULL, AWE_CLI_STR, &o->from, NULL},
      {"--every", NULL, AWE_CLI_NUM, &o->every, NULL},
      {"--times", NULL, AWE_CLI_STR, &o->times, NULL},
      {"--along", NULL, AWE_CLI_STR, &o->along, NULL},
      {"--until", NULL, AWE_CLI_NUM, &o->until, NULL},
  };
  int rc = awe_cli_parse("linearize", argc, argv, opts, (int)AWE_ARRLEN(opts), "scenario",
                         &o->scenario, linearize_usage);
  if (rc) return rc;
  if (o->at < 0.0) {
    fprintf(stderr, "awesim linearize: --at: the time must be >= 0\n");
    return 2;
  }
  if (o->op && strcmp(o->op, "trim") && strcmp(o->op, "steady")) {
    fprintf(stderr, "awesim linearize: --op '%s': expected 'trim' or 'steady'\n", o->op);
    return 2;
  }
  int along = !isnan(o->every) || o->times || o->along;
  if (o->along && o->times) {
    fprintf(stderr, "awesim linearize: --along takes the log's times (--every thins them): not "
                    "with --times\n");
    return 2;
  }
  if (!isnan(o->every) && !(o->every > 0.0 && isfinite(o->every))) {
    fprintf(stderr, "awesim linearize: --every %g: expected a time step > 0 [s]\n", o->every);
    return 2;
  }
  if (!isnan(o->until) && !(o->until >= 0.0 && isfinite(o->until))) {
    fprintf(stderr, "awesim linearize: --until %g: expected a time >= 0 [s]\n", o->until);
    return 2;
  }
  if (!isnan(o->every) && o->times) {
    fprintf(stderr, "awesim linearize: --every and --times: give one of them\n");
    return 2;
  }
  if (!isnan(o->until) && isnan(o->every) && !o->along) {
    fprintf(stderr, "awesim linearize: --until goes with --every or --along\n");
    return 2;
  }
  if (along && (!isnan(o->at) || o->op || o->from || o->lin || o->want_csv)) {
    fprintf(stderr, "awesim linearize: --every/--times/--along linearize along the trajectory: "
                    "not with --at, --op, --from, --lin or --csv\n");
    return 2;
  }
  if (along && !o->out) {
    fprintf(stderr, "awesim linearize: --every/--times/--along need -o FILE.h5\n");
    return 2;
  }
  if (o->zero_tol < 0.0 || o->zero_tol >= 1.0) {
    fprintf(stderr, "awesim linearize: --zero-tol %g: expected a ratio in [0, 1)\n", o->zero_tol);
    return 2;
  }
  return 0;
}


/* path without its extension */
static void strip_ext(const char *path, char *buf, size_t n) {
  snprintf(buf, n, "%s", path);
  char *dot = strrchr(buf, '.'), *slash = strrchr(buf, '/');
  if (dot && (!slash || dot > slash) && dot != buf) *dot = 0;
}


static void print_modes(const awe_linsys *L, const awe_mode *md, int nm) {
  printf("%5s  %-13s %-13s %-12s %-12s %-12s %-9s %s\n", "mode", "re [1/s]", "im [1/s]",
         "f_n [Hz]", "zeta [-]", "tau [s]", "class", "largest participation");
  for (int i = 0; i < nm; i++) {
    int zero = md[i].cls == AWE_MODE_ZERO; /* no frequency, damping or time constant */
    printf("%5d  %-13.6g %-13.6g ", i + 1, md[i].re, md[i].im);
    if (zero) printf("%-12s ", "-");
    else printf("%-12.6g ", md[i].freq);
    if (isnan(md[i].zeta)) printf("%-12s ", "-");
    else printf("%-12.6g ", md[i].zeta);
    if (isnan(md[i].tau)) printf("%-12s ", "-");
    else if (isinf(md[i].tau)) printf("%-12s ", "inf");
    else printf("%-12.6g ", md[i].tau);
    printf("%-9s ", awe_mode_class_name(md[i].cls));
    for (int k = 0; k < AWE_MODE_TOP && md[i].top[k] >= 0; k++) {
      if (md[i].share[k] < 0.005 && k > 0) break;
      printf("%s%s %.0f%%", k ? ", " : "", L->x_name[md[i].top[k]], 100.0 * md[i].share[k]);
    }
    putchar('\n');
  }
}


static double now_s(void) {
  struct timespec ts;
  return clock_gettime(CLOCK_MONOTONIC, &ts) ? 0.0 : (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* the times of --every/--times into *t [*K] (malloc'd); 2 (message printed) if invalid */
static int along_times(const options *o, const awe_model *m, const awe_log_data *lg,
                       double **t, int **row, int *K) {
  *t = NULL;
  *row = NULL;
  *K = 0;
  if (lg) { /* the log's rows up to --until, at least --every apart (k every, within 1e-9) */
    *t = malloc(sizeof(double) * ((size_t)lg->T + 1));
    *row = malloc(sizeof(int) * ((size_t)lg->T + 1));
    if (!*t || !*row) return 70;
    int n = 0;
    double next = 0.0;
    for (long r = 0; r < lg->T && r < 2147483647L; r++) {
      double v = lg->t[r], eps = 1e-9 * (v > 1.0 ? v : 1.0);
      if (!(v >= 0.0 && isfinite(v)) || (n > 0 && !(v > (*t)[n - 1]))) continue;
      if (!isnan(o->until) && v > o->until + eps) break;
      if (v < next - eps) continue;
      (*t)[n] = v;
      (*row)[n++] = (int)r;
      if (!isnan(o->every)) next = o->every * floor((v + eps) / o->every + 1.0);
    }
    *K = n;
    if (n == 0) {
      fprintf(stderr, "awesim linearize: --along %s: no log time to linearize at\n", o->along);
      return 65;
    }
    return 0;
  }
  if (o->times) {
    int n = 1;
    for (const char *c = o->times; *c; c++) n += *c == ',';
    *t = malloc(sizeof(double) * (size_t)n);
    if (!*t) return 70;
    const char *c = o->times;
    for (int k = 0; k < n; k++) {
      char *end;
      double v = strtod(c, &end);
      if (end == c || (*end && *end != ',') || !(v >= 0.0 && isfinite(v)) ||
          (k > 0 && !(v > (*t)[k - 1]))) {
        fprintf(stderr, "awesim linearize: --times '%s': expected increasing times >= 0 [s], "
                        "comma-separated (entry %d)\n", o->times, k + 1);
        free(*t);
        *t = NULL;
        return 2;
      }
      (*t)[k] = v;
      c = *end ? end + 1 : end;
    }
    *K = n;
    return 0;
  }
  double until = isnan(o->until) ? m->opt.duration : o->until;
  double eps = 1e-9 * (until > 1.0 ? until : 1.0);
  long n = (long)floor(until / o->every + 1e-9) + 1;
  if (n > 1000000) {
    fprintf(stderr, "awesim linearize: --every %g up to %g s: %ld points, at most 1000000\n",
            o->every, until, n);
    return 2;
  }
  *t = malloc(sizeof(double) * (size_t)n);
  if (!*t) return 70;
  for (long k = 0; k < n; k++) {
    double v = (double)k * o->every;
    (*t)[k] = v > until + eps ? until : v;
  }
  *K = (int)n;
  return 0;
}


/* --every/--times: one simulation of the scenario along the log grid (awe_op_advance), the
 * wings' aerodynamics refreshed and the model linearized at each time (as --at T would); the
 * file is written at the end, also when a signal, run.max_wall_time or a failure ends the run
 * early (attr status says why; the points before are all there). */
static int linearize_along(const options *o, const awe_spec *spec, const awe_model *m,
                           awe_sim *sim, const awe_stop_flag *stop,
                           const awe_lin_chan *uc, int nu, const awe_lin_chan *yc, int ny,
                           const char *cmdline) {
  double *tt = NULL, *tk = NULL, *ldiff = NULL, *yscale = NULL;
  int *row = NULL;
  awe_err err = {0};
  awe_log_data lgd = {0}, *lg = NULL;
  if (o->along) {
    if (awe_log_read(o->along, &m->reg.output, yc, ny, &lgd, &err))
      return awe_cli_fail(&err);
    lg = &lgd;
    if (!lg->scenario || strcmp(lg->scenario, spec->scenario_text)) {
      fprintf(stderr, "awesim: error: %s: %s: simulate it from this scenario (with the same "
                      "--set overrides), or use --every/--times\n", o->along,
                      lg->scenario ? "its /scenario is not the scenario as run here"
                                   : "no /scenario: not a log of awesim simulate");
      awe_log_data_free(lg);
      return 65;
    }
    /* each channel's scale for the comparison: its largest magnitude in the log, at least 1
     * in its SI unit (a heading that stays within 1e-8 rad of 0 is not a scale); 0: the
     * channel is not in the log */
    yscale = calloc((size_t)ny + 1, sizeof(double));
    if (yscale)
      for (long r = 0; r < lg->T; r++)
        for (int j = 0; j < ny; j++) {
          double a = fabs(lg->Y[(size_t)r * (size_t)ny + (size_t)j]);
          if (!isnan(a) && (a > yscale[j] || yscale[j] == 0.0)) yscale[j] = a > 1.0 ? a : 1.0;
        }
  }
  int K = 0, done = 0, rc = along_times(o, m, lg, &tt, &row, &K);
  if (rc || (lg && !yscale)) {
    awe_log_data_free(&lgd);
    free(tt);
    free(row);
    free(yscale);
    if (!rc) fprintf(stderr, "awesim: error: out of memory\n");
    return rc ? rc : 70;
  }
  { /* every model stays in memory until the file is written at the end */
    double nx = awe_lin_nchan(&m->reg.state), gib = 8.0 * K * (nx + ny) * (nx + nu) / 1073741824.0;
    if (gib > 8.0) {
      fprintf(stderr, "awesim linearize: %d points of %.0f states need %.1f GiB (kept in memory "
                      "until the end), more than 8: fewer points (--every, --until)\n", K, nx,
              gib);
      free(tt);
      free(row);
      free(yscale);
      awe_log_data_free(&lgd);
      return 2;
    }
  }
  awe_linsys *Ls = calloc((size_t)K, sizeof(*Ls));
  tk = malloc(sizeof(double) * (size_t)K);
  ldiff = malloc(sizeof(double) * (size_t)K);
  if (!Ls || !tk || !ldiff) {
    free(tt);
    free(Ls);
    free(tk);
    free(ldiff);
    free(row);
    free(yscale);
    awe_log_data_free(&lgd);
    fprintf(stderr, "awesim: error: out of memory\n");
    return 70;
  }
  awe_lin_model lm;
  awe_lin_model_init(&lm, m, sim->w, 0);
  awe_lin_problem p = {.xl = &m->reg.state, .ul = &m->reg.input, .yl = &m->reg.output,
                       .eval = awe_lin_model_eval, .ctx = &lm, .uc = uc, .nu = nu, .yc = yc,
                       .ny = ny, .integrating = awe_lin_model_integrating, .stop = stop};
  double t_sim = 0.0, t_lin = 0.0, w0 = now_s();
  awe_status st = AWE_OK;
  char status[700] = "complete";
  awe_aero_set_jacobian_tol(sim->w, 0.0); /* as at the point of --at T */
  st = awe_sim_start(sim, &err);
  for (int k = 0; !st && k < K; k++) {
    double w1 = now_s();
    st = awe_op_advance(sim, tt[k], &err);
    if (st) break;
    double eps = 1e-9 * (tt[k] > 1.0 ? tt[k] : 1.0);
    if (sim->t < tt[k] - eps) {
      st = awe_err_set(&err, AWE_EINTEG, "the simulation stopped at t = %.9g s (a crash, "
                                          "run.on_crash = stop) before t = %.9g s",
                       sim->t, tt[k]);
      break;
    }
    awe_op op = {0};
    st = awe_op_here(sim, &op, 1, &err);
    if (st) break;
    awe_sim_aero_refresh(sim);
    double w2 = now_s();
    lm.t = op.t;
    st = awe_linearize(&p, op.x, op.u, &Ls[k], &err);
    tk[k] = op.t;
    awe_op_free(&op);
    t_sim += w2 - w1;
    t_lin += now_s() - w2;
    if (st) break;
    ldiff[k] = NAN; /* max |y0 - y_log| / the channel's largest |y_log| (NaN: none in the log) */
    for (int j = 0; lg && j < ny; j++) {
      double yl = lg->Y[(size_t)row[k] * (size_t)ny + (size_t)j];
      if (isnan(yl) || !(yscale[j] > 0.0)) continue;
      double d = fabs(Ls[k].y_op[j] - yl) / yscale[j];
      if (isnan(ldiff[k]) || !(d <= ldiff[k])) ldiff[k] = d;
    }
    done = k + 1;
    if (awe_guard_poll(&sim->guard, sim->t, 1)) st = awe_guard_error(&sim->guard, &err);
  }
  if (st) snprintf(status, sizeof(status), "incomplete: %s", err.msg);
  int wrc = 0;
  if (done > 0) {
    awe_lin_info info = {.command_line = cmdline, .scenario = spec->scenario_text,
                         .log_path = o->along, .log_diff = lg ? ldiff : NULL};
    awe_err werr = {0};
    if (awe_lin_write_along_h5(o->out, Ls, tk, done, &info, status, &werr))
      wrc = awe_cli_fail(&werr);
  }
  if (done > 0) {
    printf("# linear models along the trajectory: %d of %d points, %d states, %d inputs, %d "
           "outputs -> %s\n", done, K, Ls[0].nx, Ls[0].nu, Ls[0].ny, o->out);
    printf("# wall time: %.3g s simulating, %.3g s linearizing (%.3g s per point, %ld "
           "evaluations each), %.3g s in all\n", t_sim, t_lin, t_lin / done, Ls[0].nevals,
           now_s() - w0);
    if (lg) {
      int nc = 0;
      for (int j = 0; j < ny; j++) nc += yscale[j] > 0.0;
      printf("# vs_log: max over the outputs of |y0 - y_log| / max(the output's largest "
             "|y_log|, 1) in %s (%d of %d outputs are in the log)\n", o->along, nc, ny);
    }
    printf("%12s  %-14s %-24s%s\n", "t [s]", "||dx/dt||", "largest |dx/dt|",
           lg ? " vs_log" : "");
    for (int k = 0; k < done; k++) {
      printf("%12.6g  %-14.6g %-24s", tk[k], Ls[k].residual,
             Ls[k].residual_worst >= 0 ? Ls[k].x_name[Ls[k].residual_worst] : "-");
      if (lg) printf(" %.3g", ldiff[k]);
      putchar('\n');
    }
  }
  if (st) {
    if (!o->quiet || done == 0)
      fprintf(stderr, "awesim: %d of %d linear models written%s\n", done, K,
              done ? " (file status: incomplete)" : "");
    rc = awe_cli_fail_run(&err, stop);
  } else {
    rc = wrc;
  }
  for (int k = 0; k < K; k++) awe_linsys_free(&Ls[k]);
  free(Ls);
  free(tt);
  free(tk);
  free(ldiff);
  free(row);
  free(yscale);
  awe_log_data_free(&lgd);
  return rc;
}


int awe_cmd_linearize(int argc, char **argv) {
  options o;
  awe_spec *spec;
  awe_model *m;
  int rc = parse_args(argc, argv, &o);
  rc = awe_cli_begin(rc, o.scenario, o.nset, o.sets, &spec, &m);
  free(o.sets);
  if (rc) return rc < 0 ? 0 : rc;

  awe_err err = {0};
  awe_sim *sim = NULL;
  awe_op op = {0};
  awe_lin_chan *uc = NULL, *yc = NULL;
  int nu = 0, ny = 0, fb = 0;
  awe_linsys L = {0};
  awe_mode *modes = NULL;
  int nmodes = 0;
  char *cmdline = awe_cli_command_line(argc, argv);

  /* every output is checked before the work, which may be long; signals stop it */
  if (o.out && awe_cli_check_output(o.out, 0, &err)) goto fail;
  if (o.lin && awe_cli_check_output(o.lin, 0, &err)) goto fail;
  /* no output may be a file this run reads (scenario, model, --from, --along) or the other */
  if (awe_cli_output_not_input(spec, "-o", o.out, &err) ||
      awe_cli_output_not_input(spec, "--lin", o.lin, &err) ||
      awe_cli_outputs_distinct("-o", o.out, "--lin", o.lin, &err) ||
      awe_cli_outputs_distinct("--from", o.from, "-o", o.out, &err) ||
      awe_cli_outputs_distinct("--from", o.from, "--lin", o.lin, &err) ||
      awe_cli_outputs_distinct("--along", o.along, "-o", o.out, &err) ||
      awe_cli_outputs_distinct("--along", o.along, "--lin", o.lin, &err))
    goto fail;
  /* the four CSV files are outputs like the others: PREFIX_A.csv may be the scenario, a model
     file, -o, --lin, --from or --along (each was overwritten with exit 0) */
  char csv_prefix[4096] = "";
  if (o.want_csv) {
    if (o.csv && *o.csv) snprintf(csv_prefix, sizeof(csv_prefix), "%s", o.csv);
    else if (o.out) strip_ext(o.out, csv_prefix, sizeof(csv_prefix));
    else if (o.lin) strip_ext(o.lin, csv_prefix, sizeof(csv_prefix));
    else snprintf(csv_prefix, sizeof(csv_prefix), "linearize");
    for (int k = 0; k < 4; k++) {
      char a[4200];
      snprintf(a, sizeof(a), "%s_%c.csv", csv_prefix, "ABCD"[k]);
      if (awe_cli_check_output(a, 0, &err) || awe_cli_output_not_input(spec, "--csv", a, &err) ||
          awe_cli_outputs_distinct("--csv", a, "-o", o.out, &err) ||
          awe_cli_outputs_distinct("--csv", a, "--lin", o.lin, &err) ||
          awe_cli_outputs_distinct("--csv", a, "--from", o.from, &err) ||
          awe_cli_outputs_distinct("--csv", a, "--along", o.along, &err))
        goto fail;
    }
  }
  /* channels */
  if (o.inputs) {
    if (awe_lin_select(&m->reg.input, o.inputs, 0, &uc, &nu, &err)) goto fail_usage;
  } else {
    if (awe_lin_default_inputs(m, &uc, &nu, &fb, &err)) goto fail;
    if (fb && !o.quiet)
      fprintf(stderr, "awesim: note: the model has no winch: inputs are the external forces of "
                      "its moving points (--inputs selects others)\n");
  }
  switch (awe_cli_outputs(m, o.outputs, o.quiet, &yc, &ny, &err)) {
    case 0: break;
    case 2: goto fail_usage;
    default: goto fail;
  }

  const awe_stop_flag *stop;
  sim = awe_cli_new_sim(m, &stop, &err);
  if (!sim) goto fail;
  if (!isnan(o.every) || o.times || o.along) {
    rc = linearize_along(&o, spec, m, sim, stop, uc, nu, yc, ny, cmdline);
    goto out;
  }
  if (awe_cli_trim_op(sim, o.at, o.keep_torque, o.op && !strcmp(o.op, "steady"), o.from,
                      o.quiet, &op, &err))
    goto fail;


  awe_lin_model lm;
  awe_lin_model_init(&lm, m, sim->w, 0);
  lm.t = op.steady ? 0.0 : op.t; /* a time-varying wind at the time of the point */
  awe_lin_problem p = {.xl = &m->reg.state, .ul = &m->reg.input, .yl = &m->reg.output,
                       .eval = awe_lin_model_eval, .ctx = &lm, .uc = uc, .nu = nu, .yc = yc,
                       .ny = ny, .integrating = awe_lin_model_integrating, .stop = stop};

  /* equilibrium check before the work */
  {
    int nxm = awe_lin_nchan(&m->reg.state), worst = -1;
    double res = 0.0;
    double *dx = malloc(sizeof(double) * ((size_t)nxm + 1));
    if (!dx) {
      awe_err_set(&err, AWE_ENOMEM, "out of memory");
      goto fail;
    }
    awe_status st = awe_lin_deriv(&p, op.x, op.u, dx, &res, &worst, &err);
    char wname[512] = "-";
    double wval = 0.0;
    if (!st && worst >= 0) {
      awe_lin_chan *xc = malloc(sizeof(*xc) * ((size_t)nxm + 1));
      if (xc) {
        awe_lin_channels(&m->reg.state, xc);
        awe_lin_chan_name(&m->reg.state, &xc[worst], wname, sizeof(wname));
        free(xc);
      }
      wval = dx[worst];
    }
    free(dx);
    if (st) goto fail;
    char where[64];
    if (op.trim) snprintf(where, sizeof(where), "trim");
    else if (op.steady) snprintf(where, sizeof(where), "steady state");
    else snprintf(where, sizeof(where), "t = %.9g s", op.t);
    /* a trim is judged by its relative force residual (trim.h): ||dx/dt|| in mixed units
     * magnifies the rounding of the stiff lines' forces (1e-8 N, a relative 1e-11 at the V3's
     * trim) by the 1/m of light points to 1.6e-6 */
    if (op.trim ? !(op.tr.rel <= o.tol) : !(res <= o.tol)) {
      if (!o.allow && op.trim) {
        fprintf(stderr,
                "awesim: error: the operating point (trim) is not an equilibrium: relative "
                "residual %.6g > %.3g (max |m a| %.6g N, reference %.6g N; ||dx/dt|| = %.6g, "
                "largest: d/dt %s = %.6g); use --allow-nonequilibrium to linearize anyway\n",
                op.tr.rel, o.tol, op.tr.force, op.tr.force_ref, res, wname, wval);
        rc = 1;
        goto out;
      }
      if (!o.allow) {
        fprintf(stderr,
                "awesim: error: the operating point (%s) is not an equilibrium: residual "
                "||dx/dt|| = %.6g > %.3g (largest: d/dt %s = %.6g); use --allow-nonequilibrium "
                "to linearize anyway\n",
                where, res, o.tol, wname, wval);
        rc = 1;
        goto out;
      }
      if (!o.quiet)
        fprintf(stderr, "awesim: warning: the operating point (%s) is not an equilibrium: "
                        "residual ||dx/dt|| = %.6g (largest: d/dt %s = %.6g)\n",
                where, res, wname, wval);
    } else if (!o.quiet) {
      fprintf(stderr, "awesim: operating point: %s, residual ||dx/dt|| = %.3g\n", where, res);
    }
    if (op.trim && !o.quiet)
      fprintf(stderr, "awesim: trim: relative residual %.3g (max |m a| %.3g N, reference %.6g "
                      "N)\n", op.tr.rel, op.tr.force, op.tr.force_ref);
  }

  if (awe_linearize(&p, op.x, op.u, &L, &err)) goto fail;

  /* the eigen-analysis cannot be polled inside: it runs in a child process that a signal or
     run.max_wall_time ends; the matrices are written either way */
  awe_err merr = {0};
  awe_status mst = AWE_OK;
  char mnote[1200] = "";
  if (o.no_modes) {
    snprintf(mnote, sizeof(mnote), "not computed (--no-modes)");
  } else {
    double cost = awe_modal_cost(L.nx);
    if (cost > 5.0 && !o.quiet)
      fprintf(stderr, "awesim: note: eigen-analysis of %d states (dense, about 10 n^3 = %.2g "
                      "flop): about %.0f s here; SIGINT/SIGTERM or run.max_wall_time end it "
                      "(A, B, C, D are kept); --no-modes skips it\n",
              L.nx, 10.0 * (double)L.nx * L.nx * L.nx, cost);
    sim->guard.phase = "the eigen-analysis";
    mst = awe_modal_guarded(L.A, L.nx, o.zero_tol, &sim->guard, &modes, &nmodes, &merr);
    if (mst && mst != AWE_EINTR && !sim->guard.why) {
      err = merr;
      goto fail;
    }
    if (mst) snprintf(mnote, sizeof(mnote), "not computed: %s", merr.msg);
  }

  awe_lin_info info = {.command_line = cmdline, .scenario = spec->scenario_text, .t_op = op.t,
                       .steady = op.steady, .modes_note = mnote[0] ? mnote : NULL,
                       .zero_rel = o.zero_tol > 0.0 ? o.zero_tol : AWE_MODE_ZERO_REL};
  if (o.out && awe_lin_write_h5(o.out, &L, mst || o.no_modes ? NULL : modes, nmodes, &info, &err))
    goto fail;
  if (o.lin && awe_lin_write_text(o.lin, &L, &info, &err)) goto fail;
  if (o.want_csv && awe_lin_write_csv(csv_prefix, &L, &err)) goto fail;

  printf("# linear model: %d states, %d inputs, %d outputs; operating point: %s", L.nx, L.nu,
         L.ny, op.trim ? "trim" : op.steady ? "steady state" : "simulation");
  if (!op.steady) printf(" at t = %.9g s", op.t);
  printf(", residual %.3g\n", L.residual);
  if (mst) {
    printf("# modes: %s\n", mnote);
    fflush(stdout);
    err = merr;
    goto fail;
  }
  if (o.no_modes) {
    printf("# modes: %s\n", mnote);
  } else {
    int nz = 0;
    for (int i = 0; i < nmodes; i++) nz += modes[i].cls == AWE_MODE_ZERO;
    printf("# %d modes, %d zero (|lambda| <= min(%g max|lambda|, %g 1/s))\n", nmodes, nz,
           info.zero_rel, AWE_MODE_ZERO_ABS);
    print_modes(&L, modes, nmodes);
  }
  rc = 0;
  goto out;

fail_usage:
  fprintf(stderr, "awesim: error: %s\n", err.msg);
  rc = 2;
  goto out;
fail:
  rc = awe_cli_fail_run(&err, sim ? sim->guard.stop : NULL);
out:
  free(modes);
  awe_linsys_free(&L);
  free(uc);
  free(yc);
  awe_op_free(&op);
  awe_sim_free(sim);
  free(cmdline);
  awe_model_free(m);
  awe_spec_free(spec);
  return rc;
}
