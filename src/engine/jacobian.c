/* jacobian.c: analytic Jacobian of the structural right-hand side (equations: jacobian.h). */
#include "engine/jacobian.h"

#include <stdlib.h>
#include <string.h>

#include "engine/aero_coupling.h"
#include "engine/atmosphere.h"
#include "engine/body.h"
#include "engine/body_jac.h"
#include "engine/ground.h"
#include "engine/wind.h"
#include "engine/pulley.h"
#include "engine/segment.h"
#include "engine/winch.h"
#include "engine/wing.h"

struct awe_jac_an {
  const awe_model *m;
  int n, count;
  const int *col_adr, *col_num, *rows; /* borrowed pattern */
  int sorted;                          /* its rows ascend in every column (binary search) */
  unsigned char *mask;      /* [n] analytic columns */
  unsigned char *pt_simple; /* [np] point whose vel rows are done here */
  unsigned char *seg_plain; /* [ns] spring-damper (or pulley leg) between plain ends */
  unsigned char *wi_simple; /* [nwinch] */
  unsigned char *pu_simple; /* [npulley] pulley with a state and two plain legs */
  /* FIX_SPHERE (steady state): rows of particle-wing points are projected on the radius */
  int *row_pt;              /* [n] the WING point whose pos/vel rows hold row i, or -1 */
  int *sph_pt, nsph;        /* those points */
  /* the frame R of a particle wing j depends on its reference points fr_pt[fr_adr[j] ..
   * fr_adr[j + 1]) (with a state, each once); pos_scr [3 np] holds perturbed positions */
  int *fr_adr, *fr_pt;
  double *pos_scr;
  double **slot;            /* [6 n] scratch: entries of one column in one point's rows */
  struct seg_der *sd;       /* [ns] each segment's derivatives, once per evaluation (sd_ok) */
  unsigned char *sd_ok;
  double *pt_g;             /* [9 np] frame_rows' scratch: G of each point's aerodynamic force */
  double *pt_b;             /* [3 np] and B R^T (v - v_o) of its body-frame damping */
  /* the pattern lookups of the last evaluation, in call order (entry): the assembly asks for
   * the same (i, j) in the same order every time, so a lookup is one comparison; a different
   * order (a branch taken differently) searches and records again. Scratch like slot. */
  int *lk_i, *lk_j, *lk_off, *lk_len, lk_cap;
  /* rigid bodies (body_jac.h) */
  unsigned char *body_simple; /* [nbody] DYNAMIC body whose rows are written here */
  int *ride_body;           /* [np] the DYNAMIC body a point rides, or -1 */
  double *ride_J;           /* [33 np] its dp/dQ, dv/dQ (3x4), dv/domega (3x3) */
  double *body_dR;          /* [36 nbody] dR/dQ_k of each DYNAMIC body */
  double *body_J;           /* [169 + 312] scratch: a body's own block, a tube's wrench */
};

/* the derivatives of one segment's end forces (jacobian.h) */
typedef struct seg_der {
  double K[9], C[9], dl0[3]; /* d(F_s u)/d d, /d dv, /d l0 (force on end a) */
  double gk[3], gc, gl0, gpv; /* the scalar F_s: d/d d, d/d dv = gc u, d/d l0, d/d pulley vel */
  double gwv;                 /* d/d the winch speed of a reeling tether's segment */
  double Gd[9], Ga[9], gz[3]; /* line drag: d F_d/d d, /d va, /d z_mid (whole drag) */
} seg_der;

/* where the entries go: a dense matrix or the pattern */
typedef struct {
  const awe_jac_an *a;
  double *dense, *jval;
  int *pos;                 /* the pattern sink's next lookup (entry) */
} sink;


/* the offset of (i, j) in the pattern's values, or -1 when it is not in the pattern */
static int search(const awe_jac_an *a, int i, int j) {
  const int *r = a->rows + a->col_adr[j];
  int lo = 0, hi = a->col_num[j] - 1;
  if (!a->sorted) {
    for (int e = 0; e <= hi; e++)
      if (r[e] == i) return a->col_adr[j] + e;
    return -1;
  }
  while (lo <= hi) { /* the pattern's rows ascend in each column */
    int mid = (lo + hi) / 2;
    if (r[mid] == i) return a->col_adr[j] + mid;
    if (r[mid] < i) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}


/* the entry (i, j) of the sink, or NULL when j is not analytic or (i, j) not in the pattern */
static double *entry(const sink *k, int i, int j) {
  const awe_jac_an *a = k->a;
  if (j < 0 || i < 0 || !a->mask[j]) return NULL;
  if (k->dense) return k->dense + (size_t)i * (size_t)a->n + (size_t)j;
  int c = (*k->pos)++, at;
  if (c < *a->lk_len && a->lk_i[c] == i && a->lk_j[c] == j) {
    at = a->lk_off[c];
  } else {
    at = search(a, i, j);
    if (c < a->lk_cap) {
      a->lk_i[c] = i;
      a->lk_j[c] = j;
      a->lk_off[c] = at;
      if (c >= *a->lk_len) *a->lk_len = c + 1;
    }
  }
  return at < 0 ? NULL : k->jval + at;
}


/* every (i, j) is looked up, zero or not, so that the lookups keep their order */
static void add(const sink *k, int i, int j, double v) {
  double *e = entry(k, i, j);
  if (e && v != 0.0) *e += v;
}


/* B (3x3, row-major) times s at rows r0.., columns c0.. The pattern lists a point's three
 * rows consecutively, at the same place in each of its three columns: one search finds the
 * block (the lookups were 13 % of a V3 flight), with add() where the pattern is otherwise */
static void add_block(const sink *k, int r0, int c0, const double *B, double s) {
  if (r0 < 0 || c0 < 0) return;
  const awe_jac_an *a = k->a;
  int at = -1; /* offset of row r0 in the last column searched */
  for (int j = 0; j < 3; j++) {
    int c = c0 + j;
    const int *r = a->rows + a->col_adr[c];
    int num = a->col_num[c];
    if (k->dense || !a->mask[c]) {
      for (int i = 0; i < 3; i++) add(k, r0 + i, c, s * B[3 * i + j]);
      continue;
    }
    if (!(at >= 0 && at + 2 < num && r[at] == r0)) {
      const double *e = entry(k, r0, c);
      at = e ? (int)(e - (k->jval + a->col_adr[c])) : -1;
    }
    if (at < 0 || at + 2 >= num || r[at + 1] != r0 + 1 || r[at + 2] != r0 + 2) {
      for (int i = 0; i < 3; i++) add(k, r0 + i, c, s * B[3 * i + j]);
      at = -1;
      continue;
    }
    double *v = k->jval + a->col_adr[c] + at;
    for (int i = 0; i < 3; i++) {
      double x = s * B[3 * i + j];
      if (x != 0.0) v[i] += x;
    }
  }
}


/* v[0 .. nr) (stride sv) into rows r0 .. r0 + nr of column c: a body's rows are consecutive
 * in each of its columns, so one lookup finds them (add() where the pattern is otherwise) */
static void add_run(const sink *k, int r0, int nr, int c, const double *v, int sv) {
  const awe_jac_an *a = k->a;
  if (c < 0 || !a->mask[c]) return;
  if (!k->dense) {
    double *e = entry(k, r0, c);
    int at = e ? (int)(e - (k->jval + a->col_adr[c])) : -1;
    const int *r = a->rows + a->col_adr[c];
    if (at >= 0 && at + nr - 1 < a->col_num[c] && r[at + nr - 1] == r0 + nr - 1) {
      for (int i = 0; i < nr; i++) e[i] += v[i * sv];
      return;
    }
    for (int i = 1; i < nr; i++) add(k, r0 + i, c, v[i * sv]);
    if (e) *e += v[0];
    return;
  }
  for (int i = 0; i < nr; i++) add(k, r0 + i, c, v[i * sv]);
}


static void seg_derivs(const awe_model *m, const awe_work *w, int s, seg_der *g) {
  const awe_seg_hot *h = w->seg_hot + s;
  const double *pa = w->pos + 3 * h->a, *pb = w->pos + 3 * h->b;
  const double *va = w->vel + 3 * h->a, *vb = w->vel + 3 * h->b;
  const double *u = w->seg_dir + 3 * s;
  double len = w->seg_len[s], f = w->seg_force[s], l0 = w->seg_l0[s];
  double kk = (len > l0 ? 1.0 : h->comp_frac) * h->unit_k;
  double c = (len > l0 ? 1.0 : h->comp_damp_frac) * h->unit_c;
  double dv[3], P[9], dvP[3];
  for (int i = 0; i < 3; i++) dv[i] = va[i] - vb[i];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) P[3 * i + j] = (i == j) - u[i] * u[j];
  for (int j = 0; j < 3; j++) dvP[j] = dv[0] * P[j] + dv[1] * P[3 + j] + dv[2] * P[6 + j];
  for (int j = 0; j < 3; j++) g->gk[j] = ((kk - f) * u[j] - c * dvP[j] / len) / len;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      g->K[3 * i + j] = u[i] * g->gk[j] + f * P[3 * i + j] / len;
      g->C[3 * i + j] = -c * u[i] * u[j] / len;
    }
  g->gc = -c / len;
  g->gl0 = -kk / len;
  g->gpv = h->pulley >= 0 && !m->pulley_brake[h->pulley] ? -c * h->leg_sign / len : 0.0;
  /* a reeling tether's segment: F_s holds -c (v / n) / len (segment.h) */
  int t = m->segment_tether[s];
  g->gwv = awe_segment_reeling(m, w, s) ? -c / (len * m->tether_seg_num[t]) : 0.0;
  for (int i = 0; i < 3; i++) g->dl0[i] = g->gl0 * u[i];
  memset(g->Gd, 0, sizeof(g->Gd));
  memset(g->Ga, 0, sizeof(g->Ga));
  memset(g->gz, 0, sizeof(g->gz));
  if (h->drag == 0.0) return;
  double z = 0.5 * (pa[2] + pb[2]), wind[3], app[3], Pa[3], aP[3], dw[3];
  double pm[3] = {0.5 * (pa[0] + pb[0]), 0.5 * (pa[1] + pb[1]), z};
  awe_wind_point(m, w, pm, wind);
  for (int i = 0; i < 3; i++) app[i] = wind[i] - 0.5 * (va[i] + vb[i]);
  double vpar = awe_v3_dot(app, u), vabs = awe_v3_norm(app);
  double rho = awe_density(&m->env, z);
  double q = rho * h->drag * vabs * len;
  for (int i = 0; i < 3; i++) Pa[i] = app[i] - vpar * u[i];
  for (int j = 0; j < 3; j++) aP[j] = app[0] * P[j] + app[1] * P[3 + j] + app[2] * P[6 + j];
  double qa = vabs > 0.0 ? rho * h->drag * len / vabs : 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      g->Ga[3 * i + j] = q * P[3 * i + j] + qa * Pa[i] * app[j];
      g->Gd[3 * i + j] = q / len * (Pa[i] * u[j] - u[i] * aP[j] - vpar * P[3 * i + j]);
    }
  double dlr = awe_density_dlog(&m->env, z);
  awe_wind_dz(m, w, pm, dw);
  for (int i = 0; i < 3; i++) {
    g->gz[i] = q * dlr * Pa[i];
    for (int j = 0; j < 3; j++) g->gz[i] += g->Ga[3 * i + j] * dw[j];
  }
}


