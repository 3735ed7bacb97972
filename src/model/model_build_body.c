/* model_build_body.c: rigid bodies and the tubes between them (SymbolicAWEModels 0.17
 * `bodies:` and `tubes:`; src/system_structure/rigid_body.jl, tube_laws.jl).
 *
 * A body: mass, body-frame inertia tensor (kept as given; its inverse is stored), initial pose
 * and spin. A tube: its two bodies, the end offsets (anchors) on each, its rigidities, and the
 * rest geometry taken from the placed bodies (SAM: "rest_length taken from placed geometry").
 *
 * Rigidities not given in the row come from the tube law (law: breukels2011, the default when
 * diameter and pressure are given): SAM's tube_linear_rigidities (tube_laws.jl), after the
 * Breukels (2011) correlations of an inflated fabric tube's 1 m cantilever (radius r [m],
 * pressure p [bar]):
 *   torsion  c1 = (C13 r + C14) p + (C15 r + C16), c2 = C17 r^4 ln p + C18 r^3 + C19,
 *            GJ0 = c1 c2
 *   section  A = pi r^2, I = pi r^4 / 4, J = 2 I; GA = GJ0 / J * A
 *   bending  slope = (C5 r^5 + C6) p + (C7 r + C8) (initial tip-force slope [N]),
 *            asymptote = (C1 r + C2) p^2 + (C3 r^3 + C4) (saturation force [N]),
 *            shear share s = slope / (8/9 GA), EI0 = slope / (3 (1 - s)), EA = EI0 A / I
 * Only the linear (small-deformation) rigidities are used; SAM's curvature-softening
 * TubeRigidityLaw (knee, collapse) is not built here.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model_build_internal.h"
#include "util/kite_frames.h"
#include "util/pool.h"
#include "util/vec3.h"

/* Breukels (2011) correlation constants, as SymbolicAWEModels' tube_laws.jl (and ASKITE's
 * kite_fem) give them; radius in m, pressure in bar */
static const double BK_BEND[8] = {6582.82, -272.43, 40852.38, 14.31,
                                  271865251.42, 215.93, 14021.79, -589.05};
static const double BK_TORS[7] = {1467.0, 40.908, -191.8, 47.406, -17703.0, 358.05, 0.0918};
#define TUBE_SHEAR_COEFF (8.0 / 9.0) /* thin-walled inflated tube (tube_laws.jl) */


/* EA, GA, EI0, GJ0 of an inflated tube of radius r [m] at pressure p [bar]; -1 outside the
 * correlation's fitted range (msg says why) */
static int breukels_linear(double r, double p, double out[4], char *msg, size_t n) {
  if (!(r > 0.0) || !(p > 0.0)) {
    snprintf(msg, n, "radius %g m and pressure %g bar must be positive", r, p);
    return -1;
  }
  double c1 = (BK_TORS[0] * r + BK_TORS[1]) * p + (BK_TORS[2] * r + BK_TORS[3]);
  double c2 = BK_TORS[4] * pow(r, 4) * log(p) + BK_TORS[5] * pow(r, 3) + BK_TORS[6];
  if (!(c1 > 0.0) || !(c2 > 0.0)) {
    snprintf(msg, n, "Breukels torsion correlation outside its fitted range at radius %g m, "
             "pressure %g bar (c1 = %g N m, c2 = %g m)", r, p, c1, c2);
    return -1;
  }
  double asym = (BK_BEND[0] * r + BK_BEND[1]) * p * p + (BK_BEND[2] * r * r * r + BK_BEND[3]);
  double slope = (BK_BEND[4] * pow(r, 5) + BK_BEND[5]) * p + (BK_BEND[6] * r + BK_BEND[7]);
  if (!(asym > 0.0) || !(slope > 0.0)) {
    snprintf(msg, n, "Breukels bending correlation outside its fitted range at radius %g m, "
             "pressure %g bar (saturation force %g N, initial slope %g N); the slope needs a "
             "radius above about %.4f m", r, p, asym, slope,
             -(BK_BEND[7] + BK_BEND[5] * p) / BK_BEND[6]);
    return -1;
  }
  double A = AWE_PI * r * r, I = AWE_PI * pow(r, 4) / 4.0, J = 2.0 * I;
  double GJ0 = c1 * c2, GA = GJ0 / J * A;
  double s = slope / (TUBE_SHEAR_COEFF * GA);
  if (!(s < 1.0)) {
    snprintf(msg, n, "Breukels shear share >= 1 at radius %g m, pressure %g bar", r, p);
    return -1;
  }
  double EI0 = slope / (3.0 * (1.0 - s));
  out[0] = EI0 * A / I;
  out[1] = GA;
  out[2] = EI0;
  out[3] = GJ0;
  return 0;
}


