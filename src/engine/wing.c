/* wing.c: rigid wing bodies (Euler's equations in the principal frame, quaternion kinematics,
 * slave points) and the frames of particle wings.
 *
 * Equations and sources: see wing.h (physics.md §3, §4).
 */
#include "engine/wing.h"
#include "util/vec3.h"

#include <string.h>

#include "engine/atmosphere.h"
#include "engine/wind.h"
#include "engine/group.h"
#include "util/kite_frames.h"

/* ---- 3x3 helpers (row-major) ---- */

/* C = A B^T */
static void mat_mul_bt(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[3 * i] * B[3 * j] + A[3 * i + 1] * B[3 * j + 1] + A[3 * i + 2] * B[3 * j + 2];
}


/* C = A B */
static void mat_mul(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}


/* weighted position of reference set k (0 z1, 1 z2, 2 y1, 3 y2; 4 = origin) of wing j */
static int ref_pos(const awe_model *m, int j, int k, const double *pos, double out[3]) {
  int adr, n;
  const int *pts;
  const double *wt;
  if (k < 4) {
    adr = m->wing_ref_adr[4 * j + k];
    n = m->wing_ref_num[4 * j + k];
    pts = m->wing_ref_pts;
    wt = m->wing_ref_w;
  } else {
    adr = m->wing_origin_adr[j];
    n = m->wing_origin_num[j];
    pts = m->wing_origin_pts;
    wt = m->wing_origin_w;
  }
  double sw = 0.0;
  out[0] = out[1] = out[2] = 0.0;
  for (int i = 0; i < n; i++) {
    awe_v3_addto(out, wt[adr + i], pos + 3 * pts[adr + i]);
    sw += wt[adr + i];
  }
  if (n == 0 || sw == 0.0) return -1;
  for (int i = 0; i < 3; i++) out[i] /= sw;
  return 0;
}


/* body -> world frame of wing j from its reference points at positions pos */
static int ref_frame(const awe_model *m, int j, const double *pos, double R[9]) {
  double z1[3], z2[3], y1[3], y2[3];
  if (ref_pos(m, j, 0, pos, z1) || ref_pos(m, j, 1, pos, z2) || ref_pos(m, j, 2, pos, y1) ||
      ref_pos(m, j, 3, pos, y2))
    return -1;
  return awe_frame_from_refs(z1, z2, y1, y2, R);
}


static int is_wing_point(const awe_model *m, int j, int p) {
  return m->point_type[p] == AWE_PT_WING && m->point_wing[p] == j;
}


awe_status awe_wing_setup(const awe_model *m, awe_work *w, awe_err *err) {
  for (int i = 0; i < m->npoint; i++) w->point_group[i] = -1;
  for (int j = 0; j < m->nwing; j++) {
    awe_wing_geom *g = &w->wg[j];
    memcpy(g->base, m->wing_ground + 3 * j, sizeof(g->base)); /* its own (ground_station.c) */
    if (ref_frame(m, j, m->point_pos_cad, g->R_bc) ||
        ref_pos(m, j, 4, m->point_pos_cad, g->origin_cad))
      return awe_err_set(err, AWE_EINVAL,
                         "wing '%s': the reference points do not define a frame (z_ref_points, "
                         "y_ref_points parallel or coincident)", m->wing_name[j]);
    int adr = m->wing_point_adr[j], n = m->wing_point_num[j];
    for (int k = 0; k < n; k++) {
      int p = m->wing_points[adr + k];
      if (!is_wing_point(m, j, p)) continue;
      double d[3];
      awe_v3_sub(d, m->point_pos_cad + 3 * p, g->origin_cad);
      awe_mat3_tvec(g->R_bc, d, w->point_pos_b + 3 * p);
    }
    if (m->wing_type[j] != AWE_WING_RIGID) continue;
    double mass = 0.0, c[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < n; k++) {
      int p = m->wing_points[adr + k];
      if (!is_wing_point(m, j, p)) continue;
      mass += m->point_mass0[p];
      awe_v3_addto(c, m->point_mass0[p], w->point_pos_b + 3 * p);
    }
    if (!(mass > 0.0))
      return awe_err_set(err, AWE_EINVAL, "wing '%s': a rigid wing needs WING points with mass",
                         m->wing_name[j]);
    for (int i = 0; i < 3; i++) c[i] /= mass;
    double I[9] = {0};
    for (int k = 0; k < n; k++) {
      int p = m->wing_points[adr + k];
      if (!is_wing_point(m, j, p)) continue;
      double r[3], mp = m->point_mass0[p];
      awe_v3_sub(r, w->point_pos_b + 3 * p, c);
      double rr = awe_v3_dot(r, r);
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) I[3 * a + b] += mp * ((a == b) * rr - r[a] * r[b]);
    }
    g->mass = mass;
    memcpy(g->com_b, c, sizeof(c));
    /* CAD x and y in body coordinates: rows of R_bc */
    const double x_cad[3] = {g->R_bc[0], g->R_bc[1], g->R_bc[2]};
    const double y_cad[3] = {g->R_bc[3], g->R_bc[4], g->R_bc[5]};
    if (awe_principal_axes(I, x_cad, y_cad, g->I_p, g->R_pb) || !(g->I_p[0] > 0.0) ||
        !(g->I_p[1] > 0.0) || !(g->I_p[2] > 0.0))
      return awe_err_set(err, AWE_EINVAL,
                         "wing '%s': the inertia of its WING points has a zero principal moment",
                         m->wing_name[j]);
  }
  return awe_group_setup(m, w, err);
}