/* segment s's derivatives, computed at its first use in this evaluation */
static const seg_der *seg_get(const awe_jac_an *a, const awe_model *m, const awe_work *w, int s) {
  if (!a->sd_ok[s]) {
    seg_derivs(m, w, s, a->sd + s);
    a->sd_ok[s] = 1;
  }
  return a->sd + s;
}


/* the state column segment s's rest length depends on (a tether's length: l0 = len/n; a
 * pulley's length: l0 = len or sum - len) and d l0/d that state, or -1 */
static int l0_col(const awe_model *m, const awe_work *w, int s, double *dl0_dx) {
  int t = m->segment_tether[s];
  if (t >= 0 && w->tether_x[t] >= 0) {
    *dl0_dx = 1.0 / m->tether_seg_num[t];
    return w->tether_x[t];
  }
  int p = m->segment_pulley[s];
  if (p >= 0 && w->pulley_x[p] >= 0) {
    *dl0_dx = m->segment_pulley_leg[s] == 0 ? 1.0 : -1.0;
    return w->pulley_x[p];
  }
  return -1;
}


/* the winch speed column a reeling tether segment's damper reads (d l0/dt = v / n), or -1:
 * a tether with a length state whose winch has a speed state */
static int wv_col(const awe_model *m, const awe_work *w, int s) {
  int t = m->segment_tether[s];
  if (t < 0 || w->tether_x[t] < 0) return -1;
  int wi = m->tether_winch[t];
  return wi >= 0 && !m->winch_endpoint_damping[wi] ? w->winch_x[wi] : -1;
}


/* the pulley velocity column a pulley leg's damper reads, or -1 */
static int pv_col(const awe_work *w, int s) {
  int p = w->seg_hot[s].pulley;
  return p >= 0 && w->pulley_x[p] >= 0 ? w->pulley_x[p] + 1 : -1;
}


/* where a force derivative goes: rows r0[g]..r0[g]+2 receive A[g] dF (g < n); a point's
 * velocity rows (A = I/m), or a body's velocity (I/m_b) and rate rows (I^-1 R^T [arm]x) */
typedef struct {
  int n, r0[2];
  double A[2][9];
  double scale; /* n = 1, A = scale I: a point's rows (A unused) */
  int nr;       /* 1: one row r0 (A's first row: a winch's), else three */
} rowmap;


/* C = A B (3x3, row-major) */
static void mul3(const double *A, const double *B, double *C) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}


/* dF/d (columns c0..c0+2) = B into the rows of rm */
static void emit_block(const sink *k, const rowmap *rm, int c0, const double *B) {
  if (rm->scale != 0.0) {
    add_block(k, rm->r0[0], c0, B, rm->scale);
    return;
  }
  if (rm->nr == 1) {
    const double *A = rm->A[0];
    for (int j = 0; j < 3; j++)
      add(k, rm->r0[0], c0 + j, A[0] * B[j] + A[1] * B[3 + j] + A[2] * B[6 + j]);
    return;
  }
  for (int g = 0; g < rm->n; g++) {
    double C[9];
    mul3(rm->A[g], B, C);
    add_block(k, rm->r0[g], c0, C, 1.0);
  }
}


/* dF/d (column c) = v into the rows of rm */
static void emit_col(const sink *k, const rowmap *rm, int c, const double v[3]) {
  if (c < 0) return;
  if (rm->scale != 0.0) {
    for (int i = 0; i < 3; i++) add(k, rm->r0[0] + i, c, rm->scale * v[i]);
    return;
  }
  if (rm->nr == 1) {
    add(k, rm->r0[0], c, rm->A[0][0] * v[0] + rm->A[0][1] * v[1] + rm->A[0][2] * v[2]);
    return;
  }
  for (int g = 0; g < rm->n; g++) {
    const double *A = rm->A[g];
    for (int i = 0; i < 3; i++)
      add(k, rm->r0[g] + i, c, A[3 * i] * v[0] + A[3 * i + 1] * v[1] + A[3 * i + 2] * v[2]);
  }
}


