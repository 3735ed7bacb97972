/* body.c: rigid bodies and the tubes between them.
 *
 * Equations and sources: see body.h (SymbolicAWEModels 0.17 rigid_body_eqs.jl,
 * timoshenko_tube_eqs.jl, elastic_tube_eqs.jl).
 */
#include "engine/body.h"

#include <string.h>

#include "engine/wing.h"
#include "util/kite_frames.h"
#include "util/vec3.h"


/* C = A^T B */
static void mat_tmul(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
}


/* C = A B^T */
static void mat_mul_bt(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[3 * i] * B[3 * j] + A[3 * i + 1] * B[3 * j + 1] + A[3 * i + 2] * B[3 * j + 2];
}


/* the rotation vector of the skew part of D (SAM's small-angle extraction) */
static void vee(const double D[9], double th[3]) {
  th[0] = 0.5 * (D[7] - D[5]);
  th[1] = 0.5 * (D[2] - D[6]);
  th[2] = 0.5 * (D[3] - D[1]);
}


void awe_body_state_init(const awe_model *m, const awe_work *w, double *y) {
  for (int j = 0; j < m->nbody; j++) {
    int o = w->body_x[j];
    if (o < 0) continue;
    memcpy(y + o, m->body_pos0 + 3 * j, 3 * sizeof(double));
    memcpy(y + o + 3, m->body_vel0 + 3 * j, 3 * sizeof(double));
    memcpy(y + o + 6, m->body_q0 + 4 * j, 4 * sizeof(double));
    memcpy(y + o + 10, m->body_omega0 + 3 * j, 3 * sizeof(double));
  }
}


void awe_body_kinematics(const awe_model *m, awe_work *w, const double *y) {
  for (int j = 0; j < m->nbody; j++) {
    int o = w->body_x[j];
    double *q = w->body_q + 4 * j;
    if (o < 0) {
      memcpy(w->body_pos + 3 * j, m->body_pos0 + 3 * j, 3 * sizeof(double));
      memset(w->body_vel + 3 * j, 0, 3 * sizeof(double));
      memcpy(q, m->body_q0 + 4 * j, 4 * sizeof(double));
      memset(w->body_omega + 3 * j, 0, 3 * sizeof(double));
    } else {
      memcpy(w->body_pos + 3 * j, y + o, 3 * sizeof(double));
      memcpy(w->body_vel + 3 * j, y + o + 3, 3 * sizeof(double));
      memcpy(q, y + o + 6, 4 * sizeof(double));
      memcpy(w->body_omega + 3 * j, y + o + 10, 3 * sizeof(double));
    }
    awe_quat_to_R(q, w->body_R + 9 * j);
    awe_mat3_vec(w->body_R + 9 * j, w->body_omega + 3 * j, w->body_omega_w + 3 * j);
    /* riding points: p = c + R r, v = v_c + omega_w x R r */
    for (int k = 0; k < m->body_point_num[j]; k++) {
      int i = m->body_points[m->body_point_adr[j] + k];
      double r[3], *p = w->pos + 3 * i, *v = w->vel + 3 * i;
      awe_mat3_vec(w->body_R + 9 * j, m->point_anchor_b + 3 * i, r);
      for (int e = 0; e < 3; e++) p[e] = w->body_pos[3 * j + e] + r[e];
      awe_v3_cross(v, w->body_omega_w + 3 * j, r);
      awe_v3_addto(v, 1.0, w->body_vel + 3 * j);
    }
  }
}


/* end point of tube i on body b (e = 0: a, 1: b), its velocity */
static void tube_end(const awe_model *m, const awe_work *w, int i, int e, double x[3],
                     double v[3], double arm[3]) {
  int b = m->tube_body[2 * i + e];
  awe_mat3_vec(w->body_R + 9 * b, m->tube_anchor + 6 * i + 3 * e, arm);
  for (int k = 0; k < 3; k++) x[k] = w->body_pos[3 * b + k] + arm[k];
  awe_v3_cross(v, w->body_omega_w + 3 * b, arm);
  awe_v3_addto(v, 1.0, w->body_vel + 3 * b);
}


/* SAM's timoshenko_local_wrench: end wrench in element coordinates, linear in the
 * deformations (delta, th_a, th_b); k = EA, GA, GJ, EIy, EIz, k_shear */
