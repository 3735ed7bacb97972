/* vsm_geometry.c: refinement of the input sections into panels, panel frames, twist, areas.
 *
 * Refinement (n panels, n + 1 refined sections), VortexStepMethod.jl wing_geometry.jl:
 *   LINEAR/COSINE: quarter-chord points QC_k = LE_k + 0.25 (TE_k - LE_k), polyline arc length
 *     s_k, total L; targets s*_r = L r/n (LINEAR) or L (1 - cos(pi r/n))/2 (COSINE); in the
 *     segment k holding s*_r, t = (s*_r - s_k)/(s_{k+1} - s_k) and
 *       QC* = QC_k + t (QC_{k+1} - QC_k),  d = normalize((1-t) c^_k + t c^_{k+1}),
 *       l = (1-t)|c_k| + t|c_{k+1}|,  LE* = QC* - 0.25 l d,  TE* = QC* + 0.75 l d.
 *   SPLIT_PROVIDED: every input panel is split into n/(nsec-1) equal parts with the same rule.
 *   UNCHANGED (or nsec == n + 1): the input sections.
 *   BILLOWING (VortexStepMethod.jl 2026 refine_mesh_with_billowing!): SPLIT_PROVIDED, then between
 *     input sections l (+y side) and r the inner refined TEs turn about their LE around
 *     y^ = (LE_l - LE_r)/|.| by theta = -A sin(pi t), t = (LE - LE_r).y^/|LE_l - LE_r|, with A
 *     found by Newton (start sqrt(4p/(100-p)), <= 50 steps, |f| < 1e-12) so that the TE polyline
 *     TE_l -> inner TEs -> TE_r is |TE_r - TE_l|/(1 - p/100) long (p = billowing_percentage).
 *   Airfoils and twist are blended with the same weights (1-t, t).
 * Twist theta of a refined section rotates its TE about its LE around the local spanwise axis y
 * (mean of the unit vectors towards the neighbouring LEs), Rodrigues' formula
 *   TE = LE + cos(theta) c - sin(theta) (c x y) + (1 - cos(theta)) (y.c) y,   c = TE0 - LE0
 *   (VortexStepMethod.jl 2026 _apply_refined_section_thetas!; positive theta = nose up).
 *   Twist moves only the TEs, so the untwisted refined sections and the axes y are kept and a
 *   twist change (awe_vsm_geom_update_twist) only rotates and rebuilds the panels.
 * Panel between refined sections 1 (nearer +y) and 2 (vsm.md §3):
 *   b1 = 0.75 LE1 + 0.25 TE1,  b2 = 0.75 LE2 + 0.25 TE2,  chord = (|TE1-LE1| + |TE2-LE2|)/2,
 *   width = |b2 - b1|; spanwise station from the van Garrel weights of the neighbour widths d:
 *   first panel n = d_i/(d_i + d_i+1), last n = d_i-1/(d_i-1 + d_i), interior
 *   n = (d_i-1/(d_i-1 + d_i) + d_i/(d_i + d_i+1) + 1)/4; ncp = 1 - n;
 *   LEm = ncp LE1 + n LE2, TEm likewise; AC = 0.75 LEm + 0.25 TEm, CP = 0.25 LEm + 0.75 TEm.
 *   Frame: e_chord = (CP - AC)/|.|, e_span = (b1 - b2)/|.|, e_normal = (e_chord x (b1 - b2))/|.|
 *   (quarter-chord step, as recommended by VortexStepMethod.jl PR #273, instead of the LE step).
 * Reference area: the quadrilaterals LE_k TE_k TE_k+1 LE_k+1 of the input sections (untwisted)
 *   projected on the body xy plane, each by half the cross product of its diagonals,
 *   S = sum 1/2 |(TE_k+1' - LE_k') x (LE_k+1' - TE_k')|  (the Python Vortex-Step-Method's
 *   compute_projected_area; a trapezoid on the LE-to-LE distance overstates swept tips: +9.3 %
 *   on the V3 kite); span = extent of all LE/TE along spanwise_direction; c_ref = max panel chord.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aero/vsm_internal.h"
#include "util/vec3.h"

static const double PI = 3.14159265358979323846;










static void quarter_chord(const double le[3], const double te[3], double qc[3]) {
  for (int k = 0; k < 3; k++) qc[k] = le[k] + 0.25*(te[k] - le[k]);
}


static void seterr(char *err, size_t errsz, const char *msg) {
  if (err && errsz) snprintf(err, errsz, "%s", msg);
}


int awe_vsm_geom_setup(awe_vsm_wing *w, char *err, size_t errsz) {
  const int nsec = w->nsec, n = w->n, nref = n + 1;
  awe_vsm_distribution dist = w->s.distribution;

  // the sections are used as given
  if (dist == AWE_DIST_UNCHANGED || nsec == nref) {
    for (int r = 0; r < nref; r++) {
      w->ref_l[r] = r < nsec - 1 ? r : nsec - 2;
      w->ref_w[r] = r < nsec - 1 ? 1.0 : 0.0;
    }
    return 0;
  }

  // split every input panel into m equal parts (BILLOWING then rotates the inner TEs)
  if (dist == AWE_DIST_SPLIT_PROVIDED || dist == AWE_DIST_BILLOWING) {
    const int m = n/(nsec - 1);
    for (int k = 0; k < nsec - 1; k++) {
      for (int j = 0; j < m; j++) {
        w->ref_l[k*m + j] = k;
        w->ref_w[k*m + j] = 1.0 - (double)j/m;
      }
    }
    w->ref_l[n] = nsec - 2;
    w->ref_w[n] = 0.0;
    return 0;
  }

  if (dist != AWE_DIST_LINEAR && dist != AWE_DIST_COSINE) {
    seterr(err, errsz, "vsm: unsupported spanwise distribution (COSINE_VAN_GARREL is not "
                       "implemented upstream either; use COSINE)");
    return -1;
  }

  // total arc length of the quarter-chord polyline
  double total = 0.0;
  for (int k = 0; k < nsec - 1; k++) {
    double qa[3], qb[3], d[3];
    quarter_chord(w->sec_le + 3*k, w->sec_te + 3*k, qa);
    quarter_chord(w->sec_le + 3*(k + 1), w->sec_te + 3*(k + 1), qb);
    for (int c = 0; c < 3; c++) d[c] = qb[c] - qa[c];
    total += awe_v3_norm(d);
  }

  for (int r = 0; r < nref; r++) {
    // target arc length of refined section r
    double target;
    if (r == n) {
      w->ref_l[r] = nsec - 2;
      w->ref_w[r] = 0.0;
      continue;
    }
    if (dist == AWE_DIST_LINEAR) {
      target = total*r/n;
    } else {
      target = 0.5*total*(1.0 - cos(PI*r/n));
    }

    // segment k with s_k <= target < s_k+1 (the last segment takes the rest)
    double sk = 0.0;
    int k = 0;
    double t = 0.0;
    for (k = 0; k < nsec - 1; k++) {
      double qa[3], qb[3], d[3];
      quarter_chord(w->sec_le + 3*k, w->sec_te + 3*k, qa);
      quarter_chord(w->sec_le + 3*(k + 1), w->sec_te + 3*(k + 1), qb);
      for (int c = 0; c < 3; c++) d[c] = qb[c] - qa[c];
      double len = awe_v3_norm(d);
      if (target < sk + len || k == nsec - 2) {
        t = len > 0.0 ? (target - sk)/len : 0.0;
        break;
      }
      sk += len;
    }
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    w->ref_l[r] = k;
    w->ref_w[r] = 1.0 - t;
  }
  return 0;
}


/* Refined section r from the input sections and the refinement map, without twist. */
static void refined_section(const awe_vsm_wing *w, int r, double le[3], double te[3]) {
  const int l = w->ref_l[r];
  const double wl = w->ref_w[r], t = 1.0 - wl;
  const double *le1 = w->sec_le + 3*l, *te1 = w->sec_te + 3*l;
  const double *le2 = w->sec_le + 3*(l + 1), *te2 = w->sec_te + 3*(l + 1);
  if (t <= 0.0) {
    memcpy(le, le1, 3*sizeof(double));
    memcpy(te, te1, 3*sizeof(double));
    return;
  }
  if (t >= 1.0) {
    memcpy(le, le2, 3*sizeof(double));
    memcpy(te, te2, 3*sizeof(double));
    return;
  }

  // quarter-chord point, chord direction and chord length interpolated separately
  double qa[3], qb[3], ca[3], cb[3], d[3], qc[3];
  quarter_chord(le1, te1, qa);
  quarter_chord(le2, te2, qb);
  for (int c = 0; c < 3; c++) {
    ca[c] = te1[c] - le1[c];
    cb[c] = te2[c] - le2[c];
  }
  double la = awe_v3_norm(ca), lb = awe_v3_norm(cb);
  double ia = 1.0/fmax(la, 1e-12), ib = 1.0/fmax(lb, 1e-12);
  for (int c = 0; c < 3; c++) {
    qc[c] = qa[c] + t*(qb[c] - qa[c]);
    d[c] = wl*ca[c]*ia + t*cb[c]*ib;
  }
  double ld = fmax(awe_v3_norm(d), 1e-12);
  double len = wl*la + t*lb;
  for (int c = 0; c < 3; c++) {
    d[c] /= ld;
    le[c] = qc[c] - 0.25*len*d[c];
    te[c] = qc[c] + 0.75*len*d[c];
  }
}