/* B (3x3) times M (3 x nc, row-major), column e into v */
static void block_col(const double *B, const double *M, int nc, int e, double v[3]) {
  for (int i = 0; i < 3; i++)
    v[i] = B[3 * i] * M[e] + B[3 * i + 1] * M[nc + e] + B[3 * i + 2] * M[2 * nc + e];
}


/* dF/d pos_i = B of point i: its position columns, or those of the body it rides
 * (p_i = c + R r_i: dp/dc = I, dp/dQ from the ride's Jacobian) */
static void emit_pos(const sink *k, const rowmap *rm, const awe_work *w, int i, const double *B) {
  if (w->point_x[i] >= 0) {
    emit_block(k, rm, w->point_x[i], B);
    return;
  }
  int j = k->a->ride_body[i];
  if (j < 0) return; /* fixed */
  int o = w->body_x[j];
  const double *dpdQ = k->a->ride_J + 33 * i;
  emit_block(k, rm, o, B);
  for (int e = 0; e < 4; e++) {
    double v[3];
    block_col(B, dpdQ, 4, e, v);
    emit_col(k, rm, o + 6 + e, v);
  }
}


/* dF/d vel_i = B of point i (v_i = v_c + R (omega x r_i) on a body) */
static void emit_vel(const sink *k, const rowmap *rm, const awe_work *w, int i, const double *B) {
  if (w->point_x[i] >= 0) {
    emit_block(k, rm, w->point_x[i] + 3, B);
    return;
  }
  int j = k->a->ride_body[i];
  if (j < 0) return;
  int o = w->body_x[j];
  const double *dvdQ = k->a->ride_J + 33 * i + 12, *dvdw = k->a->ride_J + 33 * i + 24;
  double C[9];
  emit_block(k, rm, o + 3, B);
  for (int e = 0; e < 4; e++) {
    double v[3];
    block_col(B, dvdQ, 4, e, v);
    emit_col(k, rm, o + 6 + e, v);
  }
  mul3(B, dvdw, C);
  emit_block(k, rm, o + 10, C);
}


/* the force sigma * (segment s's end force on a) + share * its drag, differentiated, into
 * the rows of rm (a point's velocity rows, or a body's) */
static void add_segment(const sink *k, const awe_model *m, const awe_work *w, int s,
                        const seg_der *g, double sigma, double share, const rowmap *rm) {
  const awe_seg_hot *h = w->seg_hot + s;
  double B[9];
  /* d/d pos_b = sigma K + share Gd (+ share gz/2 on z), d/d pos_a the opposite (+ gz/2) */
  for (int e = 0; e < 9; e++) B[e] = sigma * g->K[e] + share * g->Gd[e];
  for (int i = 0; i < 3; i++) B[3 * i + 2] += 0.5 * share * g->gz[i];
  emit_pos(k, rm, w, h->b, B);
  for (int e = 0; e < 9; e++) B[e] = -sigma * g->K[e] - share * g->Gd[e];
  for (int i = 0; i < 3; i++) B[3 * i + 2] += 0.5 * share * g->gz[i];
  emit_pos(k, rm, w, h->a, B);
  /* velocities: dv = va - vb, va_app = wind - (va + vb)/2 */
  for (int e = 0; e < 9; e++) B[e] = sigma * g->C[e] - 0.5 * share * g->Ga[e];
  emit_vel(k, rm, w, h->a, B);
  for (int e = 0; e < 9; e++) B[e] = -sigma * g->C[e] - 0.5 * share * g->Ga[e];
  emit_vel(k, rm, w, h->b, B);
  const double *u = w->seg_dir + 3 * s;
  double dl, v[3];
  int xl = l0_col(m, w, s, &dl), xv = pv_col(w, s);
  if (xl >= 0) {
    for (int i = 0; i < 3; i++) v[i] = sigma * g->dl0[i] * dl;
    emit_col(k, rm, xl, v);
  }
  if (xv >= 0) {
    for (int i = 0; i < 3; i++) v[i] = sigma * g->gpv * u[i];
    emit_col(k, rm, xv, v);
  }
  int xw = wv_col(m, w, s);
  if (xw >= 0) {
    for (int i = 0; i < 3; i++) v[i] = sigma * g->gwv * u[i];
    emit_col(k, rm, xw, v);
  }
}


/* body-frame damping of point i relative to wing j's origin: acc -= R diag(bfd) R^T (v - v_o);
 * v_o is the weighted mean of the origin points' velocities */
/* the sum of wing j's origin weights (v_o, p_o are their weighted means); 0: no origin */
static double origin_weight(const awe_model *m, int j) {
  double sw = 0.0;
  for (int e = 0; e < m->wing_origin_num[j]; e++) sw += m->wing_origin_w[m->wing_origin_adr[j] + e];
  return sw;
}


static void frame_damping_rows(const sink *k, const awe_model *m, const awe_work *w, int i,
                               int j, int r0) {
  const double *R = w->wing_R + 9 * j, *bfd = m->point_bfd + 3 * i;
  double B[9];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      B[3 * r + c] = R[3 * r] * bfd[0] * R[3 * c] + R[3 * r + 1] * bfd[1] * R[3 * c + 1] +
                     R[3 * r + 2] * bfd[2] * R[3 * c + 2];
  add_block(k, r0, w->point_x[i] + 3, B, -1.0);
  int adr = m->wing_origin_adr[j], no = m->wing_origin_num[j];
  double sw = origin_weight(m, j);
  if (sw == 0.0) return; /* no origin: v_o = 0 */
  for (int e = 0; e < no; e++) {
    int xo = w->point_x[m->wing_origin_pts[adr + e]];
    if (xo >= 0) add_block(k, r0, xo + 3, B, m->wing_origin_w[adr + e] / sw);
  }
}


/* wing j is a particle wing (its frame comes from reference points, not a state) */
static int particle_wing(const awe_work *w, int j) { return j >= 0 && w->wing_x[j] < 0; }


/* a linearized particle wing's aerodynamic force on point i, R f_b(va_b) with va_b = R^T va_w,
 * va_w = f(z_o) wind - v_o (aero_coupling.h; G = d f_b/d va_b): its columns of the origin's
 * velocities, -R G R^T, and heights, R (f_b dlog rho/dz + G R^T f'(z_o) wind) (the density and
 * the wind profile at the origin), shared by the origin points' weights; the frame's columns
 * are frame_rows' */
static void aero_rows(const sink *k, const awe_model *m, const awe_work *w, int i, int j, int r0,
                      double inv_m) {
  double G[9];
  if (!awe_aero_point_force_slope(w, j, i, G)) return;
  const double *R = w->wing_R + 9 * j, *fb = awe_aero_point_forces_b(w) + 3 * i;
  double T[9], B[9], gb[3], gz[3], dw[3];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      T[3 * r + c] = G[3 * r] * R[3 * c] + G[3 * r + 1] * R[3 * c + 1] + G[3 * r + 2] * R[3 * c + 2];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      B[3 * r + c] = R[3 * r] * T[c] + R[3 * r + 1] * T[3 + c] + R[3 * r + 2] * T[6 + c];
  double zo = w->wing_pos[3 * j + 2], dlr = awe_density_dlog(&m->env, zo);
  awe_wind_dz(m, w, w->wing_pos + 3 * j, dw);
  for (int r = 0; r < 3; r++) gb[r] = fb[r] * dlr + T[3 * r] * dw[0] + T[3 * r + 1] * dw[1] +
                                      T[3 * r + 2] * dw[2];
  awe_mat3_vec(R, gb, gz);
  int adr = m->wing_origin_adr[j], no = m->wing_origin_num[j];
  double sw = origin_weight(m, j);
  if (sw == 0.0) return;
  for (int e = 0; e < no; e++) {
    int xo = w->point_x[m->wing_origin_pts[adr + e]];
    if (xo < 0) continue;
    double we = m->wing_origin_w[adr + e] / sw;
    add_block(k, r0, xo + 3, B, -inv_m * we);
    for (int r = 0; r < 3; r++) add(k, r0 + r, xo + 2, gz[r] * inv_m * we);
  }
}


