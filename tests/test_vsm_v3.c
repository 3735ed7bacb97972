/* test_vsm_v3.c: TU Delft V3 leading-edge-inflatable kite.
 *
 *   - V6 (vsm.md §13): 10 sections, Breukels t = 0.1, kappa = 0.095, 36 panels SPLIT_PROVIDED,
 *     22 m/s, relaxation 0.03, core 1e-20, VSM; CL and CD within 0.1 of the RANS of Lebesque
 *     (2024) at 3, 6, 9 deg (tests/data/vsm/v3/RANS_C{L,D}_alpha_struts.csv).
 *   - CAD geometry (37 sections) with the 2D RANS polars Re 5e5 (fitted pchip) against the
 *     2025 wind-tunnel alpha sweep (Re 5e5, beta 0): error table printed, loose check |dCL| < 0.3
 *     in the attached range.
 *   - the fast (incremental, shared-filament) geometry path against the reference build on the
 *     V6 geometry, twisted and rolling (vsm_fastpath.h).
 * Data: tests/data/vsm (see SOURCE.md there).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "aero/vsm.h"
#include "vsm_fastpath.h"

static const double PI = 3.14159265358979323846;

enum { MAXROWS = 256, MAXCOLS = 16 };

/* A small numeric CSV table (optional header row). */
typedef struct {
  int nrow, ncol;
  char head[MAXCOLS][32];
  double v[MAXROWS][MAXCOLS];
} table;


/* Open tests/data/vsm/<name> from the repository root or from tests/. */
static FILE *open_data(const char *name) {
  static const char *const prefix[] = {"tests/data/vsm/", "data/vsm/", "../tests/data/vsm/"};
  char path[512];
  for (int k = 0; k < 3; k++) {
    snprintf(path, sizeof path, "%s%s", prefix[k], name);
    FILE *f = fopen(path, "r");
    if (f) return f;
  }
  fprintf(stderr, "  cannot open tests/data/vsm/%s\n", name);
  return NULL;
}


static int read_table(const char *name, table *t) {
  FILE *f = open_data(name);
  memset(t, 0, sizeof(*t));
  if (!f) return -1;
  char line[4096];
  while (fgets(line, sizeof line, f) && t->nrow < MAXROWS) {
    if (line[0] == '\n' || line[0] == '\0') continue;
    int col = 0, numeric = 1;
    double vals[MAXCOLS];
    char cells[MAXCOLS][32];
    for (char *tok = strtok(line, ",\r\n"); tok && col < MAXCOLS; tok = strtok(NULL, ",\r\n")) {
      while (*tok == ' ') tok++;
      char *end;
      vals[col] = strtod(tok, &end);
      if (end == tok) numeric = 0;
      snprintf(cells[col], sizeof cells[col], "%s", tok);
      col++;
    }
    if (!numeric) {
      if (t->nrow == 0) {
        for (int c = 0; c < col; c++) memcpy(t->head[c], cells[c], sizeof cells[c]);
      }
      continue;
    }
    t->ncol = col;
    memcpy(t->v[t->nrow], vals, (size_t)col*sizeof(double));
    t->nrow++;
  }
  fclose(f);
  return t->nrow > 0 ? 0 : -1;
}


static int column(const table *t, const char *name) {
  for (int c = 0; c < MAXCOLS; c++) {
    if (strcmp(t->head[c], name) == 0) return c;
  }
  return -1;
}


/* Linear interpolation of column cy against column cx (sorted by cx on the fly). */
static double interp(const table *t, int cx, int cy, double x) {
  double best_lo = -INFINITY, best_hi = INFINITY, ylo = NAN, yhi = NAN;
  for (int r = 0; r < t->nrow; r++) {
    const double xr = t->v[r][cx];
    if (xr <= x && xr > best_lo) {
      best_lo = xr;
      ylo = t->v[r][cy];
    }
    if (xr >= x && xr < best_hi) {
      best_hi = xr;
      yhi = t->v[r][cy];
    }
  }
  if (!isfinite(best_lo)) return yhi;
  if (!isfinite(best_hi)) return ylo;
  if (best_hi == best_lo) return ylo;
  return ylo + (yhi - ylo)*(x - best_lo)/(best_hi - best_lo);
}


/* ---- V6: Breukels sections vs RANS ----------------------------------------------------------- */

