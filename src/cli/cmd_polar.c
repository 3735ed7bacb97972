/* cmd_polar.c: `awesim polar` — wing polars from the VSM solver, CSV on stdout.
 *
 * Deterministic: every angle starts cold (the settings' initial circulation, fresh Newton
 * factors), as the Python Vortex-Step-Method does, so a row does not depend on the angles before
 * it and `--alpha 8:8:1` equals the 8 deg row of any sweep. Only when the cold start fails is the
 * angle reached by continuation: a cold solve at alpha 0 (same beta), then steps of at most 1 deg
 * to the angle, each started from the last (start column `continued`; also path-independent).
 * In a sweep each angle is solved a second time from the previous angle's circulation; when both
 * converge to different circulations (two branches, post-stall) the cold one is reported and a
 * warning names the angle once.
 *
 * The apparent wind is va = V [cos a cos b, sin b, sin a] in the body frame (VortexStepMethod.jl's
 * convention); coefficients use the projected area and moments are about --ref-point (default
 * the origin of the aero geometry's frame).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/aero_wing.h"
#include "cli/cli.h"
#include "io/load.h"
#include "aero/vsm.h"

static const char polar_usage[] =
    "usage: awesim polar [options] AERO.yaml\n"
    "\n"
    "Compute the wing polar of an aero geometry with the Vortex Step Method; CSV on stdout:\n"
    "alpha[deg],beta[deg],CL,CD,CS,CMx,CMy,CMz,converged,start[,probe columns]\n"
    "\n"
    "  --vsm-settings FILE     solver settings (default: vsm_settings.yaml beside AERO.yaml, if any)\n"
    "  --alpha START:STOP:STEP angles of attack [deg] (default -5:20:1)\n"
    "  --beta DEG|START:STOP:STEP  sideslip [deg] (default: condition.beta, 0)\n"
    "  --speed M/S             apparent wind speed (default: condition.wind_speed, 10)\n"
    "  --ref-point X,Y,Z       moment reference point [m], aero geometry frame (default 0,0,0)\n"
    "  --method vsm|llt        evaluation at 3/4 chord (VSM) or 1/4 chord (lifting line)\n"
    "  --correct-aoa yes|no    VSM force directions from the 1/4-chord flow (default:\n"
    "                          solver_settings.correct_aoa, else yes; no = the default of\n"
    "                          VortexStepMethod.jl <= 5.1.1, Python VSM before PR #163)\n"
    "  --solver loop|newton    circulation solver (default: solver_settings.solver_type, else\n"
    "                          newton)\n"
    "  --panels N              number of spanwise panels\n"
    "  --distribution linear|uniform|cosine|split_provided  panel distribution (uniform = linear)\n"
    "  --spanwise              per-panel results instead (one row per angle and panel)\n"
    "  --probe X,Y,Z[;X,Y,Z...] flow velocity at these points [m], aero geometry frame\n"
    "                          (repeatable, at most 64 points): after the columns above,\n"
    "                          for K = 1, 2, ...: probeK_u,probeK_v,probeK_w [m/s] (aero frame),\n"
    "                          probeK_speed_ratio (|v|/|va|), probeK_flow_angle[deg] (x-z plane,\n"
    "                          against the freestream's; positive = turned towards +z)\n"
    "  -h, --help              show this help\n"
    "\n"
    "Each angle starts cold; start=continued marks an angle reached by continuation from 0 deg\n"
    "after the cold start failed. Exit status 1 if any angle did not converge (converged=0),\n"
    "74 if standard output cannot be written.\n";


/* "A,B,C" -> three finite numbers. */
static int parse_vec3(const char *s, double v[3]) {
  char *end;
  for (int k = 0; k < 3; k++) {
    v[k] = strtod(s, &end);
    if (end == s || !isfinite(v[k])) return -1;
    if (k < 2 && *end != ',') return -1;
    s = end + 1;
  }
  return *end ? -1 : 0;
}


/* at most this many --probe points */
#define POLAR_MAX_PROBES 64


/* The --probe values ("X,Y,Z" or "X,Y,Z;X,Y,Z;...", the option once or more) -> pts (3 per
 * point), their count in *np. 0; -1 when malformed, -2 for more than POLAR_MAX_PROBES points,
 * with the option's value in *badv and the point in bad. */
