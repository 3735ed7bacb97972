/* test_vsm_peer.c: awesim's VSM against the Python Vortex-Step-Method (the "peer").
 *
 * The peer's numbers were recorded once (tests/data/vsm_peer/PROVENANCE.md: repository commit,
 * scripts, settings); here the same geometry files are loaded through awesim's own reader and
 * solved with the peer's conventions: uniform (= LINEAR) panels, the relaxed loop from zero
 * circulation, a cold start per angle, force directions from the 3/4-chord alpha (correct_aoa off, the peer's
 * is_aoa_corrected = False). Tolerances (of the comparison with the Python VSM): CL 1 %, CD 3 %, CS and moments 2 % where
 * they are not ~0 (|peer| > 0.05), else within 1e-3; circulation at 8 deg within 1 % of its
 * maximum.
 *   - TU Delft V3, CAD geometry with 2D CFD polars, 50 panels, 3.15 m/s, alpha 0..11 deg,
 *     moments about the origin and about (0.422646, 0, 9.3667) m
 *   - the same at alpha 12.5 deg, sideslip 0..20 deg
 *   - TU Delft V3, Surfplan geometry with the Breukels regression, alpha 0..11 deg
 *   - the 2plate kite (models/2plate_kite), 10 panels, 10 m/s, alpha 0..11 deg
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/aero_wing.h"
#include "harness.h"
#include "io/load.h"
#include "aero/vsm.h"

enum { MAXROWS = 64 };

typedef struct {
  int n;
  double v[MAXROWS][8];  /* alpha, beta, CL, CD, CS, CMx, CMy, CMz */
} peer_table;


/* path relative to the repository root, also when run from tests/ */
static const char *repo_path(const char *rel, char *buf, size_t sz) {
  static const char *const prefix[] = {"", "../"};
  for (int k = 0; k < 2; k++) {
    snprintf(buf, sz, "%s%s", prefix[k], rel);
    FILE *f = fopen(buf, "r");
    if (f) {
      fclose(f);
      return buf;
    }
  }
  fprintf(stderr, "  cannot open %s\n", rel);
  return NULL;
}


static int read_peer(const char *name, peer_table *t) {
  char rel[256], buf[512];
  snprintf(rel, sizeof rel, "tests/data/vsm_peer/%s", name);
  memset(t, 0, sizeof(*t));
  const char *p = repo_path(rel, buf, sizeof buf);
  FILE *f = p ? fopen(p, "r") : NULL;
  if (!f) return -1;
  char line[1024];
  if (!fgets(line, sizeof line, f)) {
    fclose(f);
    return -1;
  }
  while (t->n < MAXROWS && fgets(line, sizeof line, f)) {
    double *r = t->v[t->n];
    if (sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", r, r + 1, r + 2, r + 3, r + 4, r + 5,
               r + 6, r + 7) == 8)
      t->n++;
  }
  fclose(f);
  return 0;
}


static awe_vsm_wing *load_wing(const char *rel, int panels, awe_spec **sp) {
  char buf[512];
  const char *p = repo_path(rel, buf, sizeof buf);
  *sp = NULL;
  if (!p) return NULL;
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load_aero(p, NULL, &warn, &err);
  awe_diag_free(&warn);
  if (!s) {
    fprintf(stderr, "  %s\n", err.msg);
    return NULL;
  }
  awe_vsm_settings vs = s->vsm;
  vs.n_panels = panels;
  vs.distribution = AWE_DIST_LINEAR;
  // the peer's algorithm: the relaxed loop (relaxation 0.01, 5000 iterations) from zero; Newton
  // from zero lands on other branches where sections are past their maximum lift (2plate at
  // 0..3 deg: CL -0.625 against the loop's -0.536; V3 at 12.5 deg: 0.865 against 0.914)
  vs.solver = AWE_VSM_SOLVER_LOOP;
  vs.relaxation_factor = 0.01;
  vs.max_iterations = 5000;
  vs.rtol = 1e-6;
  vs.gamma0 = AWE_GAMMA0_ZEROS;
  vs.use_gamma_prev = 0;
  vs.correct_aoa = 0;
  awe_vsm_wing *w = awe_aero_wing_from_spec(&s->aero, &vs, &err);
  if (!w) {
    fprintf(stderr, "  %s\n", err.msg);
    awe_spec_free(s);
    return NULL;
  }
  *sp = s;
  return w;
}


/* relative error, on at least 0.05: coefficients below that (~0) are held to 1e-3 absolute */
static double coef_err(double aw, double pe) {
  return fabs(aw - pe)/fmax(fabs(pe), 0.05);
}