/* point i's drag D = c0 |va| va, va = f(z) wind - v: A = dD/d va and dD/dz (density and
 * wind profile); 0 when the point has none */
static int point_drag(const awe_model *m, const awe_work *w, int i, double A[9], double dz[3]) {
  double area = m->point_area[i], cd = m->point_cd[i];
  if (area == 0.0 || cd == 0.0) return 0;
  double z = w->pos[3 * i + 2], wind[3], va[3], dw[3];
  awe_wind_point(m, w, w->pos + 3 * i, wind);
  awe_v3_sub(va, wind, w->vel + 3 * i);
  double vn = sqrt(awe_v3_dot(va, va) + 1e-24);
  double c0 = 0.5 * awe_density(&m->env, z) * cd * area;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) A[3 * r + c] = c0 * ((r == c) * vn + va[r] * va[c] / vn);
  double dlr = awe_density_dlog(&m->env, z);
  awe_wind_dz(m, w, w->pos + 3 * i, dw);
  for (int r = 0; r < 3; r++) {
    dz[r] = c0 * vn * va[r] * dlr;
    for (int c = 0; c < 3; c++) dz[r] += A[3 * r + c] * dw[c];
  }
  return 1;
}


static void point_rows(const sink *k, const awe_model *m, const awe_work *w, int i) {
  int o = w->point_x[i];
  for (int e = 0; e < 3; e++) add(k, o + e, o + 3 + e, 1.0); /* d pos/dt = vel */
  if (!k->a->pt_simple[i]) return;
  /* the inertia: the mass and the apparent mass (unsteady.h; weightless) */
  double mi = w->point_ma ? w->mass[i] + w->point_ma[i] : w->mass[i], inv_m = 1.0 / mi;
  const double *F = w->force + 3 * i;
  int r0 = o + 3;
  rowmap rm = {.n = 1, .r0 = {r0, 0}, .scale = inv_m};
  /* ground contact (ground.h): per unit mass, a_g(z, v); F holds m a_g */
  double ag[3], Jg[12];
  if (awe_ground_acc(&m->ground, w->pos + 3 * i, w->vel + 3 * i, ag, Jg)) {
    double gs = w->point_ma ? w->mass[i] * inv_m : 1.0; /* m a_g / (m + m_a) */
    for (int r = 0; r < 3; r++) {
      add(k, r0 + r, o + 2, gs * Jg[4 * r]);
      for (int c = 0; c < 3; c++) add(k, r0 + r, o + 3 + c, gs * Jg[4 * r + 1 + c]);
    }
  }
  for (int e = 0; e < w->point_seg_num[i]; e++) {
    int s = w->point_segs[w->point_seg_adr[i] + e];
    add_segment(k, m, w, s, seg_get(k->a, m, w, s), w->point_seg_sign[w->point_seg_adr[i] + e],
                0.5, &rm);
    /* the mass follows the rest length: d acc/d x += (-g e_z + a_g - F/m) dm/d x / m */
    double dl;
    int xl = l0_col(m, w, s, &dl);
    if (xl >= 0) {
      double dm = 0.5 * w->segment_lambda[s] * dl;
      for (int c = 0; c < 3; c++)
        add(k, r0 + c, xl, (-(c == 2 ? m->env.g : 0.0) + ag[c] - F[c] * inv_m) * dm * inv_m);
    }
  }
  /* point drag and damping (aerodynamic point forces of a particle wing depend only on its
   * frame, whose reference-point columns keep finite differences) */
  const double *wfd = m->point_wfd + 3 * i, *bfd = m->point_bfd + 3 * i;
  int jw = m->point_wing[i];
  int framed = jw >= 0 && (bfd[0] != 0.0 || bfd[1] != 0.0 || bfd[2] != 0.0);
  for (int c = 0; c < 3; c++) add(k, r0 + c, o + 3 + c, -wfd[c] - (framed ? 0.0 : bfd[c]));
  if (framed) frame_damping_rows(k, m, w, i, jw, r0);
  if (m->point_type[i] == AWE_PT_WING && particle_wing(w, jw)) aero_rows(k, m, w, i, jw, r0, inv_m);
  double A[9], dz[3];
  if (point_drag(m, w, i, A, dz)) {
    add_block(k, r0, o + 3, A, -inv_m);
    for (int r = 0; r < 3; r++) add(k, r0 + r, o + 2, dz[r] * inv_m);
  }
}


/* d len/dt = vel, d vel/dt = (F_s(leg 0) - F_s(leg 1) - F_f(vel, T))/m_p, T the legs' mean
 * (pulley.h) */
static void pulley_rows(const sink *k, const awe_model *m, const awe_work *w, int p) {
  int x = w->pulley_x[p];
  if (m->pulley_brake[p]) return; /* held: both rows are 0 */
  add(k, x, x + 1, 1.0);
  if (!k->a->pu_simple[p]) return;
  double inv_m = 1.0 / w->pulley_mass[p];
  double f1 = w->seg_force[m->pulley_seg[2 * p]], f2 = w->seg_force[m->pulley_seg[2 * p + 1]];
  double dfv, dft;
  awe_pulley_friction(m, p, w->pulley_vel[p], 0.5 * (f1 + f2), &dfv, &dft);
  for (int leg = 0; leg < 2; leg++) {
    int s = m->pulley_seg[2 * p + leg];
    double sg = ((leg == 0 ? 1.0 : -1.0) - 0.5 * dft) * inv_m;
    const seg_der g = *seg_get(k->a, m, w, s);
    const awe_seg_hot *h = w->seg_hot + s;
    const double *u = w->seg_dir + 3 * s;
    /* the gradient of F_s into the one row x + 1 (B's first row); an end riding a body
     * through its kinematics */
    rowmap rp = {.n = 1, .nr = 1, .r0 = {x + 1, 0}, .A = {{sg, 0.0, 0.0}}};
    double B[9] = {0.0};
    for (int c = 0; c < 3; c++) B[c] = g.gk[c];
    emit_pos(k, &rp, w, h->b, B);
    for (int c = 0; c < 3; c++) B[c] = -g.gk[c];
    emit_pos(k, &rp, w, h->a, B);
    for (int c = 0; c < 3; c++) B[c] = g.gc * u[c];
    emit_vel(k, &rp, w, h->a, B);
    for (int c = 0; c < 3; c++) B[c] = -g.gc * u[c];
    emit_vel(k, &rp, w, h->b, B);
    double dl;
    int xl = l0_col(m, w, s, &dl);
    if (xl >= 0) add(k, x + 1, xl, sg * g.gl0 * dl);
    add(k, x + 1, x + 1, sg * g.gpv);
  }
  add(k, x + 1, x + 1, -dfv * inv_m - m->pulley_damping_rate[p]);
}