void awe_timo_local(const double *k, double L0, double delta, const double ta[3],
                    const double tb[3], double Fa[3], double Ma[3], double Fb[3], double Mb[3]) {
  double EA = k[0], GA = k[1], GJ = k[2], EIy = k[3], EIz = k[4], ks = k[5];
  double Py = 12.0 * EIy / (ks * GA * L0 * L0), Pz = 12.0 * EIz / (ks * GA * L0 * L0);
  double by = EIy / (L0 * (1.0 + Py)), bz = EIz / (L0 * (1.0 + Pz));
  double sy = 6.0 * EIy / (L0 * L0 * (1.0 + Py)), sz = 6.0 * EIz / (L0 * L0 * (1.0 + Pz));
  double Mt = GJ / L0, f = EA * delta / L0;
  Fa[0] = f;
  Fa[1] = -sz * (ta[2] + tb[2]);
  Fa[2] = sy * (ta[1] + tb[1]);
  for (int q = 0; q < 3; q++) Fb[q] = -Fa[q];
  Ma[0] = -Mt * (ta[0] - tb[0]);
  Ma[1] = -by * ((4.0 + Py) * ta[1] + (2.0 - Py) * tb[1]);
  Ma[2] = -bz * ((4.0 + Pz) * ta[2] + (2.0 - Pz) * tb[2]);
  Mb[0] = -Mt * (tb[0] - ta[0]);
  Mb[1] = -by * ((2.0 - Py) * ta[1] + (4.0 + Py) * tb[1]);
  Mb[2] = -bz * ((2.0 - Pz) * ta[2] + (4.0 + Pz) * tb[2]);
}


static void timoshenko(const awe_model *m, const awe_work *w, int i, double Fa[3], double Ma[3],
                       double Fb[3], double Mb[3]) {
  int a = m->tube_body[2 * i], b = m->tube_body[2 * i + 1];
  const double *Ra = w->body_R + 9 * a, *Rb = w->body_R + 9 * b;
  const double *wa = w->body_omega_w + 3 * a, *wb = w->body_omega_w + 3 * b;
  double xa[3], xb[3], va[3], vb[3], arma[3], armb[3];
  tube_end(m, w, i, 0, xa, va, arma);
  tube_end(m, w, i, 1, xb, vb, armb);
  double d[3], e1[3], e2[3], e3[3], a2[3];
  awe_v3_sub(d, xb, xa);
  double len = awe_v3_norm(d);
  for (int q = 0; q < 3; q++) e1[q] = d[q] / len;
  awe_mat3_vec(Ra, m->tube_ref_b + 3 * i, a2);
  memcpy(e2, a2, sizeof(e2));
  awe_v3_addto(e2, -awe_v3_dot(a2, e1), e1);
  awe_v3_normalize(e2);
  awe_v3_cross(e3, e1, e2);
  double E[9];
  for (int q = 0; q < 3; q++) {
    E[3 * q] = e1[q];
    E[3 * q + 1] = e2[q];
    E[3 * q + 2] = e3[q];
  }
  double ER[9], D[9], ta[3], tb[3];
  mat_tmul(E, Ra, ER);
  mat_mul_bt(ER, m->tube_Ra0 + 9 * i, D);
  vee(D, ta);
  mat_tmul(E, Rb, ER);
  mat_mul_bt(ER, m->tube_Rb0 + 9 * i, D);
  vee(D, tb);
  const double *k = m->tube_k + 6 * i;
  double L0 = m->tube_L0[i];
  double fa[3], ma[3], fb[3], mb[3];
  awe_timo_local(k, L0, len - L0, ta, tb, fa, ma, fb, mb);
  double beta = m->tube_damping[i];
  if (beta > 0.0) {
    double dv[3], spin[3], t[3], ra[3], rb[3];
    awe_v3_sub(dv, vb, va);
    double sv = awe_v3_dot(dv, e1);
    awe_v3_cross(t, e1, dv);
    double wr = awe_v3_dot(e1, wa);
    for (int q = 0; q < 3; q++) spin[q] = wr * e1[q] + t[q] / len;
    double qa[3], qb[3];
    awe_v3_sub(qa, wa, spin);
    awe_v3_sub(qb, wb, spin);
    awe_mat3_tvec(E, qa, ra);
    awe_mat3_tvec(E, qb, rb);
    for (int q = 0; q < 3; q++) {
      ra[q] *= beta;
      rb[q] *= beta;
    }
    double dfa[3], dma[3], dfb[3], dmb[3];
    awe_timo_local(k, L0, beta * sv, ra, rb, dfa, dma, dfb, dmb);
    awe_v3_addto(fa, 1.0, dfa);
    awe_v3_addto(ma, 1.0, dma);
    awe_v3_addto(fb, 1.0, dfb);
    awe_v3_addto(mb, 1.0, dmb);
  }
  double t[3];
  awe_mat3_vec(E, fa, Fa);
  awe_mat3_vec(E, fb, Fb);
  awe_mat3_vec(E, ma, Ma);
  awe_mat3_vec(E, mb, Mb);
  awe_v3_cross(t, arma, Fa);
  awe_v3_addto(Ma, 1.0, t);
  awe_v3_cross(t, armb, Fb);
  awe_v3_addto(Mb, 1.0, t);
}