/* Twist axis of every refined section: the local spanwise axis, mean of the unit vectors towards
 * the neighbouring LEs (+y first). The LEs do not move with twist, so neither does the axis. */
static void twist_axes(awe_vsm_wing *w) {
  const int nref = w->n + 1;
  for (int r = 0; r < nref; r++) {
    double *y = w->ref_y + 3*r;
    const double *le = w->ref_le + 3*r;
    y[0] = y[1] = y[2] = 0.0;
    if (r > 0) {
      double d[3];
      for (int c = 0; c < 3; c++) d[c] = w->ref_le[3*(r - 1) + c] - le[c];
      awe_v3_normalize(d);
      for (int c = 0; c < 3; c++) y[c] += d[c];
    }
    if (r < nref - 1) {
      double d[3];
      for (int c = 0; c < 3; c++) d[c] = le[c] - w->ref_le[3*(r + 1) + c];
      awe_v3_normalize(d);
      for (int c = 0; c < 3; c++) y[c] += d[c];
    }
    awe_v3_normalize(y);
  }
}


/* TE of every refined section: the untwisted TE rotated about the LE by the interpolated section
 * twist (Rodrigues). */
static void apply_twist(awe_vsm_wing *w) {
  const int nref = w->n + 1;
  for (int r = 0; r < nref; r++) {
    const int l = w->ref_l[r];
    const double theta = w->ref_w[r]*w->sec_theta[l] + (1.0 - w->ref_w[r])*w->sec_theta[l + 1];
    const double *le = w->ref_le + 3*r, *te0 = w->ref_te0 + 3*r, *y = w->ref_y + 3*r;
    double *te = w->ref_te + 3*r;
    if (theta == 0.0) {
      memcpy(te, te0, 3*sizeof(double));
      continue;
    }
    double ch[3], cxy[3];
    for (int c = 0; c < 3; c++) ch[c] = te0[c] - le[c];
    awe_v3_cross(cxy, ch, y);
    const double ct = cos(theta), st = sin(theta), ax = awe_v3_dot(y, ch);
    for (int c = 0; c < 3; c++) te[c] = le[c] + ct*ch[c] - st*cxy[c] + (1.0 - ct)*ax*y[c];
  }
}