static void winch_rows(const sink *k, const awe_ctx *ctx, int wi) {
  const awe_model *m = ctx->m;
  const awe_work *w = ctx->w;
  int x = w->winch_x[wi];
  int held = (ctx->flags & AWE_CTX_BRAKE_ALL) || awe_winch_braked(w, wi);
  for (int t = 0; t < m->ntether; t++)
    if (m->tether_winch[t] == wi && w->tether_x[t] >= 0 && !held) add(k, w->tether_x[t], x, 1.0);
  if (held || !k->a->wi_simple[wi]) return;
  double ratio = m->winch_drum_radius[wi] / m->winch_gear_ratio[wi];
  double I = m->winch_inertia[wi];
  /* F_w and its direction */
  double F[3] = {0.0, 0.0, 0.0};
  const int *segs = w->winch_segs + w->winch_seg_adr[wi];
  const double *sign = w->winch_seg_sign + w->winch_seg_adr[wi];
  for (int e = 0; e < w->winch_seg_num[wi]; e++)
    awe_v3_addto(F, sign[e] * w->seg_force[segs[e]], w->seg_dir + 3 * segs[e]);
  double fn = w->winch_force[wi];
  double s = ratio * ratio / I / fn;
  /* d acc_w = s F^T dF_w, dF_w = sum sigma d(F_s u) (no drag) */
  for (int e = 0; e < w->winch_seg_num[wi]; e++) {
    int sg = segs[e];
    const seg_der g = *seg_get(k->a, m, w, sg);
    const awe_seg_hot *h = w->seg_hot + sg;
    /* F^T K (and C) into the one row x; an end riding a body through its kinematics */
    rowmap rw = {.n = 1, .nr = 1, .r0 = {x, 0}};
    double B[9];
    for (int i = 0; i < 3; i++) rw.A[0][i] = s * sign[e] * F[i];
    emit_pos(k, &rw, w, h->b, g.K);
    for (int i = 0; i < 9; i++) B[i] = -g.K[i];
    emit_pos(k, &rw, w, h->a, B);
    emit_vel(k, &rw, w, h->a, g.C);
    for (int i = 0; i < 9; i++) B[i] = -g.C[i];
    emit_vel(k, &rw, w, h->b, B);
    double dl;
    int xl = l0_col(m, w, sg, &dl);
    if (xl >= 0) add(k, x, xl, s * sign[e] * awe_v3_dot(F, g.dl0) * dl);
    /* the segment's damper reads the reeling speed d l0/dt = v / n */
    int xw = wv_col(m, w, sg);
    if (xw >= 0) add(k, x, xw, s * sign[e] * awe_v3_dot(F, w->seg_dir + 3 * sg) * g.gwv);
  }
  /* friction: d/dv of r (-friction(v))/I */
  double wm = w->winch_vel[wi] / ratio, eps = m->winch_friction_eps[wi];
  double den = wm * wm + eps * eps;
  double dfric = eps * eps / (den * sqrt(den)) * m->winch_f_coulomb[wi] +
                 m->winch_c_vf[wi] * ratio;
  add(k, x, x, -ratio * dfric / I);
  /* AsyncMachine: the machine's torque falls with the speed at a fixed set-point */
  double dtau = 0.0;
  if (m->winch_async[wi]) awe_winch_motor_torque(m, w, wi, &dtau);
  if (dtau != 0.0) add(k, x, x, ratio * dtau / I);
}



/* the rows of body j's velocity and rate for a force F at arm from its centre of mass:
 * d vel/dt += dF/m, d omega/dt += I^-1 R^T (arm x dF) (arm NULL: a moment dM, A[1] = I^-1 R^T) */
static void body_map(const awe_model *m, const awe_work *w, int j, const double *arm,
                     rowmap *rm) {
  int o = w->body_x[j];
  const double *R = w->body_R + 9 * j, *Ii = m->body_Iinv + 9 * j;
  double inv = 1.0 / m->body_mass[j], IR[9];
  rm->n = 2;
  rm->nr = 3;
  rm->r0[0] = o + 3;
  rm->r0[1] = o + 10;
  rm->scale = 0.0;
  for (int e = 0; e < 9; e++) rm->A[0][e] = (e % 4 == 0) * inv;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      IR[3 * r + c] =
          Ii[3 * r] * R[3 * c] + Ii[3 * r + 1] * R[3 * c + 1] + Ii[3 * r + 2] * R[3 * c + 2];
  if (!arm) {
    memcpy(rm->A[1], IR, sizeof(IR));
    return;
  }
  /* [arm]x */
  const double S[9] = {0.0, -arm[2], arm[1], arm[2], 0.0, -arm[0], -arm[1], arm[0], 0.0};
  mul3(IR, S, rm->A[1]);
}


/* DYNAMIC body j's rows: its own equations (body_jac.h), the forces on its riding points
 * (their segments, their weights through the masses, the arms turning with Q) */
static void body_rows(const sink *k, const awe_model *m, const awe_work *w, int j) {
  const awe_jac_an *a = k->a;
  int o = w->body_x[j];
  double *J = a->body_J;
  awe_body_own_jac(m, w, j, a->body_dR + 36 * j, J);
  for (int c = 0; c < 13; c++) add_run(k, o, 13, o + c, J + c, 13);
  if (!a->body_simple[j]) return;
  for (int q = 0; q < m->body_point_num[j]; q++) {
    int i = m->body_points[m->body_point_adr[j] + q];
    double arm[3];
    awe_v3_sub(arm, w->pos + 3 * i, w->body_pos + 3 * j);
    rowmap rm, rq;
    body_map(m, w, j, arm, &rm);
    for (int e = 0; e < w->point_seg_num[i]; e++) {
      int s = w->point_segs[w->point_seg_adr[i] + e];
      add_segment(k, m, w, s, seg_get(a, m, w, s), w->point_seg_sign[w->point_seg_adr[i] + e],
                  0.5, &rm);
      /* the point's weight follows its segments' rest lengths */
      double dl;
      int xl = l0_col(m, w, s, &dl);
      if (xl >= 0) {
        double v[3] = {0.0, 0.0, -m->env.g * 0.5 * w->segment_lambda[s] * dl};
        emit_col(k, &rm, xl, v);
      }
    }
    /* its drag: d/d v_i = -A, d/d z_i */
    double A[9], dz[3];
    if (point_drag(m, w, i, A, dz)) {
      double B[9] = {0.0};
      for (int e = 0; e < 9; e++) A[e] = -A[e];
      emit_vel(k, &rm, w, i, A);
      for (int r = 0; r < 3; r++) B[3 * r + 2] = dz[r];
      emit_pos(k, &rm, w, i, B);
    }
    /* the arm R r_i turns with Q: d(arm x F_i)/dQ_e = darm_e x F_i, into the rate rows only */
    rq = rm;
    rq.n = 1;
    rq.r0[0] = rm.r0[1];
    body_map(m, w, j, NULL, &rm);
    memcpy(rq.A[0], rm.A[1], sizeof(rq.A[0]));
    const double *dpdQ = a->ride_J + 33 * i;
    for (int e = 0; e < 4; e++) {
      double d[3] = {dpdQ[e], dpdQ[4 + e], dpdQ[8 + e]}, v[3];
      awe_v3_cross(v, d, w->force + 3 * i);
      emit_col(k, &rq, o + 6 + e, v);
    }
  }
}