static int parse_probes(const char *const *vals, int nval, double *pts, int *np,
                        const char **badv, char *bad, size_t badsz) {
  *np = 0;
  for (int k = 0; k < nval; k++) {
    const char *s = vals[k];
    *badv = s;
    for (;;) {
      const char *e = strchr(s, ';');
      const size_t len = e ? (size_t)(e - s) : strlen(s);
      snprintf(bad, badsz, "%.*s", (int)len, s);
      if (*np == POLAR_MAX_PROBES) return -2;
      if (len >= badsz || parse_vec3(bad, pts + 3*(size_t)*np)) return -1;
      ++*np;
      if (!e) break;
      s = e + 1;
    }
  }
  return 0;
}


/* The probe columns of one row from the wing's last solve: velocity, speed ratio, flow angle
 * against the freestream in the x-z plane (nan after a failed solve). */
static void print_probes(const awe_vsm_wing *w, const double *pts, int np, const double va[3]) {
  const double vn = sqrt(va[0]*va[0] + va[1]*va[1] + va[2]*va[2]);
  for (int k = 0; k < np; k++) {
    double v[3];
    if (awe_vsm_velocity_at(w, pts + 3*k, v) == AWE_VSM_EINVAL) v[0] = v[1] = v[2] = NAN;
    const double ratio = sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])/vn;
    double ang = (atan2(v[2], v[0]) - atan2(va[2], va[0]))*180.0/M_PI;
    if (ang > 180.0) ang -= 360.0;
    if (ang < -180.0) ang += 360.0;
    printf(",%.9g,%.9g,%.9g,%.9g,%.9g", v[0], v[1], v[2], ratio, ang);
  }
}


/* at most this many angles per range (the run's size is bounded before it starts) */
#define POLAR_MAX_ANGLES 100001


/* START:STOP:STEP -> 0, -1 when malformed, -2 when it has more than POLAR_MAX_ANGLES angles */
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
  if ((*b - *a) / *c > POLAR_MAX_ANGLES - 1) return -2;
  return 0;
}


/* One polar point: the result of the reported solve (its arrays live in the wing). */
typedef struct {
  awe_vsm_result r;
  int st, conv, continued;
} polar_point;


/* Continuation to (alpha, beta): cold at alpha 0, then steps of at most 1 deg, each from the
 * last circulation (g: n_panels scratch). */
static void solve_continued(awe_vsm_wing *w, double speed, double alpha, double beta,
                            const double om[3], const double ref[3], double *g, polar_point *p) {
  const int steps = (int)ceil(fabs(alpha) - 1e-9);
  double va[3];
  awe_vsm_wing_reset(w);
  awe_vsm_va_from_angles(speed, 0.0, beta, va);
  p->st = awe_vsm_solve(w, va, om, ref, &p->r);
  for (int k = 1; k <= steps && p->r.converged && p->st >= 0; k++) {
    memcpy(g, p->r.gamma, (size_t)p->r.n_panels*sizeof(double));
    awe_vsm_va_from_angles(speed, k == steps ? alpha : alpha*k/steps, beta, va);
    p->st = awe_vsm_solve_from(w, va, om, ref, g, &p->r);
  }
  p->conv = p->r.converged && p->st >= 0;
  p->continued = 1;
}


/* max |a - b| / max |a| over n values */
static double rel_diff(const double *a, const double *b, int n) {
  double d = 0.0, m = 1e-12;
  for (int i = 0; i < n; i++) {
    d = fmax(d, fabs(a[i] - b[i]));
    m = fmax(m, fabs(a[i]));
  }
  return d/m;
}


