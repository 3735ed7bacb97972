/* jacobian.c: analytic Jacobian of the structural right-hand side (equations: jacobian.h). */
#include "engine/jacobian.h"

#include <stdlib.h>
#include <string.h>

#include "engine/atmosphere.h"
#include "engine/winch.h"

struct awe_jac_an {
  const awe_model *m;
  int n, count;
  const int *col_adr, *col_num, *rows; /* borrowed pattern */
  unsigned char *mask;      /* [n] analytic columns */
  unsigned char *pt_simple; /* [np] point whose vel rows are done here */
  unsigned char *seg_plain; /* [ns] plain spring-damper between plain ends */
  unsigned char *wi_simple; /* [nwinch] */
};

/* the derivatives of one segment's end forces (jacobian.h) */
typedef struct {
  double K[9], C[9], dl0[3]; /* d(F_s u)/d d, /d dv, /d l0 (force on end a) */
  double Gd[9], Ga[9], gz[3]; /* line drag: d F_d/d d, /d va, /d z_mid (whole drag) */
} seg_der;

/* where the entries go: a dense matrix or the pattern */
typedef struct {
  const awe_jac_an *a;
  double *dense, *jval;
} sink;


static void add(const sink *k, int i, int j, double v) {
  if (j < 0 || i < 0 || !k->a->mask[j] || v == 0.0) return;
  if (k->dense) {
    k->dense[(size_t)i * (size_t)k->a->n + (size_t)j] += v;
    return;
  }
  const int *r = k->a->rows + k->a->col_adr[j];
  for (int e = 0; e < k->a->col_num[j]; e++)
    if (r[e] == i) {
      k->jval[k->a->col_adr[j] + e] += v;
      return;
    }
}


/* B (3x3, row-major) times s at rows r0.., columns c0.. */
static void add_block(const sink *k, int r0, int c0, const double *B, double s) {
  if (r0 < 0 || c0 < 0) return;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) add(k, r0 + i, c0 + j, s * B[3 * i + j]);
}


static void seg_derivs(const awe_model *m, const awe_work *w, int s, seg_der *g) {
  const awe_seg_hot *h = w->seg_hot + s;
  const double *pa = w->pos + 3 * h->a, *pb = w->pos + 3 * h->b;
  const double *va = w->vel + 3 * h->a, *vb = w->vel + 3 * h->b;
  const double *u = w->seg_dir + 3 * s;
  double len = w->seg_len[s], f = w->seg_force[s], l0 = w->seg_l0[s];
  double kk = (len > l0 ? 1.0 : h->comp_frac) * h->unit_k, c = h->unit_c;
  double dv[3], P[9], dvP[3];
  for (int i = 0; i < 3; i++) dv[i] = va[i] - vb[i];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) P[3 * i + j] = (i == j) - u[i] * u[j];
  for (int j = 0; j < 3; j++) dvP[j] = dv[0] * P[j] + dv[1] * P[3 + j] + dv[2] * P[6 + j];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      g->K[3 * i + j] = u[i] * ((kk - f) * u[j] - c * dvP[j] / len) / len + f * P[3 * i + j] / len;
      g->C[3 * i + j] = -c * u[i] * u[j] / len;
    }
  for (int i = 0; i < 3; i++) g->dl0[i] = -kk * u[i] / len;
  memset(g->Gd, 0, sizeof(g->Gd));
  memset(g->Ga, 0, sizeof(g->Ga));
  memset(g->gz, 0, sizeof(g->gz));
  if (h->drag == 0.0) return;
  double z = 0.5 * (pa[2] + pb[2]), wind[3], app[3], Pa[3], aP[3];
  awe_wind_at(&m->env, w->wind_gnd, z, wind);
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
  double df = m->env.profile_law != 0 ? awe_wind_dfactor(&m->env, z) : 0.0;
  for (int i = 0; i < 3; i++) {
    g->gz[i] = q * dlr * Pa[i];
    for (int j = 0; j < 3; j++) g->gz[i] += g->Ga[3 * i + j] * df * w->wind_gnd[j];
  }
}


/* the tether state column of segment s's rest length and d l0/d len, or -1 */
static int l0_col(const awe_model *m, const awe_work *w, int s, double *dl0_dlen) {
  int t = m->segment_tether[s];
  if (t < 0 || w->tether_x[t] < 0) return -1;
  *dl0_dlen = 1.0 / m->tether_seg_num[t];
  return w->tether_x[t];
}


/* the force sigma * (segment s's end force on a) + share * its drag, differentiated, into
 * rows r0..r0+2 scaled by inv_m (rows of a velocity or of a winch's force vector) */