/* tube i's wrench into the rows of its DYNAMIC end bodies (body_jac.h) */
static void tube_rows(const sink *k, const awe_model *m, const awe_work *w, int i) {
  double *J = k->a->body_J + 169;
  awe_tube_jac(m, w, i, J);
  for (int e = 0; e < 2; e++) {
    int jb = m->tube_body[2 * i + e];
    if (w->body_x[jb] < 0 || !k->a->body_simple[jb]) continue;
    rowmap rm;
    body_map(m, w, jb, NULL, &rm);
    for (int ec = 0; ec < 2; ec++) {
      int oc = w->body_x[m->tube_body[2 * i + ec]];
      if (oc < 0) continue;
      for (int c = 0; c < 13; c++) {
        /* rows vel (3), Q (4, nothing), omega (3) of body jb */
        double v[10] = {0.0}, dM[3];
        for (int r = 0; r < 3; r++) {
          v[r] = rm.A[0][4 * r] * J[26 * (6 * e + r) + 13 * ec + c];
          dM[r] = J[26 * (6 * e + 3 + r) + 13 * ec + c];
        }
        for (int r = 0; r < 3; r++) {
          const double *A1 = rm.A[1] + 3 * r;
          v[7 + r] = A1[0] * dM[0] + A1[1] * dM[1] + A1[2] * dM[2];
        }
        add_run(k, rm.r0[0], 10, oc + c, v, 1);
      }
    }
  }
}


/* the bodies' rotation derivatives and their riding points' kinematic Jacobians */
static void body_prepare(const awe_jac_an *a, const awe_model *m, const awe_work *w) {
  for (int j = 0; j < m->nbody; j++) {
    if (w->body_x[j] < 0) continue;
    awe_quat_dR(w->body_q + 4 * j, a->body_dR + 36 * j);
    for (int q = 0; q < m->body_point_num[j]; q++) {
      int i = m->body_points[m->body_point_adr[j] + q];
      if (a->ride_body[i] != j) continue;
      double *Jr = a->ride_J + 33 * i;
      awe_body_ride_jac(w->body_R + 9 * j, a->body_dR + 36 * j, w->body_omega + 3 * j,
                        m->point_anchor_b + 3 * i, Jr, Jr + 12, Jr + 24);
    }
  }
}


/* g(r) = (r.x / r.r) r, the radial part of x (rhs.c): dg/dr into D (row-major) */
static void radial_deriv(const double r[3], const double x[3], double D[9]) {
  double rr = awe_v3_dot(r, r), rx = awe_v3_dot(r, x);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      D[3 * i + j] = (r[i] * x[j] + (i == j) * rx) / rr - 2.0 * rx * r[i] * r[j] / (rr * rr);
}


/* FIX_SPHERE (the steady state) replaces a particle-wing point's rows by their radial parts,
 * d pos/dt = P v and d vel/dt = P acc with P = r r^T/r.r, r = pos - base (rhs.c): column j's
 * six entries e (NULL where the pattern has none) are multiplied by P, and the point's own
 * position columns gain dP/dr v resp. dP/dr acc */
static void project(const awe_model *m, const awe_work *w, int i, int j, double *const e[6]) {
  const double *p = w->pos + 3 * i, *base = w->wg[m->point_wing[i]].base;
  double r[3];
  awe_v3_sub(r, p, base);
  double rr = awe_v3_dot(r, r);
  if (!(rr > 0.0)) return; /* rhs.c leaves such a point unprojected */
  int o = w->point_x[i], c = j - o;
  double D[9];
  for (int half = 0; half < 2; half++) {
    double x[3], y[3];
    for (int k = 0; k < 3; k++) x[k] = e[3 * half + k] ? *e[3 * half + k] : 0.0;
    double s = awe_v3_dot(r, x) / rr;
    for (int k = 0; k < 3; k++) y[k] = s * r[k];
    if (c >= 0 && c < 3) {
      radial_deriv(r, half == 0 ? w->vel + 3 * i : w->acc + 3 * i, D);
      for (int k = 0; k < 3; k++) y[k] += D[3 * k + c];
    }
    for (int k = 0; k < 3; k++)
      if (e[3 * half + k]) *e[3 * half + k] = y[k];
  }
}


static void project_rows(const awe_jac_an *a, const awe_ctx *ctx, const sink *k) {
  const awe_work *w = ctx->w;
  int n = a->n;
  for (int j = 0; j < n; j++) {
    if (!a->mask[j]) continue;
    if (k->dense) {
      for (int q = 0; q < a->nsph; q++) {
        int pt = a->sph_pt[q], o = w->point_x[pt];
        double *e[6];
        for (int r = 0; r < 6; r++) e[r] = k->dense + (size_t)(o + r) * (size_t)n + (size_t)j;
        project(ctx->m, w, pt, j, e);
      }
      continue;
    }
    /* the pattern: gather the column's entries per point, then project each point once */
    const int *rows = a->rows + a->col_adr[j];
    int num = a->col_num[j];
    for (int e = 0; e < num; e++)
      if (a->row_pt[rows[e]] >= 0) a->slot[rows[e]] = k->jval + a->col_adr[j] + e;
    for (int e = 0; e < num; e++) {
      int pt = a->row_pt[rows[e]];
      if (pt < 0) continue;
      int o = w->point_x[pt];
      if (!a->slot[o] && !a->slot[o + 1] && !a->slot[o + 2] && !a->slot[o + 3] &&
          !a->slot[o + 4] && !a->slot[o + 5])
        continue; /* done */
      double *ptr[6];
      for (int r = 0; r < 6; r++) ptr[r] = a->slot[o + r];
      project(ctx->m, w, pt, j, ptr);
      for (int r = 0; r < 6; r++) a->slot[o + r] = NULL;
    }
  }
}


/* The columns of particle wing j's reference-point positions: R moves the frozen aerodynamic
 * point forces (R f_b) and the body-frame damping (R B R^T (v - v_o)) of its points. dR/dp by
 * central differences of the frame alone (h = 1e-4 m against reference distances of metres:
 * truncation ~1e-9, rounding ~eps |p|/h ~ 1e-10 of R) */