/* inverse of a 3x3 matrix; -1 if singular */
static int inv3(const double a[9], double r[9]) {
  double c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8],
         c2 = a[3] * a[7] - a[4] * a[6];
  double det = a[0] * c0 + a[1] * c1 + a[2] * c2;
  if (!(fabs(det) > 0.0) || !isfinite(det)) return -1;
  r[0] = c0 / det;
  r[1] = (a[2] * a[7] - a[1] * a[8]) / det;
  r[2] = (a[1] * a[5] - a[2] * a[4]) / det;
  r[3] = c1 / det;
  r[4] = (a[0] * a[8] - a[2] * a[6]) / det;
  r[5] = (a[2] * a[3] - a[0] * a[5]) / det;
  r[6] = c2 / det;
  r[7] = (a[1] * a[6] - a[0] * a[7]) / det;
  r[8] = (a[0] * a[4] - a[1] * a[3]) / det;
  return 0;
}


/* C = A^T B (3x3 row-major) */
static void mat_tmul(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
}


static awe_status build_bodies(awe_mb_builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  int n = ss->nbody;
  m->nbody = n;
  AWE_MB_ALLOC(m->body_name, n);
  AWE_MB_ALLOC(m->body_mass, n);
  AWE_MB_ALLOC(m->body_mass0, n);
  AWE_MB_ALLOC(m->body_I, 9 * n);
  AWE_MB_ALLOC(m->body_Iinv, 9 * n);
  AWE_MB_ALLOC(m->body_pos0, 3 * n);
  AWE_MB_ALLOC(m->body_vel0, 3 * n);
  AWE_MB_ALLOC(m->body_q0, 4 * n);
  AWE_MB_ALLOC(m->body_pos_cad, 3 * n);
  AWE_MB_ALLOC(m->body_q_cad, 4 * n);
  AWE_MB_ALLOC(m->body_I_own, 9 * n);
  AWE_MB_ALLOC(m->body_omega0, 3 * n);
  AWE_MB_ALLOC(m->body_damp, 3 * n);
  AWE_MB_ALLOC(m->body_wfd, 3 * n);
  AWE_MB_ALLOC(m->body_static, n);
  AWE_MB_ALLOC(m->body_transform, n);
  AWE_MB_ALLOC(m->body_bfd, 3 * n);
  AWE_MB_ALLOC(m->body_wing, n);
  const char **tnames = awe_pool_array(m->pool, (size_t)(m->ntransform + 1), sizeof(*tnames));
  if (!tnames) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int t = 0; t < m->ntransform; t++) tnames[t] = m->transforms[t].name;
  const awe_loc **locs = awe_pool_array(m->pool, (size_t)(n > 0 ? n : 1), sizeof(*locs));
  if (!locs) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < n; i++) {
    const awe_body_spec *s = &ss->bodies[i];
    m->body_name[i] = awe_pool_strdup(m->pool, s->name);
    if (!m->body_name[i]) return awe_err_set(err, AWE_ENOMEM, "out of memory");
    locs[i] = &s->loc;
    m->body_mass[i] = m->body_mass0[i] = s->mass;
    memcpy(m->body_I + 9 * i, s->inertia, 9 * sizeof(double));
    memcpy(m->body_pos0 + 3 * i, s->pos, 3 * sizeof(double));
    memcpy(m->body_vel0 + 3 * i, s->vel, 3 * sizeof(double));
    memcpy(m->body_q0 + 4 * i, s->q, 4 * sizeof(double));
    memcpy(m->body_pos_cad + 3 * i, s->pos, 3 * sizeof(double));
    memcpy(m->body_q_cad + 4 * i, s->q, 4 * sizeof(double));
    memcpy(m->body_I_own + 9 * i, s->inertia, 9 * sizeof(double));
    memcpy(m->body_omega0 + 3 * i, s->omega_b, 3 * sizeof(double));
    memcpy(m->body_damp + 3 * i, s->angular_damping, 3 * sizeof(double));
    memcpy(m->body_wfd + 3 * i, s->world_frame_damping, 3 * sizeof(double));
    m->body_static[i] = (unsigned char)s->is_static;
    m->body_transform[i] = -1;
    m->body_wing[i] = -1;
    memcpy(m->body_bfd + 3 * i, s->body_frame_damping, 3 * sizeof(double));
    for (int k = 0; k < 3; k++)
      if (!(s->body_frame_damping[k] >= 0.0) || !isfinite(s->body_frame_damping[k]))
        return awe_err_at(err, AWE_EINVAL, &s->loc, "body '%s': body_frame_damping must be "
                          "finite and >= 0 1/s (got %g)", s->name, s->body_frame_damping[k]);
    if (AWE_REF_GIVEN(s->wing)) {
      char owner[300];
      snprintf(owner, sizeof(owner), "body '%s'", s->name);
      AWE_TRY(awe_mb_resolve(&s->wing, m->wing_name, m->nwing, "wing", owner,
                             &m->body_wing[i], err));
    }
    if (AWE_REF_GIVEN(s->transform)) {
      char owner[300];
      snprintf(owner, sizeof(owner), "body '%s'", s->name);
      AWE_TRY(awe_mb_resolve(&s->transform, tnames, m->ntransform, "transform", owner,
                             &m->body_transform[i], err));
    }
    if (!(s->mass >= 0.0) || !isfinite(s->mass))
      return awe_err_at(err, AWE_EINVAL, &s->loc, "body '%s': mass must be >= 0 kg (got %g)",
                        s->name, s->mass);
    for (int k = 0; k < 9; k++)
      if (!isfinite(s->inertia[k]))
        return awe_err_at(err, AWE_EINVAL, &s->loc, "body '%s': the inertia must be finite",
                          s->name);
  }
  return awe_mb_check_unique(m->body_name, n, locs, "body", err);
}