int awe_cmd_polar(int argc, char **argv) {
  const char *aero = NULL, *vsm_file = NULL, *method = NULL, *solver = NULL, *dist = NULL;
  const char *alpha_range = NULL, *beta_range = NULL, *ref_str = NULL, *corr = NULL;
  double a0 = -5, a1 = 20, da = 1, b0 = 0, b1 = 0, db = 1, speed = NAN, ref[3] = {0, 0, 0};
  int panels = 0, spanwise = 0, nprobe_opt = 0, nprobe = 0;
  double npanels = NAN, probes[3*POLAR_MAX_PROBES];
  const char **probe_opt = calloc((size_t)(argc > 0 ? argc : 1), sizeof(char *));
  if (!probe_opt) {
    fprintf(stderr, "awesim polar: out of memory\n");
    return 70;
  }
  const awe_cli_opt opts[] = {
      {"--vsm-settings", NULL, AWE_CLI_STR, &vsm_file, NULL},
      {"--alpha", NULL, AWE_CLI_STR, &alpha_range, NULL},
      {"--beta", NULL, AWE_CLI_STR, &beta_range, NULL},
      {"--speed", NULL, AWE_CLI_NUM, &speed, NULL},
      {"--ref-point", NULL, AWE_CLI_STR, &ref_str, NULL},
      {"--method", NULL, AWE_CLI_STR, &method, NULL},
      {"--correct-aoa", NULL, AWE_CLI_STR, &corr, NULL},
      {"--solver", NULL, AWE_CLI_STR, &solver, NULL},
      {"--panels", NULL, AWE_CLI_NUM, &npanels, NULL},
      {"--distribution", NULL, AWE_CLI_STR, &dist, NULL},
      {"--spanwise", NULL, AWE_CLI_FLAG, &spanwise, NULL},
      {"--probe", NULL, AWE_CLI_LIST, probe_opt, &nprobe_opt},
  };
  int rc = awe_cli_parse("polar", argc, argv, opts, (int)AWE_ARRLEN(opts), "AERO.yaml", &aero,
                         polar_usage);
  if (!rc && nprobe_opt) {
    const char *badv = "";
    char bad[256];
    const int pp = parse_probes(probe_opt, nprobe_opt, probes, &nprobe, &badv, bad, sizeof bad);
    if (pp == -2)
      fprintf(stderr, "awesim polar: --probe '%s': more than %d points\n", badv,
              POLAR_MAX_PROBES);
    else if (pp)
      fprintf(stderr, "awesim polar: --probe '%s': point '%s': expected X,Y,Z (three numbers, "
              "metres), points separated by ';'\n", badv, bad);
    else if (spanwise)
      fprintf(stderr, "awesim polar: --probe does not combine with --spanwise (the probe columns "
              "belong to the rows of the whole wing)\n");
    rc = pp || spanwise ? 2 : 0;
  }
  free(probe_opt);
  if (rc) return rc < 0 ? 0 : rc;
  int pr = alpha_range ? parse_range(alpha_range, &a0, &a1, &da) : 0;
  if (pr == -2) {
    fprintf(stderr, "awesim polar: --alpha '%s': %.0f angles; at most %d per range\n",
            alpha_range, floor((a1 - a0) / da + 1e-9) + 1, POLAR_MAX_ANGLES);
    return 2;
  }
  if (pr) {
    fprintf(stderr, "awesim polar: --alpha '%s': expected START:STOP:STEP with STOP >= START "
            "and STEP > 0 (degrees)\n", alpha_range);
    return 2;
  }
  if (beta_range) {
    char *end;
    b0 = b1 = strtod(beta_range, &end);
    int bad = end == beta_range || (*end && (pr = parse_range(beta_range, &b0, &b1, &db)));
    if (bad && pr == -2) {
      fprintf(stderr, "awesim polar: --beta '%s': %.0f angles; at most %d per range\n",
              beta_range, floor((b1 - b0) / db + 1e-9) + 1, POLAR_MAX_ANGLES);
      return 2;
    }
    if (bad || !isfinite(b0) || fabs(b0) >= 90 || fabs(b1) >= 90) {
      fprintf(stderr, "awesim polar: --beta '%s': expected an angle or START:STOP:STEP in "
              "(-90, 90) degrees\n", beta_range);
      return 2;
    }
  }
  if (!isnan(speed) && (!(speed > 0) || speed > 1000)) {
    fprintf(stderr, "awesim polar: --speed %g: expected a speed in (0, 1000] m/s\n", speed);
    return 2;
  }
  if (ref_str && parse_vec3(ref_str, ref)) {
    fprintf(stderr, "awesim polar: --ref-point '%s': expected X,Y,Z (three numbers, metres)\n",
            ref_str);
    return 2;
  }
  if (method && strcmp(method, "vsm") && strcmp(method, "llt")) {
    fprintf(stderr, "awesim polar: --method '%s': expected vsm or llt\n", method);
    return 2;
  }
  if (corr && strcmp(corr, "yes") && strcmp(corr, "no")) {
    fprintf(stderr, "awesim polar: --correct-aoa '%s': expected yes or no\n", corr);
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
  if (dist && strcmp(dist, "linear") && strcmp(dist, "uniform") && strcmp(dist, "cosine") &&
      strcmp(dist, "split_provided")) {
    fprintf(stderr, "awesim polar: --distribution '%s': expected linear (uniform), cosine or "
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
  if (corr) vs.correct_aoa = !strcmp(corr, "yes");
  if (solver) vs.solver = !strcmp(solver, "newton") ? AWE_VSM_SOLVER_NEWTON : AWE_VSM_SOLVER_LOOP;
  /* Newton where nothing chose: the same polar as the relaxed loop (to the printed digits on
   * tests/data/polar/rect_inviscid.yaml) in about a tenth of the time */
  else if (!vs.solver_given) vs.solver = AWE_VSM_SOLVER_NEWTON;
  if (panels) vs.n_panels = panels;
  if (dist)
    vs.distribution = !strcmp(dist, "cosine")           ? AWE_DIST_COSINE
                      : !strcmp(dist, "split_provided") ? AWE_DIST_SPLIT_PROVIDED
                                                        : AWE_DIST_LINEAR;
  vs.use_gamma_prev = 0;  /* cold starts; continuation passes its circulation explicitly */
  if (isnan(speed)) speed = vs.wind_speed > 0 ? vs.wind_speed : 10.0;
  /* the settings' condition: beta the default sideslip, yaw_rate a body rate about z
   * (condition.alpha is VortexStepMethod.jl's single example angle; the polar sweeps --alpha) */
  if (!beta_range) b0 = b1 = vs.beta_deg;
  if (!(fabs(b0) < 90) || !(fabs(vs.yaw_rate_deg) < 1e4)) {
    fprintf(stderr, "awesim polar: condition.beta %g / condition.yaw_rate %g: expected |beta| < "
            "90 deg and |yaw_rate| < 1e4 deg/s\n", b0, vs.yaw_rate_deg);
    awe_spec_free(s);
    return 2;
  }
  const double om[3] = {0.0, 0.0, vs.yaw_rate_deg*M_PI/180.0};
  awe_vsm_wing *w = awe_aero_wing_from_spec(&s->aero, &vs, &err);
  if (!w) {
    awe_spec_free(s);
    return awe_cli_fail(&err);
  }
  if (spanwise)
    printf("alpha[deg],beta[deg],panel,y[m],chord[m],gamma[m^2/s],alpha_panel[deg],cl,cd,cm,"
           "Fx[N],Fy[N],Fz[N],converged,start\n");
  else {
    printf("alpha[deg],beta[deg],CL,CD,CS,CMx,CMy,CMz,converged,start");
    for (int k = 1; k <= nprobe; k++)
      printf(",probe%d_u[m/s],probe%d_v[m/s],probe%d_w[m/s],probe%d_speed_ratio,"
             "probe%d_flow_angle[deg]", k, k, k, k, k);
    printf("\n");
  }
  awe_vsm_geometry g;
  awe_vsm_wing_geometry(w, &g);
  const int np = g.n_panels;
  double *gprev = malloc(3*(size_t)np*sizeof(double));
  if (!gprev) {
    awe_vsm_wing_free(w);
    awe_spec_free(s);
    fprintf(stderr, "awesim polar: out of memory\n");
    return 70;
  }
  double *gcheck = gprev + np, *gscr = gprev + 2*np;
  int nbad = 0, nbranch = 0;
  /* a signal ends the polar after the current angle (and a long solve at once) */
  const awe_stop_flag *stop = awe_cli_catch_signals();
  awe_vsm_wing_set_stop(w, stop);
  const long na = (long)floor((a1 - a0)/da + 1e-9) + 1;
  const long nb = (long)floor((b1 - b0)/db + 1e-9) + 1;
  for (long kb = 0; kb < nb && !*stop; kb++) {
    const double beta = b0 + (double)kb*db;
    int have_prev = 0, prev_stalled = 0;
    for (long k = 0; k < na; k++) {
      const double alpha = a0 + (double)k*da;
      double va[3];
      awe_vsm_va_from_angles(speed, alpha, beta, va);
      polar_point p = {0};
      awe_vsm_wing_reset(w);
      p.st = awe_vsm_solve(w, va, om, ref, &p.r);
      p.conv = p.r.converged && p.st >= 0;
      if (!p.conv && alpha != 0.0 && !*stop)
        solve_continued(w, speed, alpha, beta, om, ref, gscr, &p);
      if (ferror(stdout)) break; /* nowhere to write: reported below */
      if (*stop) {
        fflush(stdout);
        fprintf(stderr, "awesim: interrupted by %s at alpha %g deg, beta %g deg (%ld of %ld "
                "angles done)\n", awe_cli_signal_name((int)*stop), alpha, beta, kb*na + k,
                na*nb);
        break;
      }
      if (!p.conv) {
        nbad++;
        fprintf(stderr, "awesim polar: alpha %g deg, beta %g deg: %s (residual %.3g after %d "
                "iterations)\n", alpha, beta, awe_vsm_strstatus(p.st), p.r.residual,
                p.r.iterations);
      }
      const char *start = p.continued ? "continued" : "cold";
      const awe_vsm_result *r = &p.r;
      if (spanwise) {
        awe_vsm_wing_geometry(w, &g);
        for (int i = 0; i < r->n_panels; i++)
          printf("%.9g,%.9g,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%s\n", alpha,
                 beta, i + 1, g.aero_center[3*i + 1], g.chord[i], r->gamma[i],
                 r->alpha[i]*180.0/M_PI, r->cl[i], r->cd[i], r->cm[i], r->panel_force[3*i],
                 r->panel_force[3*i + 1], r->panel_force[3*i + 2], p.conv, start);
      } else {
        printf("%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%s", alpha, beta, r->CL, r->CD,
               r->CS, r->CM[0], r->CM[1], r->CM[2], p.conv, start);
        print_probes(w, probes, nprobe, va);  /* before the branch check solves again */
        printf("\n");
      }
      /* branch check where a section is past its maximum lift, here or at the previous angle:
       * the same angle once more from the previous angle's circulation */
      const int stalled = p.conv && p.r.n_stalled > 0;
      if (p.conv && have_prev && (stalled || prev_stalled)) {
        const double cl = p.r.CL;
        memcpy(gcheck, p.r.gamma, (size_t)np*sizeof(double));
        awe_vsm_result rc2;
        int st2 = awe_vsm_solve_from(w, va, om, ref, gprev, &rc2);
        if (rc2.converged && st2 >= 0 && rel_diff(gcheck, rc2.gamma, np) > 1e-3 &&
            !nbranch++)
          fprintf(stderr, "awesim polar: alpha %g deg, beta %g deg: two converged solutions, "
                  "CL %.4g from the %s start and CL %.4g continued from %g deg; the first is "
                  "reported (further angles with two branches are counted at the end)\n",
                  alpha, beta, cl, start, rc2.CL, alpha - da);
        memcpy(gprev, gcheck, (size_t)np*sizeof(double));
      } else if (p.conv) {
        memcpy(gprev, p.r.gamma, (size_t)np*sizeof(double));
      }
      have_prev = p.conv;
      prev_stalled = stalled;
    }
  }
  errno = 0;
  int werr = fflush(stdout) != 0 || ferror(stdout) ? (errno ? errno : EIO) : 0;
  free(gprev);
  awe_vsm_wing_free(w);
  awe_spec_free(s);
  if (werr) {
    fprintf(stderr, "awesim polar: cannot write the CSV to standard output: %s\n",
            strerror(werr));
    return 74;
  }
  if (*stop) return 128 + (int)*stop;
  if (nbranch > 1)
    fprintf(stderr, "awesim polar: %d angles have two converged solutions\n", nbranch);
  if (nbad) fprintf(stderr, "awesim polar: %d of %ld angles did not converge\n", nbad, na*nb);
  return nbad ? 1 : 0;
}