void awe_wing_state_init(const awe_model *m, const awe_work *w, double *y) {
  for (int j = 0; j < m->nwing; j++) {
    int o = w->wing_x[j];
    if (o < 0) continue;
    const awe_wing_geom *g = &w->wg[j];
    double R_bw[9], origin[3], R_pw[9];
    if (ref_frame(m, j, m->point_pos0, R_bw)) memcpy(R_bw, g->R_bc, sizeof(R_bw));
    if (ref_pos(m, j, 4, m->point_pos0, origin)) memcpy(origin, g->origin_cad, sizeof(origin));
    mat_mul(R_bw, g->R_pb, R_pw);
    double c[3];
    awe_mat3_vec(R_bw, g->com_b, c);
    for (int i = 0; i < 3; i++) c[i] += origin[i];
    /* momentum and angular momentum of the placed velocities (a rigid spin is exact) */
    double v[3] = {0.0, 0.0, 0.0}, L[3] = {0.0, 0.0, 0.0};
    int adr = m->wing_point_adr[j], n = m->wing_point_num[j];
    for (int k = 0; k < n; k++) {
      int p = m->wing_points[adr + k];
      if (is_wing_point(m, j, p)) awe_v3_addto(v, m->point_mass0[p] / g->mass, m->point_vel0 + 3 * p);
    }
    for (int k = 0; k < n; k++) {
      int p = m->wing_points[adr + k];
      if (!is_wing_point(m, j, p)) continue;
      double r[3], dv[3], h[3];
      awe_v3_sub(r, m->point_pos0 + 3 * p, c);
      awe_v3_sub(dv, m->point_vel0 + 3 * p, v);
      awe_v3_cross(h, r, dv);
      awe_v3_addto(L, m->point_mass0[p], h);
    }
    double Lp[3], wp[3];
    awe_mat3_tvec(R_pw, L, Lp);
    for (int i = 0; i < 3; i++) wp[i] = Lp[i] / g->I_p[i];
    double q[4];
    awe_R_to_quat(R_pw, q);
    memcpy(y + o, c, sizeof(c));
    memcpy(y + o + 3, v, sizeof(v));
    memcpy(y + o + 6, q, sizeof(q));
    memcpy(y + o + 10, wp, sizeof(wp));
  }
}


void awe_wing_frame_at(const awe_model *m, int j, const double *pos, double R[9]) {
  if (ref_frame(m, j, pos, R)) {
    memset(R, 0, 9 * sizeof(double));
    R[0] = R[4] = R[8] = 1.0;
  }
}