static awe_status build_tubes(awe_mb_builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  int n = ss->ntube;
  m->ntube = n;
  AWE_MB_ALLOC(m->tube_name, n);
  AWE_MB_ALLOC(m->tube_body, 2 * n);
  AWE_MB_ALLOC(m->tube_model, n);
  AWE_MB_ALLOC(m->tube_k, 6 * n);
  AWE_MB_ALLOC(m->tube_damping, n);
  AWE_MB_ALLOC(m->tube_diameter, n);
  AWE_MB_ALLOC(m->tube_pressure, n);
  AWE_MB_ALLOC(m->tube_law, n);
  AWE_MB_ALLOC(m->tube_anchor, 6 * n);
  AWE_MB_ALLOC(m->tube_L0, n);
  AWE_MB_ALLOC(m->tube_ref_b, 3 * n);
  AWE_MB_ALLOC(m->tube_Ra0, 9 * n);
  AWE_MB_ALLOC(m->tube_Rb0, 9 * n);
  AWE_MB_ALLOC(m->tube_off0, 3 * n);
  AWE_MB_ALLOC(m->tube_Rrel0, 9 * n);
  const awe_loc **locs = awe_pool_array(m->pool, (size_t)(n > 0 ? n : 1), sizeof(*locs));
  if (!locs) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < n; i++) {
    const awe_tube_spec *t = &ss->tubes[i];
    char owner[300];
    snprintf(owner, sizeof(owner), "tube '%s'", t->name);
    m->tube_name[i] = awe_pool_strdup(m->pool, t->name);
    if (!m->tube_name[i]) return awe_err_set(err, AWE_ENOMEM, "out of memory");
    locs[i] = &t->loc;
    for (int e = 0; e < 2; e++)
      AWE_TRY(awe_mb_resolve(&t->body[e], m->body_name, m->nbody, "body", owner,
                             &m->tube_body[2 * i + e], err));
    int a = m->tube_body[2 * i], bb = m->tube_body[2 * i + 1];
    if (a == bb)
      return awe_err_at(err, AWE_EINVAL, &t->loc, "%s: joins body '%s' to itself", owner,
                        m->body_name[a]);
    m->tube_model[i] = t->model;
    m->tube_damping[i] = t->damping;
    m->tube_diameter[i] = t->diameter;
    m->tube_pressure[i] = t->pressure;
    m->tube_law[i] = t->law;
    if (!(t->damping >= 0.0))
      return awe_err_at(err, AWE_EINVAL, &t->loc, "%s: damping must be >= 0 [s]", owner);
    memcpy(m->tube_anchor + 6 * i, t->anchor[0], 3 * sizeof(double));
    memcpy(m->tube_anchor + 6 * i + 3, t->anchor[1], 3 * sizeof(double));
    double *k = m->tube_k + 6 * i;
    double lin[4] = {NAN, NAN, NAN, NAN}; /* EA, GA, EI0, GJ0 from the law */
    int have_law = t->law == 1 && isfinite(t->diameter) && isfinite(t->pressure);
    if (have_law) {
      char msg[400];
      /* SAM: radius = diameter / 2, pressure given in Pa, the correlation takes bar */
      if (breukels_linear(0.5 * t->diameter, t->pressure * 1e-5, lin, msg, sizeof(msg)))
        return awe_err_at(err, AWE_EINVAL, &t->loc, "%s: %s", owner, msg);
    }
    if (t->model == AWE_TUBE_TIMOSHENKO) {
      const double given[5] = {t->EA, t->GA, t->GJ, t->EIy, t->EIz};
      const double fromlaw[5] = {lin[0], lin[1], lin[3], lin[2], lin[2]};
      static const char *const nm[5] = {"EA", "GA", "GJ", "EIy", "EIz"};
      for (int q = 0; q < 5; q++) {
        k[q] = isfinite(given[q]) || isinf(given[q]) ? given[q] : fromlaw[q];
        if (isnan(k[q]))
          return awe_err_at(err, AWE_EINVAL, &t->loc, "%s: '%s' is not given and there is no "
                            "tube law to derive it (give diameter [m] and pressure [Pa] with "
                            "law: breukels2011)", owner, nm[q]);
        if (!(k[q] > 0.0))
          return awe_err_at(err, AWE_EINVAL, &t->loc, "%s: '%s' must be positive (got %g)",
                            owner, nm[q], k[q]);
      }
      k[5] = isfinite(t->shear_coeff) ? t->shear_coeff : have_law ? TUBE_SHEAR_COEFF : 5.0 / 6.0;
      if (!(k[5] > 0.0))
        return awe_err_at(err, AWE_EINVAL, &t->loc, "%s: shear_coeff must be positive", owner);
    } else {
      const double given[4] = {t->k_axial, t->k_shear, t->k_torsion, t->k_bending};
      static const char *const nm[4] = {"stiffness_axial", "stiffness_shear",
                                        "stiffness_torsion", "stiffness_bending"};
      for (int q = 0; q < 4; q++) {
        k[q] = given[q];
        if (!(k[q] >= 0.0))
          return awe_err_at(err, AWE_EINVAL, &t->loc, "%s: an elastic tube needs '%s' (>= 0)",
                            owner, nm[q]);
      }
      k[4] = k[5] = 0.0;
    }
    /* rest geometry from the placed bodies */
    double Ra[9], Rb[9], xa[3], xb[3], d[3];
    awe_quat_to_R(m->body_q0 + 4 * a, Ra);
    awe_quat_to_R(m->body_q0 + 4 * bb, Rb);
    awe_mat3_vec(Ra, m->tube_anchor + 6 * i, xa);
    awe_mat3_vec(Rb, m->tube_anchor + 6 * i + 3, xb);
    awe_v3_addto(xa, 1.0, m->body_pos0 + 3 * a);
    awe_v3_addto(xb, 1.0, m->body_pos0 + 3 * bb);
    awe_v3_sub(d, xb, xa);
    double L0 = awe_v3_norm(d);
    m->tube_L0[i] = L0;
    awe_mat3_tvec(Ra, d, m->tube_off0 + 3 * i);
    mat_tmul(Ra, Rb, m->tube_Rrel0 + 9 * i);
    if (t->model == AWE_TUBE_TIMOSHENKO) {
      if (!(L0 > 0.0))
        return awe_err_at(err, AWE_EINVAL, &t->loc, "%s: its two ends coincide (a beam element "
                          "needs a length)", owner);
      double e1[3], cb[3];
      for (int q = 0; q < 3; q++) e1[q] = d[q] / L0;
      awe_mat3_tvec(Ra, e1, cb);
      /* e2 follows body a's y axis, made perpendicular to the chord (SAM's
       * timoshenko_element_frame, rigid_body.jl); for a chord within 60 deg of that axis, where
       * the projection degenerates, the body-a axis least aligned with the chord instead */
      double *ref = m->tube_ref_b + 3 * i;
      ref[0] = ref[1] = ref[2] = 0.0;
      if (fabs(cb[1]) < 0.5) {
        ref[1] = 1.0;
      } else {
        int ax = fabs(cb[0]) < fabs(cb[2]) ? 0 : 2;
        ref[ax] = 1.0;
        awe_v3_addto(ref, -cb[ax], cb);
        double rn = awe_v3_norm(ref);
        for (int q = 0; q < 3; q++) ref[q] /= rn;
      }
      double a2[3], e2[3], e3[3], E[9];
      awe_mat3_vec(Ra, ref, a2);
      memcpy(e2, a2, sizeof(e2));
      awe_v3_addto(e2, -awe_v3_dot(a2, e1), e1);
      double n2 = awe_v3_norm(e2);
      for (int q = 0; q < 3; q++) e2[q] /= n2;
      awe_v3_cross(e3, e1, e2);
      for (int q = 0; q < 3; q++) {
        E[3 * q] = e1[q];
        E[3 * q + 1] = e2[q];
        E[3 * q + 2] = e3[q];
      }
      mat_tmul(E, Ra, m->tube_Ra0 + 9 * i);
      mat_tmul(E, Rb, m->tube_Rb0 + 9 * i);
    }
  }
  return awe_mb_check_unique(m->tube_name, n, locs, "tube", err);
}