/* Panel points and frames from the refined sections (vsm.md §3). */
static void update_panels(awe_vsm_wing *w) {
  const int n = w->n;
  for (int i = 0; i < n; i++) {
    const double *le1 = w->ref_le + 3*i, *te1 = w->ref_te + 3*i;
    const double *le2 = w->ref_le + 3*(i + 1), *te2 = w->ref_te + 3*(i + 1);
    double *b1 = w->b1 + 3*i, *b2 = w->b2 + 3*i;
    double c1[3], c2[3], db[3];
    for (int c = 0; c < 3; c++) {
      b1[c] = 0.75*le1[c] + 0.25*te1[c];
      b2[c] = 0.75*le2[c] + 0.25*te2[c];
      c1[c] = te1[c] - le1[c];
      c2[c] = te2[c] - le2[c];
      db[c] = b1[c] - b2[c];
    }
    w->chord[i] = 0.5*(awe_v3_norm(c1) + awe_v3_norm(c2));
    w->width[i] = awe_v3_norm(db);
  }

  for (int i = 0; i < n; i++) {
    // van Garrel spanwise weight from the neighbouring panel widths
    double nw;
    const double di = w->width[i];
    if (n == 1) {
      nw = 0.5;
    } else if (i == 0) {
      nw = di/(di + w->width[i + 1]);
    } else if (i == n - 1) {
      nw = w->width[i - 1]/(w->width[i - 1] + di);
    } else {
      const double dm = w->width[i - 1], dp = w->width[i + 1];
      nw = 0.25*(dm/(dm + di) + di/(di + dp) + 1.0);
    }
    const double ncp = 1.0 - nw;

    const double *le1 = w->ref_le + 3*i, *te1 = w->ref_te + 3*i;
    const double *le2 = w->ref_le + 3*(i + 1), *te2 = w->ref_te + 3*(i + 1);
    double *ac = w->ac + 3*i, *cp = w->cp + 3*i;
    double *ec = w->ec + 3*i, *en = w->en + 3*i, *es = w->es + 3*i;
    double db[3];
    for (int c = 0; c < 3; c++) {
      const double lem = ncp*le1[c] + (1.0 - ncp)*le2[c];
      const double tem = ncp*te1[c] + (1.0 - ncp)*te2[c];
      ac[c] = 0.75*lem + 0.25*tem;
      cp[c] = 0.25*lem + 0.75*tem;
      ec[c] = cp[c] - ac[c];
      db[c] = w->b1[3*i + c] - w->b2[3*i + c];
      es[c] = db[c];
    }
    awe_v3_normalize(ec);
    awe_v3_normalize(es);
    awe_v3_cross(en, ec, db);
    awe_v3_normalize(en);
  }
}


