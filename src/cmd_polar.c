/* cmd_polar.c: `awesim polar` — wing polars from the VSM solver, CSV on stdout.
 *
 * One VSM solve per angle of attack, warm-started from the previous angle's circulation. The
 * apparent wind is va = V [cos a cos b, sin b, sin a] in the body frame (VortexStepMethod.jl's
 * convention); coefficients use the projected area and moments are about the origin of the aero
 * geometry's frame.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aero_wing.h"
#include "cli.h"
#include "load.h"
#include "vsm.h"

static const char polar_usage[] =
    "usage: awesim polar [options] AERO.yaml\n"
    "\n"
    "Compute the wing polar of an aero geometry with the Vortex Step Method; CSV on stdout:\n"
    "alpha[deg],beta[deg],CL,CD,CS,CMx,CMy,CMz,converged\n"
    "\n"
    "  --vsm-settings FILE     solver settings (default: vsm_settings.yaml beside AERO.yaml, if any)\n"
    "  --alpha START:STOP:STEP angles of attack [deg] (default -5:20:1)\n"
    "  --beta DEG              sideslip [deg] (default 0)\n"
    "  --speed M/S             apparent wind speed (default: condition.wind_speed, 10)\n"
    "  --method vsm|llt        evaluation at 3/4 chord (VSM) or 1/4 chord (lifting line)\n"
    "  --solver loop|newton    circulation solver (default: solver_settings.solver_type)\n"
    "  --panels N              number of spanwise panels\n"
    "  --distribution linear|cosine|split_provided  panel distribution\n"
    "  --spanwise              per-panel results instead (one row per angle and panel)\n"
    "  -h, --help              show this help\n"
    "\n"
    "Exit status 1 if any angle did not converge (its row is written with converged=0).\n";


static int parse_range(const char *s, double *a, double *b, double *c) {
  char *end;
  *a = strtod(s, &end);
  if (end == s || *end != ':') return -1;
  s = end + 1;
  *b = strtod(s, &end);
  if (end == s || *end != ':') return -1;
  s = end + 1;
  *c = strtod(s, &end);
  if (end == s || *end) return -1;
  if (!isfinite(*a) || !isfinite(*b) || !isfinite(*c) || *c <= 0 || *b < *a) return -1;
  if ((*b - *a) / *c > 100000) return -1;
  return 0;
}


int awe_cmd_polar(int argc, char **argv) {
  const char *aero = NULL, *vsm_file = NULL, *method = NULL, *solver = NULL, *dist = NULL;
  double a0 = -5, a1 = 20, da = 1, beta = 0, speed = NAN;
  int panels = 0, spanwise = 0;
  const char *alpha_range = NULL;
  double npanels = NAN;
  const awe_cli_opt opts[] = {
      {"--vsm-settings", NULL, AWE_CLI_STR, &vsm_file, NULL},
      {"--alpha", NULL, AWE_CLI_STR, &alpha_range, NULL},
      {"--beta", NULL, AWE_CLI_NUM, &beta, NULL},
      {"--speed", NULL, AWE_CLI_NUM, &speed, NULL},
      {"--method", NULL, AWE_CLI_STR, &method, NULL},
      {"--solver", NULL, AWE_CLI_STR, &solver, NULL},
      {"--panels", NULL, AWE_CLI_NUM, &npanels, NULL},
      {"--distribution", NULL, AWE_CLI_STR, &dist, NULL},
      {"--spanwise", NULL, AWE_CLI_FLAG, &spanwise, NULL},
  };
  int rc = awe_cli_parse("polar", argc, argv, opts, (int)AWE_ARRLEN(opts), "AERO.yaml", &aero,
                         polar_usage);
  if (rc) return rc < 0 ? 0 : rc;
  if (alpha_range && parse_range(alpha_range, &a0, &a1, &da)) {
    fprintf(stderr, "awesim polar: --alpha '%s': expected START:STOP:STEP with STOP >= START "
            "and STEP > 0 (degrees)\n", alpha_range);
    return 2;
  }
  if (fabs(beta) >= 90) {
    fprintf(stderr, "awesim polar: --beta %g: expected an angle in (-90, 90) degrees\n", beta);
    return 2;
  }
  if (!isnan(speed) && (!(speed > 0) || speed > 1000)) {
    fprintf(stderr, "awesim polar: --speed %g: expected a speed in (0, 1000] m/s\n", speed);
    return 2;
  }
  if (method && strcmp(method, "vsm") && strcmp(method, "llt")) {
    fprintf(stderr, "awesim polar: --method '%s': expected vsm or llt\n", method);
    return 2;
  }
  if (solver && strcmp(solver, "loop") && strcmp(solver, "newton")) {
    fprintf(stderr, "awesim polar: --solver '%s': expected loop or newton\n", solver);
    return 2;
  }
  if (!isnan(npanels)) {
    if (npanels < 1 || npanels > 10000 || npanels != floor(npanels)) {
      fprintf(stderr, "awesim polar: --panels %g: expected an integer 1 ... 10000\n", npanels);
      return 2;
    }
    panels = (int)npanels;
  }
  if (dist && strcmp(dist, "linear") && strcmp(dist, "cosine") && strcmp(dist, "split_provided")) {
    fprintf(stderr, "awesim polar: --distribution '%s': expected linear, cosine or "
            "split_provided\n", dist);
    return 2;
  }
  /* default settings file: beside the aero geometry, as the model's system.yaml would name it */
  char sib[4096];
  if (!vsm_file) {
    const char *slash = strrchr(aero, '/');
    int nd = slash ? (int)(slash - aero) + 1 : 0;
    snprintf(sib, sizeof(sib), "%.*svsm_settings.yaml", nd, aero);
    FILE *f = fopen(sib, "r");
    if (f) {
      fclose(f);
      vsm_file = sib;
    }
  }
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load_aero(aero, vsm_file, &warn, &err);
  if (!s) {
    awe_cli_print_warnings(&warn);
    awe_diag_free(&warn);
    return awe_cli_fail(&err);
  }
  awe_cli_print_warnings(&s->warnings);
  awe_diag_free(&warn);
  awe_vsm_settings vs = s->vsm;
  if (method) vs.model = !strcmp(method, "llt") ? AWE_VSM_MODEL_LLT : AWE_VSM_MODEL_VSM;
  if (solver) vs.solver = !strcmp(solver, "newton") ? AWE_VSM_SOLVER_NEWTON : AWE_VSM_SOLVER_LOOP;
  if (panels) vs.n_panels = panels;
  if (dist)
    vs.distribution = !strcmp(dist, "cosine")   ? AWE_DIST_COSINE
                      : !strcmp(dist, "linear") ? AWE_DIST_LINEAR
                                                : AWE_DIST_SPLIT_PROVIDED;
  vs.use_gamma_prev = 1;  /* warm start each angle from the previous one */
  if (isnan(speed)) speed = vs.wind_speed > 0 ? vs.wind_speed : 10.0;
  awe_vsm_wing *w = awe_aero_wing_from_spec(&s->aero, &vs, &err);
  if (!w) {
    awe_spec_free(s);
    return awe_cli_fail(&err);
  }
  if (spanwise)
    printf("alpha[deg],beta[deg],panel,y[m],chord[m],gamma[m^2/s],alpha_panel[deg],cl,cd,cm,"
           "Fx[N],Fy[N],Fz[N],converged\n");
  else
    printf("alpha[deg],beta[deg],CL,CD,CS,CMx,CMy,CMz,converged\n");
  int nbad = 0;
  long n = (long)floor((a1 - a0) / da + 1e-9) + 1;
  /* a signal ends the polar after the current angle (and a long solve at once) */
  const volatile sig_atomic_t *stop = awe_cli_catch_signals();
  awe_vsm_wing_set_stop(w, stop);
  awe_vsm_geometry g;
  awe_vsm_wing_geometry(w, &g);
  for (long k = 0; k < n; k++) {
    double alpha = a0 + (double)k * da;
    double va[3];
    awe_vsm_va_from_angles(speed, alpha, beta, va);
    awe_vsm_result r;
    int st = awe_vsm_solve(w, va, NULL, NULL, &r);
    if (*stop) {
      fflush(stdout);
      fprintf(stderr, "awesim: interrupted by %s at alpha %g deg (%ld of %ld angles done)\n",
              awe_cli_signal_name((int)*stop), alpha, k, n);
      break;
    }
    int conv = r.converged && st >= 0;
    if (!conv) {
      nbad++;
      fprintf(stderr, "awesim polar: alpha %g deg: %s (residual %.3g after %d iterations)\n",
              alpha, awe_vsm_strstatus(st), r.residual, r.iterations);
      /* a failed angle must not poison the next warm start */
      awe_vsm_wing_reset_gamma(w);
    }
    if (spanwise) {
      awe_vsm_wing_geometry(w, &g);
      for (int p = 0; p < r.n_panels; p++)
        printf("%.9g,%.9g,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d\n", alpha, beta,
               p + 1, g.aero_center[3 * p + 1], g.chord[p], r.gamma[p],
               r.alpha[p] * 180.0 / M_PI, r.cl[p], r.cd[p], r.cm[p], r.panel_force[3 * p],
               r.panel_force[3 * p + 1], r.panel_force[3 * p + 2], conv);
    } else {
      printf("%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d\n", alpha, beta, r.CL, r.CD, r.CS,
             r.CM[0], r.CM[1], r.CM[2], conv);
    }
  }
  fflush(stdout);
  awe_vsm_wing_free(w);
  awe_spec_free(s);
  if (*stop) return 128 + (int)*stop;
  if (nbad) fprintf(stderr, "awesim polar: %d of %ld angles did not converge\n", nbad, n);
  return nbad ? 1 : 0;
}