/* The V6 sections: LE/TE in mm, +y tip to centre (vsm.md V6), mirrored for -y. */
static void v3_sections(awe_vsm_section sec[10]) {
  static const double le[5][3] = {{859.580, 4139.660, 5654.227}, {-17.623, 3967.978, 6471.622},
                                  {-237.683, 3134.335, 7476.759}, {-383.733, 1959.729, 8078.914},
                                  {-456.562, 664.252, 8339.101}};
  static const double te[5][3] = {{1538.773, 4113.307, 5530.496}, {1703.467, 3955.506, 6467.819},
                                  {2002.516, 3116.753, 7454.254}, {2110.145, 1946.587, 8041.739},
                                  {2158.559, 660.721, 8294.064}};
  for (int k = 0; k < 10; k++) {
    const int src = k < 5 ? k : 9 - k;
    const double sy = k < 5 ? 1.0 : -1.0;
    for (int c = 0; c < 3; c++) {
      sec[k].le[c] = 1e-3*le[src][c]*(c == 1 ? sy : 1.0);
      sec[k].te[c] = 1e-3*te[src][c]*(c == 1 ? sy : 1.0);
    }
    sec[k].airfoil = 0;
  }
}


static void test_v3_breukels_rans(void) {
  awe_vsm_section sec[10];
  v3_sections(sec);
  const awe_airfoil lei = {AWE_AIRFOIL_BREUKELS, 1, 0, NULL, NULL, NULL, NULL, 0.1, 0.095};

  table tcl, tcd;
  ENSURE(read_table("v3/RANS_CL_alpha_struts.csv", &tcl) == 0);
  ENSURE(read_table("v3/RANS_CD_alpha_struts.csv", &tcd) == 0);
  if (tcl.nrow == 0 || tcd.nrow == 0) return;

  printf("  V3 kite, Breukels (t 0.1, kappa 0.095), 36 panels, 22 m/s vs RANS (Lebesque 2024)\n");
  printf("  solver  alpha  CL_vsm   CL_rans  dCL      CD_vsm   CD_rans  dCD      iters\n");
  for (int solver = 0; solver < 2; solver++) {
    awe_vsm_settings s;
    awe_vsm_settings_default(&s);
    s.n_panels = 36;
    s.distribution = AWE_DIST_SPLIT_PROVIDED;
    s.relaxation_factor = 0.03;
    s.core_radius_fraction = 1e-20;
    s.solver = solver ? AWE_VSM_SOLVER_NEWTON : AWE_VSM_SOLVER_LOOP;
    s.use_gamma_prev = 0;
    char err[256];
    awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 10, &lei, 1, &s, err, sizeof err);
    ENSURE(w != NULL);
    if (!w) {
      printf("  %s\n", err);
      return;
    }
    const double alphas[3] = {3.0, 6.0, 9.0};
    for (int k = 0; k < 3; k++) {
      double va[3];
      awe_vsm_va_from_angles(22.0, alphas[k], 0.0, va);
      awe_vsm_result r;
      int st = awe_vsm_solve(w, va, NULL, NULL, &r);
      ENSURE(st == AWE_VSM_OK);
      const double cl = interp(&tcl, 0, 1, alphas[k]), cd = interp(&tcd, 0, 1, alphas[k]);
      printf("  %-7s %5.1f  %.4f   %.4f   %+.4f  %.4f   %.4f   %+.4f  %d\n",
             solver ? "Newton" : "loop", alphas[k], r.CL, cl, r.CL - cl, r.CD, cd, r.CD - cd,
             r.iterations);
      ENSURE(fabs(r.CL - cl) < 0.1);
      ENSURE(fabs(r.CD - cd) < 0.1);
      ENSURE_NEAR(r.CS, 0.0, 1e-10);
    }
    awe_vsm_wing_free(w);
  }
}


/* ---- CAD geometry with 2D RANS polars vs the wind tunnel ------------------------------------- */