/* points riding a body (SAM: type BODY_STATIC, body_idx, anchor_b): the offset from pos_cad
 * and the body's initial pose unless given; each point's mass (extra mass plus half its
 * segments) joins the body's mass and, about the body's origin, its inertia (the shift of the
 * centre of mass by the points is neglected: exact for points placed symmetrically about the
 * origin, small while their mass is small against the body's). Their weight and every other
 * force on them (segments, drag, the input points.NAME.force) reach the body through their
 * position (engine/body.c). */
static awe_status riding_points(awe_mb_builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  int np = m->npoint, nb = m->nbody;
  AWE_MB_ALLOC(m->point_body, np);
  AWE_MB_ALLOC(m->point_anchor_b, 3 * np);
  AWE_MB_ALLOC(m->body_point_adr, nb + 1);
  AWE_MB_ALLOC(m->body_point_num, nb + 1);
  int nride = 0;
  for (int i = 0; i < np; i++) m->point_body[i] = -1;
  for (int i = 0; i < ss->npoint && i < np; i++) {
    const awe_point_spec *p = &ss->points[i];
    if (!AWE_REF_GIVEN(p->body)) continue;
    char owner[300];
    snprintf(owner, sizeof(owner), "point '%s'", p->name);
    int j;
    AWE_TRY(awe_mb_resolve(&p->body, m->body_name, nb, "body", owner, &j, err));
    m->point_body[i] = j;
    double R[9], *a = m->point_anchor_b + 3 * i;
    awe_quat_to_R(m->body_q0 + 4 * j, R);
    if (p->has_anchor_b) {
      memcpy(a, p->anchor_b, 3 * sizeof(double));
    } else {
      double d[3];
      awe_v3_sub(d, m->point_pos_cad + 3 * i, m->body_pos0 + 3 * j);
      awe_mat3_tvec(R, d, a);
    }
    nride++;
    m->body_point_num[j]++;
    /* a body without a transform of its own moves with the transform of its points (it is in
     * their CAD frame: its riders' offsets were taken there) */
    if (!AWE_REF_GIVEN(ss->bodies[j].transform)) {
      int pt = m->point_transform ? m->point_transform[i] : -1;
      int first = m->body_point_num[j] == 1;
      if (first) m->body_transform[j] = pt;
      else if (m->body_transform[j] != pt)
        return awe_err_at(err, AWE_EINVAL, &ss->bodies[j].loc,
                          "body '%s': the points riding it belong to different transforms (or "
                          "some to none): give the body a transform_idx", m->body_name[j]);
    }
    if (!AWE_REF_GIVEN(ss->bodies[j].wing) && m->body_wing[j] < 0) m->body_wing[j] = m->point_wing[i];
  }
  AWE_MB_ALLOC(m->body_points, nride);
  int adr = 0;
  for (int j = 0; j < nb; j++) {
    m->body_point_adr[j] = adr;
    adr += m->body_point_num[j];
    m->body_point_num[j] = 0;
  }
  for (int i = 0; i < np; i++) {
    int j = m->point_body[i];
    if (j >= 0) m->body_points[m->body_point_adr[j] + m->body_point_num[j]++] = i;
  }
  return AWE_OK;
}


