/* cmd_trim.c: `awesim trim` — the free equilibrium of a flying system (solve/trim.h).
 *
 * Steps: load the scenario; start and settle it (the steady-state march, wings on their
 * spheres); continue to the free trim, with the trim variables (--trim INPUT) solved so that
 * the held outputs (--hold OUTPUT=VALUE) reach their values; print the operating point and
 * the residual.
 *
 * Exit status: 0 done; 1 the trim did not converge (residual above --tol) or a hold cannot be
 * reached; 2 usage (a trim variable that is not an input, a held output that is not an output
 * channel, a hold out of its range); 65/66 bad or missing input; 130/143 SIGINT/SIGTERM.
 */
#include "cli/cmd_trim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/out_paths.h"
#include "engine/outputs.h"
#include "model/input_signal.h"
#include "output/trim_file.h"
#include "solve/trim.h"

static const char trim_usage[] =
    "usage: awesim trim [OPTIONS] SCENARIO\n"
    "\n"
    "The free equilibrium (trim) of the scenario at t = 0: every acceleration zero, the wings\n"
    "free in elevation, azimuth and heading (a particle wing's points all free), velocities\n"
    "zero, the winches braked, the scheduled inputs at their t = 0 values. It continues from\n"
    "the steady state (wings held on their spheres) by a pseudo-transient Newton iteration on\n"
    "the full residual, the wings' aerodynamics re-solved at the solution.\n"
    "\n"
    "  --trim INPUT            a trim variable: an input (registry name, e.g.\n"
    "                          'segments.steering_left.l0') solved together with the state;\n"
    "                          repeatable, one per --hold\n"
    "  --hold OUTPUT=VALUE     hold an output channel at VALUE (its unit; angles in degrees),\n"
    "                          e.g. 'wings.main_wing.elevation=60'; repeatable\n"
    "  --tol R                 relative residual accepted (default 1e-6)\n"
    "  -o FILE.h5              write the trim (state, inputs, residual) for\n"
    "                          `linearize --from` and `step-response --from`\n"
    "  --set KEY.PATH=VALUE    override a scenario key (repeatable)\n"
    "  -q, --quiet             no notes or warnings on stderr (errors only)\n"
    "  -h, --help              show this help\n"
    "\n"
    "Residual: max |m a| over the moving points and rigid wings, and max |I alpha| of the\n"
    "rigid wings per metre, relative to the largest segment tension.\n"
    "Exit status: 0 done, 1 not converged or a hold not reached, 2 usage, 65 invalid input,\n"
    "66 missing input, 130/143 interrupted by SIGINT/SIGTERM.\n";

typedef struct {
  const char *scenario, *out;
  int quiet, nset, ntrim, nhold;
  double tol;
  const char **sets, **trims, **holds;
} options;


static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof(*o));
  o->tol = 1e-6;
  o->sets = calloc((size_t)argc + 1, sizeof(char *));
  o->trims = calloc((size_t)argc + 1, sizeof(char *));
  o->holds = calloc((size_t)argc + 1, sizeof(char *));
  if (!o->sets || !o->trims || !o->holds) return 70;
  const awe_cli_opt opts[] = {
      {"--quiet", "-q", AWE_CLI_FLAG, &o->quiet, NULL},
      {"--set", NULL, AWE_CLI_LIST, o->sets, &o->nset},
      {"--trim", NULL, AWE_CLI_LIST, o->trims, &o->ntrim},
      {"--hold", NULL, AWE_CLI_LIST, o->holds, &o->nhold},
      {"--tol", NULL, AWE_CLI_NUM, &o->tol, NULL},
      {"--output", "-o", AWE_CLI_STR, &o->out, NULL},
  };
  int rc = awe_cli_parse("trim", argc, argv, opts, (int)AWE_ARRLEN(opts), "scenario",
                         &o->scenario, trim_usage);
  if (rc) return rc;
  if (!(o->tol > 0.0)) {
    fprintf(stderr, "awesim trim: --tol %g: expected a positive ratio\n", o->tol);
    return 2;
  }
  return 0;
}


awe_status awe_cli_trim_op(awe_sim *sim, double at, int keep_torque, int steady_only,
                           const char *from, int quiet, awe_op *op, awe_err *err) {
  unsigned f = keep_torque ? 0u : AWE_OP_HOLD_TORQUE;
  if (isnan(at) && !steady_only && sim->m->nwing > 0) f |= AWE_OP_TRIM;
  if (from) {
    AWE_TRY(awe_sim_start(sim, err));
    AWE_TRY(awe_trim_read_h5(from, sim->m, sim->y, sim->u, err));
    sim->ctx.nadd = 0; /* the file's inputs hold the controllers' outputs */
    f |= AWE_OP_GIVEN;
  }
  AWE_TRY(awe_op_find(sim, at, f, op, err));
  /* the controllers' outputs are in op->u (a trim, or a time: awe_op_find) */
  if (op->trim || (!from && !isnan(at))) sim->ctx.nadd = 0;
  if (op->trim && !from && !(op->tr.rel <= 1e-6) && !quiet)
    fprintf(stderr, "awesim: warning: the trim did not converge: relative residual %.3g (max "
                    "|m a| %.3g N); --op steady gives the steady state with the wings held on "
                    "their spheres\n", op->tr.rel, op->tr.force);
  awe_sim_aero_refresh(sim); /* the wings' aerodynamics linearized at the operating point */
  if (!quiet && op->nheld)
    fprintf(stderr, "awesim: note: %d winch torque%s set to the holding torque (--keep-torque "
                    "keeps the scenario's)\n", op->nheld, op->nheld == 1 ? "" : "s");
  return AWE_OK;
}