/* Compare a recorded table; rows whose beta is in skip_beta (NAN: none) are printed only. */
static void compare(const char *geometry, const char *table, int panels, double speed,
                    const double ref[3], double skip_beta) {
  peer_table t;
  ENSURE(read_peer(table, &t) == 0);
  ENSURE(t.n > 0);
  awe_spec *s;
  awe_vsm_wing *w = load_wing(geometry, panels, &s);
  ENSURE(w != NULL);
  if (!w || t.n == 0) {
    awe_vsm_wing_free(w);
    awe_spec_free(s);
    return;
  }
  printf("  %s (%d panels, %g m/s, ref %g,%g,%g)\n", table, panels, speed, ref[0], ref[1], ref[2]);
  printf("   alpha  beta   CL      peer    dCL%%   CD      peer    dCD%%   CS      peer    "
         "CMx     peer    CMy     peer    CMz     peer\n");
  double ecl = 0, ecd = 0, ecs = 0, ecm = 0;
  for (int k = 0; k < t.n; k++) {
    const double *p = t.v[k];
    double va[3];
    awe_vsm_va_from_angles(speed, p[0], p[1], va);
    awe_vsm_wing_reset(w);
    awe_vsm_result r;
    int st = awe_vsm_solve(w, va, NULL, ref, &r);
    ENSURE(st == AWE_VSM_OK);
    const double aw[6] = {r.CL, r.CD, r.CS, r.CM[0], r.CM[1], r.CM[2]};
    printf("  %6.2f %5.1f %7.4f %7.4f %+6.2f %7.4f %7.4f %+6.2f %7.4f %7.4f %7.4f %7.4f %7.4f "
           "%7.4f %7.4f %7.4f%s\n", p[0], p[1], aw[0], p[2], 100*(aw[0]/p[2] - 1), aw[1], p[3],
           100*(aw[1]/p[3] - 1), aw[2], p[4], aw[3], p[5], aw[4], p[6], aw[5], p[7],
           p[1] == skip_beta ? "  (not checked: another branch, see the comment)" : "");
    if (p[1] == skip_beta) continue;
    ecl = fmax(ecl, fabs(aw[0] - p[2])/fabs(p[2]));
    ecd = fmax(ecd, fabs(aw[1] - p[3])/fabs(p[3]));
    ecs = fmax(ecs, coef_err(aw[2], p[4]));
    for (int c = 3; c < 6; c++) ecm = fmax(ecm, coef_err(aw[c], p[2 + c]));
  }
  printf("   worst: CL %.3f %%, CD %.3f %%, CS %.3g, CM %.3g (relative, on at least 0.05)\n",
         100*ecl, 100*ecd, ecs, ecm);
  ENSURE(ecl < 0.01);
  ENSURE(ecd < 0.03);
  ENSURE(ecs < 0.02);
  ENSURE(ecm < 0.02);
  awe_vsm_wing_free(w);
  awe_spec_free(s);
}


static const char V3_CFD[] = "tests/data/vsm/v3_cad/aero_geometry_CAD_CFD_polars.yaml";
static const double ORIGIN[3] = {0.0, 0.0, 0.0};
static const double REF[3] = {0.422646, 0.0, 9.3667};


static void test_v3_cfd_alpha(void) {
  compare(V3_CFD, "v3_cfd_alpha.csv", 50, 3.15, ORIGIN, NAN);
  compare(V3_CFD, "v3_cfd_alpha_ref.csv", 50, 3.15, REF, NAN);
}


/* At 18 deg sideslip the peer's relaxed loop (with its extra damping when the error
 * oscillates) ends on another solution than awesim's loop: CL 0.677 against 0.702, CMy about the
 * origin -0.102 against -0.125; the neighbouring angles agree within 0.05 % in CL. */
static void test_v3_cfd_beta(void) {
  compare(V3_CFD, "v3_cfd_beta.csv", 50, 3.15, ORIGIN, 18.0);
  compare(V3_CFD, "v3_cfd_beta_ref.csv", 50, 3.15, REF, 18.0);
}


static void test_v3_breukels(void) {
  compare("tests/data/vsm/v3_cad/aero_geometry_surfplan_breukels_regression.yaml",
          "v3_breukels_alpha.csv", 50, 3.15, ORIGIN, NAN);
}


static void test_2plate(void) {
  compare("models/2plate_kite/aero_geometry.yaml", "2plate_alpha.csv", 10, 10.0, ORIGIN, NAN);
}


/* the spanwise circulation at 8 deg, panel by panel from the +y tip */
static void test_v3_gamma(void) {
  char buf[512];
  const char *p = repo_path("tests/data/vsm_peer/v3_cfd_gamma_alpha8.csv", buf, sizeof buf);
  FILE *f = p ? fopen(p, "r") : NULL;
  ENSURE(f != NULL);
  if (!f) return;
  double g[64];
  int n = 0, idx;
  char line[256];
  if (fgets(line, sizeof line, f)) {
    while (n < 64 && fgets(line, sizeof line, f))
      if (sscanf(line, "%d,%lf", &idx, &g[n]) == 2) n++;
  }
  fclose(f);
  ENSURE(n == 50);
  awe_spec *s;
  awe_vsm_wing *w = load_wing(V3_CFD, 50, &s);
  ENSURE(w != NULL);
  if (!w || n != 50) {
    awe_vsm_wing_free(w);
    awe_spec_free(s);
    return;
  }
  double va[3];
  awe_vsm_va_from_angles(3.15, 8.0, 0.0, va);
  awe_vsm_result r;
  ENSURE(awe_vsm_solve(w, va, NULL, NULL, &r) == AWE_VSM_OK);
  double gmax = 0.0, e = 0.0;
  for (int i = 0; i < n; i++) gmax = fmax(gmax, fabs(g[i]));
  for (int i = 0; i < n; i++) e = fmax(e, fabs(r.gamma[i] - g[i]));
  printf("  circulation at 8 deg: max |dGamma| %.3g m^2/s of max %.4f (%.3f %%); tip %.5f vs "
         "%.5f, centre %.5f vs %.5f\n", e, gmax, 100*e/gmax, r.gamma[0], g[0], r.gamma[24], g[24]);
  ENSURE(e < 0.01*gmax);
  awe_vsm_wing_free(w);
  awe_spec_free(s);
}


int main(void) {
  RUN(test_v3_cfd_alpha);
  RUN(test_v3_cfd_beta);
  RUN(test_v3_breukels);
  RUN(test_2plate);
  RUN(test_v3_gamma);
  return harness_report();
}