/* Projected area (quadrilaterals on the body xy plane), span, reference chord. */
static void update_reference(awe_vsm_wing *w) {
  const int nsec = w->nsec;
  double area = 0.0;
  for (int k = 0; k < nsec - 1; k++) {
    const double *la = w->sec_le + 3*k, *ta = w->sec_te + 3*k;
    const double *lb = w->sec_le + 3*(k + 1), *tb = w->sec_te + 3*(k + 1);
    // quadrilateral LE_a TE_a TE_b LE_b projected on xy: half the cross product of its diagonals
    area += 0.5*fabs((tb[0] - la[0])*(lb[1] - ta[1]) - (tb[1] - la[1])*(lb[0] - ta[0]));
  }
  w->area = area;

  double lo = INFINITY, hi = -INFINITY;
  for (int k = 0; k < nsec; k++) {
    const double a = awe_v3_dot(w->sec_le + 3*k, w->sdir), b = awe_v3_dot(w->sec_te + 3*k, w->sdir);
    lo = fmin(lo, fmin(a, b));
    hi = fmax(hi, fmax(a, b));
  }
  w->span = hi - lo;

  double cmax = 0.0;
  for (int i = 0; i < w->n; i++) cmax = fmax(cmax, w->chord[i]);
  w->c_ref = cmax;
}


/* TE of the chord le->te turned by th around the unit axis y (Rodrigues). */
static void turned_te(const double le[3], const double te[3], const double y[3], double th,
                      double out[3]) {
  double c[3], yc[3];
  awe_v3_sub(c, te, le);
  awe_v3_cross(yc, y, c);
  const double ct = cos(th), st = sin(th), k = (1.0 - ct)*awe_v3_dot(y, c);
  for (int i = 0; i < 3; i++) out[i] = le[i] + ct*c[i] + st*yc[i] + k*y[i];
}


