/* cmd_step_response.c: `awesim step-response` — step one input from an operating point.
 *
 * Steps: load; operating point (linearize.h: after the steady-state march, or at --at T of a
 * simulation); hold every input at its operating value (scheduled signals frozen) and add the
 * step of --amplitude to --input at t = 0; integrate for --duration, logging every output
 * channel at run.dt to the HDF5 log (-o, same layout as `simulate`, plus the group
 * /step_response); report per selected output the metrics of step_metrics.h. With
 * --compare-linear the linear model (A, B, C, D about the same point) is stepped too and the
 * error between the two responses is reported as max and RMS relative to the nonlinear
 * output's largest change. --spring-props instead runs SymbolicAWEModels' calc_spring_props on
 * every tether (step_metrics.h).
 *
 * Without --duration the duration comes from the slowest stable mode (default_duration).
 *
 * Exit status: 0 done; 1 the simulation or linearization failed, or run.max_wall_time ended
 * it; 2 usage; 65/66 bad or missing input; 74 output error; 130/143 SIGINT/SIGTERM (the log
 * is kept, marked interrupted).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "output/awesio_write.h"
#include "cli/out_paths.h"
#include "cli/cmd_trim.h"
#include "output/lin_output.h"
#include "output/log_select.h"
#include "analysis/linearize.h"
#include "analysis/modal.h"
#include "engine/outputs.h"
#include "analysis/step_metrics.h"
#include "output/writer.h"

static const char step_usage[] =
    "usage: awesim step-response --input NAME --amplitude A [OPTIONS] SCENARIO\n"
    "       awesim step-response --spring-props [OPTIONS] SCENARIO\n"
    "\n"
    "Step one input from an operating point and measure the response of each output: initial\n"
    "and final value, steady-state gain, rise time (10-90 %), peak time, overshoot, settling\n"
    "time. Inputs other than the stepped one stay at their operating values.\n"
    "\n"
    "  --input NAME            the input to step (a scenario input name, e.g.\n"
    "                          winches.main_winch.torque, points.mass.force.z, wind.v_wind)\n"
    "  --amplitude A           step size in the input's unit (with --spring-props: the force\n"
    "                          step [N], default 1 % of the tether tension, at least 0.1 N)\n"
    "  --at T                  operating point: the state at time T [s] of a simulation of the\n"
    "                          scenario (default: the trim of a model with a wing, see\n"
    "                          awesim trim; the steady state of one without)\n"
    "  --op trim|steady        without --at: the free trim (default with a wing) or the\n"
    "                          steady state with the wings held on their spheres\n"
    "  --from TRIM.h5          operating point: a trim written by `awesim trim -o`\n"
    "  --duration D            simulated time after the step [s] (default: 2 ln(100/band)\n"
    "                          times the slowest stable time constant of the linearized model,\n"
    "                          within [20 run.dt, min(run.duration, 60 s)]; min(run.duration,\n"
    "                          60 s) when it has no stable mode or more than 580 states)\n"
    "  --band P                settling band [%] (default 5)\n"
    "  --outputs PATTERNS      outputs to measure: globs over the channel names (default as\n"
    "                          `awesim linearize`)\n"
    "  --compare-linear        also step the linearized model and report the error (max, RMS)\n"
    "                          relative to each output's largest change\n"
    "  --spring-props          equivalent unit_stiffness [N] and unit_damping [N s] of every\n"
    "                          tether from a force step on its free end (winches braked)\n"
    "  --keep-torque           keep the scenario's winch torques (default after the steady\n"
    "                          state: an unscheduled torque holds its winch)\n"
    "  --json                  print the results as JSON (same keys as the table)\n"
    "  -o FILE                 write the time series (HDF5, like `simulate`) to FILE\n"
    "  --set KEY.PATH=VALUE    override a scenario key (repeatable), e.g. --set run.dt=0.001\n"
    "  -q, --quiet             no notes or warnings on stderr (errors only)\n"
    "  -h, --help              show this help\n"
    "\n"
    "The log interval is run.dt; use a small one (e.g. --set run.dt=0.001) for fast responses.\n"
    "SIGINT/SIGTERM and run.max_wall_time stop the simulation and the linear comparison within\n"
    "0.1 s; the log (-o) is kept with status 'interrupted' or 'failed'.\n"
    "Exit status: 0 done, 1 the computation failed or run.max_wall_time ended it, 2 usage, 65\n"
    "invalid input, 66 missing input, 74 output error, 130/143 SIGINT/SIGTERM.\n";

typedef struct {
  const char *scenario, *out, *input, *outputs, *op, *from;
  int quiet, json, compare, spring, keep_torque, nset, have_amp;
  double at, amplitude, duration, band;
  const char **sets;
} options;


static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof(*o));
  o->at = NAN;
  o->duration = NAN;
  o->band = 5.0;
  o->sets = calloc((size_t)argc + 1, sizeof(char *));
  if (!o->sets) return 70;
  const awe_cli_opt opts[] = {
      {"--quiet", "-q", AWE_CLI_FLAG, &o->quiet, NULL},
      {"--json", NULL, AWE_CLI_FLAG, &o->json, NULL},
      {"--compare-linear", NULL, AWE_CLI_FLAG, &o->compare, NULL},
      {"--spring-props", NULL, AWE_CLI_FLAG, &o->spring, NULL},
      {"--keep-torque", NULL, AWE_CLI_FLAG, &o->keep_torque, NULL},
      {"--output", "-o", AWE_CLI_STR, &o->out, NULL},
      {"--input", NULL, AWE_CLI_STR, &o->input, NULL},
      {"--outputs", NULL, AWE_CLI_STR, &o->outputs, NULL},
      {"--set", NULL, AWE_CLI_LIST, o->sets, &o->nset},
      {"--amplitude", NULL, AWE_CLI_NUM, &o->amplitude, &o->have_amp},
      {"--at", NULL, AWE_CLI_NUM, &o->at, NULL},
      {"--duration", NULL, AWE_CLI_NUM, &o->duration, NULL},
      {"--band", NULL, AWE_CLI_NUM, &o->band, NULL},
      {"--op", NULL, AWE_CLI_STR, &o->op, NULL},
      {"--from", NULL, AWE_CLI_STR, &o->from, NULL},
  };
  int rc = awe_cli_parse("step-response", argc, argv, opts, (int)AWE_ARRLEN(opts), "scenario",
                         &o->scenario, step_usage);
  if (rc) return rc;
  if (o->at < 0.0) {
    fprintf(stderr, "awesim step-response: --at: the time must be >= 0\n");
    return 2;
  }
  if (o->op && strcmp(o->op, "trim") && strcmp(o->op, "steady")) {
    fprintf(stderr, "awesim step-response: --op '%s': expected 'trim' or 'steady'\n", o->op);
    return 2;
  }
  if (!isnan(o->duration) && !(o->duration > 0.0)) {
    fprintf(stderr, "awesim step-response: --duration must be > 0\n");
    return 2;
  }
  if (!(o->band > 0.0 && o->band < 100.0)) {
    fprintf(stderr, "awesim step-response: --band must be between 0 and 100 %%\n");
    return 2;
  }
  if (o->spring) {
    if (o->input || o->compare) {
      fprintf(stderr, "awesim step-response: --spring-props steps the tether ends itself "
                      "(no --input, --compare-linear)\n");
      return 2;
    }
    if (o->have_amp && !(o->amplitude != 0.0)) {
      fprintf(stderr, "awesim step-response: --amplitude must not be 0\n");
      return 2;
    }
  } else {
    if (!o->input || !o->have_amp) {
      fprintf(stderr, "awesim step-response: --input and --amplitude are required\n%s",
              step_usage);
      return 2;
    }
    if (o->amplitude == 0.0) {
      fprintf(stderr, "awesim step-response: --amplitude must not be 0\n");
      return 2;
    }
  }
  return 0;
}


/* JSON number or null */
static void jnum(const char *key, double v, int comma) {
  if (isfinite(v)) printf("\"%s\": %.9g", key, v);
  else printf("\"%s\": null", key);
  if (comma) printf(", ");
}