static void elastic(const awe_model *m, const awe_work *w, int i, double Fa[3], double Ma[3],
                    double Fb[3], double Mb[3]) {
  int a = m->tube_body[2 * i], b = m->tube_body[2 * i + 1];
  const double *Ra = w->body_R + 9 * a, *Rb = w->body_R + 9 * b;
  const double *wa = w->body_omega_w + 3 * a, *wb = w->body_omega_w + 3 * b;
  double xa[3], xb[3], va[3], vb[3], arma[3], armb[3];
  tube_end(m, w, i, 0, xa, va, arma);
  tube_end(m, w, i, 1, xb, vb, armb);
  double d[3], dr[3], RR[9], Rrel[9], dth[3];
  awe_v3_sub(d, xb, xa);
  awe_mat3_tvec(Ra, d, dr);
  awe_v3_addto(dr, -1.0, m->tube_off0 + 3 * i);
  mat_tmul(Ra, Rb, RR);
  mat_tmul(m->tube_Rrel0 + 9 * i, RR, Rrel);
  vee(Rrel, dth);
  double dvw[3], t[3], dv[3], dww[3], dw[3];
  awe_v3_sub(dvw, vb, va);
  awe_v3_cross(t, wa, d);
  awe_v3_addto(dvw, -1.0, t);
  awe_mat3_tvec(Ra, dvw, dv);
  awe_v3_sub(dww, wb, wa);
  awe_mat3_tvec(Ra, dww, dw);
  const double *k = m->tube_k + 6 * i;
  double beta = m->tube_damping[i];
  const double kf[3] = {k[0], k[1], k[1]}, kt[3] = {k[2], k[3], k[3]};
  double fl[3], tl[3], T[3];
  for (int q = 0; q < 3; q++) {
    fl[q] = -kf[q] * (dr[q] + beta * dv[q]);
    tl[q] = -kt[q] * (dth[q] + beta * dw[q]);
  }
  awe_mat3_vec(Ra, fl, Fb);
  awe_mat3_vec(Ra, tl, T);
  for (int q = 0; q < 3; q++) Fa[q] = -Fb[q];
  /* on a: the transport couple of the transmitted force across the element, then to the COM */
  awe_v3_cross(Ma, arma, Fa);
  awe_v3_addto(Ma, -1.0, T);
  awe_v3_cross(t, d, Fb);
  awe_v3_addto(Ma, -1.0, t);
  awe_v3_cross(Mb, armb, Fb);
  awe_v3_addto(Mb, 1.0, T);
}


void awe_tube_wrench(const awe_model *m, const awe_work *w, int i, double Fa[3], double Ma[3],
                     double Fb[3], double Mb[3]) {
  if (m->tube_model[i] == AWE_TUBE_TIMOSHENKO)
    timoshenko(m, w, i, Fa, Ma, Fb, Mb);
  else
    elastic(m, w, i, Fa, Ma, Fb, Mb);
}


/* acc -= R B R^T (v - v_o): damping of the body's velocity relative to the origin of its wing,
 * in the wing's axes (SAM's body_frame_damping; a particle wing's points have the same) */
static void frame_damping(const awe_model *m, const awe_work *w, int j, double acc[3]) {
  const double *b = m->body_bfd + 3 * j;
  int jw = m->body_wing[j];
  if (jw < 0 || (b[0] == 0.0 && b[1] == 0.0 && b[2] == 0.0)) return;
  const double *R = w->wing_R + 9 * jw;
  double dv[3], l[3], d[3];
  awe_v3_sub(dv, w->body_vel + 3 * j, w->wing_vel + 3 * jw);
  awe_mat3_tvec(R, dv, l);
  for (int k = 0; k < 3; k++) l[k] *= b[k];
  awe_mat3_vec(R, l, d);
  awe_v3_addto(acc, -1.0, d);
}


