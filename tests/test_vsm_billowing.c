/* test_vsm_billowing.c: the BILLOWING spanwise distribution (VortexStepMethod.jl 2026
 * refine_mesh_with_billowing!): SPLIT_PROVIDED refinement, then the inner trailing edges of every
 * pair of input sections turn about their leading edges so that the TE polyline between the two
 * input TEs is |TE_r - TE_l| / (1 - p/100) long. Checked on a flat rectangular wing (chord 1 m):
 * the defining arc length, unchanged LEs and chord lengths, and p = 0 == SPLIT_PROVIDED.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "aero/vsm.h"
#include "aero/vsm_internal.h"

/* flat wing: nsec sections from y = +1 to y = -1, LE at x = 0, TE at x = 1 */
static awe_vsm_wing *flat_wing(int nsec, int n, awe_vsm_distribution dist, double p) {
  awe_vsm_section sec[8];
  for (int k = 0; k < nsec; k++) {
    double y = 1.0 - 2.0*k/(nsec - 1);
    sec[k] = (awe_vsm_section){{0.0, y, 0.0}, {1.0, y, 0.0}, -1};
  }
  awe_vsm_settings s;
  awe_vsm_settings_default(&s);
  s.n_panels = n;
  s.distribution = dist;
  s.billowing_percentage = p;
  char err[256] = "";
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, nsec, NULL, 0, &s, err, sizeof err);
  if (!w) fprintf(stderr, "alloc: %s\n", err);
  return w;
}


static double dist3(const double *a, const double *b) {
  return sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]));
}


/* each pair of input sections: TE polyline = straight / (1 - p/100) */
static void test_arc_length(void) {
  const double p = 8.0;
  for (int nsec = 2; nsec <= 3; nsec++) {
    const int m = 6, n = m*(nsec - 1);
    awe_vsm_wing *w = flat_wing(nsec, n, AWE_DIST_BILLOWING, p);
    ENSURE(w != NULL);
    if (!w) return;
    const double straight = 2.0/(nsec - 1);
    for (int k = 0; k < nsec - 1; k++) {
      double arc = 0.0;
      for (int r = k*m; r < (k + 1)*m; r++) arc += dist3(w->ref_te + 3*r, w->ref_te + 3*(r + 1));
      ENSURE_NEAR(arc, straight/(1.0 - p/100.0), 1e-9);
    }
    // the mid-pair TE is displaced off the plane, the input TEs are not
    ENSURE(fabs(w->ref_te[3*(m/2) + 2]) > 0.05);
    ENSURE_NEAR(w->ref_te[2], 0.0, 1e-15);
    ENSURE_NEAR(w->ref_te[3*m + 2], 0.0, 1e-15);
    awe_vsm_wing_free(w);
  }
}


/* the LEs and chord lengths stay those of SPLIT_PROVIDED; p = 0 is SPLIT_PROVIDED */
static void test_against_split(void) {
  const int n = 8;
  awe_vsm_wing *b = flat_wing(3, n, AWE_DIST_BILLOWING, 12.0);
  awe_vsm_wing *b0 = flat_wing(3, n, AWE_DIST_BILLOWING, 0.0);
  awe_vsm_wing *s = flat_wing(3, n, AWE_DIST_SPLIT_PROVIDED, 0.0);
  ENSURE(b && b0 && s);
  if (b && b0 && s) {
    double dle = 0.0, dch = 0.0, d0 = 0.0;
    for (int r = 0; r <= n; r++) {
      dle = fmax(dle, dist3(b->ref_le + 3*r, s->ref_le + 3*r));
      dch = fmax(dch, fabs(dist3(b->ref_le + 3*r, b->ref_te + 3*r) - 1.0));
      d0 = fmax(d0, dist3(b0->ref_te + 3*r, s->ref_te + 3*r));
    }
    // a symmetric wing stays mirror-symmetric about y = 0
    double dsym = 0.0;
    for (int r = 0; r <= n; r++) {
      const double *a = b->ref_te + 3*r, *c = b->ref_te + 3*(n - r);
      dsym = fmax(dsym, fmax(fabs(a[0] - c[0]), fmax(fabs(a[1] + c[1]), fabs(a[2] - c[2]))));
    }
    ENSURE_NEAR(dsym, 0.0, 1e-12);
    ENSURE_NEAR(dle, 0.0, 1e-15);
    ENSURE_NEAR(dch, 0.0, 1e-12);
    ENSURE_NEAR(d0, 0.0, 1e-15);
  }
  awe_vsm_wing_free(b);
  awe_vsm_wing_free(b0);
  awe_vsm_wing_free(s);
}


/* n_panels must split every input panel evenly, as for SPLIT_PROVIDED */
static void test_panel_multiple(void) {
  awe_vsm_wing *w = flat_wing(3, 5, AWE_DIST_BILLOWING, 8.0);
  ENSURE(w == NULL);
  awe_vsm_wing_free(w);
}


int main(void) {
  RUN(test_arc_length);
  RUN(test_against_split);
  RUN(test_panel_multiple);
  return harness_report();
}
