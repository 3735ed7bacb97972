/* tube_jac.c: the analytic derivatives of a tube's wrench (body.h) in the states of its two
 * bodies (body_jac.h: awe_tube_jac).
 *
 * Every state column is a direction of the two bodies' kinematics: a translation dp_e, a
 * world-frame rotation dphi_e (R_e -> (I + [dphi_e]x) R_e; a quaternion column: dR/dQ_k =
 * [g_k]x R, g_k = vee(dR/dQ_k R^T), the world rate R omega turning along), a velocity dv_e and
 * a world rate dw_e (an omega column: R e_c). Along it (arm = R r, x = p + arm,
 * v_end = v + w x arm):
 *   d arm = dphi x arm,  d x = dp + d arm,  d w = dw + dphi x w,
 *   d v_end = dv + d w x arm + w x d arm.
 * Timoshenko (chord d = x_b - x_a, len, e1, e2 = p/|p|, p = a2 - (a2.e1) e1, a2 = R_a ref):
 *   d len = e1.dd, d e1 = (dd - dlen e1)/len, d a2 = dphi_a x a2,
 *   dp = da2 - (da2.e1 + a2.de1) e1 - (a2.e1) de1, de2 = (dp - (e2.dp) e2)/|p|,
 *   de3 = de1 x e2 + e1 x de2; the frame turns by eps = (sum e_i x de_i)/2 (dE = [eps]x E);
 *   D_e = E^T R_e R_e0^T: dD_e = [E^T (dphi_e - eps)]x D_e, and vee([u]x D) = (tr D I - D) u/2;
 *   damping: d(dv.e1), d spin = d(e1.w_a) e1 + (e1.w_a) de1 + (de1 x dv + e1 x d dv)/len
 *   - (e1 x dv) dlen/len^2, d r_e = beta E^T (dw_e - dspin - eps x (w_e - spin));
 *   the local wrench is linear (awe_timo_local) in (len - L0 + beta dv.e1, th_a + r_a,
 *   th_b + r_b); globally F = E f: dF = eps x F + E df, M = E m + arm x F.
 * Elastic (dr = R_a^T d - dr0, Rrel = Rrel0^T R_a^T R_b, dth = vee(Rrel)):
 *   d(R_a^T x) = R_a^T (dx - dphi_a x x),  d dth = (tr Rrel I - Rrel)/2 Rrel0^T R_a^T
 *   (dphi_b - dphi_a),  dF_b = dphi_a x F_b + R_a df_l,  dT = dphi_a x T + R_a dt_l.
 */
#include "engine/body_jac.h"

#include <string.h>

#include "engine/body.h"
#include "util/vec3.h"


/* a direction of the two bodies' kinematics */
typedef struct {
  double dp[2][3], dphi[2][3], dv[2][3], dw[2][3];
} dir;

/* the tube's state at the base point: ends, chord, frame, deformations, wrench */
typedef struct {
  double arm[2][3], w[2][3], vend[2][3], d[3], len;
  /* Timoshenko */
  double e1[3], e2[3], e3[3], a2[3], pn, E[9], D[2][9], trD[2];
  double dvv[3], t[3], wr, q[2][3]; /* damping: v_b - v_a, e1 x dv, e1.w_a, w_e - spin */
  double Em[2][3];                  /* E m_e */
  /* elastic */
  double Rrel[9], trR, dvw[3], dww[3], T[3];
  double F[2][3];
} base;


/* C = A^T B */
static void tmul(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
}


/* C = A B^T */
static void mul_bt(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] =
          A[3 * i] * B[3 * j] + A[3 * i + 1] * B[3 * j + 1] + A[3 * i + 2] * B[3 * j + 2];
}


/* vee([u]x D) = (tr D I - D) u / 2 */
static void vee_rot(const double D[9], double tr, const double u[3], double r[3]) {
  for (int i = 0; i < 3; i++)
    r[i] = 0.5 * (tr * u[i] - (D[3 * i] * u[0] + D[3 * i + 1] * u[1] + D[3 * i + 2] * u[2]));
}


static void ends(const awe_model *m, const awe_work *w, int i, base *b) {
  for (int e = 0; e < 2; e++) {
    int j = m->tube_body[2 * i + e];
    awe_mat3_vec(w->body_R + 9 * j, m->tube_anchor + 6 * i + 3 * e, b->arm[e]);
    memcpy(b->w[e], w->body_omega_w + 3 * j, 3 * sizeof(double));
    awe_v3_cross(b->vend[e], b->w[e], b->arm[e]);
    awe_v3_addto(b->vend[e], 1.0, w->body_vel + 3 * j);
  }
  for (int q = 0; q < 3; q++)
    b->d[q] = w->body_pos[3 * m->tube_body[2 * i + 1] + q] + b->arm[1][q] -
              w->body_pos[3 * m->tube_body[2 * i] + q] - b->arm[0][q];
  b->len = awe_v3_norm(b->d);
}