/* one scalar channel of l named exactly name; -1 (message in err) if none */
static int find_scalar(const awe_varlist *l, const char *name, const char *what, awe_err *err) {
  awe_lin_chan *c = NULL;
  int n = 0;
  if (strchr(name, '*') || strchr(name, '?') || strchr(name, ',')) {
    awe_err_set(err, AWE_EUSAGE, "%s '%s': name one channel, not a pattern", what, name);
    return -1;
  }
  awe_err e2 = {0};
  if (awe_lin_select(l, name, 0, &c, &n, &e2)) {
    awe_err_set(err, AWE_EUSAGE, "%s '%s' is not %s: %s", what, name,
                l->n && !strcmp(what, "--trim") ? "an input" : "an output channel", e2.msg);
    return -1;
  }
  int k = -1;
  if (n == 1 && l->v[c[0].var].dim != 4) k = c[0].scalar;
  free(c);
  if (k < 0)
    awe_err_set(err, AWE_EUSAGE, "%s '%s' names %d channels: name one scalar (e.g. '%s.x')", what,
                name, n, name);
  return k;
}


static void print_point(const awe_sim *s, const awe_trim_spec *ts, const awe_trim_result *r) {
  const awe_model *m = s->m;
  const awe_varlist *yl = &m->reg.output;
  char name[512];
  printf("# trim: relative residual %.3g (force %.3g N, moment %.3g N m, reference %.6g N; "
         "%d Newton iterations)\n", r->rel, r->force, r->moment, r->force_ref, r->polish_iters);
  for (int i = 0; i < yl->n; i++) {
    const awe_var *v = &yl->v[i];
    static const char *const show[] = {"elevation", "azimuth", "heading", "aoa", "force"};
    const char *var = v->var;
    int want = 0;
    for (size_t k = 0; k < AWE_ARRLEN(show); k++) want |= !strcmp(var, show[k]);
    /* without a wing: where the moving points hang */
    if (m->nwing == 0 && !strcmp(v->group, "points") && !strcmp(var, "pos") &&
        m->point_type[v->comp_index] != AWE_PT_STATIC) {
      for (int k = 0; k < v->dim; k++) {
        awe_var_scalar_name(v, k, name, sizeof(name));
        printf("%-40s %17.12g %s\n", name, s->yout[v->offset + k], v->unit);
      }
      continue;
    }
    if (!want || v->dim != 1) continue;
    if (!strcmp(var, "force") && strcmp(v->group, "tethers") && strcmp(v->group, "winches"))
      continue;
    double val = s->yout[v->offset];
    awe_var_scalar_name(v, 0, name, sizeof(name));
    if (v->flags & AWE_VF_ANGLE) printf("%-40s %14.9g deg\n", name, val * 180.0 / M_PI);
    else printf("%-40s %14.9g %s\n", name, val, v->unit);
  }
  for (int j = 0; ts && j < ts->ntrim; j++) {
    const awe_varlist *ul = &m->reg.input;
    for (int i = 0; i < ul->n; i++) {
      const awe_var *v = &ul->v[i];
      if (ts->trim_u[j] < v->offset || ts->trim_u[j] >= v->offset + v->dim) continue;
      awe_var_scalar_name(v, ts->trim_u[j] - v->offset, name, sizeof(name));
      printf("%-40s %14.9g %s (trim input)\n", name, s->u[ts->trim_u[j]], v->unit);
    }
  }
}