static void frame_rows(const awe_jac_an *a, const awe_model *m, const awe_work *w, int j,
                       const sink *k) {
  const double h = 1e-4;
  const double *fb = awe_aero_point_forces_b(w);
  int aero = fb && awe_aero_point_forces_on(w, j);
  const double *R = w->wing_R + 9 * j, *vo = w->wing_vel + 3 * j, *vw = w->wing_va + 3 * j;
  /* what does not depend on the column: G of the aerodynamic force, B R^T (v - v_o) */
  for (int i = 0; i < m->npoint; i++) {
    if (w->point_x[i] < 0 || m->point_wing[i] != j || !a->pt_simple[i]) continue;
    if (aero && m->point_type[i] == AWE_PT_WING) awe_aero_point_force_slope(w, j, i, a->pt_g + 9 * i);
    const double *bfd = m->point_bfd + 3 * i;
    double dv[3], *b1 = a->pt_b + 3 * i;
    awe_v3_sub(dv, w->vel + 3 * i, vo);
    for (int q = 0; q < 3; q++) b1[q] = bfd[q] * (R[q] * dv[0] + R[3 + q] * dv[1] + R[6 + q] * dv[2]);
  }
  double *pos = a->pos_scr;
  memcpy(pos, w->pos, sizeof(double) * 3 * (size_t)m->npoint);
  for (int e = a->fr_adr[j]; e < a->fr_adr[j + 1]; e++) {
    int p = a->fr_pt[e], o = w->point_x[p];
    for (int c = 0; c < 3; c++) {
      int col = o + c;
      if (!a->mask[col]) continue;
      double Rp[9], Rm[9], dR[9], t[3];
      pos[3 * p + c] = w->pos[3 * p + c] + h;
      awe_wing_frame_at(m, j, pos, Rp);
      pos[3 * p + c] = w->pos[3 * p + c] - h;
      awe_wing_frame_at(m, j, pos, Rm);
      pos[3 * p + c] = w->pos[3 * p + c];
      for (int q = 0; q < 9; q++) dR[q] = (Rp[q] - Rm[q]) / (2.0 * h);
      for (int q = 0; q < 3; q++) t[q] = dR[q] * vw[0] + dR[3 + q] * vw[1] + dR[6 + q] * vw[2];
      for (int i = 0; i < m->npoint; i++) {
        int oi = w->point_x[i];
        if (oi < 0 || m->point_wing[i] != j || !a->pt_simple[i]) continue;
        double d[3] = {0.0, 0.0, 0.0};
        if (aero && m->point_type[i] == AWE_PT_WING) {
          /* d(R f_b(R^T va_w)) = dR f_b + R G dR^T va_w */
          const double *f = fb + 3 * i;
          double inv_m = 1.0 / (w->point_ma ? w->mass[i] + w->point_ma[i] : w->mass[i]), u[3];
          awe_mat3_vec(a->pt_g + 9 * i, t, u);
          for (int r = 0; r < 3; r++)
            d[r] += (dR[3 * r] * f[0] + dR[3 * r + 1] * f[1] + dR[3 * r + 2] * f[2] +
                     R[3 * r] * u[0] + R[3 * r + 1] * u[1] + R[3 * r + 2] * u[2]) * inv_m;
        }
        const double *bfd = m->point_bfd + 3 * i;
        if (bfd[0] != 0.0 || bfd[1] != 0.0 || bfd[2] != 0.0) {
          /* acc -= R B R^T dv:  d = -(dR B R^T dv + R B dR^T dv) */
          const double *b1 = a->pt_b + 3 * i;
          double dv[3], b2[3];
          awe_v3_sub(dv, w->vel + 3 * i, vo);
          for (int q = 0; q < 3; q++)
            b2[q] = bfd[q] * (dR[q] * dv[0] + dR[3 + q] * dv[1] + dR[6 + q] * dv[2]);
          for (int r = 0; r < 3; r++)
            d[r] -= dR[3 * r] * b1[0] + dR[3 * r + 1] * b1[1] + dR[3 * r + 2] * b1[2] +
                    R[3 * r] * b2[0] + R[3 * r + 1] * b2[1] + R[3 * r + 2] * b2[2];
        }
        for (int r = 0; r < 3; r++) add(k, oi + 3 + r, col, d[r]);
      }
    }
  }
}


static void eval(const awe_jac_an *a, const awe_ctx *ctx, const sink *k) {
  const awe_model *m = ctx->m;
  const awe_work *w = ctx->w;
  memset(a->sd_ok, 0, (size_t)m->nsegment);
  if (m->nbody > 0) body_prepare(a, m, w);
  for (int i = 0; i < m->npoint; i++)
    if (w->point_x[i] >= 0 && !w->point_slave[i]) point_rows(k, m, w, i);
  for (int p = 0; p < m->npulley; p++)
    if (w->pulley_x[p] >= 0) pulley_rows(k, m, w, p);
  for (int wi = 0; wi < m->nwinch; wi++)
    if (w->winch_x[wi] >= 0) winch_rows(k, ctx, wi);
  for (int j = 0; j < m->nwing; j++)
    if (a->fr_adr[j + 1] > a->fr_adr[j]) frame_rows(a, m, w, j, k);
  if (!(ctx->flags & AWE_CTX_FIX_WING)) { /* held bodies: their rows are 0 */
    for (int j = 0; j < m->nbody; j++)
      if (w->body_x[j] >= 0) body_rows(k, m, w, j);
    for (int i = 0; i < m->ntube; i++) tube_rows(k, m, w, i);
  }
  if ((ctx->flags & AWE_CTX_FIX_SPHERE) && a->nsph > 0) project_rows(a, ctx, k);
}


void awe_jac_an_dense(const awe_jac_an *a, const awe_ctx *ctx, double *dfdy) {
  if (!a || a->count == 0) return;
  sink k = {a, dfdy, NULL, NULL};
  eval(a, ctx, &k);
}


void awe_jac_an_pattern(const awe_jac_an *a, const awe_ctx *ctx, double *jval) {
  if (!a || a->count == 0) return;
  for (int j = 0; j < a->n; j++)
    if (a->mask[j]) memset(jval + a->col_adr[j], 0, sizeof(double) * (size_t)a->col_num[j]);
  int pos = 0;
  sink k = {a, NULL, jval, &pos};
  eval(a, ctx, &k);
}


const unsigned char *awe_jac_an_mask(const awe_jac_an *a) { return a->mask; }
int awe_jac_an_count(const awe_jac_an *a) { return a ? a->count : 0; }


void awe_jac_an_free(awe_jac_an *a) {
  if (!a) return;
  free(a->mask);
  free(a->pt_simple);
  free(a->seg_plain);
  free(a->wi_simple);
  free(a->pu_simple);
  free(a->row_pt);
  free(a->sph_pt);
  free(a->fr_adr);
  free(a->fr_pt);
  free(a->pos_scr);
  free(a->slot);
  free(a->sd);
  free(a->sd_ok);
  free(a->pt_g);
  free(a->pt_b);
  free(a->lk_i);
  free(a->lk_j);
  free(a->lk_off);
  free(a->lk_len);
  free(a->body_simple);
  free(a->ride_body);
  free(a->ride_J);
  free(a->body_dR);
  free(a->body_J);
  free(a);
}


/* a point whose pos, vel are states (not a wing slave) or a fixed one (no state, not
 * quasi-static: rhs.c places it at its initial position, at rest) */
static int plain_end(const awe_work *w, int i) {
  if (w->point_slave[i]) return 0;
  return w->point_x[i] >= 0 || w->point_qs[i] < 0;
}




/* can point i's velocity rows be written here? (its segments plain; a frame it depends on,
 * through aerodynamic point forces or body-frame damping, that of a particle wing; no group) */
static int simple_point(const awe_jac_an *a, const awe_model *m, const awe_work *w,
                        const unsigned char *in_group, int i) {
  if (in_group[i]) return 0;
  for (int e = 0; e < w->point_seg_num[i]; e++)
    if (!a->seg_plain[w->point_segs[w->point_seg_adr[i] + e]]) return 0;
  int jw = m->point_wing[i];
  const double *bfd = m->point_bfd + 3 * i;
  int framed = jw >= 0 && (bfd[0] != 0.0 || bfd[1] != 0.0 || bfd[2] != 0.0);
  if ((framed || m->point_type[i] == AWE_PT_WING) && !particle_wing(w, jw)) return 0;
  return 1;
}