/* the base of a Timoshenko tube (as body.c) */
static void timo_base(const awe_model *m, const awe_work *w, int i, base *b) {
  int ja = m->tube_body[2 * i], jb = m->tube_body[2 * i + 1];
  ends(m, w, i, b);
  for (int q = 0; q < 3; q++) b->e1[q] = b->d[q] / b->len;
  awe_mat3_vec(w->body_R + 9 * ja, m->tube_ref_b + 3 * i, b->a2);
  double p[3];
  memcpy(p, b->a2, sizeof(p));
  awe_v3_addto(p, -awe_v3_dot(b->a2, b->e1), b->e1);
  b->pn = awe_v3_norm(p);
  for (int q = 0; q < 3; q++) b->e2[q] = p[q] / b->pn;
  awe_v3_cross(b->e3, b->e1, b->e2);
  for (int q = 0; q < 3; q++) {
    b->E[3 * q] = b->e1[q];
    b->E[3 * q + 1] = b->e2[q];
    b->E[3 * q + 2] = b->e3[q];
  }
  double ER[9], th[2][3];
  const double *R0[2] = {m->tube_Ra0 + 9 * i, m->tube_Rb0 + 9 * i};
  for (int e = 0; e < 2; e++) {
    tmul(b->E, w->body_R + 9 * (e ? jb : ja), ER);
    mul_bt(ER, R0[e], b->D[e]);
    b->trD[e] = b->D[e][0] + b->D[e][4] + b->D[e][8];
    th[e][0] = 0.5 * (b->D[e][7] - b->D[e][5]);
    th[e][1] = 0.5 * (b->D[e][2] - b->D[e][6]);
    th[e][2] = 0.5 * (b->D[e][3] - b->D[e][1]);
  }
  double beta = m->tube_damping[i], u0 = b->len - m->tube_L0[i], ua[3], ub[3];
  memcpy(ua, th[0], sizeof(ua));
  memcpy(ub, th[1], sizeof(ub));
  if (beta > 0.0) {
    awe_v3_sub(b->dvv, b->vend[1], b->vend[0]);
    awe_v3_cross(b->t, b->e1, b->dvv);
    b->wr = awe_v3_dot(b->e1, b->w[0]);
    for (int e = 0; e < 2; e++)
      for (int q = 0; q < 3; q++) b->q[e][q] = b->w[e][q] - b->wr * b->e1[q] - b->t[q] / b->len;
    double r[3];
    u0 += beta * awe_v3_dot(b->dvv, b->e1);
    awe_mat3_tvec(b->E, b->q[0], r);
    awe_v3_addto(ua, beta, r);
    awe_mat3_tvec(b->E, b->q[1], r);
    awe_v3_addto(ub, beta, r);
  }
  double f[2][3], mm[2][3];
  awe_timo_local(m->tube_k + 6 * i, m->tube_L0[i], u0, ua, ub, f[0], mm[0], f[1], mm[1]);
  for (int e = 0; e < 2; e++) {
    awe_mat3_vec(b->E, f[e], b->F[e]);
    awe_mat3_vec(b->E, mm[e], b->Em[e]);
  }
}


/* the kinematic derivatives common to both models: d arm, d w, d v_end, d d */
static void kin_dir(const base *b, const dir *x, double darm[2][3], double dw[2][3],
                    double dvend[2][3], double dd[3]) {
  for (int e = 0; e < 2; e++) {
    double t[3];
    awe_v3_cross(darm[e], x->dphi[e], b->arm[e]);
    awe_v3_cross(t, x->dphi[e], b->w[e]);
    for (int q = 0; q < 3; q++) dw[e][q] = x->dw[e][q] + t[q];
    awe_v3_cross(dvend[e], dw[e], b->arm[e]);
    awe_v3_cross(t, b->w[e], darm[e]);
    for (int q = 0; q < 3; q++) dvend[e][q] += x->dv[e][q] + t[q];
  }
  for (int q = 0; q < 3; q++)
    dd[q] = x->dp[1][q] + darm[1][q] - x->dp[0][q] - darm[0][q];
}