void awe_wing_kinematics(const awe_model *m, awe_work *w, const double *y) {
  for (int j = 0; j < m->nwing; j++) {
    double *R = w->wing_R + 9 * j, *pos = w->wing_pos + 3 * j, *vel = w->wing_vel + 3 * j;
    double *com = w->wing_com + 3 * j, *cv = w->wing_com_vel + 3 * j;
    double *wp = w->wing_omega_p + 3 * j, *ww = w->wing_omega_w + 3 * j;
    int o = w->wing_x[j];
    if (o < 0) {
      /* particle wing: frame from the reference points, no rotation state */
      awe_wing_frame_at(m, j, w->pos, R);
      memcpy(w->wing_Rp + 9 * j, R, 9 * sizeof(double));
      if (ref_pos(m, j, 4, w->pos, pos)) memset(pos, 0, 3 * sizeof(double));
      if (ref_pos(m, j, 4, w->vel, vel)) memset(vel, 0, 3 * sizeof(double));
      memcpy(com, pos, 3 * sizeof(double));
      memcpy(cv, vel, 3 * sizeof(double));
      memset(wp, 0, 3 * sizeof(double));
      memset(ww, 0, 3 * sizeof(double));
      continue;
    }
    const awe_wing_geom *g = &w->wg[j];
    double *Rp = w->wing_Rp + 9 * j;
    memcpy(com, y + o, 3 * sizeof(double));
    memcpy(cv, y + o + 3, 3 * sizeof(double));
    memcpy(wp, y + o + 10, 3 * sizeof(double));
    memcpy(w->wing_q + 4 * j, y + o + 6, 4 * sizeof(double));
    awe_quat_to_R(y + o + 6, Rp);
    mat_mul_bt(Rp, g->R_pb, R);
    awe_mat3_vec(Rp, wp, ww);
    double r[3];
    awe_mat3_vec(R, g->com_b, r);
    for (int i = 0; i < 3; i++) pos[i] = com[i] - r[i];
    double d[3];
    awe_v3_sub(d, pos, com);
    awe_v3_cross(vel, ww, d);
    awe_v3_addto(vel, 1.0, cv);
    /* slave points */
    int adr = m->wing_point_adr[j], n = m->wing_point_num[j];
    for (int k = 0; k < n; k++) {
      int p = m->wing_points[adr + k];
      if (!is_wing_point(m, j, p)) continue;
      double pb[3], vb[3], rb[3], rw[3], vw[3];
      awe_group_point_b(m, w, p, pb, vb);
      awe_v3_sub(rb, pb, g->com_b);
      awe_mat3_vec(R, rb, rw);
      awe_mat3_vec(R, vb, vw);
      double *pp = w->pos + 3 * p, *pv = w->vel + 3 * p;
      for (int i = 0; i < 3; i++) pp[i] = com[i] + rw[i];
      awe_v3_cross(pv, ww, rw);
      for (int i = 0; i < 3; i++) pv[i] += cv[i] + vw[i];
    }
  }
}


void awe_wing_apparent_wind(const awe_model *m, awe_work *w) {
  for (int j = 0; j < m->nwing; j++) {
    const double *pos = w->wing_pos + 3 * j, *vel = w->wing_vel + 3 * j;
    double wind[3], *va = w->wing_va + 3 * j;
    awe_wind_point(m, w, pos, wind);
    awe_v3_sub(va, wind, vel);
    awe_mat3_tvec(w->wing_R + 9 * j, va, w->wing_va_b + 3 * j);
  }
}


