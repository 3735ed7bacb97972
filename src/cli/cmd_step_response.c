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
 * Exit status: 0 done; 1 the simulation or linearization failed; 2 usage; 65/66 bad or
 * missing input; 74 output error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "output/lin_output.h"
#include "analysis/linearize.h"
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
    "                          scenario (default: after the steady-state march)\n"
    "  --duration D            simulated time after the step [s] (default run.duration)\n"
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
    "Exit status: 0 done, 1 the computation failed, 2 usage, 65 invalid input, 66 missing\n"
    "input, 74 output error.\n";

typedef struct {
  const char *scenario, *out, *input, *outputs;
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
  };
  int rc = awe_cli_parse("step-response", argc, argv, opts, (int)AWE_ARRLEN(opts), "scenario",
                         &o->scenario, step_usage);
  if (rc) return rc;
  if (o->at < 0.0) {
    fprintf(stderr, "awesim step-response: --at: the time must be >= 0\n");
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


int awe_cmd_step_response(int argc, char **argv) {
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
  int nu = 0, ny = 0;
  int *ysel = NULL;
  double *Y = NULL, *Yl = NULL, *tt = NULL, *u1 = NULL, *emax = NULL, *erms = NULL,
         *escale = NULL;
  awe_step_metrics *met = NULL;
  awe_linsys L = {0};
  awe_h5 *h5 = NULL;
  char *cmdline = awe_cli_command_line(argc, argv);

  double dt = m->opt.dt;
  double dur = isnan(o.duration) ? m->opt.duration : o.duration;
  long nsteps = (long)ceil(dur / dt - 1e-9);
  if (nsteps < 2) nsteps = 2;
  long nt = nsteps + 1;

  /* the output is checked before the work, which may be long; signals stop it */
  if (o.out && !o.spring) {
    make_dir_of(o.out);
    if (awe_cli_check_output(o.out, 0, &err)) goto fail;
  }
  const volatile sig_atomic_t *stop;
  sim = awe_cli_new_sim(m, &stop, &err);
  if (!sim) goto fail;
  if (awe_cli_operating_point(sim, o.at, o.keep_torque, o.quiet, &op, &err)) goto fail;

  if (o.spring) {
    if (o.out && !o.quiet)
      fprintf(stderr, "awesim: warning: -o is not used with --spring-props\n");
    rc = spring_props(&o, m, sim, &op, dt, nsteps);
    goto out;
  }

  /* input and outputs */
  if (awe_lin_select(&m->reg.input, o.input, 0, &uc, &nu, &err)) goto fail_usage;
  if (nu != 1) {
    fprintf(stderr, "awesim: error: --input '%s' selects %d inputs; name one scalar input\n",
            o.input, nu);
    rc = 2;
    goto out;
  }
  switch (awe_cli_outputs(m, o.outputs, o.quiet, &yc, &ny, &err)) {
    case 0: break;
    case 2: goto fail_usage;
    default: goto fail;
  }
  for (int j = 0; j < ny; j++)
    if (m->reg.output.v[yc[j].var].flags & AWE_VF_QUAT) {
      fprintf(stderr, "awesim: error: --outputs: orientation outputs have no step metrics\n");
      rc = 2;
      goto out;
    }

  awe_lin_model lm;
  awe_lin_model_init(&lm, m, sim->w, 0);
  awe_lin_problem p = {.xl = &m->reg.state, .ul = &m->reg.input, .yl = &m->reg.output,
                       .eval = awe_lin_model_eval, .ctx = &lm, .uc = uc, .nu = 1, .yc = yc,
                       .ny = ny, .integrating = awe_lin_model_integrating, .stop = stop};
  if (!o.quiet) {
    int nxm = awe_lin_nchan(&m->reg.state);
    double *dx = malloc(sizeof(double) * ((size_t)nxm + 1)), res = 0.0;
    if (dx && !awe_lin_deriv(&p, op.x, op.u, dx, &res, NULL, &err)) {
      if (res > 1e-6)
        fprintf(stderr, "awesim: warning: the operating point is not an equilibrium (residual "
                        "||dx/dt|| = %.3g): the response includes its drift\n", res);
      else
        fprintf(stderr, "awesim: operating point: %s, residual ||dx/dt|| = %.3g\n",
                op.steady ? "steady state" : "simulation", res);
    }
    free(dx);
  }

  ysel = malloc(sizeof(int) * ((size_t)ny + 1));
  Y = malloc(sizeof(double) * (size_t)nt * ((size_t)ny + 1));
  tt = malloc(sizeof(double) * (size_t)nt);
  u1 = malloc(sizeof(double) * ((size_t)sim->w->nu + 1));
  met = calloc((size_t)ny + 1, sizeof(*met));
  if (!ysel || !Y || !tt || !u1 || !met) {
    awe_err_set(&err, AWE_ENOMEM, "out of memory");
    goto fail;
  }
  for (int j = 0; j < ny; j++) ysel[j] = yc[j].scalar;
  for (long k = 0; k < nt; k++) tt[k] = (double)k * dt;
  memcpy(u1, op.u, sizeof(double) * (size_t)sim->w->nu);
  u1[uc[0].scalar] += o.amplitude;

  if (o.out) {
    make_dir_of(o.out);
    awe_h5_info info = {.solver = awe_integrator_name(sim->it), .command_line = cmdline,
                        .scenario = spec->scenario_text};
    h5 = awe_h5_open(o.out, &m->reg.output, &info, &err);
    if (!h5) goto fail;
  }
  if (awe_step_simulate(sim, op.x, op.u, u1, 0, dt, nsteps, ysel, ny, Y, h5 ? row_h5 : NULL,
                        h5, &err)) {
    if (h5) {
      awe_h5_set_attr_str(h5, "phase", sim->guard.phase, &(awe_err){0});
      awe_h5_close(h5, err.code == AWE_EINTR ? AWE_RUN_INTERRUPTED : AWE_RUN_FAILED,
                   err.code == AWE_EINTR ? NULL : err.msg, &(awe_err){0});
    }
    h5 = NULL;
    goto fail;
  }
  for (int j = 0; j < ny; j++)
    awe_step_metrics_eval(tt, Y + j, ny, nt, o.amplitude, o.band, &met[j]);

  if (o.compare) {
    if (awe_linearize(&p, op.x, op.u, &L, &err)) goto fail;
    Yl = malloc(sizeof(double) * (size_t)nt * ((size_t)ny + 1));
    emax = calloc((size_t)ny + 1, sizeof(double));
    erms = calloc((size_t)ny + 1, sizeof(double));
    escale = calloc((size_t)ny + 1, sizeof(double));
    if (!Yl || !emax || !erms || !escale) {
      awe_err_set(&err, AWE_ENOMEM, "out of memory");
      goto fail;
    }
    double du = o.amplitude;
    if (awe_step_linear(&L, &du, dt, nsteps, Yl, &err)) goto fail;
    for (int j = 0; j < ny; j++) awe_step_compare(Y, Yl, nt, ny, j, &emax[j], &erms[j], &escale[j]);
  }

  if (h5) {
    awe_h5_set_attr_double(h5, "t_op", op.t, &err);
    awe_h5_set_attr_str(h5, "step_input", o.input, &err);
    awe_h5_set_attr_double(h5, "step_amplitude", o.amplitude, &err);
    awe_status cs = awe_h5_close(h5, AWE_RUN_COMPLETE, NULL, &err);
    h5 = NULL;
    if (cs) goto fail;
    awe_step_h5 sr = {.input = o.input, .amplitude = o.amplitude, .band = o.band, .t_op = op.t,
                      .ny = ny, .metrics = met, .Ylin = Yl, .nt = nt, .err_max = emax,
                      .err_rms = erms, .err_scale = escale};
    char **names = calloc((size_t)ny + 1, sizeof(char *));
    const char **units = calloc((size_t)ny + 1, sizeof(char *));
    char *store = malloc(((size_t)ny + 1) * 512);
    awe_status as = AWE_ENOMEM;
    if (names && units && store) {
      for (int j = 0; j < ny; j++) {
        names[j] = store + (size_t)j * 512;
        awe_lin_chan_name(&m->reg.output, &yc[j], names[j], 512);
        units[j] = awe_lin_chan_unit(&m->reg.output, &yc[j]);
      }
      sr.names = names;
      sr.units = units;
      as = awe_lin_h5_add_step(o.out, &sr, &err);
    } else {
      awe_err_set(&err, AWE_ENOMEM, "out of memory");
    }
    free(names);
    free(units);
    free(store);
    if (as) goto fail;
  }

  /* report */
  char uname[512];
  awe_lin_chan_name(&m->reg.input, &uc[0], uname, sizeof(uname));
  const char *uunit = awe_lin_chan_unit(&m->reg.input, &uc[0]);
  if (o.json) {
    printf("{");
    jstr("input", uname, 1);
    jstr("input_unit", uunit, 1);
    jnum("amplitude", o.amplitude, 1);
    jnum("t_op", op.t, 1);
    printf("\"steady\": %s, ", op.steady ? "true" : "false");
    jnum("duration", (double)nsteps * dt, 1);
    jnum("dt", dt, 1);
    jnum("band", o.band, 1);
    printf("\"outputs\": [");
    for (int j = 0; j < ny; j++) {
      char nm[512];
      awe_lin_chan_name(&m->reg.output, &yc[j], nm, sizeof(nm));
      printf("%s{", j ? ", " : "");
      jstr("name", nm, 1);
      jstr("unit", awe_lin_chan_unit(&m->reg.output, &yc[j]), 1);
      jnum("initial", met[j].initial, 1);
      jnum("final", met[j].final, 1);
      jnum("gain", met[j].gain, 1);
      jnum("rise_time", met[j].rise_time, 1);
      jnum("peak", met[j].peak, 1);
      jnum("peak_time", met[j].peak_time, 1);
      jnum("overshoot", met[j].overshoot, 1);
      jnum("settling_time", met[j].settling_time, !!o.compare);
      if (o.compare) {
        double sc = rel_scale(escale[j], met[j].initial);
        jnum("linear_error_max", emax[j], 1);
        jnum("linear_error_rms", erms[j], 1);
        jnum("linear_error_max_rel", sc > 0.0 ? emax[j] / sc : NAN, 1);
        jnum("linear_error_rms_rel", sc > 0.0 ? erms[j] / sc : NAN, 0);
      }
      printf("}");
    }
    printf("]}\n");
  } else {
    printf("# step of %s by %g %s at %s", uname, o.amplitude, uunit,
           op.steady ? "the steady state" : "t =");
    if (!op.steady) printf(" %.9g s", op.t);
    printf("; %g s, dt %g s; settling band %g %%\n", (double)nsteps * dt, dt, o.band);
    printf("%-32s %-8s %-12s %-12s %-12s %-12s %-12s %-12s %-12s", "output", "unit",
           "initial", "final", "gain", "rise_time[s]", "peak_time[s]", "overshoot[%]",
           "settling[s]");
    if (o.compare) printf(" %-12s %-12s", "lin_max[%]", "lin_rms[%]");
    putchar('\n');
    for (int j = 0; j < ny; j++) {
      char nm[512];
      awe_lin_chan_name(&m->reg.output, &yc[j], nm, sizeof(nm));
      printf("%-32s %-8s", nm, awe_lin_chan_unit(&m->reg.output, &yc[j]));
      cell(met[j].initial);
      cell(met[j].final);
      cell(met[j].gain);
      cell(met[j].rise_time);
      cell(met[j].peak_time);
      cell(met[j].overshoot);
      cell(met[j].settling_time);
      if (o.compare) {
        double sc = rel_scale(escale[j], met[j].initial);
        cell(sc > 0.0 ? 100.0 * emax[j] / sc : NAN);
        cell(sc > 0.0 ? 100.0 * erms[j] / sc : NAN);
      }
      putchar('\n');
    }
  }
  if (!o.quiet)
    for (int j = 0; j < ny; j++)
      if (isfinite(met[j].settling_time) && met[j].settling_time > 0.9 * (double)nsteps * dt) {
        fprintf(stderr, "awesim: warning: some outputs have not settled within %g s; the "
                        "final values may not be steady (--duration)\n", (double)nsteps * dt);
        break;
      }
  rc = 0;
  goto out;

fail_usage:
  fprintf(stderr, "awesim: error: --input/--outputs: %s\n", err.msg);
  rc = 2;
  goto out;
fail:
  rc = awe_cli_fail_run(&err, sim ? sim->guard.stop : NULL);
out:
  if (h5) awe_h5_close(h5, AWE_RUN_FAILED, err.msg, &(awe_err){0});
  awe_linsys_free(&L);
  free(uc);
  free(yc);
  free(ysel);
  free(Y);
  free(Yl);
  free(tt);
  free(u1);
  free(met);
  free(emax);
  free(erms);
  free(escale);
  awe_op_free(&op);
  awe_sim_free(sim);
  free(cmdline);
  awe_model_free(m);
  awe_spec_free(spec);
  return rc;
}
