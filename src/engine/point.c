/* point.c: point masses, forces (segments, gravity, drag, external) and accelerations.
 *
 * Equations and sources: see point.h (physics.md §3).
 */
#include "engine/point.h"

#include "engine/atmosphere.h"
#include "engine/ground.h"
#include "engine/wind.h"


void awe_point_mass(const awe_model *m, awe_work *w, int i) {
  double mass = m->point_extra_mass[i];
  int adr = w->point_seg_adr[i], n = w->point_seg_num[i];
  for (int k = 0; k < n; k++) {
    int s = w->point_segs[adr + k];
    mass += 0.5 * w->segment_lambda[s] * w->seg_l0[s];
  }
  w->mass[i] = mass;
}


void awe_point_masses(const awe_model *m, awe_work *w) {
  for (int i = 0; i < m->npoint; i++) awe_point_mass(m, w, i);
}


/* point i's force; rho_zt from awe_density_scale */
static inline void point_force(const awe_model *m, awe_work *w, int i, double rho_zt) {
  double *S = w->spring + 3 * i, *F = w->force + 3 * i;
  double s0 = 0.0, s1 = 0.0, s2 = 0.0;
  /* gather the segment forces (p1 gets +F_s u, p2 gets -F_s u) and half the line drag */
  int adr = w->point_seg_adr[i], n = w->point_seg_num[i];
  const int *segs = w->point_segs + adr;
  const double *sign = w->point_seg_sign + adr;
  for (int k = 0; k < n; k++) {
    int s = segs[k];
    double f = sign[k] * w->seg_force[s];
    const double *u = w->seg_dir + 3 * s, *fd = w->seg_drag + 3 * s;
    s0 += f * u[0] + 0.5 * fd[0];
    s1 += f * u[1] + 0.5 * fd[1];
    s2 += f * u[2] + 0.5 * fd[2];
  }
  S[0] = s0;
  S[1] = s1;
  S[2] = s2;
  F[0] = s0;
  F[1] = s1;
  F[2] = s2 - m->env.g * w->mass[i];
  if (w->point_u_force[i] >= 0) awe_v3_addto(F, 1.0, w->u + w->point_u_force[i]);

  /* ground contact (ground.h): points with a state and rigid wings' points */
  if (m->ground.on && (w->point_x[i] >= 0 || w->point_slave[i])) {
    double ac[3];
    if (awe_ground_acc(&m->ground, w->pos + 3 * i, w->vel + 3 * i, ac, NULL))
      awe_v3_addto(F, w->mass[i], ac);
  }

  /* point drag */
  double area = m->point_area[i], cd = m->point_cd[i];
  if (area != 0.0 && cd != 0.0) {
    const double *p = w->pos + 3 * i, *v = w->vel + 3 * i;
    double wind[3], va[3];
    awe_wind_point(m, w, p, wind);
    awe_v3_sub(va, wind, v);
    double q = 0.5 * awe_density_at(&m->env, rho_zt, p[2]) * cd *
               sqrt(awe_v3_dot(va, va) + 1e-24) * area;
    awe_v3_addto(F, q, va);
  }
}


void awe_point_force(const awe_model *m, awe_work *w, int i) {
  point_force(m, w, i, awe_density_scale(&m->env));
}


void awe_point_forces(const awe_model *m, awe_work *w) {
  double rho_zt = awe_density_scale(&m->env);
  for (int i = 0; i < m->npoint; i++) point_force(m, w, i, rho_zt);
}


void awe_point_accelerations(const awe_model *m, awe_work *w) {
  for (int i = 0; i < m->npoint; i++) {
    if (w->point_x[i] < 0) continue;
    const double *F = w->force + 3 * i, *v = w->vel + 3 * i;
    const double *bfd = m->point_bfd + 3 * i, *wfd = m->point_wfd + 3 * i;
    double *a = w->acc + 3 * i;
    /* apparent mass (unsteady.h): inertia without weight */
    double inv_m = 1.0 / (w->point_ma ? w->mass[i] + w->point_ma[i] : w->mass[i]);
    for (int k = 0; k < 3; k++) a[k] = F[k] * inv_m - wfd[k] * v[k];
    if (bfd[0] == 0.0 && bfd[1] == 0.0 && bfd[2] == 0.0) continue;
    int j = m->point_wing[i];
    double dv[3], db[3];
    if (j >= 0) {
      /* relative to the wing origin, in the wing's body axes: R_bw (bfd .* R_bw^T dv) */
      const double *R = w->wing_R + 9 * j;
      awe_v3_sub(dv, v, w->wing_vel + 3 * j);
      for (int k = 0; k < 3; k++)
        db[k] = bfd[k] * (R[k] * dv[0] + R[3 + k] * dv[1] + R[6 + k] * dv[2]);
      for (int k = 0; k < 3; k++) a[k] -= R[3 * k] * db[0] + R[3 * k + 1] * db[1] + R[3 * k + 2] * db[2];
    } else {
      for (int k = 0; k < 3; k++) a[k] -= bfd[k] * v[k];
    }
  }
}