void awe_wing_dynamics(const awe_model *m, awe_work *w, unsigned flags) {
  for (int j = 0; j < m->nwing; j++) {
    int o = w->wing_x[j];
    if (o < 0) continue;
    const awe_wing_geom *g = &w->wg[j];
    const double *R = w->wing_R + 9 * j, *Rp = w->wing_Rp + 9 * j;
    const double *com = w->wing_com + 3 * j, *wp = w->wing_omega_p + 3 * j;
    double *F = w->wing_force + 3 * j, *M = w->wing_moment + 3 * j;
    double *acc = w->wing_acc + 3 * j, *al = w->wing_alpha_p + 3 * j, *qd = w->wing_qdot + 4 * j;
    /* aerodynamic force, moment transported from the origin to the COM */
    const double *fa = w->wing_aero_force_b + 3 * j, *ma = w->wing_aero_moment_b + 3 * j;
    double mc[3], t[3];
    awe_v3_cross(t, fa, g->com_b);
    for (int i = 0; i < 3; i++) mc[i] = ma[i] + t[i];
    awe_mat3_vec(R, fa, F);
    awe_mat3_vec(R, mc, M);
    if (w->wing_u_force[j] >= 0) awe_v3_addto(F, 1.0, w->u + w->wing_u_force[j]);
    if (w->wing_u_moment[j] >= 0) awe_v3_addto(M, 1.0, w->u + w->wing_u_moment[j]);
    int adr = m->wing_point_adr[j], n = m->wing_point_num[j];
    for (int k = 0; k < n; k++) {
      int p = m->wing_points[adr + k];
      if (!is_wing_point(m, j, p)) continue;
      const double *Fi = w->force + 3 * p;
      double r[3];
      awe_v3_sub(r, w->pos + 3 * p, com);
      awe_v3_cross(t, r, Fi);
      awe_v3_addto(F, 1.0, Fi);
      awe_v3_addto(M, 1.0, t);
    }
    /* Euler's equations in the principal frame, damping */
    double Mp[3];
    awe_mat3_tvec(Rp, M, Mp);
    const double *I = g->I_p;
    const double *cd = m->wing_ang_damp + 3 * j;
    al[0] = (Mp[0] + (I[1] - I[2]) * wp[1] * wp[2]) / I[0] - cd[0] * wp[0];
    al[1] = (Mp[1] + (I[2] - I[0]) * wp[2] * wp[0]) / I[1] - cd[1] * wp[1];
    al[2] = (Mp[2] + (I[0] - I[1]) * wp[0] * wp[1]) / I[2] - cd[2] * wp[2];
    for (int i = 0; i < 3; i++) acc[i] = F[i] / g->mass;
    double wk[3] = {wp[0], wp[1], wp[2]};
    const double *cv = w->wing_com_vel + 3 * j;
    double dc[3] = {cv[0], cv[1], cv[2]};
    if (flags & AWE_CTX_FIX_SPHERE) {
      double a[3];
      awe_v3_sub(a, com, g->base);
      double an = awe_v3_norm(a);
      if (an > 0.0)
        for (int i = 0; i < 3; i++) a[i] /= an;
      double ap[3];
      awe_mat3_tvec(Rp, a, ap);
      double s = awe_v3_dot(wk, ap), sa = awe_v3_dot(al, ap);
      awe_v3_addto(wk, -s, ap);
      awe_v3_addto(al, -sa, ap);
      double sv = awe_v3_dot(dc, a), sc = awe_v3_dot(acc, a);
      for (int i = 0; i < 3; i++) {
        dc[i] = sv * a[i];
        acc[i] = sc * a[i];
      }
    }
    /* dQ/dt = 1/2 Q (x) (0, omega_p) + k (1 - |Q|^2) Q */
    const double *Q = w->wing_q + 4 * j;
    double om[4] = {0.0, wk[0], wk[1], wk[2]}, qq[4];
    awe_quat_mul(Q, om, qq);
    double n2 = Q[0] * Q[0] + Q[1] * Q[1] + Q[2] * Q[2] + Q[3] * Q[3];
    for (int i = 0; i < 4; i++) qd[i] = 0.5 * qq[i] + AWE_QUAT_GAIN * (1.0 - n2) * Q[i];
    memcpy(w->wing_dcom + 3 * j, dc, sizeof(dc));
    if (flags & AWE_CTX_FIX_WING) {
      memset(qd, 0, 4 * sizeof(double));
      memset(acc, 0, 3 * sizeof(double));
      memset(al, 0, 3 * sizeof(double));
      memset(w->wing_dcom + 3 * j, 0, 3 * sizeof(double));
    }
  }
}


void awe_wing_assemble(const awe_model *m, const awe_work *w, double *dydt) {
  for (int j = 0; j < m->nwing; j++) {
    int o = w->wing_x[j];
    if (o < 0) continue;
    memcpy(dydt + o, w->wing_dcom + 3 * j, 3 * sizeof(double));
    memcpy(dydt + o + 3, w->wing_acc + 3 * j, 3 * sizeof(double));
    memcpy(dydt + o + 6, w->wing_qdot + 4 * j, 4 * sizeof(double));
    memcpy(dydt + o + 10, w->wing_alpha_p + 3 * j, 3 * sizeof(double));
  }
}


double awe_quat_states_normalize(const int *x_off, int nblock, double *y) {
  double dmax = 0.0;
  for (int j = 0; j < nblock; j++) {
    int o = x_off[j];
    if (o < 0) continue;
    double *q = y + o + 6;
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (fabs(n - 1.0) > dmax) dmax = fabs(n - 1.0);
    if (n > 0.0)
      for (int i = 0; i < 4; i++) q[i] /= n;
  }
  return dmax;
}


double awe_wing_normalize(const awe_model *m, const awe_work *w, double *y) {
  return awe_quat_states_normalize(w->wing_x, m->nwing, y);
}


double awe_wing_kinetic_energy(const awe_model *m, const awe_work *w, const double *y) {
  double T = 0.0;
  for (int j = 0; j < m->nwing; j++) {
    int o = w->wing_x[j];
    if (o < 0) continue;
    const double *v = y + o + 3, *wp = y + o + 10, *I = w->wg[j].I_p;
    T += 0.5 * w->wg[j].mass * awe_v3_dot(v, v);
    for (int i = 0; i < 3; i++) T += 0.5 * I[i] * wp[i] * wp[i];
  }
  return T;
}