static void test_v3_polars_windtunnel(void) {
  table geo;
  ENSURE(read_table("v3/aero_geometry_CAD_CFD_polars.csv", &geo) == 0);
  if (geo.nrow != 37) return;

  // the 19 rib polars: alpha [deg], Cl, Cd, CmPitch
  static table pol[19];
  static double store[19][4][MAXROWS];
  awe_airfoil af[19];
  for (int k = 0; k < 19; k++) {
    char name[64];
    snprintf(name, sizeof name, "v3/polars_re5e5/%d.csv", k + 1);
    ENSURE(read_table(name, &pol[k]) == 0);
    const int ca = column(&pol[k], "alpha"), cl = column(&pol[k], "Cl");
    const int cd = column(&pol[k], "Cd"), cm = column(&pol[k], "CmPitch");
    ENSURE(ca >= 0 && cl >= 0 && cd >= 0 && cm >= 0);
    if (ca < 0 || cl < 0 || cd < 0 || cm < 0) return;
    for (int r = 0; r < pol[k].nrow; r++) {
      store[k][0][r] = pol[k].v[r][ca]*PI/180.0;
      store[k][1][r] = pol[k].v[r][cl];
      store[k][2][r] = pol[k].v[r][cd];
      store[k][3][r] = pol[k].v[r][cm];
    }
    af[k] = (awe_airfoil){AWE_AIRFOIL_POLARS, k + 1, pol[k].nrow, store[k][0], store[k][1],
                          store[k][2], store[k][3], 0.0, 0.0};
  }
  awe_vsm_section sec[37];
  for (int r = 0; r < 37; r++) {
    for (int c = 0; c < 3; c++) {
      sec[r].le[c] = geo.v[r][1 + c];
      sec[r].te[c] = geo.v[r][4 + c];
    }
    sec[r].airfoil = (int)geo.v[r][0] - 1;
  }

  awe_vsm_settings s;
  awe_vsm_settings_default(&s);
  s.n_panels = 36;
  s.solver = AWE_VSM_SOLVER_NEWTON;
  s.is_with_artificial_viscosity = 1;
  s.rtol = 1e-6;
  char err[256];
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 37, af, 19, &s, err, sizeof err);
  ENSURE(w != NULL);
  if (!w) {
    printf("  %s\n", err);
    return;
  }

  table wt;
  ENSURE(read_table("v3/windtunnel_alpha_sweep_beta_00_0_Poland_2025_Rey_5e5.csv", &wt) == 0);
  const int ca = column(&wt, "alpha"), ccl = column(&wt, "CL"), ccd = column(&wt, "CD");
  ENSURE(ca >= 0 && ccl >= 0 && ccd >= 0);
  if (ca < 0 || ccl < 0 || ccd < 0) {
    awe_vsm_wing_free(w);
    return;
  }
  printf("  V3 CAD geometry, 36 panels, 2D RANS polars Re 5e5, VSM Newton + artificial viscosity,"
         " 20 m/s\n  vs wind tunnel (Poland 2025, Re 5e5, beta 0)\n");
  printf("  alpha    CL_vsm   CL_wt    dCL      CD_vsm   CD_wt    dCD      status iters\n");
  double sum2 = 0.0;
  int nsum = 0;
  for (int r = 0; r < wt.nrow; r++) {
    const double a = wt.v[r][ca];
    double va[3];
    awe_vsm_va_from_angles(20.0, a, 0.0, va);
    awe_vsm_result res;
    int st = awe_vsm_solve(w, va, NULL, NULL, &res);
    const double dcl = res.CL - wt.v[r][ccl], dcd = res.CD - wt.v[r][ccd];
    printf("  %6.2f   %7.4f  %7.4f  %+7.4f  %7.4f  %7.4f  %+7.4f  %6d %d\n", a, res.CL,
           wt.v[r][ccl], dcl, res.CD, wt.v[r][ccd], dcd, st, res.iterations);
    ENSURE(isfinite(res.CL) && isfinite(res.CD));
    if (a > -5.0 && a < 14.0) {
      ENSURE(st == AWE_VSM_OK);
      ENSURE(fabs(dcl) < 0.3);
      sum2 += dcl*dcl;
      nsum++;
    }
  }
  if (nsum) {
    printf("  rms dCL for -5 < alpha < 14 deg: %.4f over %d points\n", sqrt(sum2/nsum), nsum);
  }
  awe_vsm_wing_free(w);
}


/* ---- fast geometry path ---------------------------------------------------------------------- */

static void test_v3_fastpath(void) {
  awe_vsm_section sec[10];
  v3_sections(sec);
  const awe_airfoil lei = {AWE_AIRFOIL_BREUKELS, 1, 0, NULL, NULL, NULL, NULL, 0.1, 0.095};
  awe_vsm_settings s;
  awe_vsm_settings_default(&s);
  s.n_panels = 36;
  s.distribution = AWE_DIST_SPLIT_PROVIDED;
  s.core_radius_fraction = 1e-20;
  s.solver = AWE_VSM_SOLVER_NEWTON;
  s.use_gamma_prev = 1;
  double va[3];
  awe_vsm_va_from_angles(22.0, 6.0, 3.0, va);
  const double om[3] = {0.1, -0.05, 0.3};
  const double th[10] = {0.05, 0.02, 0.0, -0.01, 0.01, 0.0, 0.03, -0.02, 0.04, 0.06};
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, 10, &lei, 1, &s, NULL, 0);
  ENSURE(w != NULL);
  if (!w) return;
  fastpath_geometry(w, sec, va, om, th, "V3");
  awe_vsm_wing_free(w);
  fastpath_jacobian(sec, 10, &lei, 1, &s, va, om, th, "V3");
}


int main(void) {
  RUN(test_v3_breukels_rans);
  RUN(test_v3_polars_windtunnel);
  RUN(test_v3_fastpath);
  return harness_report();
}
