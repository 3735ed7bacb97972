/* vsm_fastpath.h: the fast geometry path of the VSM against its reference (test_vsm.c,
 * test_vsm_v3.c).
 *
 * The wake-independent influence matrices (g_main, g_ac and the core onset speeds vc_main,
 * vc_ac) are built from filaments shared by neighbouring horseshoes, and after a geometry change
 * only the rows whose evaluation point moved and the columns whose horseshoe moved are rebuilt.
 * awe_vsm_geometric_reference builds them pair by pair from whole horseshoes, as the code before.
 *   fastpath_geometry   along the linearization's pattern (operating point, one twist step per
 *                       section, back) and after moving a section: the incrementally updated
 *                       matrices equal a full build bitwise and the reference to 1e-12 of their
 *                       largest entry
 *   fastpath_jacobian   awe_vsm_linearize_forward / awe_vsm_linearize (twice, the second warm)
 *                       with the fast build equal those of a twin wing that uses the reference
 *                       build at every solve: x0 and every perturbed output (J_ij h_j) to 1e-12
 *                       of the largest output (J itself divides that roundoff by h ~ 1e-4)
 */
#ifndef VSM_FASTPATH_H
#define VSM_FASTPATH_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "aero/vsm_internal.h"

/* max |a - b| / max |b| (equal entries count as 0, also infinite ones) */
static double fastpath_rel(const double *a, const double *b, size_t n) {
  double d = 0.0, s = 0.0;
  for (size_t k = 0; k < n; k++) {
    if (isfinite(b[k])) s = fmax(s, fabs(b[k]));
    if (a[k] != b[k]) d = fmax(d, fabs(a[k] - b[k]));
  }
  return s > 0.0 ? d/s : d;
}


/* Compare the cached matrices of w with the reference and with a full build (w is re-solved).
 * Returns the largest relative difference to the reference. */
static double fastpath_compare(awe_vsm_wing *w, const double va[3], const double om[3]) {
  const size_t nn = (size_t)w->n*(size_t)w->n;
  double *buf = calloc(16*nn, sizeof(double));
  ENSURE(buf != NULL);
  if (!buf) return INFINITY;
  double *rg = buf, *ra = buf + 3*nn, *rvm = buf + 6*nn, *rva = buf + 7*nn;
  double *fg = buf + 8*nn, *fa = buf + 11*nn, *fvm = buf + 14*nn, *fva = buf + 15*nn;
  awe_vsm_geometric_reference(w, rg, ra, rvm, rva);
  double e = fastpath_rel(w->g_main, rg, 3*nn);
  e = fmax(e, fastpath_rel(w->g_ac, ra, 3*nn));
  e = fmax(e, fastpath_rel(w->vc_main, rvm, nn));
  e = fmax(e, fastpath_rel(w->vc_ac, rva, nn));

  // the same after a full build
  memcpy(fg, w->g_main, 3*nn*sizeof(double));
  memcpy(fa, w->g_ac, 3*nn*sizeof(double));
  memcpy(fvm, w->vc_main, nn*sizeof(double));
  memcpy(fva, w->vc_ac, nn*sizeof(double));
  w->geom_valid = 0;
  awe_vsm_result r;
  ENSURE(awe_vsm_solve(w, va, om, NULL, &r) == AWE_VSM_OK);
  ENSURE(memcmp(fg, w->g_main, 3*nn*sizeof(double)) == 0);
  ENSURE(memcmp(fa, w->g_ac, 3*nn*sizeof(double)) == 0);
  ENSURE(memcmp(fvm, w->vc_main, nn*sizeof(double)) == 0);
  ENSURE(memcmp(fva, w->vc_ac, nn*sizeof(double)) == 0);
  free(buf);
  return e;
}


/* Geometric matrices along twist steps and a section move (sec: the wing's sections). */
static void fastpath_geometry(awe_vsm_wing *w, awe_vsm_section *sec, const double va[3],
                              const double om[3], const double *theta0, const char *label) {
  const int nsec = w->nsec;
  double th[64];
  ENSURE(nsec <= 64);
  if (nsec > 64) return;
  memcpy(th, theta0, (size_t)nsec*sizeof(double));
  awe_vsm_result r;
  double worst = 0.0;
  ENSURE(awe_vsm_wing_set_twist(w, th) == AWE_VSM_OK);
  ENSURE(awe_vsm_solve(w, va, om, NULL, &r) == AWE_VSM_OK);
  worst = fmax(worst, fastpath_compare(w, va, om));
  for (int k = 0; k <= nsec; k++) {
    // one section stepped (k < nsec), then all back (k == nsec)
    if (k < nsec) th[k] += 1e-4;
    ENSURE(awe_vsm_wing_set_twist(w, th) == AWE_VSM_OK);
    if (k < nsec) th[k] -= 1e-4;
    ENSURE(awe_vsm_solve(w, va, om, NULL, &r) == AWE_VSM_OK);
    worst = fmax(worst, fastpath_compare(w, va, om));
  }
  // a section moved (deformable wing)
  sec[0].te[2] += 1e-3;
  ENSURE(awe_vsm_wing_set_sections(w, sec, nsec) == AWE_VSM_OK);
  sec[0].te[2] -= 1e-3;
  ENSURE(awe_vsm_solve(w, va, om, NULL, &r) == AWE_VSM_OK);
  worst = fmax(worst, fastpath_compare(w, va, om));
  printf("  %s: incremental geometry = full build (bitwise), vs pair-by-pair reference %.2g "
         "(limit 1e-12)\n", label, worst);
  ENSURE(worst < 1e-12);
}