void awe_body_dynamics(const awe_model *m, awe_work *w, unsigned flags) {
  if (m->nbody == 0) return;
  for (int j = 0; j < m->nbody; j++) {
    double *F = w->body_force + 3 * j, *M = w->body_moment + 3 * j;
    F[0] = F[1] = 0.0;
    F[2] = -m->env.g * m->body_mass0[j];
    M[0] = M[1] = M[2] = 0.0;
    for (int k = 0; k < m->body_point_num[j]; k++) {
      int i = m->body_points[m->body_point_adr[j] + k];
      const double *Fi = w->force + 3 * i;
      double r[3], t[3];
      awe_v3_sub(r, w->pos + 3 * i, w->body_pos + 3 * j);
      awe_v3_cross(t, r, Fi);
      awe_v3_addto(F, 1.0, Fi);
      awe_v3_addto(M, 1.0, t);
    }
    if (w->body_u_force[j] >= 0) awe_v3_addto(F, 1.0, w->u + w->body_u_force[j]);
    if (w->body_u_moment[j] >= 0) awe_v3_addto(M, 1.0, w->u + w->body_u_moment[j]);
  }
  for (int i = 0; i < m->ntube; i++) {
    double Fa[3], Ma[3], Fb[3], Mb[3];
    awe_tube_wrench(m, w, i, Fa, Ma, Fb, Mb);
    int a = m->tube_body[2 * i], b = m->tube_body[2 * i + 1];
    awe_v3_addto(w->body_force + 3 * a, 1.0, Fa);
    awe_v3_addto(w->body_moment + 3 * a, 1.0, Ma);
    awe_v3_addto(w->body_force + 3 * b, 1.0, Fb);
    awe_v3_addto(w->body_moment + 3 * b, 1.0, Mb);
  }
  for (int j = 0; j < m->nbody; j++) {
    if (w->body_x[j] < 0) continue;
    double *dy = w->body_dydt + 13 * j;
    const double *R = w->body_R + 9 * j, *om = w->body_omega + 3 * j, *Q = w->body_q + 4 * j;
    const double *I = m->body_I + 9 * j, *Ii = m->body_Iinv + 9 * j, *c = m->body_damp + 3 * j;
    memcpy(dy, w->body_vel + 3 * j, 3 * sizeof(double));
    for (int k = 0; k < 3; k++)
      dy[3 + k] = w->body_force[3 * j + k] / m->body_mass[j] -
                  m->body_wfd[3 * j + k] * w->body_vel[3 * j + k];
    frame_damping(m, w, j, dy + 3);
    double Mb[3], Iw[3], g[3], al[3];
    awe_mat3_tvec(R, w->body_moment + 3 * j, Mb);
    awe_mat3_vec(I, om, Iw);
    awe_v3_cross(g, om, Iw);
    for (int k = 0; k < 3; k++) g[k] = Mb[k] - g[k];
    awe_mat3_vec(Ii, g, al);
    for (int k = 0; k < 3; k++) dy[10 + k] = al[k] - c[k] * om[k];
    double o4[4] = {0.0, om[0], om[1], om[2]}, qq[4];
    awe_quat_mul(Q, o4, qq);
    double n2 = Q[0] * Q[0] + Q[1] * Q[1] + Q[2] * Q[2] + Q[3] * Q[3];
    for (int k = 0; k < 4; k++) dy[6 + k] = 0.5 * qq[k] + AWE_QUAT_GAIN * (1.0 - n2) * Q[k];
    if ((flags & AWE_CTX_FIX_SPHERE) && m->body_wing[j] >= 0) {
      /* the steady state holds a wing's bodies on its sphere as its particles: they move only
       * radially from the wing's base (their rotations stay free, held by the tubes) */
      const double *base = w->wg[m->body_wing[j]].base, *pc = w->body_pos + 3 * j;
      awe_v3_radial_part(pc, base, dy, dy);
      awe_v3_radial_part(pc, base, dy + 3, dy + 3);
    }
    if (flags & AWE_CTX_FIX_WING) memset(dy, 0, 13 * sizeof(double));
  }
}


void awe_body_assemble(const awe_model *m, const awe_work *w, double *dydt) {
  for (int j = 0; j < m->nbody; j++) {
    int o = w->body_x[j];
    if (o >= 0) memcpy(dydt + o, w->body_dydt + 13 * j, 13 * sizeof(double));
  }
}


double awe_body_normalize(const awe_model *m, const awe_work *w, double *y) {
  return awe_quat_states_normalize(w->body_x, m->nbody, y);
}