/* the wrench's derivative along x: out = d(F_a, M_a, F_b, M_b) */
static void timo_dir(const awe_model *m, int i, const base *b, const dir *x, double out[12]) {
  double darm[2][3], dw[2][3], dvend[2][3], dd[3];
  kin_dir(b, x, darm, dw, dvend, dd);
  double len = b->len, dlen = 0.0, de1[3] = {0.0}, eps[3] = {0.0}, t1[3], t2[3];
  double du0 = 0.0, du[2][3] = {{0.0}};
  int pose = 0; /* a translation or rotation: the chord and the frame move */
  for (int e = 0; e < 2; e++)
    for (int q = 0; q < 3; q++) pose |= x->dp[e][q] != 0.0 || x->dphi[e][q] != 0.0;
  if (pose) {
    double de2[3], de3[3], da2[3], dp[3];
    dlen = awe_v3_dot(b->e1, dd);
    for (int q = 0; q < 3; q++) de1[q] = (dd[q] - dlen * b->e1[q]) / len;
    awe_v3_cross(da2, x->dphi[0], b->a2);
    double s1 = awe_v3_dot(da2, b->e1) + awe_v3_dot(b->a2, de1), s2 = awe_v3_dot(b->a2, b->e1);
    for (int q = 0; q < 3; q++) dp[q] = da2[q] - s1 * b->e1[q] - s2 * de1[q];
    double s3 = awe_v3_dot(b->e2, dp);
    for (int q = 0; q < 3; q++) de2[q] = (dp[q] - s3 * b->e2[q]) / b->pn;
    awe_v3_cross(t1, de1, b->e2);
    awe_v3_cross(t2, b->e1, de2);
    for (int q = 0; q < 3; q++) de3[q] = t1[q] + t2[q];
    awe_v3_cross(eps, b->e1, de1);
    awe_v3_cross(t1, b->e2, de2);
    awe_v3_cross(t2, b->e3, de3);
    for (int q = 0; q < 3; q++) eps[q] = 0.5 * (eps[q] + t1[q] + t2[q]);
    du0 = dlen;
    for (int e = 0; e < 2; e++) {
      double g[3], u[3];
      for (int q = 0; q < 3; q++) g[q] = x->dphi[e][q] - eps[q];
      awe_mat3_tvec(b->E, g, u);
      vee_rot(b->D[e], b->trD[e], u, du[e]);
    }
  }
  double beta = m->tube_damping[i];
  if (beta > 0.0) {
    double ddv[3], dt[3], dspin[3];
    awe_v3_sub(ddv, dvend[1], dvend[0]);
    du0 += beta * (awe_v3_dot(ddv, b->e1) + awe_v3_dot(b->dvv, de1));
    awe_v3_cross(t1, de1, b->dvv);
    awe_v3_cross(t2, b->e1, ddv);
    for (int q = 0; q < 3; q++) dt[q] = t1[q] + t2[q];
    double dwr = awe_v3_dot(de1, b->w[0]) + awe_v3_dot(b->e1, dw[0]);
    for (int q = 0; q < 3; q++)
      dspin[q] = dwr * b->e1[q] + b->wr * de1[q] + dt[q] / len - b->t[q] * dlen / (len * len);
    for (int e = 0; e < 2; e++) {
      double g[3], c[3], r[3];
      awe_v3_cross(c, eps, b->q[e]);
      for (int q = 0; q < 3; q++) g[q] = dw[e][q] - dspin[q] - c[q];
      awe_mat3_tvec(b->E, g, r);
      awe_v3_addto(du[e], beta, r);
    }
  }
  double df[2][3], dm[2][3];
  awe_timo_local(m->tube_k + 6 * i, m->tube_L0[i], du0, du[0], du[1], df[0], dm[0], df[1],
                 dm[1]);
  for (int e = 0; e < 2; e++) {
    double *dF = out + 6 * e, *dM = out + 6 * e + 3, c[3];
    awe_mat3_vec(b->E, df[e], dF);
    awe_v3_cross(c, eps, b->F[e]);
    awe_v3_addto(dF, 1.0, c);
    awe_mat3_vec(b->E, dm[e], dM);
    awe_v3_cross(c, eps, b->Em[e]);
    awe_v3_addto(dM, 1.0, c);
    awe_v3_cross(c, darm[e], b->F[e]);
    awe_v3_addto(dM, 1.0, c);
    awe_v3_cross(c, b->arm[e], dF);
    awe_v3_addto(dM, 1.0, c);
  }
}