/* each DYNAMIC body's mass and inertia with its riding points' masses, once placement has set
 * them from the final rest lengths (pulleys split, tethers placed: init_place.c) */
static awe_status body_masses(awe_mb_builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  for (int j = 0; j < m->nbody; j++) {
    if (m->body_static[j]) continue;
    m->body_mass[j] = m->body_mass0[j];
    memcpy(m->body_I + 9 * j, m->body_I_own + 9 * j, 9 * sizeof(double));
    for (int k = 0; k < m->body_point_num[j]; k++) {
      int i = m->body_points[m->body_point_adr[j] + k];
      const double *a = m->point_anchor_b + 3 * i;
      double mi = m->point_mass0[i], rr = awe_v3_dot(a, a);
      m->body_mass[j] += mi;
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
          m->body_I[9 * j + 3 * r + c] += mi * ((r == c) * rr - a[r] * a[c]);
    }
    /* a DYNAMIC body with its riding points: positive mass, symmetric positive definite
     * inertia (leading minors) */
    const awe_loc *loc = &ss->bodies[j].loc;
    const double *bfd = m->body_bfd + 3 * j;
    if ((bfd[0] != 0.0 || bfd[1] != 0.0 || bfd[2] != 0.0) && m->body_wing[j] < 0)
      return awe_err_at(err, AWE_EINVAL, loc, "body '%s': body_frame_damping damps the motion "
                        "relative to a wing's frame: name the wing (column wing_idx) or let "
                        "points of a wing ride the body", m->body_name[j]);
    if (!(m->body_mass[j] > 0.0))
      return awe_err_at(err, AWE_EINVAL, loc, "body '%s': a DYNAMIC body needs a positive mass "
                        "(its extra_mass and the masses of the points riding it: %g kg)",
                        m->body_name[j], m->body_mass[j]);
    const double *I = m->body_I + 9 * j;
    double tol = 1e-12 * (fabs(I[0]) + fabs(I[4]) + fabs(I[8]));
    int sym = fabs(I[1] - I[3]) <= tol && fabs(I[2] - I[6]) <= tol && fabs(I[5] - I[7]) <= tol;
    double m1 = I[0], m2 = I[0] * I[4] - I[1] * I[3];
    double m3 = I[0] * (I[4] * I[8] - I[5] * I[7]) - I[1] * (I[3] * I[8] - I[5] * I[6]) +
                I[2] * (I[3] * I[7] - I[4] * I[6]);
    if (!sym || !(m1 > 0.0) || !(m2 > 0.0) || !(m3 > 0.0) || inv3(I, m->body_Iinv + 9 * j))
      return awe_err_at(err, AWE_EINVAL, loc, "body '%s': the inertia (with the points riding "
                        "it, about its origin) must be a symmetric positive definite tensor "
                        "[kg m^2]", m->body_name[j]);
  }
  return AWE_OK;
}


awe_status awe_mb_body_points_place(awe_mb_builder *b, awe_err *err) {
  awe_model *m = b->m;
  for (int i = 0; i < m->npoint; i++) {
    int j = m->point_body[i];
    if (j < 0) continue;
    double R[9], r[3];
    awe_quat_to_R(m->body_q0 + 4 * j, R);
    awe_mat3_vec(R, m->point_anchor_b + 3 * i, r);
    for (int k = 0; k < 3; k++) {
      m->point_pos0[3 * i + k] = m->body_pos0[3 * j + k] + r[k];
      m->point_vel0[3 * i + k] = m->body_vel0[3 * j + k];
    }
    double wb[3], ww[3], t[3];
    memcpy(wb, m->body_omega0 + 3 * j, sizeof(wb));
    awe_mat3_vec(R, wb, ww);
    awe_v3_cross(t, ww, r);
    awe_v3_addto(m->point_vel0 + 3 * i, 1.0, t);
  }
  return body_masses(b, err);
}


awe_status awe_mb_bodies(awe_mb_builder *b, awe_err *err) {
  AWE_TRY(build_bodies(b, err));
  AWE_TRY(build_tubes(b, err));
  return riding_points(b, err);
}