int awe_cmd_trim(int argc, char **argv) {
  options o;
  awe_spec *spec;
  awe_model *m;
  int rc = parse_args(argc, argv, &o);
  rc = awe_cli_begin(rc, o.scenario, o.nset, o.sets, &spec, &m);
  if (rc) {
    free(o.sets);
    free(o.trims);
    free(o.holds);
    return rc < 0 ? 0 : rc;
  }
  awe_err err = {0};
  awe_sim *sim = NULL;
  int *tu = calloc((size_t)o.ntrim + (size_t)o.nhold + 1, sizeof(int)), *hy = tu + o.ntrim;
  double *hv = calloc((size_t)o.nhold + 1, sizeof(double));
  unsigned char *ha = calloc((size_t)o.nhold + 1, 1);
  if (!tu || !hv || !ha) {
    awe_err_set(&err, AWE_ENOMEM, "out of memory");
    goto fail;
  }
  for (int j = 0; j < o.ntrim; j++) {
    if ((tu[j] = find_scalar(&m->reg.input, o.trims[j], "--trim", &err)) < 0) goto fail_usage;
    /* the same input twice makes the trim's Jacobian singular: it diverged */
    for (int k = 0; k < j; k++)
      if (tu[k] == tu[j]) {
        awe_err_set(&err, AWE_EUSAGE, "--trim %s is given twice (as --trim %s): each input is "
                    "trimmed once", o.trims[j], o.trims[k]);
        goto fail_usage;
      }
  }
  for (int j = 0; j < o.nhold; j++) {
    char nm[512];
    const char *eq = strchr(o.holds[j], '=');
    char *end = NULL;
    if (!eq || eq == o.holds[j] || (size_t)(eq - o.holds[j]) >= sizeof(nm)) {
      awe_err_set(&err, AWE_EUSAGE, "--hold '%s': expected OUTPUT=VALUE", o.holds[j]);
      goto fail_usage;
    }
    memcpy(nm, o.holds[j], (size_t)(eq - o.holds[j]));
    nm[eq - o.holds[j]] = 0;
    hv[j] = strtod(eq + 1, &end);
    if (end == eq + 1 || *end || !isfinite(hv[j])) {
      awe_err_set(&err, AWE_EUSAGE, "--hold '%s': '%s' is not a number", o.holds[j], eq + 1);
      goto fail_usage;
    }
    if ((hy[j] = find_scalar(&m->reg.output, nm, "--hold", &err)) < 0) goto fail_usage;
    for (int i = 0; i < m->reg.output.n; i++) {
      const awe_var *v = &m->reg.output.v[i];
      if (hy[j] < v->offset || hy[j] >= v->offset + v->dim || !(v->flags & AWE_VF_ANGLE)) continue;
      ha[j] = 1;
      if (!strcmp(v->var, "elevation") && !(hv[j] > 0.0 && hv[j] < 90.0)) {
        awe_err_set(&err, AWE_EUSAGE, "--hold %s=%g: a flying wing's elevation is in (0, 90) "
                    "deg", nm, hv[j]);
        goto fail_usage;
      }
      hv[j] *= M_PI / 180.0;
    }
  }
  if (o.nhold != o.ntrim) {
    awe_err_set(&err, AWE_EUSAGE, "%d --hold but %d --trim: each held output needs one trim "
                "input, e.g. --trim segments.steering_left.l0 --hold wings.main_wing.azimuth=0",
                o.nhold, o.ntrim);
    goto fail_usage;
  }
  if (o.out && awe_cli_check_output(o.out, 0, &err)) goto fail;
  if (awe_cli_output_not_input(spec, "-o", o.out, &err)) goto fail;
  const awe_stop_flag *stop;
  sim = awe_cli_new_sim(m, &stop, &err);
  if (!sim) goto fail;
  if (awe_sim_start(sim, &err)) goto fail;
  awe_trim_spec ts = {o.ntrim, tu, o.nhold, hy, hv, ha};
  awe_trim_result r;
  if (awe_trim_solve(sim, &ts, &r, &err)) goto fail;
  awe_sim_aero_refresh(sim);
  awe_ctx c = sim->ctx;
  c.flags = AWE_CTX_BRAKE_ALL;
  awe_outputs_eval(&c, 0.0, sim->y, sim->dydt, sim->yout);
  awe_trim_residual(sim, &r);
  print_point(sim, &ts, &r);
  if (o.out) {
    /* the inputs as the trim saw them: scheduled ones at t = 0, the controllers' outputs in */
    double *ue = malloc(sizeof(double) * ((size_t)sim->w->nu + 1));
    if (!ue) {
      awe_err_set(&err, AWE_ENOMEM, "out of memory");
      goto fail;
    }
    memcpy(ue, sim->u, sizeof(double) * (size_t)sim->w->nu);
    awe_signals_apply(m->signals, m->nsignal, 0.0, ue);
    awe_trim_fold_controllers(&sim->ctx, ue);
    awe_status ws = awe_trim_write_h5(o.out, m, sim->y, ue, r.rel, r.force, r.force_ref,
                                      spec->scenario_text, &err);
    free(ue);
    if (ws) goto fail;
  }
  if (!(r.rel <= o.tol)) {
    fprintf(stderr, "awesim: error: the trim did not converge: relative residual %.3g > %.3g\n",
            r.rel, o.tol);
    rc = 1;
    goto out;
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
  free(tu);
  free(hv);
  free(ha);
  free(o.sets);
  free(o.trims);
  free(o.holds);
  awe_sim_free(sim);
  awe_model_free(m);
  awe_spec_free(spec);
  return rc;
}