static void jstr(const char *key, const char *s, int comma) {
  printf("\"%s\": \"", key);
  for (const char *c = s; *c; c++) {
    if (*c == '"' || *c == '\\') putchar('\\');
    putchar((unsigned char)*c >= 0x20 ? *c : ' ');
  }
  printf("\"%s", comma ? ", " : "");
}


/* table cell */
static void cell(double v) {
  if (isfinite(v)) printf(" %-12.6g", v);
  else printf(" %-12s", "-");
}


/* the scale of the relative linear error; 0 (no relative error) when the output does not
 * move beyond rounding */
static double rel_scale(double scale, double y0) {
  return scale > 1e-9 * (fabs(y0) > 1.0 ? fabs(y0) : 1.0) ? scale : 0.0;
}


static awe_status row_h5(void *p, double t, const double *yout, awe_err *err) {
  return awe_h5_write_row(p, t, yout, err);
}


static void make_dir_of(const char *path) {
  char dir[4096];
  snprintf(dir, sizeof(dir), "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash && slash != dir) {
    *slash = 0;
    struct stat sb;
    if (stat(dir, &sb) != 0) mkdir(dir, 0777);
  }
}


/* --spring-props */
static int spring_props(const options *o, const awe_model *m, awe_sim *sim, const awe_op *op,
                        double dt, long nsteps) {
  awe_err err = {0};
  int rc = 0;
  if (m->ntether == 0) {
    fprintf(stderr, "awesim: error: --spring-props: the model has no tether\n");
    return 1;
  }
  if (o->json) printf("{\"t_op\": %.9g, \"band\": %.9g, \"tethers\": [", op->t, o->band);
  else
    printf("%-16s %-10s %-10s %-12s %-12s %-10s %-9s %-9s %-12s %-12s %-12s %-12s\n", "tether",
           "f_step[N]", "L0[m]", "dL[m]", "k[N/m]", "mass[kg]", "T_s[s]", "zeta[-]",
           "unit_stiffness[N]", "(model)", "unit_damping[Ns]", "(model)");
  for (int t = 0; t < m->ntether; t++) {
    double f = o->amplitude;
    if (!o->have_amp) {
      /* 1 % of the mean tension of the tether, at least 0.1 N */
      awe_ctx c = awe_ctx_make(m, sim->w, op->u);
      c.flags = AWE_CTX_BRAKE_ALL;
      double tens = 0.0;
      if (awe_rhs(0.0, op->x, sim->dydt, &c) == GSL_SUCCESS) {
        int ns = m->tether_seg_num[t];
        for (int j = 0; j < ns; j++)
          tens += sim->w->seg_force[m->tether_segs[m->tether_seg_adr[t] + j]] / ns;
      }
      f = 0.01 * fabs(tens) > 0.1 ? 0.01 * fabs(tens) : 0.1;
    }
    awe_spring_props sp;
    if (awe_spring_props_eval(sim, op, t, f, dt, nsteps, o->band, &sp, &err)) {
      if (o->json) printf("]}\n");
      rc = awe_cli_fail_run(&err, sim->guard.stop);
      break;
    }
    if (o->json) {
      printf("%s{", t ? ", " : "");
      jstr("tether", m->tether_name[t], 1);
      jstr("end", m->point_name[sp.end], 1);
      jstr("anchor", m->point_name[sp.anchor], 1);
      jnum("f_step", sp.f_step, 1);
      jnum("L0", sp.L0, 1);
      jnum("dL", sp.dL, 1);
      jnum("k", sp.k, 1);
      jnum("mass", sp.mass, 1);
      jnum("settling_time", sp.settling_time, 1);
      jnum("zeta", sp.zeta, 1);
      jnum("c", sp.c, 1);
      jnum("unit_stiffness", sp.unit_stiffness, 1);
      jnum("unit_damping", sp.unit_damping, 1);
      jnum("model_unit_stiffness", sp.model_unit_stiffness, 1);
      jnum("model_unit_damping", sp.model_unit_damping, 1);
      printf("\"fallback\": %s}", sp.fallback ? "true" : "false");
    } else {
      printf("%-16s", m->tether_name[t]);
      cell(sp.f_step);
      cell(sp.L0);
      cell(sp.dL);
      cell(sp.k);
      cell(sp.mass);
      cell(sp.settling_time);
      cell(sp.zeta);
      cell(sp.unit_stiffness);
      cell(sp.model_unit_stiffness);
      cell(sp.unit_damping);
      cell(sp.model_unit_damping);
      printf("%s\n", sp.fallback ? "  (no oscillation: c = k tau)" : "");
    }
  }
  if (!rc && o->json) printf("]}\n");
  return rc;
}


