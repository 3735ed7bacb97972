/* cmd_linearize.c: `awesim linearize` — A, B, C, D about an operating point, modal table.
 *
 * Steps: load the scenario; find the operating point (linearize.h: after the steady-state
 * march, or the state at --at T of a simulation); check that it is an equilibrium,
 * ||dx/dt||_2 <= --tol over the non-integrating states, and refuse (exit 1) otherwise unless
 * --allow-nonequilibrium; select inputs and outputs (registry names, globs); linearize by
 * central differences; eigen-analysis (modal.h); write HDF5 (-o), OpenFAST-style text (--lin),
 * CSV (--csv) and the modal table on stdout.
 *
 * Exit status: 0 done; 1 not an equilibrium, or the simulation/linearization failed; 2 usage;
 * 65/66 bad or missing input; 74 output error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "output/lin_output.h"
#include "analysis/linearize.h"
#include "analysis/modal.h"

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
    "                          scenario (default: after the steady-state march, winches braked)\n"
    "  --tol R                 equilibrium tolerance on ||dx/dt||_2 (default 1e-6)\n"
    "  --allow-nonequilibrium  linearize even when the residual exceeds the tolerance\n"
    "  --keep-torque           keep the scenario's winch torques (default after the steady\n"
    "                          state: an unscheduled torque holds its winch, calc_steady_torque)\n"
    "  --inputs PATTERNS       inputs u: comma-separated globs over the input names, e.g.\n"
    "                          'winches.*.torque,segments.steer_*.l0,wind.v_wind'\n"
    "                          (default: winch torques; without winches: point forces)\n"
    "  --outputs PATTERNS      outputs y: globs over the channel names, e.g. 'points.kcu.pos'\n"
    "                          (default: tether lengths and winch forces; without those: the\n"
    "                          positions of the moving points)\n"
    "  -o FILE.h5              write A, B, C, D, operating point, names, units, modes (HDF5)\n"
    "  --lin FILE              write an OpenFAST-style text file (%.17g)\n"
    "  --csv[=PREFIX]          write PREFIX_A.csv .. PREFIX_D.csv (default prefix: the -o or\n"
    "                          --lin file name without extension, else 'linearize')\n"
    "  --set KEY.PATH=VALUE    override a scenario key (repeatable)\n"
    "  -q, --quiet             no notes or warnings on stderr (errors only)\n"
    "  -h, --help              show this help\n"
    "\n"
    "Exit status: 0 done, 1 not an equilibrium or the computation failed, 2 usage, 65 invalid\n"
    "input, 66 missing input, 74 output error.\n";

typedef struct {
  const char *scenario, *out, *lin, *csv, *inputs, *outputs;
  int want_csv, quiet, allow, keep_torque, nset;
  double at, tol;
  const char **sets;
} options;


static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof(*o));
  o->at = NAN;
  o->tol = 1e-6;
  o->sets = calloc((size_t)argc + 1, sizeof(char *));
  if (!o->sets) return 70;
  const awe_cli_opt opts[] = {
      {"--quiet", "-q", AWE_CLI_FLAG, &o->quiet, NULL},
      {"--allow-nonequilibrium", NULL, AWE_CLI_FLAG, &o->allow, NULL},
      {"--keep-torque", NULL, AWE_CLI_FLAG, &o->keep_torque, NULL},
      {"--csv", NULL, AWE_CLI_FLAG_STR, &o->want_csv, &o->csv},
      {"--output", "-o", AWE_CLI_STR, &o->out, NULL},
      {"--lin", NULL, AWE_CLI_STR, &o->lin, NULL},
      {"--inputs", NULL, AWE_CLI_STR, &o->inputs, NULL},
      {"--outputs", NULL, AWE_CLI_STR, &o->outputs, NULL},
      {"--set", NULL, AWE_CLI_LIST, o->sets, &o->nset},
      {"--at", NULL, AWE_CLI_NUM, &o->at, NULL},
      {"--tol", NULL, AWE_CLI_NUM, &o->tol, NULL},
  };
  int rc = awe_cli_parse("linearize", argc, argv, opts, (int)AWE_ARRLEN(opts), "scenario",
                         &o->scenario, linearize_usage);
  if (rc) return rc;
  if (o->at < 0.0) {
    fprintf(stderr, "awesim linearize: --at: the time must be >= 0\n");
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
  printf("%5s  %-13s %-13s %-12s %-12s %-12s %s\n", "mode", "re [1/s]", "im [1/s]", "f_n [Hz]",
         "zeta [-]", "tau [s]", "largest participation");
  for (int i = 0; i < nm; i++) {
    printf("%5d  %-13.6g %-13.6g %-12.6g ", i + 1, md[i].re, md[i].im, md[i].freq);
    if (isnan(md[i].zeta)) printf("%-12s ", "-");
    else printf("%-12.6g ", md[i].zeta);
    if (isinf(md[i].tau)) printf("%-12s ", "inf");
    else printf("%-12.6g ", md[i].tau);
    for (int k = 0; k < AWE_MODE_TOP && md[i].top[k] >= 0; k++) {
      if (md[i].share[k] < 0.005 && k > 0) break;
      printf("%s%s %.0f%%", k ? ", " : "", L->x_name[md[i].top[k]], 100.0 * md[i].share[k]);
    }
    putchar('\n');
  }
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
  if (o.want_csv && o.csv && *o.csv) {
    char a[4096];
    snprintf(a, sizeof(a), "%s_A.csv", o.csv);
    if (awe_cli_check_output(a, 0, &err)) goto fail;
  }
  const volatile sig_atomic_t *stop;
  sim = awe_cli_new_sim(m, &stop, &err);
  if (!sim) goto fail;
  if (awe_cli_operating_point(sim, o.at, o.keep_torque, o.quiet, &op, &err)) goto fail;

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

  awe_lin_model lm;
  awe_lin_model_init(&lm, m, sim->w, 0);
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
    if (op.steady) snprintf(where, sizeof(where), "steady state");
    else snprintf(where, sizeof(where), "t = %.9g s", op.t);
    if (!(res <= o.tol)) {
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
  }

  if (awe_linearize(&p, op.x, op.u, &L, &err)) goto fail;
  if (awe_modal(L.A, L.nx, &modes, &nmodes, &err)) goto fail;

  awe_lin_info info = {.command_line = cmdline, .scenario = spec->scenario_text, .t_op = op.t,
                       .steady = op.steady};
  if (o.out && awe_lin_write_h5(o.out, &L, modes, nmodes, &info, &err)) goto fail;
  if (o.lin && awe_lin_write_text(o.lin, &L, &info, &err)) goto fail;
  if (o.want_csv) {
    char prefix[4096];
    if (o.csv && *o.csv) snprintf(prefix, sizeof(prefix), "%s", o.csv);
    else if (o.out) strip_ext(o.out, prefix, sizeof(prefix));
    else if (o.lin) strip_ext(o.lin, prefix, sizeof(prefix));
    else snprintf(prefix, sizeof(prefix), "linearize");
    if (awe_lin_write_csv(prefix, &L, &err)) goto fail;
  }

  printf("# linear model: %d states, %d inputs, %d outputs; operating point: %s", L.nx, L.nu,
         L.ny, op.steady ? "steady state" : "simulation");
  if (!op.steady) printf(" at t = %.9g s", op.t);
  printf(", residual %.3g\n", L.residual);
  print_modes(&L, modes, nmodes);
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