/* the base of an elastic tube (as body.c) */
static void elastic_base(const awe_model *m, const awe_work *w, int i, base *b) {
  int ja = m->tube_body[2 * i], jb = m->tube_body[2 * i + 1];
  const double *Ra = w->body_R + 9 * ja;
  ends(m, w, i, b);
  double dr[3], S[9], dv[3], dw[3], t[3];
  awe_mat3_tvec(Ra, b->d, dr);
  awe_v3_addto(dr, -1.0, m->tube_off0 + 3 * i);
  tmul(Ra, w->body_R + 9 * jb, S);
  tmul(m->tube_Rrel0 + 9 * i, S, b->Rrel);
  b->trR = b->Rrel[0] + b->Rrel[4] + b->Rrel[8];
  double dth[3] = {0.5 * (b->Rrel[7] - b->Rrel[5]), 0.5 * (b->Rrel[2] - b->Rrel[6]),
                   0.5 * (b->Rrel[3] - b->Rrel[1])};
  awe_v3_sub(b->dvw, b->vend[1], b->vend[0]);
  awe_v3_cross(t, b->w[0], b->d);
  awe_v3_addto(b->dvw, -1.0, t);
  awe_mat3_tvec(Ra, b->dvw, dv);
  awe_v3_sub(b->dww, b->w[1], b->w[0]);
  awe_mat3_tvec(Ra, b->dww, dw);
  const double *k = m->tube_k + 6 * i;
  double beta = m->tube_damping[i], fl[3], tl[3];
  const double kf[3] = {k[0], k[1], k[1]}, kt[3] = {k[2], k[3], k[3]};
  for (int q = 0; q < 3; q++) {
    fl[q] = -kf[q] * (dr[q] + beta * dv[q]);
    tl[q] = -kt[q] * (dth[q] + beta * dw[q]);
  }
  awe_mat3_vec(Ra, fl, b->F[1]);
  awe_mat3_vec(Ra, tl, b->T);
  for (int q = 0; q < 3; q++) b->F[0][q] = -b->F[1][q];
}


static void elastic_dir(const awe_model *m, const awe_work *w, int i, const base *b,
                        const dir *x, double out[12]) {
  const double *Ra = w->body_R + 9 * m->tube_body[2 * i];
  double darm[2][3], dw[2][3], dvend[2][3], dd[3], t[3], g[3];
  kin_dir(b, x, darm, dw, dvend, dd);
  const double *pa = x->dphi[0];
  /* d dr = R_a^T (dd - dphi_a x d) */
  double ddr[3], ddth[3], ddv[3], ddw[3];
  awe_v3_cross(t, pa, b->d);
  for (int q = 0; q < 3; q++) g[q] = dd[q] - t[q];
  awe_mat3_tvec(Ra, g, ddr);
  /* d dth = (tr Rrel I - Rrel)/2 Rrel0^T R_a^T (dphi_b - dphi_a) */
  double u[3], u2[3];
  awe_v3_sub(g, x->dphi[1], pa);
  awe_mat3_tvec(Ra, g, u);
  awe_mat3_tvec(m->tube_Rrel0 + 9 * i, u, u2);
  vee_rot(b->Rrel, b->trR, u2, ddth);
  /* d dvw = d v_b - d v_a - d w_a x d - w_a x dd; d dv = R_a^T (d dvw - dphi_a x dvw) */
  double ddvw[3];
  awe_v3_sub(ddvw, dvend[1], dvend[0]);
  awe_v3_cross(t, dw[0], b->d);
  awe_v3_addto(ddvw, -1.0, t);
  awe_v3_cross(t, b->w[0], dd);
  awe_v3_addto(ddvw, -1.0, t);
  awe_v3_cross(t, pa, b->dvw);
  awe_v3_addto(ddvw, -1.0, t);
  awe_mat3_tvec(Ra, ddvw, ddv);
  awe_v3_sub(g, dw[1], dw[0]);
  awe_v3_cross(t, pa, b->dww);
  awe_v3_addto(g, -1.0, t);
  awe_mat3_tvec(Ra, g, ddw);
  const double *k = m->tube_k + 6 * i;
  double beta = m->tube_damping[i], dfl[3], dtl[3];
  const double kf[3] = {k[0], k[1], k[1]}, kt[3] = {k[2], k[3], k[3]};
  for (int q = 0; q < 3; q++) {
    dfl[q] = -kf[q] * (ddr[q] + beta * ddv[q]);
    dtl[q] = -kt[q] * (ddth[q] + beta * ddw[q]);
  }
  double dFb[3], dT[3];
  awe_mat3_vec(Ra, dfl, dFb);
  awe_v3_cross(t, pa, b->F[1]);
  awe_v3_addto(dFb, 1.0, t);
  awe_mat3_vec(Ra, dtl, dT);
  awe_v3_cross(t, pa, b->T);
  awe_v3_addto(dT, 1.0, t);
  double *dFa = out, *dMa = out + 3, *dFb_o = out + 6, *dMb = out + 9;
  for (int q = 0; q < 3; q++) {
    dFa[q] = -dFb[q];
    dFb_o[q] = dFb[q];
  }
  /* M_a = arm_a x F_a - T - d x F_b,  M_b = arm_b x F_b + T */
  awe_v3_cross(dMa, darm[0], b->F[0]);
  awe_v3_cross(t, b->arm[0], dFa);
  awe_v3_addto(dMa, 1.0, t);
  awe_v3_addto(dMa, -1.0, dT);
  awe_v3_cross(t, dd, b->F[1]);
  awe_v3_addto(dMa, -1.0, t);
  awe_v3_cross(t, b->d, dFb);
  awe_v3_addto(dMa, -1.0, t);
  awe_v3_cross(dMb, darm[1], b->F[1]);
  awe_v3_cross(t, b->arm[1], dFb);
  awe_v3_addto(dMb, 1.0, t);
  awe_v3_addto(dMb, 1.0, dT);
}