/* Largest difference of two m x m difference-quotient Jacobians, as a difference of the
 * perturbed outputs: |dJ_ij| h_j / max|x| with the steps of vsm_linearize.c (the quotient
 * divides roundoff in x by h_j ~ 1e-4, so the entries themselves agree only to ~1e-11). */
static double fastpath_jac_rel(const awe_vsm_wing *w, const double *a, const double *b,
                               const double *x, const double va[3], int m) {
  const double hva = 1e-4*fmax(sqrt(va[0]*va[0] + va[1]*va[1] + va[2]*va[2]), 1.0);
  const double hom = hva/fmax(0.5*w->span, 1e-3), hth = 1e-4;
  double xmax = 0.0, worst = 0.0;
  for (int i = 0; i < m; i++) xmax = fmax(xmax, fabs(x[i]));
  for (int j = 0; j < m; j++) {
    const double h = j < 3 ? hva : (j < 6 ? hom : hth);
    for (int i = 0; i < m; i++) worst = fmax(worst, fabs(a[i*m + j] - b[i*m + j])*h/xmax);
  }
  return worst;
}


/* Jacobians with the fast build against a twin wing with the reference build. */
static void fastpath_jacobian(const awe_vsm_section *sec, int nsec, const awe_airfoil *af,
                              int naf, const awe_vsm_settings *s, const double va[3],
                              const double om[3], const double *theta0, const char *label) {
  awe_vsm_wing *a = awe_vsm_wing_alloc(sec, nsec, af, naf, s, NULL, 0);
  awe_vsm_wing *b = awe_vsm_wing_alloc(sec, nsec, af, naf, s, NULL, 0);
  ENSURE(a && b);
  const int m = a ? awe_vsm_linearize_size(a) : 0;
  double *buf = malloc((size_t)(2*m*m + 2*m)*sizeof(double));
  ENSURE(buf != NULL);
  if (!a || !b || !buf) {
    awe_vsm_wing_free(a);
    awe_vsm_wing_free(b);
    free(buf);
    return;
  }
  b->geom_reference = 1;
  double *ja = buf, *jb = buf + m*m, *xa = buf + 2*m*m, *xb = xa + m;
  double worst = 0.0, worst_x = 0.0, worst_j = 0.0;
  ENSURE(awe_vsm_wing_set_twist(a, theta0) == AWE_VSM_OK);
  ENSURE(awe_vsm_wing_set_twist(b, theta0) == AWE_VSM_OK);
  for (int pass = 0; pass < 4; pass++) {
    // forward twice (the second warm), then central twice
    double v[3] = {va[0], va[1] + 0.1*pass, va[2]};
    int sa, sb;
    if (pass < 2) {
      sa = awe_vsm_linearize_forward(a, v, om, NULL, xa, ja, NULL);
      sb = awe_vsm_linearize_forward(b, v, om, NULL, xb, jb, NULL);
    } else {
      sa = awe_vsm_linearize(a, v, om, NULL, xa, ja, NULL);
      sb = awe_vsm_linearize(b, v, om, NULL, xb, jb, NULL);
    }
    ENSURE(sa == AWE_VSM_OK && sb == AWE_VSM_OK);
    worst = fmax(worst, fastpath_jac_rel(b, ja, jb, xb, v, m));
    worst_j = fmax(worst_j, fastpath_rel(ja, jb, (size_t)m*(size_t)m));
    worst_x = fmax(worst_x, fastpath_rel(xa, xb, (size_t)m));
  }
  printf("  %s: fast vs reference build: x0 %.2g, perturbed outputs (J h) %.2g (limit 1e-12); "
         "J entries %.2g of the largest\n", label, worst_x, worst, worst_j);
  ENSURE(worst < 1e-12);
  ENSURE(worst_x < 1e-12);
  awe_vsm_wing_free(a);
  awe_vsm_wing_free(b);
  free(buf);
}

#endif