awe_jac_an *awe_jac_an_alloc(const awe_model *m, const awe_work *w, int n, const int *col_adr,
                             const int *col_num, const int *rows) {
  awe_jac_an *a = calloc(1, sizeof(*a));
  if (!a) return NULL;
  a->m = m;
  a->n = n;
  a->col_adr = col_adr;
  a->col_num = col_num;
  a->rows = rows;
  a->sorted = 1;
  for (int j = 0; j < n; j++)
    for (int e = 1; e < col_num[j]; e++)
      if (rows[col_adr[j] + e] <= rows[col_adr[j] + e - 1]) a->sorted = 0;
  a->mask = calloc((size_t)n + 1, 1);
  a->pt_simple = calloc((size_t)m->npoint + 1, 1);
  a->seg_plain = calloc((size_t)m->nsegment + 1, 1);
  a->wi_simple = calloc((size_t)m->nwinch + 1, 1);
  a->pu_simple = calloc((size_t)m->npulley + 1, 1);
  a->row_pt = malloc(sizeof(int) * ((size_t)n + 1));
  a->sph_pt = malloc(sizeof(int) * ((size_t)m->npoint + 1));
  a->fr_adr = calloc((size_t)m->nwing + 2, sizeof(int));
  a->fr_pt = malloc(sizeof(int) * ((size_t)m->nwing * (size_t)m->npoint + 1));
  a->pos_scr = malloc(sizeof(double) * (3 * (size_t)m->npoint + 1));
  a->slot = calloc((size_t)n + 1, sizeof(double *));
  a->sd = malloc(sizeof(seg_der) * ((size_t)m->nsegment + 1));
  a->sd_ok = calloc((size_t)m->nsegment + 1, 1);
  a->pt_g = malloc(sizeof(double) * (9 * (size_t)m->npoint + 1));
  a->pt_b = malloc(sizeof(double) * (3 * (size_t)m->npoint + 1));
  long nnz = 0;
  for (int j = 0; j < n; j++) nnz += col_num[j];
  a->lk_cap = (int)(2 * nnz + 64); /* lookups per evaluation: at most one per entry and block */
  a->lk_i = malloc(sizeof(int) * (size_t)a->lk_cap);
  a->lk_j = malloc(sizeof(int) * (size_t)a->lk_cap);
  a->lk_off = malloc(sizeof(int) * (size_t)a->lk_cap);
  a->lk_len = calloc(1, sizeof(int));
  a->body_simple = calloc((size_t)m->nbody + 1, 1);
  a->ride_body = malloc(sizeof(int) * ((size_t)m->npoint + 1));
  a->ride_J = calloc(33 * (size_t)m->npoint + 1, sizeof(double));
  a->body_dR = calloc(36 * (size_t)m->nbody + 1, sizeof(double));
  a->body_J = malloc(sizeof(double) * (169 + 312));
  unsigned char *row_ok = calloc((size_t)n + 1, 1), *seen = calloc((size_t)n + 1, 1);
  unsigned char *in_group = calloc((size_t)m->npoint + 1, 1);
  if (!a->mask || !a->pt_simple || !a->seg_plain || !a->wi_simple || !a->pu_simple ||
      !a->row_pt || !a->sph_pt || !a->fr_adr || !a->fr_pt || !a->pos_scr || !a->slot ||
      !a->sd || !a->sd_ok || !a->pt_g || !a->pt_b ||
      !a->lk_i || !a->lk_j || !a->lk_off || !a->lk_len || !a->body_simple || !a->ride_body ||
      !a->ride_J || !a->body_dR || !a->body_J || !row_ok || !seen || !in_group) {
    free(row_ok);
    free(seen);
    free(in_group);
    awe_jac_an_free(a);
    return NULL;
  }
  for (int g = 0; g < m->ngroup; g++)
    for (int e = 0; e < m->group_point_num[g]; e++)
      in_group[m->group_points[m->group_point_adr[g] + e]] = 1;
  for (int i = 0; i < m->npoint; i++) {
    int j = m->point_body[i];
    a->ride_body[i] = j >= 0 && w->point_x[i] < 0 && w->body_x[j] >= 0 ? j : -1;
  }
  for (int s = 0; s < m->nsegment; s++) {
    const awe_seg_hot *h = w->seg_hot + s;
    a->seg_plain[s] = !h->rigid && (h->pulley < 0 || w->pulley_x[h->pulley] >= 0) &&
                      plain_end(w, h->a) && plain_end(w, h->b);
  }
  for (int i = 0; i < n; i++) a->row_pt[i] = -1;
  for (int i = 0; i < m->npoint; i++) {
    int o = w->point_x[i];
    if (o < 0 || w->point_slave[i]) continue;
    int ok = simple_point(a, m, w, in_group, i);
    for (int e = 0; e < 3; e++) row_ok[o + e] = 1;
    a->pt_simple[i] = (unsigned char)ok;
    for (int e = 3; e < 6; e++) row_ok[o + e] = (unsigned char)ok;
    if (m->point_type[i] == AWE_PT_WING && particle_wing(w, m->point_wing[i])) {
      for (int e = 0; e < 6; e++) a->row_pt[o + e] = i;
      a->sph_pt[a->nsph++] = i;
    }
  }
  /* the frame of a particle wing: its reference points with a state, each once */
  for (int j = 0; j < m->nwing; j++) {
    a->fr_adr[j + 1] = a->fr_adr[j];
    if (!particle_wing(w, j)) continue;
    for (int k = 0; k < 4; k++) {
      int adr = m->wing_ref_adr[4 * j + k];
      for (int e = 0; e < m->wing_ref_num[4 * j + k]; e++) {
        int p = m->wing_ref_pts[adr + e];
        if (w->point_x[p] < 0 || seen[w->point_x[p]]) continue;
        seen[w->point_x[p]] = 1;
        a->fr_pt[a->fr_adr[j + 1]++] = p;
      }
    }
  }
  for (int t = 0; t < m->ntether; t++)
    if (w->tether_x[t] >= 0) row_ok[w->tether_x[t]] = 1;
  for (int wi = 0; wi < m->nwinch; wi++) {
    if (w->winch_x[wi] < 0) continue;
    int ok = 1;
    for (int e = 0; e < w->winch_seg_num[wi] && ok; e++) {
      int s = w->winch_segs[w->winch_seg_adr[wi] + e];
      ok = a->seg_plain[s] && w->seg_hot[s].pulley < 0;
    }
    a->wi_simple[wi] = (unsigned char)ok;
    row_ok[w->winch_x[wi]] = (unsigned char)ok;
  }
  for (int p = 0; p < m->npulley; p++) {
    int x = w->pulley_x[p];
    if (x < 0) continue;
    int ok = a->seg_plain[m->pulley_seg[2 * p]] && a->seg_plain[m->pulley_seg[2 * p + 1]];
    a->pu_simple[p] = (unsigned char)ok;
    row_ok[x] = 1;
    row_ok[x + 1] = (unsigned char)ok;
  }
  /* DYNAMIC bodies of no wing: their riding points plain (no group or wing, no wing's origin or
   * reference point: a wing's frame rows read only points with a state; plain segments).
   * in_group marks those points from here on. */
  for (int jw = 0; jw < m->nwing; jw++) {
    for (int e = 0; e < m->wing_origin_num[jw]; e++)
      in_group[m->wing_origin_pts[m->wing_origin_adr[jw] + e]] = 1;
    for (int set = 0; set < 4; set++)
      for (int e = 0; e < m->wing_ref_num[4 * jw + set]; e++)
        in_group[m->wing_ref_pts[m->wing_ref_adr[4 * jw + set] + e]] = 1;
  }
  for (int j = 0; j < m->nbody; j++) {
    int o = w->body_x[j];
    if (o < 0) continue;
    /* a body of a wing keeps finite differences: its wing-frame damping reads the wing's frame
     * and origin, and the steady state projects its rows on the wing's sphere (engine/body.c) */
    int ok = m->body_wing[j] < 0;
    for (int q = 0; q < m->body_point_num[j] && ok; q++) {
      int i = m->body_points[m->body_point_adr[j] + q];
      ok = a->ride_body[i] == j && !in_group[i] && m->point_wing[i] < 0;
      for (int e = 0; e < w->point_seg_num[i] && ok; e++)
        ok = a->seg_plain[w->point_segs[w->point_seg_adr[i] + e]];
    }
    a->body_simple[j] = (unsigned char)ok;
    for (int e = 0; e < 13; e++) row_ok[o + e] = (unsigned char)ok;
  }
  /* a column is analytic when all its rows are (the diagonal is implied in the pattern) */
  for (int j = 0; j < n; j++) {
    int ok = row_ok[j];
    for (int e = 0; e < col_num[j] && ok; e++) ok = row_ok[rows[col_adr[j] + e]];
    a->mask[j] = (unsigned char)ok;
    a->count += ok;
  }
  free(row_ok);
  free(seen);
  free(in_group);
  return a;
}