/* the wrench's derivative along x */
static void along(const awe_model *m, const awe_work *w, int i, int timo, const base *b,
                  const dir *x, double out[12]) {
  if (timo)
    timo_dir(m, i, b, x, out);
  else
    elastic_dir(m, w, i, b, x, out);
}


/* 18 directions: the chord and the relative velocity act through x_b - x_a and v_b - v_a only
 * (body a's translation and velocity columns are body b's, negated), the rotations and rates
 * of each dynamic body along the world axes; a quaternion column is the rotation g_k
 * (dR/dQ_k = [g_k]x R), an omega column the world rate R e_c */
void awe_tube_jac(const awe_model *m, const awe_work *w, int i, double J[312]) {
  memset(J, 0, 312 * sizeof(double));
  base b;
  int timo = m->tube_model[i] == AWE_TUBE_TIMOSHENKO;
  if (timo)
    timo_base(m, w, i, &b);
  else
    elastic_base(m, w, i, &b);
  int dyn[2] = {w->body_x[m->tube_body[2 * i]] >= 0, w->body_x[m->tube_body[2 * i + 1]] >= 0};
  double out[12];
  for (int c = 0; c < 6; c++) {
    dir x;
    memset(&x, 0, sizeof(x));
    if (c < 3)
      x.dp[1][c] = 1.0;
    else
      x.dv[1][c - 3] = 1.0;
    along(m, w, i, timo, &b, &x, out);
    for (int r = 0; r < 12; r++) {
      if (dyn[0]) J[26 * r + c] = -out[r];
      if (dyn[1]) J[26 * r + 13 + c] = out[r];
    }
  }
  for (int e = 0; e < 2; e++) {
    if (!dyn[e]) continue;
    int j = m->tube_body[2 * i + e];
    const double *R = w->body_R + 9 * j;
    double dR[36], g[4][3], Jphi[12][3], Jw[12][3];
    awe_quat_dR(w->body_q + 4 * j, dR);
    for (int k = 0; k < 4; k++) {
      double G[9]; /* dR_k R^T = [g_k]x */
      mul_bt(dR + 9 * k, R, G);
      g[k][0] = 0.5 * (G[7] - G[5]);
      g[k][1] = 0.5 * (G[2] - G[6]);
      g[k][2] = 0.5 * (G[3] - G[1]);
    }
    for (int l = 0; l < 3; l++) {
      dir x;
      memset(&x, 0, sizeof(x));
      x.dphi[e][l] = 1.0;
      along(m, w, i, timo, &b, &x, out);
      for (int r = 0; r < 12; r++) Jphi[r][l] = out[r];
      x.dphi[e][l] = 0.0;
      x.dw[e][l] = 1.0;
      along(m, w, i, timo, &b, &x, out);
      for (int r = 0; r < 12; r++) Jw[r][l] = out[r];
    }
    for (int r = 0; r < 12; r++) {
      double *row = J + 26 * r + 13 * e;
      for (int k = 0; k < 4; k++)
        row[6 + k] = Jphi[r][0] * g[k][0] + Jphi[r][1] * g[k][1] + Jphi[r][2] * g[k][2];
      for (int c = 0; c < 3; c++)
        row[10 + c] = Jw[r][0] * R[c] + Jw[r][1] * R[3 + c] + Jw[r][2] * R[6 + c];
    }
  }
}
