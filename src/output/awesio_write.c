/* awesio_write.c: a built model as an awesIO structure document (awesio_write.h). Written
 * from the model, not the spec, so generated tether points and segments, materials and
 * transforms are already expanded and every number is the one the run uses; what placement
 * rewrites (tether and pulley rest lengths, positions) is written with what it was computed
 * from (CAD positions, transforms and tether placement the model keeps, unstretched tether and
 * pulley rope lengths), so that the document read back builds the same model bit for bit. */
#include "output/awesio_write.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/sha256.h"

/* a YAML double-quoted scalar */
static void qstr(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

/* a name, or its one-based row when the model has none (index-keyed geometry) */
static void qname(FILE *f, const char *const *names, int i) {
  if (names && names[i]) {
    qstr(f, names[i]);
  } else {
    fprintf(f, "\"%d\"", i + 1);
  }
}

/* a number; YAML's spellings for the infinite (a rigidity may be) */
static void num(FILE *f, double v) {
  if (isinf(v)) fputs(v > 0 ? ".inf" : "-.inf", f);
  else if (isnan(v)) fputs(".nan", f);
  else fprintf(f, "%.17g", v);
}

/* a number, or null when not given (NAN) */
static void opt_num(FILE *f, double v) {
  if (isnan(v)) fputs("null", f);
  else num(f, v);
}

static void vecn(FILE *f, const double *v, int n) {
  fputc('[', f);
  for (int k = 0; k < n; k++) {
    if (k) fputs(", ", f);
    num(f, v[k]);
  }
  fputc(']', f);
}

static void vec3(FILE *f, const double *v) { vecn(f, v, 3); }

/* the name of component i, or null when i < 0 */
static void opt_name(FILE *f, const char *const *names, int i) {
  if (i < 0) fputs("null", f);
  else qname(f, names, i);
}

/* transform k by name (its one-based row without one), or null */
static void opt_transform(FILE *f, const awe_model *m, int k) {
  if (k < 0 || k >= m->ntransform) {
    fputs("null", f);
  } else if (m->transforms[k].name) {
    qstr(f, m->transforms[k].name);
  } else {
    fprintf(f, "\"%d\"", k + 1);
  }
}


void awe_awesio_connectivity_sha(const awe_model *m, char hex[65]) {
  /* each field is at most 2 x 11 digits + 2 characters */
  size_t cap = 64 + 24 * ((size_t)m->nsegment + (size_t)m->ntube);
  char *pre = malloc(cap);
  if (!pre) {
    memset(hex, '0', 64);
    hex[64] = '\0';
    return;
  }
  size_t n = (size_t)snprintf(pre, cap, "%d;", m->npoint);
  for (int s = 0; s < m->nsegment; s++)
    n += (size_t)snprintf(pre + n, cap - n, "%d,%d;", m->segment_p[2 * s] + 1,
                          m->segment_p[2 * s + 1] + 1);
  n += (size_t)snprintf(pre + n, cap - n, "%d;", m->nbody);
  for (int t = 0; t < m->ntube; t++)
    n += (size_t)snprintf(pre + n, cap - n, "%d,%d;", m->tube_body[2 * t] + 1,
                          m->tube_body[2 * t + 1] + 1);
  awe_sha256_hex((const unsigned char *)pre, n, hex);
  free(pre);
}

static int rides_body(const awe_model *m, int i) {
  return m->nbody > 0 && m->point_body && m->point_body[i] >= 0;
}

static const char *core_point_type(const awe_model *m, int i) {
  if (rides_body(m, i)) return "BODY_STATIC";
  switch (m->point_type[i]) {
    case AWE_PT_STATIC: return "STATIC";
    case AWE_PT_WING:
      return m->point_wing[i] >= 0 && m->wing_type[m->point_wing[i]] == AWE_WING_RIGID
                 ? "BODY_STATIC" : "DYNAMIC";
    default: return "DYNAMIC";
  }
}

/* the schema knows DYNAMIC and STATIC twists; a quasi-static one is solved, so DYNAMIC */
static const char *core_dyn_type(awe_dyn_type t) {
  return t == AWE_DYN_STATIC ? "STATIC" : "DYNAMIC";
}

static void points(FILE *f, const awe_model *m, const double g[3]) {
  fputs("\npoints:\n  headers: [name, type, body, pos_ENU, extra_mass, drag_area, "
        "drag_coefficient, awesim_type, pos_CAD, body_frame_damping, world_frame_damping, "
        "awesim_wing, awesim_transform, awesim_anchor_b]\n"
        "  units: [\"-\", \"-\", \"-\", m, kg, m^2, \"-\", \"-\", m, 1/s, 1/s, \"-\", \"-\", m]\n"
        "  data:\n", f);
  for (int i = 0; i < m->npoint; i++) {
    fputs("    - [", f);
    qname(f, m->point_name, i);
    fprintf(f, ", %s, ", core_point_type(m, i));
    int w = m->point_wing[i];
    if (rides_body(m, i))
      qname(f, m->body_name, m->point_body[i]);
    else if (m->point_type[i] == AWE_PT_WING && w >= 0 && m->wing_type[w] == AWE_WING_RIGID)
      qname(f, m->wing_name, w);
    else
      fputs("null", f);
    fputs(", [", f);
    for (int k = 0; k < 3; k++) {
      if (k) fputs(", ", f);
      num(f, m->point_pos0[3 * i + k] - g[k]);
    }
    fputs("], ", f);
    num(f, m->point_extra_mass[i]);
    fputs(", ", f);
    num(f, m->point_area[i]);
    fputs(", ", f);
    num(f, m->point_cd[i]);
    fprintf(f, ", %s, [", awe_point_type_name(m->point_type[i]));
    for (int k = 0; k < 3; k++) {
      if (k) fputs(", ", f);
      num(f, m->point_pos_cad[3 * i + k]);
    }
    for (int d = 0; d < 2; d++) {
      const double *v = (d ? m->point_wfd : m->point_bfd) + 3 * i;
      fputs("], [", f);
      for (int k = 0; k < 3; k++) {
        if (k) fputs(", ", f);
        num(f, v[k]);
      }
    }
    fputs("], ", f);
    opt_name(f, m->wing_name, m->point_wing[i]);
    fputs(", ", f);
    opt_transform(f, m, m->point_transform ? m->point_transform[i] : -1);
    /* a rider's offset from its body's origin, body frame, as built */
    fputs(", ", f);
    if (rides_body(m, i)) vec3(f, m->point_anchor_b + 3 * i);
    else fputs("null", f);
    fputs("]\n", f);
  }
}

static void segments(FILE *f, const awe_model *m) {
  fprintf(f, "\nsegments:\n  headers: [name, points, l0, diameter, density, unit_stiffness, "
        "unit_damping, compression_frac, compression_damping_frac]\n"
        "  units: [\"-\", \"-\", m, m, kg/m^3, N, N*s, \"-\", \"-\"]\n  data:%s\n",
        m->nsegment ? "" : " []");
  for (int s = 0; s < m->nsegment; s++) {
    fputs("    - [", f);
    qname(f, m->segment_name, s);
    fputs(", [", f);
    qname(f, m->point_name, m->segment_p[2 * s]);
    fputs(", ", f);
    qname(f, m->point_name, m->segment_p[2 * s + 1]);
    fputs("], ", f);
    num(f, m->segment_l0[s]);
    fputs(", ", f);
    num(f, m->segment_diameter[s]);
    fputs(", ", f);
    num(f, m->segment_density[s]);
    fputs(", ", f);
    num(f, m->segment_unit_k[s]);
    fputs(", ", f);
    num(f, m->segment_unit_c[s]);
    fputs(", ", f);
    num(f, m->segment_compression_frac[s]);
    fputs(", ", f);
    num(f, m->segment_compression_damping_frac[s]);
    fputs("]\n", f);
  }
}

/* a list of names: the n indices idx[0..n-1] into names */
static void name_list(FILE *f, const char *const *names, const int *idx, int n) {
  fputc('[', f);
  for (int k = 0; k < n; k++) {
    if (k) fputs(", ", f);
    qname(f, names, idx[k]);
  }
  fputc(']', f);
}

static void stations(FILE *f, const awe_model *m) {
  if (m->ngroup == 0) return;
  fputs("\nstations:\n  headers: [name, type, points, awesim_type, moment_frac, damping]\n"
        "  units: [\"-\", \"-\", \"-\", \"-\", \"-\", N*m*s]\n  data:\n", f);
  for (int g = 0; g < m->ngroup; g++) {
    fputs("    - [", f);
    qname(f, m->group_name, g);
    fprintf(f, ", %s, ", core_dyn_type(m->group_type[g]));
    name_list(f, m->point_name, m->group_points + m->group_point_adr[g], m->group_point_num[g]);
    fprintf(f, ", %s, ", awe_dyn_type_name(m->group_type[g]));
    num(f, m->group_moment_frac[g]);
    fputs(", ", f);
    num(f, m->group_damping[g]);
    fputs("]\n", f);
  }
}

static void pulleys(FILE *f, const awe_model *m) {
  if (m->npulley == 0) return;
  /* awesim_sum_len is the rope's rest length l0_1 + l0_2 as built (the legs' l0 are its split
   * at the placed geometry) */
  fputs("\npulleys:\n  headers: [name, segments, type, efficiency, awesim_type, "
        "friction_epsilon, damping, damping_rate, brake, awesim_sum_len]\n"
        "  units: [\"-\", \"-\", \"-\", \"-\", \"-\", m/s, N*s/m, 1/s, \"-\", m]\n  data:\n", f);
  for (int p = 0; p < m->npulley; p++) {
    fputs("    - [", f);
    qname(f, m->pulley_name, p);
    fputs(", ", f);
    name_list(f, m->segment_name, m->pulley_seg + 2 * p, 2);
    fprintf(f, ", %s, ", core_dyn_type(m->pulley_type[p]));
    num(f, m->pulley_efficiency[p]);
    fprintf(f, ", %s, ", awe_dyn_type_name(m->pulley_type[p]));
    num(f, m->pulley_friction_eps[p]);
    fputs(", ", f);
    num(f, m->pulley_damping[p]);
    fputs(", ", f);
    num(f, m->pulley_damping_rate[p]);
    fprintf(f, ", %s, ", m->pulley_brake[p] ? "true" : "false");
    num(f, m->pulley_sum_len[p]);
    fputs("]\n", f);
  }
}

static void tethers(FILE *f, const awe_model *m) {
  if (m->ntether == 0) return;
  /* how the run placed the tether (null: not given) and its unstretched length as built */
  fputs("\ntethers:\n  headers: [name, start_point, end_point, segments, "
        "awesim_init_stretched_length, awesim_init_tether_force, awesim_init_stretch_frac, "
        "awesim_len0]\n"
        "  units: [\"-\", \"-\", \"-\", \"-\", m, N, \"-\", m]\n  data:\n", f);
  for (int t = 0; t < m->ntether; t++) {
    fputs("    - [", f);
    qname(f, m->tether_name, t);
    fputs(", ", f);
    qname(f, m->point_name, m->tether_start[t]);
    fputs(", ", f);
    qname(f, m->point_name, m->tether_end[t]);
    fputs(", ", f);
    name_list(f, m->segment_name, m->tether_segs + m->tether_seg_adr[t], m->tether_seg_num[t]);
    for (int k = 0; k < 3; k++) {
      fputs(", ", f);
      opt_num(f, m->tether_init ? m->tether_init[3 * t + k] : NAN);
    }
    fputs(", ", f);
    num(f, m->tether_len0[t]);
    fputs("]\n", f);
  }
}

static void winches(FILE *f, const awe_model *m) {
  if (m->nwinch == 0) return;
  fputs("\nwinches:\n  headers: [name, tethers, winch_point, gear_ratio, drum_radius, "
        "inertia_total, coulomb_friction, viscous_coefficient, init_vel, brake, "
        "speed_controlled, friction_epsilon, endpoint_damping]\n"
        "  units: [\"-\", \"-\", \"-\", \"-\", m, kg*m^2, N, N*s/m, m/s, \"-\", \"-\", "
        "rad/s, \"-\"]\n  data:\n", f);
  for (int w = 0; w < m->nwinch; w++) {
    fputs("    - [", f);
    qname(f, m->winch_name, w);
    fputs(", ", f);
    name_list(f, m->tether_name, m->winch_tethers + m->winch_tether_adr[w],
              m->winch_tether_num[w]);
    fputs(", ", f);
    qname(f, m->point_name, m->winch_point[w]);
    fputs(", ", f);
    num(f, m->winch_gear_ratio[w]);
    fputs(", ", f);
    num(f, m->winch_drum_radius[w]);
    fputs(", ", f);
    num(f, m->winch_inertia[w]);
    fputs(", ", f);
    num(f, m->winch_f_coulomb[w]);
    fputs(", ", f);
    num(f, m->winch_c_vf[w]);
    fputs(", ", f);
    num(f, m->winch_init_vel[w]);
    fprintf(f, ", %s, %s, ", m->winch_brake0[w] ? "true" : "false",
            m->winch_speed_controlled[w] ? "true" : "false");
    num(f, m->winch_friction_eps[w]);
    fprintf(f, ", %s]\n", m->winch_endpoint_damping[w] ? "true" : "false");
  }
}

/* a weighted point set: [[name, weight], ...] */
static void wref(FILE *f, const awe_model *m, const int *pts, const double *w, int n) {
  fputc('[', f);
  for (int k = 0; k < n; k++) {
    fputs(k ? ", [" : "[", f);
    qname(f, m->point_name, pts[k]);
    fputs(", ", f);
    num(f, w[k]);
    fputc(']', f);
  }
  fputc(']', f);
}

/* SAM's wings as awesim builds them: a tool block the schema leaves open. Positions in
 * awesim's world frame (as pos_CAD and the transforms' base_pos). */
static void wings(FILE *f, const awe_model *m) {
  if (m->nwing == 0) return;
  static const char *const wt[] = {"RIGID", "PARTICLE"};
  static const char *const am[] = {"NONE", "DIRECT", "LINEARIZED"};
  fputs("\nawesim_wings:\n  headers: [name, type, aero_mode, stations, points, transform, "
        "origin, z_ref, y_ref, y_damping, angular_damping, aero_scale_chord, aero_z_offset, "
        "ground, ground_ENU, pos_cad, angular_damping_axes, unsteady]\n"
        "  units: [\"-\", \"-\", \"-\", \"-\", \"-\", \"-\", \"-\", \"-\", \"-\", 1/s, "
        "N*m*s, \"-\", m, \"-\", m, m, 1/s, \"-\"]\n  data:\n", f);
  for (int w = 0; w < m->nwing; w++) {
    fputs("    - [", f);
    qname(f, m->wing_name, w);
    int mode = m->wing_aero_mode[w];
    fprintf(f, ", %s, %s, ", wt[m->wing_type[w]], mode >= 0 && mode <= 2 ? am[mode] : "null");
    name_list(f, m->group_name, m->wing_groups + m->wing_group_adr[w], m->wing_group_num[w]);
    fputs(", ", f);
    name_list(f, m->point_name, m->wing_points + m->wing_point_adr[w], m->wing_point_num[w]);
    fputs(", ", f);
    opt_transform(f, m, m->wing_transform[w]);
    fputs(", ", f);
    wref(f, m, m->wing_origin_pts + m->wing_origin_adr[w], m->wing_origin_w + m->wing_origin_adr[w],
         m->wing_origin_num[w]);
    for (int r = 0; r < 2; r++) {
      fputs(", [", f);
      for (int k = 0; k < 2; k++) {
        int a = m->wing_ref_adr[4 * w + 2 * r + k];
        if (k) fputs(", ", f);
        wref(f, m, m->wing_ref_pts + a, m->wing_ref_w + a, m->wing_ref_num[4 * w + 2 * r + k]);
      }
      fputc(']', f);
    }
    fputs(", ", f);
    num(f, m->wing_y_damping[w]);
    fputs(", ", f);
    num(f, m->wing_angular_damping[w]);
    fputs(", ", f);
    num(f, m->wing_aero_scale_chord[w]);
    fputs(", ", f);
    num(f, m->wing_aero_z_offset[w]);
    fputs(", ", f);
    /* the ground station: its STATIC point, or a world position */
    if (m->wing_ground_point[w] >= 0) qname(f, m->point_name, m->wing_ground_point[w]);
    else vec3(f, m->wing_ground + 3 * w);
    fputs(", ", f);
    vec3(f, m->wing_ground + 3 * w);
    fputs(", ", f);
    if (isnan(m->wing_pos_cad[3 * w])) fputs("null", f);
    else vec3(f, m->wing_pos_cad + 3 * w);
    /* SymbolicAWEModels 0.15's per-axis rate damping (principal axes), as built */
    fputs(", ", f);
    vec3(f, m->wing_ang_damp + 3 * w);
    /* SymbolicAWEModels 0.17's unsteady aerodynamics, null when off */
    if (m->wing_apparent_mass[w] > 0.0 || m->wing_wagner[w]) {
      fputs(", {apparent_mass: ", f);
      num(f, m->wing_apparent_mass[w]);
      fprintf(f, ", wagner: %s, wagner_gains: [", m->wing_wagner[w] ? "true" : "false");
      num(f, m->wing_wagner_gains[2 * w]);
      fputs(", ", f);
      num(f, m->wing_wagner_gains[2 * w + 1]);
      fputs("], wagner_rates: [", f);
      num(f, m->wing_wagner_rates[2 * w]);
      fputs(", ", f);
      num(f, m->wing_wagner_rates[2 * w + 1]);
      fputs("]}]\n", f);
    } else {
      fputs(", null]\n", f);
    }
  }
}

/* SAM's transforms (the placement of the initial state, after the scenario's overrides):
 * angles in rad, rates in rad/s, base_pos in awesim's world frame */
static void transforms(FILE *f, const awe_model *m) {
  if (m->ntransform == 0) return;
  const char **tn = malloc(sizeof(*tn) * (size_t)m->ntransform);
  if (!tn) return;
  for (int k = 0; k < m->ntransform; k++) tn[k] = m->transforms[k].name;
  fputs("\nawesim_transforms:\n  headers: [name, elevation, azimuth, heading, elevation_vel, "
        "azimuth_vel, turn_rate, base_pos, base_point, base_transform, wing, rot_point]\n"
        "  units: [\"-\", rad, rad, rad, rad/s, rad/s, rad/s, m, \"-\", \"-\", \"-\", \"-\"]\n"
        "  data:\n", f);
  for (int k = 0; k < m->ntransform; k++) {
    const awe_transform_spec *T = &m->transforms[k];
    fputs("    - [", f);
    opt_transform(f, m, k);
    const double v[6] = {T->elevation, T->azimuth, T->heading, T->elevation_vel, T->azimuth_vel,
                         T->turn_rate};
    for (int j = 0; j < 6; j++) {
      fputs(", ", f);
      num(f, v[j]);
    }
    fputs(", ", f);
    if (T->has_base_pos) vec3(f, T->base_pos);
    else fputs("null", f);
    fputs(", ", f);
    opt_name(f, m->point_name, AWE_REF_GIVEN(T->base_point)
                                   ? awe_ref_index(&T->base_point, m->point_name, m->npoint) : -1);
    fputs(", ", f);
    opt_transform(f, m, AWE_REF_GIVEN(T->base_transform)
                            ? awe_ref_index(&T->base_transform, tn, m->ntransform) : -1);
    fputs(", ", f);
    opt_name(f, m->wing_name, AWE_REF_GIVEN(T->wing)
                                  ? awe_ref_index(&T->wing, m->wing_name, m->nwing) : -1);
    fputs(", ", f);
    opt_name(f, m->point_name, AWE_REF_GIVEN(T->rot_point)
                                   ? awe_ref_index(&T->rot_point, m->point_name, m->npoint) : -1);
    fputs("]\n", f);
  }
  free(tn);
}

/* a 3x3 row-major matrix as three rows */
static void mat3(FILE *f, const double *a) {
  fputc('[', f);
  for (int r = 0; r < 3; r++) {
    if (r) fputs(", ", f);
    vec3(f, a + 3 * r);
  }
  fputc(']', f);
}

static void vec4(FILE *f, const double *q) { vecn(f, q, 4); }

/* rigid bodies (SymbolicAWEModels 0.17 `bodies:`): the schema's columns with the pose as
 * placed (pos_ENU relative to the ground station, Q_KA_to_ENU = awesim's Q_b_to_w, w first;
 * the body frame is KA) and the body's own mass and inertia (the riding points' are theirs);
 * then awesim's: the pose as given, before the transforms place it, the initial velocity and
 * spin, the damping, the transform that places it, and the damping relative to a wing's frame
 * with that wing */
static void bodies(FILE *f, const awe_model *m, const double g[3]) {
  if (m->nbody == 0) return;
  fputs("\nbodies:\n  headers: [name, type, pos_ENU, Q_KA_to_ENU, extra_mass, extra_inertia_KA, "
        "awesim_pos_CAD, awesim_Q_CAD, awesim_vel, awesim_omega_b, awesim_angular_damping, "
        "awesim_world_frame_damping, awesim_transform, awesim_body_frame_damping, awesim_wing]\n"
        "  units: [\"-\", \"-\", m, \"-\", kg, kg*m^2, m, \"-\", m/s, rad/s, 1/s, 1/s, \"-\", 1/s, "
        "\"-\"]\n"
        "  data:\n", f);
  for (int j = 0; j < m->nbody; j++) {
    fputs("    - [", f);
    qname(f, m->body_name, j);
    fprintf(f, ", %s, ", m->body_static[j] ? "STATIC" : "DYNAMIC");
    double p[3];
    for (int k = 0; k < 3; k++) p[k] = m->body_pos0[3 * j + k] - g[k];
    vec3(f, p);
    fputs(", ", f);
    vec4(f, m->body_q0 + 4 * j);
    fputs(", ", f);
    num(f, m->body_mass0[j]);
    fputs(", ", f);
    mat3(f, m->body_I_own + 9 * j);
    fputs(", ", f);
    vec3(f, m->body_pos_cad + 3 * j);
    fputs(", ", f);
    vec4(f, m->body_q_cad + 4 * j);
    const double *v[4] = {m->body_vel0 + 3 * j, m->body_omega0 + 3 * j, m->body_damp + 3 * j,
                          m->body_wfd + 3 * j};
    for (int k = 0; k < 4; k++) {
      fputs(", ", f);
      vec3(f, v[k]);
    }
    fputs(", ", f);
    opt_transform(f, m, m->body_transform[j]);
    fputs(", ", f);
    vec3(f, m->body_bfd + 3 * j);
    fputs(", ", f);
    opt_name(f, m->wing_name, m->body_wing[j]);
    fputs("]\n", f);
  }
}

/* tubes between bodies (SymbolicAWEModels 0.17 `tubes:`): the schema's columns, then
 * SymbolicAWEModels' own (model, the rigidities as built, whether given or from the law, so
 * that the law is not evaluated again to other bits; Rayleigh damping; the end offsets). The
 * schema's diameter and pressure are numbers: a tube given none (its rigidities given) is
 * written with 0 m, 0 Pa and law none, which builds the same element. */
/* whether tube t's rigidities came from the Breukels law (its diameter and pressure given) */
static int tube_has_law(const awe_model *m, int t) {
  return m->tube_law[t] == 1 && isfinite(m->tube_diameter[t]) && isfinite(m->tube_pressure[t]);
}

static void tubes(FILE *f, const awe_model *m) {
  if (m->ntube == 0) return;
  int lawless = 0;
  for (int t = 0; t < m->ntube; t++) lawless += !tube_has_law(m, t);
  if (lawless)
    fputs("\n# a tube with law none has its rigidities given (EA ... shear_coeff, or "
          "stiffness_*); its diameter and pressure are 0 when it was given none", f);
  fputs("\ntubes:\n  headers: [name, bodies, diameter, pressure, law, model, EA, GA, GJ, EIy, EIz, "
        "shear_coeff, stiffness_axial, stiffness_shear, stiffness_torsion, stiffness_bending, "
        "damping, anchor_a, anchor_b]\n"
        "  units: [\"-\", \"-\", m, Pa, \"-\", \"-\", N, N, N*m^2, N*m^2, N*m^2, \"-\", N/m, N/m, "
        "N*m/rad, N*m/rad, s, m, m]\n  data:\n", f);
  for (int t = 0; t < m->ntube; t++) {
    fputs("    - [", f);
    qname(f, m->tube_name, t);
    fputs(", ", f);
    name_list(f, m->body_name, m->tube_body + 2 * t, 2);
    double d = m->tube_diameter[t], p = m->tube_pressure[t];
    int law = tube_has_law(m, t);
    fputs(", ", f);
    num(f, isfinite(d) ? d : 0.0);
    fputs(", ", f);
    num(f, isfinite(p) ? p : 0.0);
    fprintf(f, ", %s, %s", law ? "breukels2011" : "none",
            m->tube_model[t] == AWE_TUBE_ELASTIC ? "elastic" : "timoshenko");
    const double *k = m->tube_k + 6 * t;
    int ela = m->tube_model[t] == AWE_TUBE_ELASTIC;
    for (int q = 0; q < 6; q++) {
      fputs(", ", f);
      if (ela) fputs("null", f);
      else num(f, k[q]);
    }
    for (int q = 0; q < 4; q++) {
      fputs(", ", f);
      if (ela) num(f, k[q]);
      else fputs("null", f);
    }
    fputs(", ", f);
    num(f, m->tube_damping[t]);
    fputs(", ", f);
    vec3(f, m->tube_anchor + 6 * t);
    fputs(", ", f);
    vec3(f, m->tube_anchor + 6 * t + 3);
    fputs("]\n", f);
  }
}

awe_status awe_awesio_write(FILE *f, const awe_model *m, const char *name, const char *source,
                            awe_err *err) {
  char sha[65];
  awe_awesio_connectivity_sha(m, sha);
  /* positions relative to the (first) wing's ground station, ENU axes as awesim's world */
  double g[3] = {0, 0, 0};
  if (m->nwing > 0) memcpy(g, m->wing_ground, sizeof(g));
  fputs("metadata:\n  name: ", f);
  qstr(f, name ? name : "awesim model");
  fputs("\n  description: \"Structure of an awesim model, fully expanded as built for its "
        "run: positions in ENU relative to the ground station, extra masses only.\"\n"
        "  note: ", f);
  qstr(f, source ? source : "");
  fprintf(f, "\n  awesIO_version: %s\n  schema: \"structure_schema.yml\"\n  n_points: %d\n"
             "  connectivity_sha: %s\n", AWE_AWESIO_VERSION, m->npoint, sha);
  points(f, m, g);
  segments(f, m);
  stations(f, m);
  pulleys(f, m);
  tethers(f, m);
  winches(f, m);
  wings(f, m);
  transforms(f, m);
  bodies(f, m, g);
  tubes(f, m);
  if (ferror(f)) return awe_err_set(err, AWE_EIO, "awesIO document: write failed");
  return AWE_OK;
}


char *awe_awesio_string(const awe_model *m, const char *name, const char *source,
                        awe_err *err) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f) {
    awe_err_set(err, AWE_ENOMEM, "awesIO document: out of memory");
    return NULL;
  }
  awe_status st = awe_awesio_write(f, m, name, source, err);
  if (fclose(f) != 0 && st == AWE_OK)
    st = awe_err_set(err, AWE_ENOMEM, "awesIO document: out of memory");
  if (st != AWE_OK) {
    free(buf);
    return NULL;
  }
  return buf;
}