/* TE polyline length TE_l -> the refined TEs a..b turned by amplitude A -> TE_r. */
static double billow_pass(const awe_vsm_wing *w, int a, int b, const double y[3], double span,
                          const double le_r[3], const double te_l[3], const double te_r[3],
                          double A) {
  double prev[3], cur[3], d[3], arc = 0.0;
  memcpy(prev, te_l, sizeof prev);
  for (int r = a; r <= b; r++) {
    const double *le = w->ref_le + 3*r;
    awe_v3_sub(d, le, le_r);
    const double t = awe_v3_dot(d, y)/span;
    turned_te(le, w->ref_te0 + 3*r, y, -A*sin(PI*t), cur);
    awe_v3_sub(d, cur, prev);
    arc += awe_v3_norm(d);
    memcpy(prev, cur, sizeof prev);
  }
  awe_v3_sub(d, te_r, prev);
  return arc + awe_v3_norm(d);
}


/* BILLOWING: turn the inner refined TEs of every input pair (no allocation: RHS path). */
static void apply_billowing(awe_vsm_wing *w) {
  const double p = w->s.billowing_percentage;
  if (w->s.distribution != AWE_DIST_BILLOWING || !(p > 0.0) || w->nsec == w->n + 1) return;
  const int m = w->n/(w->nsec - 1);
  for (int k = 0; k < w->nsec - 1; k++) {
    const int a = k*m + 1, b = k*m + m - 1;
    if (b < a) continue;
    const double *le_l = w->sec_le + 3*k, *le_r = w->sec_le + 3*(k + 1);
    const double *te_l = w->sec_te + 3*k, *te_r = w->sec_te + 3*(k + 1);
    double y[3], d[3];
    awe_v3_sub(y, le_l, le_r);
    const double span = awe_v3_norm(y);
    awe_v3_sub(d, te_r, te_l);
    const double straight = awe_v3_norm(d);
    if (!(span > 1e-12) || !(straight > 1e-12)) continue;
    for (int c = 0; c < 3; c++) y[c] /= span;
    const double target = straight/(1.0 - p/100.0);
    double A = sqrt(4.0*p/(100.0 - p));
    for (int it = 0; it < 50; it++) {
      const double f = billow_pass(w, a, b, y, span, le_r, te_l, te_r, A) - target;
      if (fabs(f) < 1e-12*target) break;
      const double h = fmax(1e-8, fabs(A)*1e-8);
      const double df = (billow_pass(w, a, b, y, span, le_r, te_l, te_r, A + h) - target -
                         f)/h;
      if (fabs(df) < 1e-30) break;
      A = fmax(0.0, A - f/df);
    }
    // written in place: each turned TE depends only on its own LE and TE0
    for (int r = a; r <= b; r++) {
      const double *le = w->ref_le + 3*r;
      awe_v3_sub(d, le, le_r);
      turned_te(le, w->ref_te0 + 3*r, y, -A*sin(PI*awe_v3_dot(d, y)/span), w->ref_te0 + 3*r);
    }
  }
}


void awe_vsm_geom_update(awe_vsm_wing *w) {
  const int nref = w->n + 1;
  for (int r = 0; r < nref; r++) refined_section(w, r, w->ref_le + 3*r, w->ref_te0 + 3*r);
  apply_billowing(w);
  twist_axes(w);
  awe_vsm_geom_update_twist(w);
}


void awe_vsm_geom_update_twist(awe_vsm_wing *w) {
  apply_twist(w);
  update_panels(w);
  update_reference(w);
  w->geom_rev++;
  // the AIC caches compare the new points with theirs at the next solve; Newton's LU factors
  // stay: they are refreshed when they stop contracting
}


void awe_vsm_geom_map_panels(awe_vsm_wing *w) {
  for (int i = 0; i < w->n; i++) {
    double pc[3];
    for (int c = 0; c < 3; c++) {
      pc[c] = 0.25*(w->ref_le[3*i + c] + w->ref_te[3*i + c] + w->ref_le[3*(i + 1) + c]
                    + w->ref_te[3*(i + 1) + c]);
    }
    int best = 0;
    double dbest = INFINITY;
    for (int k = 0; k < w->nsec; k++) {
      double d[3];
      for (int c = 0; c < 3; c++) {
        d[c] = 0.5*(w->sec_le[3*k + c] + w->sec_te[3*k + c]) - pc[c];
      }
      const double dk = awe_v3_norm(d);
      if (dk < dbest) {
        dbest = dk;
        best = k;
      }
    }
    w->pan_sec[i] = best;
    w->pan_sec_user[i] = w->reversed ? w->nsec - 1 - best : best;
  }
}