static void add_segment(const sink *k, const awe_model *m, const awe_work *w, int s,
                        const seg_der *g, double sigma, double share, int r0, double scale) {
  const awe_seg_hot *h = w->seg_hot + s;
  int xa = w->point_x[h->a], xb = w->point_x[h->b];
  double B[9];
  /* d/d pos_b = sigma K + share Gd (+ share gz/2 on z), d/d pos_a the opposite (+ gz/2) */
  for (int e = 0; e < 9; e++) B[e] = sigma * g->K[e] + share * g->Gd[e];
  for (int i = 0; i < 3; i++) B[3 * i + 2] += 0.5 * share * g->gz[i];
  if (xb >= 0) add_block(k, r0, xb, B, scale);
  for (int e = 0; e < 9; e++) B[e] = -sigma * g->K[e] - share * g->Gd[e];
  for (int i = 0; i < 3; i++) B[3 * i + 2] += 0.5 * share * g->gz[i];
  if (xa >= 0) add_block(k, r0, xa, B, scale);
  /* velocities: dv = va - vb, va_app = wind - (va + vb)/2 */
  for (int e = 0; e < 9; e++) B[e] = sigma * g->C[e] - 0.5 * share * g->Ga[e];
  if (xa >= 0) add_block(k, r0, xa + 3, B, scale);
  for (int e = 0; e < 9; e++) B[e] = -sigma * g->C[e] - 0.5 * share * g->Ga[e];
  if (xb >= 0) add_block(k, r0, xb + 3, B, scale);
  double dl;
  int xl = l0_col(m, w, s, &dl);
  if (xl >= 0)
    for (int i = 0; i < 3; i++) add(k, r0 + i, xl, scale * sigma * g->dl0[i] * dl);
}


static void point_rows(const sink *k, const awe_model *m, const awe_work *w, int i) {
  int o = w->point_x[i];
  for (int e = 0; e < 3; e++) add(k, o + e, o + 3 + e, 1.0); /* d pos/dt = vel */
  if (!k->a->pt_simple[i]) return;
  double mi = w->mass[i], inv_m = 1.0 / mi;
  const double *F = w->force + 3 * i;
  int r0 = o + 3;
  for (int e = 0; e < w->point_seg_num[i]; e++) {
    int s = w->point_segs[w->point_seg_adr[i] + e];
    seg_der g;
    seg_derivs(m, w, s, &g);
    add_segment(k, m, w, s, &g, w->point_seg_sign[w->point_seg_adr[i] + e], 0.5, r0, inv_m);
    /* the mass follows the rest length: d acc/d len += (-g e_z - F/m) dm/d len / m */
    double dl;
    int xl = l0_col(m, w, s, &dl);
    if (xl >= 0) {
      double dm = 0.5 * w->segment_lambda[s] * dl;
      for (int c = 0; c < 3; c++)
        add(k, r0 + c, xl, (-(c == 2 ? m->env.g : 0.0) - F[c] * inv_m) * dm * inv_m);
    }
  }
  /* point drag and damping */
  const double *v = w->vel + 3 * i, *wfd = m->point_wfd + 3 * i, *bfd = m->point_bfd + 3 * i;
  for (int c = 0; c < 3; c++) add(k, r0 + c, o + 3 + c, -wfd[c] - bfd[c]);
  double area = m->point_area[i], cd = m->point_cd[i];
  if (area != 0.0 && cd != 0.0) {
    double z = w->pos[3 * i + 2], wind[3], va[3];
    awe_wind_at(&m->env, w->wind_gnd, z, wind);
    awe_v3_sub(va, wind, v);
    double vn = sqrt(awe_v3_dot(va, va) + 1e-24);
    double c0 = 0.5 * awe_density(&m->env, z) * cd * area;
    double A[9]; /* d D/d va */
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) A[3 * r + c] = c0 * ((r == c) * vn + va[r] * va[c] / vn);
    add_block(k, r0, o + 3, A, -inv_m);
    double dlr = awe_density_dlog(&m->env, z);
    double df = m->env.profile_law != 0 ? awe_wind_dfactor(&m->env, z) : 0.0;
    for (int r = 0; r < 3; r++) {
      double dz = c0 * vn * va[r] * dlr;
      for (int c = 0; c < 3; c++) dz += A[3 * r + c] * df * w->wind_gnd[c];
      add(k, r0 + r, o + 2, dz * inv_m);
    }
  }
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
    seg_der g;
    seg_derivs(m, w, sg, &g);
    const awe_seg_hot *h = w->seg_hot + sg;
    int xa = w->point_x[h->a], xb = w->point_x[h->b];
    /* F^T K (and C) */
    for (int j = 0; j < 3; j++) {
      double kj = 0.0, cj = 0.0;
      for (int i = 0; i < 3; i++) {
        kj += F[i] * g.K[3 * i + j];
        cj += F[i] * g.C[3 * i + j];
      }
      if (xb >= 0) add(k, x, xb + j, s * sign[e] * kj);
      if (xa >= 0) add(k, x, xa + j, -s * sign[e] * kj);
      if (xa >= 0) add(k, x, xa + 3 + j, s * sign[e] * cj);
      if (xb >= 0) add(k, x, xb + 3 + j, -s * sign[e] * cj);
    }
    double dl;
    int xl = l0_col(m, w, sg, &dl);
    if (xl >= 0) add(k, x, xl, s * sign[e] * awe_v3_dot(F, g.dl0) * dl);
  }
  /* friction: d/dv of r (-friction(v))/I */
  double wm = w->winch_vel[wi] / ratio, eps = m->winch_friction_eps[wi];
  double den = wm * wm + eps * eps;
  double dfric = eps * eps / (den * sqrt(den)) * m->winch_f_coulomb[wi] +
                 m->winch_c_vf[wi] * ratio;
  add(k, x, x, -ratio * dfric / I);
}