/* One step-response run: its inputs, the work arrays and what it produces. */
typedef struct {
  options o;
  awe_spec *spec;
  awe_model *m;
  awe_sim *sim;
  const awe_stop_flag *stop;
  char *cmdline;
  awe_op op;
  double dt;                  /* log interval [s] */
  long nsteps, nt;            /* intervals, samples (nsteps + 1) */
  awe_lin_chan *uc, *yc;      /* the stepped input, the observed outputs */
  int nu, ny;
  awe_lin_model lm;           /* the model as linearize sees it */
  awe_lin_problem p;
  int *ysel;                  /* [ny] output scalars */
  double *Y, *tt, *u1;        /* nonlinear response [nt ny], times [nt], stepped inputs */
  awe_step_metrics *met;      /* [ny] */
  awe_linsys L;               /* --compare: the linear model, its response and errors */
  double *Yl, *emax, *erms, *escale;
  awe_h5 *h5;
  char duration_rule[512];    /* how the default duration was chosen ("" with --duration) */
} job;

enum { PHASE_OK = 0, PHASE_FAIL = -1, PHASE_USAGE = -2 }; /* else: an exit code */


/* the stepped input and the outputs: PHASE_OK, PHASE_USAGE (err set), PHASE_FAIL or exit 2 */
static int select_channels(job *j, awe_err *err) {
  const awe_model *m = j->m;
  if (awe_lin_select(&m->reg.input, j->o.input, 0, &j->uc, &j->nu, err)) return PHASE_USAGE;
  if (j->nu != 1) {
    fprintf(stderr, "awesim: error: --input '%s' selects %d inputs; name one scalar input\n",
            j->o.input, j->nu);
    return 2;
  }
  switch (awe_cli_outputs(m, j->o.outputs, j->o.quiet, &j->yc, &j->ny, err)) {
    case 0: break;
    case 2: return PHASE_USAGE;
    default: return PHASE_FAIL;
  }
  for (int k = 0; k < j->ny; k++)
    if (m->reg.output.v[j->yc[k].var].flags & AWE_VF_QUAT) {
      fprintf(stderr, "awesim: error: --outputs: orientation outputs have no step metrics\n");
      return 2;
    }
  awe_lin_model_init(&j->lm, m, j->sim->w, 0);
  j->p = (awe_lin_problem){.xl = &m->reg.state, .ul = &m->reg.input, .yl = &m->reg.output,
                           .eval = awe_lin_model_eval, .ctx = &j->lm, .uc = j->uc, .nu = 1,
                           .yc = j->yc, .ny = j->ny, .integrating = awe_lin_model_integrating,
                           .stop = j->stop};
  return PHASE_OK;
}


/* say how steady the operating point is (a drift shows in the response) */
static void report_operating_point(job *j) {
  if (j->o.quiet) return;
  int nxm = awe_lin_nchan(&j->m->reg.state);
  double *dx = malloc(sizeof(double) * ((size_t)nxm + 1)), res = 0.0;
  awe_err e = {0};
  if (dx && !awe_lin_deriv(&j->p, j->op.x, j->op.u, dx, &res, NULL, &e)) {
    if (res > 1e-6)
      fprintf(stderr, "awesim: warning: the operating point is not an equilibrium (residual "
                      "||dx/dt|| = %.3g): the response includes its drift\n", res);
    else
      fprintf(stderr, "awesim: operating point: %s, residual ||dx/dt|| = %.3g\n",
              j->op.trim ? "trim" : j->op.steady ? "steady state" : "simulation", res);
  }
  free(dx);
}


/* the nonlinear response to the step (logged to -o as it runs) and its metrics */
static awe_status simulate_step(job *j, awe_err *err) {
  const awe_model *m = j->m;
  int ny = j->ny;
  j->ysel = malloc(sizeof(int) * ((size_t)ny + 1));
  j->Y = malloc(sizeof(double) * (size_t)j->nt * ((size_t)ny + 1));
  j->tt = malloc(sizeof(double) * (size_t)j->nt);
  j->u1 = malloc(sizeof(double) * ((size_t)j->sim->w->nu + 1));
  j->met = calloc((size_t)ny + 1, sizeof(*j->met));
  if (!j->ysel || !j->Y || !j->tt || !j->u1 || !j->met)
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int k = 0; k < ny; k++) j->ysel[k] = j->yc[k].scalar;
  for (long k = 0; k < j->nt; k++) j->tt[k] = (double)k * j->dt;
  memcpy(j->u1, j->op.u, sizeof(double) * (size_t)j->sim->w->nu);
  j->u1[j->uc[0].scalar] += j->o.amplitude;

  if (j->o.out) {
    make_dir_of(j->o.out);
    char *topo = awe_awesio_string(m, j->spec->scenario.name, j->spec->scenario.path, err);
    if (!topo) return err->code;
    awe_h5_info info = {.solver = awe_integrator_name(j->sim->it), .command_line = j->cmdline,
                        .scenario = j->spec->scenario_text, .topology = topo};
    awe_log_compression(j->spec, &info);  /* and output.channels, as simulate's log */
    awe_varlist sel;
    if (awe_log_select(j->spec, &m->reg.output, &sel, err)) {
      free(topo);
      return err->code;
    }
    j->h5 = awe_h5_open(j->o.out, &sel, &info, err);
    awe_varlist_free(&sel);
    free(topo);
    if (!j->h5) return err->code;
  }
  if (awe_step_simulate(j->sim, j->op.x, j->op.u, j->u1, 0, j->dt, j->nsteps, j->ysel, ny, j->Y,
                        j->h5 ? row_h5 : NULL, j->h5, err)) {
    if (j->h5) {
      awe_h5_set_attr_str(j->h5, "phase", j->sim->guard.phase, &(awe_err){0});
      awe_h5_close(j->h5, err->code == AWE_EINTR ? AWE_RUN_INTERRUPTED : AWE_RUN_FAILED,
                   err->code == AWE_EINTR ? NULL : err->msg, &(awe_err){0});
    }
    j->h5 = NULL;
    return err->code ? err->code : AWE_EINTEG;
  }
  for (int k = 0; k < ny; k++)
    awe_step_metrics_eval(j->tt, j->Y + k, ny, j->nt, j->o.amplitude, j->o.band, &j->met[k]);
  return AWE_OK;
}