static void eval(const awe_jac_an *a, const awe_ctx *ctx, const sink *k) {
  const awe_model *m = ctx->m;
  const awe_work *w = ctx->w;
  for (int i = 0; i < m->npoint; i++)
    if (w->point_x[i] >= 0 && !w->point_slave[i] && m->point_wing[i] < 0) point_rows(k, m, w, i);
  for (int wi = 0; wi < m->nwinch; wi++)
    if (w->winch_x[wi] >= 0) winch_rows(k, ctx, wi);
  (void)a;
}


void awe_jac_an_dense(const awe_jac_an *a, const awe_ctx *ctx, double *dfdy) {
  if (!a || a->count == 0) return;
  sink k = {a, dfdy, NULL};
  eval(a, ctx, &k);
}


void awe_jac_an_pattern(const awe_jac_an *a, const awe_ctx *ctx, double *jval) {
  if (!a || a->count == 0) return;
  for (int j = 0; j < a->n; j++)
    if (a->mask[j]) memset(jval + a->col_adr[j], 0, sizeof(double) * (size_t)a->col_num[j]);
  sink k = {a, NULL, jval};
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
  free(a);
}


/* a point whose pos, vel are states (not a wing slave) or a STATIC point */
static int plain_end(const awe_model *m, const awe_work *w, int i) {
  if (w->point_slave[i]) return 0;
  if (w->point_x[i] >= 0) return 1;
  return w->point_qs[i] < 0 && m->point_wing[i] < 0;
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
  a->mask = calloc((size_t)n + 1, 1);
  a->pt_simple = calloc((size_t)m->npoint + 1, 1);
  a->seg_plain = calloc((size_t)m->nsegment + 1, 1);
  a->wi_simple = calloc((size_t)m->nwinch + 1, 1);
  unsigned char *row_ok = calloc((size_t)n + 1, 1);
  if (!a->mask || !a->pt_simple || !a->seg_plain || !a->wi_simple || !row_ok) {
    free(row_ok);
    awe_jac_an_free(a);
    return NULL;
  }
  for (int s = 0; s < m->nsegment; s++) {
    const awe_seg_hot *h = w->seg_hot + s;
    a->seg_plain[s] = h->pulley < 0 && !h->rigid && plain_end(m, w, h->a) && plain_end(m, w, h->b);
  }
  for (int i = 0; i < m->npoint; i++) {
    int o = w->point_x[i];
    if (o < 0 || w->point_slave[i] || m->point_wing[i] >= 0) continue;
    int ok = 1;
    for (int e = 0; e < w->point_seg_num[i] && ok; e++)
      ok = a->seg_plain[w->point_segs[w->point_seg_adr[i] + e]];
    for (int e = 0; e < 3; e++) row_ok[o + e] = 1;
    a->pt_simple[i] = (unsigned char)ok;
    for (int e = 3; e < 6; e++) row_ok[o + e] = (unsigned char)ok;
  }
  for (int t = 0; t < m->ntether; t++)
    if (w->tether_x[t] >= 0) row_ok[w->tether_x[t]] = 1;
  for (int wi = 0; wi < m->nwinch; wi++) {
    if (w->winch_x[wi] < 0) continue;
    int ok = 1;
    for (int e = 0; e < w->winch_seg_num[wi] && ok; e++)
      ok = a->seg_plain[w->winch_segs[w->winch_seg_adr[wi] + e]];
    a->wi_simple[wi] = (unsigned char)ok;
    row_ok[w->winch_x[wi]] = (unsigned char)ok;
  }
  /* a column is analytic when all its rows are (the diagonal is implied in the pattern) */
  for (int j = 0; j < n; j++) {
    int ok = row_ok[j];
    for (int e = 0; e < col_num[j] && ok; e++) ok = row_ok[rows[col_adr[j] + e]];
    a->mask[j] = (unsigned char)ok;
    a->count += ok;
  }
  free(row_ok);
  return a;
}