/* log intervals of duration T */
static void set_steps(job *j, double T) {
  j->nsteps = (long)ceil(T / j->dt - 1e-9);
  if (j->nsteps < 2) j->nsteps = 2;
  j->nt = j->nsteps + 1;
}


/* Without --duration: long enough for the slowest stable mode of the linearized model to decay
 * into the settling band twice over, T = 2 ln(100/band) tau_max, within [20 dt, min(run.duration,
 * 60 s)]; min(run.duration, 60 s) when the model has no stable mode or its eigen-analysis would
 * take more than 2 s (about 580 states). A scenario's run.duration is a flight's length (600 s
 * for 2plate_parked), not a step response's: a steered parked kite turns and falls, and its
 * integration stalls at 29 s. */
static awe_status default_duration(job *j, awe_err *err) {
  double cap = j->m->opt.duration < 60.0 ? j->m->opt.duration : 60.0, lo = 20.0 * j->dt;
  double T = cap;
  int nx = awe_lin_nchan(&j->m->reg.state);
  snprintf(j->duration_rule, sizeof(j->duration_rule), "min(run.duration, 60 s)");
  if (awe_modal_cost(nx) <= 2.0) {
    AWE_TRY(awe_linearize(&j->p, j->op.x, j->op.u, &j->L, err));
    awe_mode *md = NULL;
    int nm = 0;
    const char *phase = j->sim->guard.phase;
    j->sim->guard.phase = "the eigen-analysis";
    AWE_TRY(awe_modal_guarded(j->L.A, j->L.nx, 0.0, &j->sim->guard, &md, &nm, err));
    j->sim->guard.phase = phase;
    int slow = -1;
    for (int i = 0; i < nm; i++)
      if (md[i].cls == AWE_MODE_STABLE && (slow < 0 || md[i].tau > md[slow].tau)) slow = i;
    if (slow >= 0) {
      double tau = md[slow].tau, f = 2.0 * log(100.0 / j->o.band);
      T = f * tau;
      snprintf(j->duration_rule, sizeof(j->duration_rule),
               "2 ln(100/%g) x %.3g s, the slowest stable mode's time constant (%s)", j->o.band,
               tau, md[slow].top[0] >= 0 ? j->L.x_name[md[slow].top[0]] : "-");
    } else {
      snprintf(j->duration_rule, sizeof(j->duration_rule),
               "min(run.duration, 60 s): the linearized model has no stable mode");
    }
    free(md);
  } else {
    snprintf(j->duration_rule, sizeof(j->duration_rule),
             "min(run.duration, 60 s): the eigen-analysis of %d states would take %.0f s", nx,
             awe_modal_cost(nx));
  }
  if (T > cap) T = cap;
  if (T < lo) T = lo;
  set_steps(j, T);
  if (!j->o.quiet)
    fprintf(stderr, "awesim: note: --duration not given: %g s (%s; within [20 dt, "
                    "min(run.duration, 60 s)])\n", (double)j->nsteps * j->dt, j->duration_rule);
  return AWE_OK;
}


/* --compare: the linear model's response to the same step and its error */
static awe_status compare_linear(job *j, awe_err *err) {
  int ny = j->ny;
  if (!j->L.A) AWE_TRY(awe_linearize(&j->p, j->op.x, j->op.u, &j->L, err));
  j->Yl = malloc(sizeof(double) * (size_t)j->nt * ((size_t)ny + 1));
  j->emax = calloc((size_t)ny + 1, sizeof(double));
  j->erms = calloc((size_t)ny + 1, sizeof(double));
  j->escale = calloc((size_t)ny + 1, sizeof(double));
  if (!j->Yl || !j->emax || !j->erms || !j->escale)
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  double du = j->o.amplitude;
  j->sim->guard.phase = "the linear step response";
  AWE_TRY(awe_step_linear_guarded(&j->L, &du, j->dt, j->nsteps, j->Yl, &j->sim->guard, err));
  for (int k = 0; k < ny; k++)
    awe_step_compare(j->Y, j->Yl, j->nt, ny, k, &j->emax[k], &j->erms[k], &j->escale[k]);
  return AWE_OK;
}


/* close the log (-o) and add the metrics and the linear comparison to it */
static awe_status finish_h5(job *j, awe_err *err) {
  if (!j->h5) return AWE_OK;
  const awe_model *m = j->m;
  int ny = j->ny;
  awe_h5_set_attr_double(j->h5, "t_op", j->op.t, err);
  awe_h5_set_attr_str(j->h5, "step_input", j->o.input, err);
  awe_h5_set_attr_double(j->h5, "step_amplitude", j->o.amplitude, err);
  awe_status cs = awe_h5_close(j->h5, AWE_RUN_COMPLETE, NULL, err);
  j->h5 = NULL;
  if (cs) return cs;
  awe_step_h5 sr = {.input = j->o.input, .amplitude = j->o.amplitude, .band = j->o.band,
                    .t_op = j->op.t, .ny = ny, .metrics = j->met, .Ylin = j->Yl, .nt = j->nt,
                    .err_max = j->emax, .err_rms = j->erms, .err_scale = j->escale};
  char **names = calloc((size_t)ny + 1, sizeof(char *));
  const char **units = calloc((size_t)ny + 1, sizeof(char *));
  char *store = malloc(((size_t)ny + 1) * 512);
  awe_status as = AWE_ENOMEM;
  if (names && units && store) {
    for (int k = 0; k < ny; k++) {
      names[k] = store + (size_t)k * 512;
      awe_lin_chan_name(&m->reg.output, &j->yc[k], names[k], 512);
      units[k] = awe_lin_chan_unit(&m->reg.output, &j->yc[k]);
    }
    sr.names = names;
    sr.units = units;
    as = awe_lin_h5_add_step(j->o.out, &sr, err);
  } else {
    awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  free(names);
  free(units);
  free(store);
  return as;
}


/* the metrics (and linear errors) as one JSON object on stdout */
static void print_json(const job *j, const char *uname, const char *uunit) {
  const awe_model *m = j->m;
  const options *o = &j->o;
  printf("{");
  jstr("input", uname, 1);
  jstr("input_unit", uunit, 1);
  jnum("amplitude", o->amplitude, 1);
  jnum("t_op", j->op.t, 1);
  printf("\"steady\": %s, ", j->op.steady ? "true" : "false");
  jnum("duration", (double)j->nsteps * j->dt, 1);
  if (j->duration_rule[0]) jstr("duration_rule", j->duration_rule, 1);
  jnum("dt", j->dt, 1);
  jnum("band", o->band, 1);
  printf("\"outputs\": [");
  for (int k = 0; k < j->ny; k++) {
    const awe_step_metrics *mt = &j->met[k];
    char nm[512];
    awe_lin_chan_name(&m->reg.output, &j->yc[k], nm, sizeof(nm));
    printf("%s{", k ? ", " : "");
    jstr("name", nm, 1);
    jstr("unit", awe_lin_chan_unit(&m->reg.output, &j->yc[k]), 1);
    jnum("initial", mt->initial, 1);
    jnum("final", mt->final, 1);
    jnum("gain", mt->gain, 1);
    jnum("rise_time", mt->rise_time, 1);
    jnum("peak", mt->peak, 1);
    jnum("peak_time", mt->peak_time, 1);
    jnum("overshoot", mt->overshoot, 1);
    jnum("settling_time", mt->settling_time, !!o->compare);
    if (o->compare) {
      double sc = rel_scale(j->escale[k], mt->initial);
      jnum("linear_error_max", j->emax[k], 1);
      jnum("linear_error_rms", j->erms[k], 1);
      jnum("linear_error_max_rel", sc > 0.0 ? j->emax[k] / sc : NAN, 1);
      jnum("linear_error_rms_rel", sc > 0.0 ? j->erms[k] / sc : NAN, 0);
    }
    printf("}");
  }
  printf("]}\n");
}


/* the metrics (and linear errors) as a table on stdout */
static void print_table(const job *j, const char *uname, const char *uunit) {
  const awe_model *m = j->m;
  const options *o = &j->o;
  printf("# step of %s by %g %s at %s", uname, o->amplitude, uunit,
         j->op.trim ? "the trim" : j->op.steady ? "the steady state" : "t =");
  if (!j->op.steady) printf(" %.9g s", j->op.t);
  printf("; %g s, dt %g s; settling band %g %%\n", (double)j->nsteps * j->dt, j->dt, o->band);
  printf("%-32s %-8s %-12s %-12s %-12s %-12s %-12s %-12s %-12s", "output", "unit", "initial",
         "final", "gain", "rise_time[s]", "peak_time[s]", "overshoot[%]", "settling[s]");
  if (o->compare) printf(" %-12s %-12s", "lin_max[%]", "lin_rms[%]");
  putchar('\n');
  for (int k = 0; k < j->ny; k++) {
    const awe_step_metrics *mt = &j->met[k];
    char nm[512];
    awe_lin_chan_name(&m->reg.output, &j->yc[k], nm, sizeof(nm));
    printf("%-32s %-8s", nm, awe_lin_chan_unit(&m->reg.output, &j->yc[k]));
    cell(mt->initial);
    cell(mt->final);
    cell(mt->gain);
    cell(mt->rise_time);
    cell(mt->peak_time);
    cell(mt->overshoot);
    cell(mt->settling_time);
    if (o->compare) {
      double sc = rel_scale(j->escale[k], mt->initial);
      cell(sc > 0.0 ? 100.0 * j->emax[k] / sc : NAN);
      cell(sc > 0.0 ? 100.0 * j->erms[k] / sc : NAN);
    }
    putchar('\n');
  }
}


/* the report on stdout, and a warning when the response has not settled */
static void report(const job *j) {
  char uname[512];
  awe_lin_chan_name(&j->m->reg.input, &j->uc[0], uname, sizeof(uname));
  const char *uunit = awe_lin_chan_unit(&j->m->reg.input, &j->uc[0]);
  if (j->o.json) print_json(j, uname, uunit);
  else print_table(j, uname, uunit);
  if (j->o.quiet) return;
  double dur = (double)j->nsteps * j->dt;
  for (int k = 0; k < j->ny; k++)
    if (isfinite(j->met[k].settling_time) && j->met[k].settling_time > 0.9 * dur) {
      fprintf(stderr, "awesim: warning: some outputs have not settled within %g s; the final "
                      "values may not be steady (--duration)\n", dur);
      break;
    }
}


static void job_free(job *j, const awe_err *err) {
  if (j->h5)
    awe_h5_close(j->h5, err->code == AWE_EINTR ? AWE_RUN_INTERRUPTED : AWE_RUN_FAILED,
                 err->code == AWE_EINTR ? NULL : err->msg, &(awe_err){0});
  awe_linsys_free(&j->L);
  free(j->uc);
  free(j->yc);
  free(j->ysel);
  free(j->Y);
  free(j->Yl);
  free(j->tt);
  free(j->u1);
  free(j->met);
  free(j->emax);
  free(j->erms);
  free(j->escale);
  awe_op_free(&j->op);
  awe_sim_free(j->sim);
  free(j->cmdline);
  awe_model_free(j->m);
  awe_spec_free(j->spec);
}


int awe_cmd_step_response(int argc, char **argv) {
  job j = {0};
  int rc = parse_args(argc, argv, &j.o);
  rc = awe_cli_begin(rc, j.o.scenario, j.o.nset, j.o.sets, &j.spec, &j.m);
  free(j.o.sets);
  if (rc) return rc < 0 ? 0 : rc;

  awe_err err = {0};
  j.cmdline = awe_cli_command_line(argc, argv);
  j.dt = j.m->opt.dt;
  set_steps(&j, isnan(j.o.duration) ? j.m->opt.duration : j.o.duration);

  /* the output is checked before the work, which may be long; signals stop it */
  if (j.o.out && !j.o.spring) {
    make_dir_of(j.o.out);
    if (awe_cli_check_output(j.o.out, 0, &err)) goto fail;
    if (awe_cli_output_not_input(j.spec, "-o", j.o.out, &err) ||
        awe_cli_outputs_distinct("--from", j.o.from, "-o", j.o.out, &err))
      goto fail;
  }
  j.sim = awe_cli_new_sim(j.m, &j.stop, &err);
  if (!j.sim) goto fail;
  if (awe_cli_trim_op(j.sim, j.o.at, j.o.keep_torque, j.o.op && !strcmp(j.o.op, "steady"),
                      j.o.from, j.o.quiet, &j.op, &err))
    goto fail;

  if (j.o.spring) {
    if (j.o.out && !j.o.quiet)
      fprintf(stderr, "awesim: warning: -o is not used with --spring-props\n");
    rc = spring_props(&j.o, j.m, j.sim, &j.op, j.dt, j.nsteps);
    goto out;
  }
  switch ((rc = select_channels(&j, &err))) {
    case PHASE_OK: break;
    case PHASE_USAGE: goto fail_usage;
    case PHASE_FAIL: goto fail;
    default: goto out;
  }
  report_operating_point(&j);
  if (isnan(j.o.duration) && default_duration(&j, &err)) goto fail;
  if (simulate_step(&j, &err)) goto fail;
  if (j.o.compare && compare_linear(&j, &err)) {
    /* the nonlinear response is complete: report it without the comparison */
    j.o.compare = 0;
    report(&j);
    fflush(stdout);
    goto fail;
  }
  if (finish_h5(&j, &err)) goto fail;
  report(&j);
  rc = 0;
  goto out;

fail_usage:
  fprintf(stderr, "awesim: error: --input/--outputs: %s\n", err.msg);
  rc = 2;
  goto out;
fail:
  rc = awe_cli_fail_run(&err, j.sim ? j.sim->guard.stop : NULL);
out:
  job_free(&j, &err);
  return rc;
}
