/* model_validate.c: reject models that cannot run, warn about suspicious ones.
 *
 * The rules of SymbolicAWEModels' validate_sys_struct (seed 000) plus awesim's own range
 * checks. Each message names the component and, where the model file gave it, its position.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_matrix.h>

#include "model/model.h"



/* A generated segment's or point's tether (the row that generated it), or -1. */
static int segment_owner(const awe_model *m, int i) {
  int t = m->segment_tether[i];
  return t >= 0 && t < m->ntether ? t : -1;
}


static int point_owner(const awe_model *m, int i) {
  for (int k = 0; k < m->nsegment; k++)
    if (m->segment_p[2 * k] == i || m->segment_p[2 * k + 1] == i) {
      int t = segment_owner(m, k);
      if (t >= 0) return t;
    }
  return -1;
}


/* Where a point or segment was defined: its row, or for a generated one its tether's row. */
static const awe_loc *point_loc(const awe_model *m, const awe_spec *s, int i) {
  if (i < s->structure.npoint) return &s->structure.points[i].loc;
  int t = point_owner(m, i);
  return t >= 0 && t < s->structure.ntether ? &s->structure.tethers[t].loc : NULL;
}


static const awe_loc *segment_loc(const awe_model *m, const awe_spec *s, int i) {
  if (i < s->structure.nsegment) return &s->structure.segments[i].loc;
  int t = segment_owner(m, i);
  return t >= 0 && t < s->structure.ntether ? &s->structure.tethers[t].loc : NULL;
}


/* A tether of zero length gives massless generated points and zero-length segments: name the
 * cause before those consequences. */
static awe_status check_tether_lengths(const awe_model *m, const awe_spec *s, awe_err *err) {
  for (int t = 0; t < m->ntether && t < s->structure.ntether; t++)
    if (!(m->tether_len0[t] > 0))
      return awe_err_at(err, AWE_EINVAL, &s->structure.tethers[t].loc,
                        "tether '%s': unstretched length %g m must be > 0 (its end points '%s' "
                        "and '%s' coincide? give init_stretched_length)", m->tether_name[t],
                        m->tether_len0[t], m->point_name[m->tether_start[t]],
                        m->point_name[m->tether_end[t]]);
  return AWE_OK;
}


/* a point position is looked up only for a message: for a generated point it costs a search */
#define PL point_loc(m, s, i)
static awe_status check_points(const awe_model *m, const awe_spec *s, awe_diag *w,
                               awe_err *err) {
  for (int i = 0; i < m->npoint; i++) {
    const char *nm = m->point_name[i];
    if (isnan(m->point_extra_mass[i]))
      return awe_err_at(err, AWE_EINVAL, PL, "point '%s': extra_mass is NaN", nm);
    if (m->point_extra_mass[i] < 0)
      awe_warn(w, PL, "point '%s': negative extra_mass %g kg", nm, m->point_extra_mass[i]);
    if (m->point_type[i] == AWE_PT_DYNAMIC && !(m->point_mass0[i] > 0))
      return awe_err_at(err, AWE_EINVAL, PL,
                        "point '%s': a DYNAMIC point needs a total mass > 0 kg (extra_mass %g kg "
                        "+ half of its segments' mass = %g kg)", nm, m->point_extra_mass[i],
                        m->point_mass0[i]);
    for (int k = 0; k < 3; k++) {
      if (!isfinite(m->point_pos_cad[3 * i + k]))
        return awe_err_at(err, AWE_EINVAL, PL, "point '%s': position is not finite", nm);
      if (fabs(m->point_pos_cad[3 * i + k]) > 1e7)
        return awe_err_at(err, AWE_EINVAL, PL,
                          "point '%s': pos_cad %s m is out of range (|x| <= 1e7 m)", nm,
                          awe_num_str(m->point_pos_cad[3 * i + k]).s);
      if (m->point_bfd[3 * i + k] < 0 || m->point_wfd[3 * i + k] < 0)
        return awe_err_at(err, AWE_EINVAL, PL,
                          "point '%s': body/world_frame_damping must be >= 0", nm);
    }
    if (m->point_area[i] < 0)
      return awe_err_at(err, AWE_EINVAL, PL, "point '%s': area %g m^2 must be >= 0", nm,
                        m->point_area[i]);
    if (m->point_cd[i] < 0)
      return awe_err_at(err, AWE_EINVAL, PL, "point '%s': drag_coeff %g must be >= 0", nm,
                        m->point_cd[i]);
    if (m->point_extra_mass[i] > 1e9)
      return awe_err_at(err, AWE_EINVAL, PL, "point '%s': extra_mass %s kg is out of range "
                        "(<= 1e9 kg)", nm, awe_num_str(m->point_extra_mass[i]).s);
  }
  /* points that nothing touches are legal but usually a typo */
  unsigned char *used = calloc((size_t)m->npoint + 1, 1);  /* one pass, not points x segments */
  if (!used) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int k = 0; k < 2 * m->nsegment; k++)
    if (m->segment_p[k] >= 0 && m->segment_p[k] < m->npoint) used[m->segment_p[k]] = 1;
  for (int i = 0; i < m->npoint; i++) {
    if (!used[i] && m->point_type[i] == AWE_PT_DYNAMIC)
      awe_warn(w, PL, "point '%s' is connected to no segment (it will fly freely)",
               m->point_name[i]);
  }
  free(used);
  return AWE_OK;
}
#undef PL


static awe_status check_segments(const awe_model *m, const awe_spec *s, awe_diag *w,
                                 awe_err *err) {
  int nodamp = 0;
  for (int i = 0; i < m->nsegment; i++) {
    const awe_loc *loc = segment_loc(m, s, i);
    const char *nm = m->segment_name[i];
    if (m->segment_p[2 * i] == m->segment_p[2 * i + 1])
      return awe_err_at(err, AWE_EINVAL, loc, "segment '%s': both ends are point '%s'", nm,
                        m->point_name[m->segment_p[2 * i]]);
    if (!(m->segment_l0[i] > 0))
      return awe_err_at(err, AWE_EINVAL, loc,
                        "segment '%s': rest length l0 = %g m must be > 0 (its points coincide?)",
                        nm, m->segment_l0[i]);
    double d = m->segment_diameter[i];
    if (!isfinite(d) || d < 0)
      return awe_err_at(err, AWE_EINVAL, loc, "segment '%s': diameter %g m is invalid", nm, d);
    if (!(d > 0 && d < 1))
      awe_warn(w, loc, "segment '%s': unusual diameter %g m (outside 0 ... 1 m)", nm, d);
    if (!isfinite(m->segment_unit_k[i]) || !isfinite(m->segment_unit_c[i]))
      return awe_err_at(err, AWE_EINVAL, loc, "segment '%s': stiffness or damping not finite", nm);
    if (!(m->segment_unit_k[i] > 0))
      awe_warn(w, loc, "segment '%s': unit_stiffness %g N is not positive", nm,
               m->segment_unit_k[i]);
    if (m->segment_unit_c[i] < 0)
      awe_warn(w, loc, "segment '%s': negative unit_damping %g N s", nm, m->segment_unit_c[i]);
    if (m->segment_unit_c[i] == 0) nodamp++;
    double cf = m->segment_compression_frac[i];
    if (!(cf >= 0 && cf <= 1))
      return awe_err_at(err, AWE_EINVAL, loc,
                        "segment '%s': compression_frac %s is out of range (0 ... 1)", nm,
                        awe_num_str(cf).s);
    double cdf = m->segment_compression_damping_frac[i];
    if (!(cdf >= 0 && cdf <= 1))
      return awe_err_at(err, AWE_EINVAL, loc,
                        "segment '%s': compression_damping_frac %s is out of range (0 ... 1)", nm,
                        awe_num_str(cdf).s);
    if (m->segment_density[i] < 0)
      return awe_err_at(err, AWE_EINVAL, loc, "segment '%s': density %g kg/m^3 must be >= 0", nm,
                        m->segment_density[i]);
  }
  (void)nodamp;
  return AWE_OK;
}


static awe_status check_tethers(const awe_model *m, const awe_spec *s, awe_diag *w,
                                awe_err *err) {
  (void)w;
  for (int t = 0; t < s->structure.ntether; t++) {
    const awe_tether_spec *ts = &s->structure.tethers[t];
    const char *nm = ts->name;
    if (!isnan(ts->init_stretched_length) && !(ts->init_stretched_length > 0))
      return awe_err_at(err, AWE_EINVAL, &ts->loc,
                        "tether '%s': init_stretched_length %g m must be > 0", nm,
                        ts->init_stretched_length);
    if (!isnan(ts->init_tether_force) && !isnan(ts->init_stretch_frac))
      return awe_err_at(err, AWE_EINVAL, &ts->loc,
                        "tether '%s': init_tether_force and init_stretch_frac exclude each other",
                        nm);
    if (!isnan(ts->init_stretch_frac) && !(ts->init_stretch_frac > 0))
      return awe_err_at(err, AWE_EINVAL, &ts->loc,
                        "tether '%s': init_stretch_frac %g must be > 0", nm, ts->init_stretch_frac);
    if (!isnan(ts->init_tether_force) && ts->init_tether_force < 0)
      return awe_err_at(err, AWE_EINVAL, &ts->loc,
                        "tether '%s': init_tether_force %g N must be >= 0", nm,
                        ts->init_tether_force);
    if (!isnan(ts->init_stretched_length)) {
      int a = m->tether_start[t], b = m->tether_end[t];
      int anch_a = m->point_type[a] == AWE_PT_STATIC, anch_b = m->point_type[b] == AWE_PT_STATIC;
      for (int wi = 0; wi < m->nwinch; wi++) {
        anch_a |= m->winch_point[wi] == a;
        anch_b |= m->winch_point[wi] == b;
      }
      if (!anch_a && !anch_b)
        return awe_err_at(err, AWE_EINVAL, &ts->loc,
                          "tether '%s': init_stretched_length needs a tether anchored at a STATIC "
                          "or winch point ('%s' and '%s' are neither)", nm, m->point_name[a],
                          m->point_name[b]);
    }
  }
  return AWE_OK;
}


static awe_status check_winches(const awe_model *m, const awe_spec *s, awe_diag *w,
                                awe_err *err) {
  for (int i = 0; i < m->nwinch; i++) {
    const awe_loc *loc = i < s->structure.nwinch ? &s->structure.winches[i].loc : NULL;
    const char *nm = m->winch_name[i];
    double J = m->winch_inertia[i];
    if (isnan(J) || !(J > 0))
      return awe_err_at(err, AWE_EINVAL, loc,
                        "winch '%s': winch.inertia_total = %g kg m^2 must be > 0 (set it in "
                        "settings.yaml; the KiteUtils default is 0)", nm, J);
    if (J < 1e-6)
      awe_warn(w, loc, "winch '%s': very small inertia_total %g kg m^2 makes the system stiff",
               nm, J);
    if (!(m->winch_drum_radius[i] > 0))
      return awe_err_at(err, AWE_EINVAL, loc, "winch '%s': winch.drum_radius %g m must be > 0",
                        nm, m->winch_drum_radius[i]);
    if (!(m->winch_gear_ratio[i] > 0))
      return awe_err_at(err, AWE_EINVAL, loc, "winch '%s': winch.gear_ratio %g must be > 0", nm,
                        m->winch_gear_ratio[i]);
    if (m->winch_f_coulomb[i] < 0 || m->winch_c_vf[i] < 0)
      return awe_err_at(err, AWE_EINVAL, loc,
                        "winch '%s': f_coulomb and c_vf must be >= 0 (got %g N, %g N s/m)", nm,
                        m->winch_f_coulomb[i], m->winch_c_vf[i]);
    if (!(m->winch_friction_eps[i] > 0))
      return awe_err_at(err, AWE_EINVAL, loc, "winch '%s': friction_epsilon %g must be > 0", nm,
                        m->winch_friction_eps[i]);
  }
  return AWE_OK;
}


static awe_status check_pulleys(const awe_model *m, const awe_spec *s, awe_err *err) {
  for (int i = 0; i < m->npulley; i++) {
    if (!(m->pulley_sum_len[i] > 0))
      return awe_err_at(err, AWE_EINVAL, &s->structure.pulleys[i].loc,
                        "pulley '%s': the total rope length is zero", m->pulley_name[i]);
  }
  return AWE_OK;
}


/* principal inertia of a wing's points about their centre of mass */
static int wing_inertia(const awe_model *m, int wi, double ev[3]) {
  double com[3] = {0}, mass = 0;
  int adr = m->wing_point_adr[wi], n = m->wing_point_num[wi];
  for (int k = 0; k < n; k++) {
    int p = m->wing_points[adr + k];
    if (m->point_type[p] != AWE_PT_WING) continue;
    mass += m->point_mass0[p];
    for (int d = 0; d < 3; d++) com[d] += m->point_mass0[p] * m->point_pos_cad[3 * p + d];
  }
  if (!(mass > 0)) return -1;
  for (int d = 0; d < 3; d++) com[d] /= mass;
  double I[9] = {0};
  for (int k = 0; k < n; k++) {
    int p = m->wing_points[adr + k];
    if (m->point_type[p] != AWE_PT_WING) continue;
    double r[3], mp = m->point_mass0[p];
    for (int d = 0; d < 3; d++) r[d] = m->point_pos_cad[3 * p + d] - com[d];
    double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    for (int a = 0; a < 3; a++)
      for (int c = 0; c < 3; c++) I[3 * a + c] += mp * ((a == c) * rr - r[a] * r[c]);
  }
  gsl_matrix_view A = gsl_matrix_view_array(I, 3, 3);
  gsl_vector_view e = gsl_vector_view_array(ev, 3);
  gsl_eigen_symm_workspace *ws = gsl_eigen_symm_alloc(3);
  if (!ws) return -1;
  int st = gsl_eigen_symm(&A.matrix, &e.vector, ws);
  gsl_eigen_symm_free(ws);
  return st;
}


static awe_status check_wings(const awe_model *m, const awe_spec *s, awe_diag *w,
                              awe_err *err) {
  for (int i = 0; i < m->nwing; i++) {
    const awe_loc *loc = &s->structure.wings[i].loc;
    const char *nm = m->wing_name[i];
    int nwing_pts = 0;
    for (int k = 0; k < m->wing_point_num[i]; k++)
      nwing_pts += m->point_type[m->wing_points[m->wing_point_adr[i] + k]] == AWE_PT_WING;
    if (nwing_pts == 0)
      return awe_err_at(err, AWE_EINVAL, loc,
                        "wing '%s': no WING point names this wing in its wing_idx column", nm);
    if (!(m->wing_mass[i] > 0))
      return awe_err_at(err, AWE_EINVAL, loc, "wing '%s': mass %g kg must be > 0", nm,
                        m->wing_mass[i]);
    if (m->wing_origin_num[i] == 0)
      return awe_err_at(err, AWE_EINVAL, loc, "wing '%s': origin_idx is required", nm);
    /* body-rate dampings: negative ones are legal (like a segment's unit_damping) but feed
     * energy into the wing's rotation, which then grows as exp(|c| t) */
    for (int k = 0; k < 3; k++)
      if (!isfinite(m->wing_ang_damp[3 * i + k]))
        return awe_err_at(err, AWE_EINVAL, loc, "wing '%s': angular_damping[%d] = %g is not "
                          "finite", nm, k + 1, m->wing_ang_damp[3 * i + k]);
    if (s->structure.wings[i].has_angular_damping_vec) { /* SAM 0.15's per-axis vector */
      for (int k = 0; k < 3; k++)
        if (m->wing_ang_damp[3 * i + k] < 0)
          awe_warn(w, loc, "wing '%s': negative angular_damping[%d] %g 1/s (it feeds energy "
                   "into the wing's rotation)", nm, k + 1, m->wing_ang_damp[3 * i + k]);
    }
    const double dmp[2] = {m->wing_angular_damping[i], m->wing_y_damping[i]};
    static const char *const dkey[2] = {"angular_damping", "y_damping"};
    for (int k = 0; k < 2 && !s->structure.wings[i].has_angular_damping_vec; k++) {
      const awe_loc *dl = s->structure.wings[i].damping_loc[k].file
                              ? &s->structure.wings[i].damping_loc[k] : loc;
      if (!isfinite(dmp[k]))
        return awe_err_at(err, AWE_EINVAL, dl, "wing '%s': %s = %g is not finite", nm, dkey[k],
                          dmp[k]);
      if (dmp[k] < 0)
        awe_warn(w, dl, "wing '%s': negative %s %g 1/s (it feeds energy into the wing's "
                 "rotation)", nm, dkey[k], dmp[k]);
    }
    for (int k = 0; k < 4; k++)
      if (m->wing_ref_num[4 * i + k] == 0)
        return awe_err_at(err, AWE_EINVAL, loc,
                          "wing '%s': z_ref_points and y_ref_points (pairs of points) are "
                          "required", nm);
    if (m->wing_type[i] == AWE_WING_RIGID) {
      double ev[3];
      if (wing_inertia(m, i, ev))
        return awe_err_at(err, AWE_EINVAL, loc, "wing '%s': inertia could not be computed", nm);
      double mx = fmax(ev[0], fmax(ev[1], ev[2]));
      for (int k = 0; k < 3; k++) {
        if (isnan(ev[k]))
          return awe_err_at(err, AWE_EINVAL, loc, "wing '%s': inertia is NaN", nm);
        if (!(ev[k] > 1e-12 * (mx > 0 ? mx : 1)) || !(ev[k] > 0))
          return awe_err_at(err, AWE_EINVAL, loc,
                            "wing '%s': a principal inertia is zero (%g kg m^2): the wing's "
                            "points are collinear or massless", nm, ev[k]);
        if (ev[k] < 1e-6 * mx)
          awe_warn(w, loc, "wing '%s': near-zero principal inertia %g kg m^2", nm, ev[k]);
      }
      if (m->wing_group_num[i] == 0)
        awe_warn(w, loc, "wing '%s': a RIGID_DYNAMICS wing without twist surfaces (groups) has "
                 "no twist degrees of freedom", nm);
    }
    /* all groups of a wing share one moment_frac */
    for (int k = 1; k < m->wing_group_num[i]; k++) {
      int g0 = m->wing_groups[m->wing_group_adr[i]], g = m->wing_groups[m->wing_group_adr[i] + k];
      if (m->group_moment_frac[g] != m->group_moment_frac[g0])
        return awe_err_at(err, AWE_EINVAL, &s->structure.groups[g].loc,
                          "group '%s': moment_frac %g differs from group '%s' (%g); all twist "
                          "surfaces of wing '%s' must share it", m->group_name[g],
                          m->group_moment_frac[g], m->group_name[g0], m->group_moment_frac[g0],
                          nm);
    }
  }
  for (int g = 0; g < m->ngroup; g++) {
    const awe_loc *loc = &s->structure.groups[g].loc;
    const char *nm = m->group_name[g];
    if (!(m->group_moment_frac[g] >= 0 && m->group_moment_frac[g] <= 1))
      return awe_err_at(err, AWE_EINVAL, loc, "group '%s': moment_frac %s is out of range (0 ... 1)",
                        nm, awe_num_str(m->group_moment_frac[g]).s);
    if (m->group_damping[g] < 0)
      return awe_err_at(err, AWE_EINVAL, loc, "group '%s': damping %g must be >= 0", nm,
                        m->group_damping[g]);
    if (m->group_wing[g] < 0)
      return awe_err_at(err, AWE_EINVAL, loc,
                        "group '%s': no wing lists it and none of its points belongs to a wing",
                        nm);
    int wi = m->group_wing[g];
    if (m->group_type[g] == AWE_DYN_DYNAMIC &&
        (m->wing_type[wi] != AWE_WING_RIGID || m->group_point_num[g] < 2))
      return awe_err_at(err, AWE_EINVAL, loc,
                        "group '%s': a DYNAMIC twist surface needs a RIGID_DYNAMICS wing and at "
                        "least 2 points (LE and TE)", nm);
  }
  return AWE_OK;
}


/* Where a setting was given (its YAML value, possibly a --set or a scenario override), or the
 * settings file when it took its default. */
static const awe_loc *setting_loc(const awe_spec *s, const char *key, awe_loc *fallback) {
  int i = awe_settings_find(key);
  if (i >= 0 && i < 128 && s->settings.given[i] && s->settings.loc[i].file)
    return &s->settings.loc[i];
  /* a default: the file that could have set it (its first line), else the scenario */
  fallback->file = s->scenario.settings_file ? s->scenario.settings_file : s->scenario.path;
  fallback->line = 1;
  fallback->col = 1;
  return fallback;
}


/* Settings a file may give that awesim reads but does not use: say so where they are given
 * (a setting read and silently ignored would let a user believe it acts). */
static void warn_unused_settings(const awe_model *m, const awe_spec *s, awe_diag *w) {
  int speed_winch = 0;
  for (int i = 0; i < m->nwinch; i++) speed_winch |= m->winch_speed_controlled[i];
  static const char *const gains[] = {"p_speed", "i_speed"};
  for (int k = 0; k < 2; k++) {
    const int i = awe_settings_find(gains[k]);
    if (!speed_winch || i < 0 || i >= 128 || !s->settings.given[i]) continue;
    awe_warn(w, s->settings.loc[i].file ? &s->settings.loc[i] : NULL,
             "winch.%s is not used: a speed-controlled winch follows its speed input exactly "
             "(close a speed loop with a `pid` controller on winches.NAME.torque instead)",
             gains[k]);
  }
  /* the Julia solver's tolerances: awesim's steppers take run.abs_tol/rel_tol; say so where a
   * settings file sets them and the scenario does not (a bare model file has no run: section
   * to move them to; `awesim check` prints the tolerances it uses) */
  static const char *const tols[] = {"abs_tol", "rel_tol"};
  const double run_tol[] = {s->scenario.run.abs_tol, s->scenario.run.rel_tol};
  const double used[] = {m->opt.abs_tol, m->opt.rel_tol};
  for (int k = 0; k < 2; k++) {
    const int i = awe_settings_find(tols[k]);
    if (s->scenario.bare_model || !isnan(run_tol[k]) || i < 0 || i >= 128 || !s->settings.given[i])
      continue;
    awe_warn(w, s->settings.loc[i].file ? &s->settings.loc[i] : NULL,
             "solver.%s is not used: awesim integrates with run.%s = %g (set it in the "
             "scenario's run: section)", tols[k], tols[k], used[k]);
  }
}


static awe_status check_env(const awe_model *m, const awe_spec *s, awe_diag *w, awe_err *err) {
  const awe_settings *st = &s->settings;
  const char *f = s->scenario.settings_file ? s->scenario.settings_file : "settings";
  int gi = awe_settings_find("g_earth");
  if (gi >= 0 && !st->given[gi] && m->npoint > 0)
    awe_warn(w, NULL, "%s: system.g_earth is not set: gravity is 0 (KiteUtils default); set "
             "g_earth: 9.81", f);
  awe_loc fb;
  if (st->profile_law < 0 || st->profile_law > 6)
    return awe_err_at(err, AWE_EINVAL, setting_loc(s, "profile_law", &fb),
                      "environment.profile_law = %d is not supported (allowed: 0 uniform, 1 EXP, "
                      "2 LOG, 3 EXPLOG, 4 FAST_EXP, 5 FAST_LOG, 6 FAST_EXPLOG)", st->profile_law);
  /* the fast laws are fits for one site: say so when the settings describe another */
  if (st->profile_law >= 4 &&
      (fabs(st->h_ref - 6.0) > 1e-9 || fabs(st->alpha - 0.08163) > 1e-4 ||
       fabs(st->z0 - 0.0002) > 1e-7))
    awe_warn(w, setting_loc(s, "profile_law", &fb),
             "environment.profile_law = %d is a fixed fit for h_ref 6 m, alpha 0.08163, "
             "z0 0.0002 m; this file's h_ref %g m, alpha %g, z0 %g m are not used by it",
             st->profile_law, st->h_ref, st->alpha, st->z0);
  if (st->profile_law > 0 && st->profile_law < 4 && !(st->h_ref > 0))
    return awe_err_at(err, AWE_EINVAL, setting_loc(s, "h_ref", &fb),
                      "environment.h_ref = %g m must be > 0 for profile_law %d", st->h_ref,
                      st->profile_law);
  if ((st->profile_law == 2 || st->profile_law == 3) && !(st->z0 > 0 && st->z0 < st->h_ref))
    return awe_err_at(err, AWE_EINVAL, setting_loc(s, "z0", &fb),
                      "environment.z0 = %g m must be in (0, h_ref) for the LOG profile", st->z0);
  if (st->rho_0 < 0 || st->rho_0 > 100)
    return awe_err_at(err, AWE_EINVAL, setting_loc(s, "rho_0", &fb),
                      "environment.rho_0 = %s kg/m^3 is out of range (0 ... 100)",
                      awe_num_str(st->rho_0).s);
  if (st->temp_ref <= -273.15)
    return awe_err_at(err, AWE_EINVAL, setting_loc(s, "temp_ref", &fb),
                      "environment.temp_ref = %g degC is below absolute zero", st->temp_ref);
  if (m->env.v_wind < 0 || m->env.v_wind > 1000)
    return awe_err_at(err, AWE_EINVAL,
                      setting_loc(s, st->use_wind_vec ? "wind_vec" : "v_wind", &fb),
                      "environment.v_wind = %s m/s is out of range (0 ... 1000)",
                      awe_num_str(m->env.v_wind).s);
  if (!isfinite(m->env.g) || fabs(m->env.g) > 1000)
    return awe_err_at(err, AWE_EINVAL, setting_loc(s, "g_earth", &fb),
                      "system.g_earth = %s m/s^2 is out of range (-1000 ... 1000)",
                      awe_num_str(m->env.g).s);
  if (st->sample_freq < 0)
    return awe_err_at(err, AWE_EINVAL, setting_loc(s, "sample_freq", &fb),
                      "system.sample_freq = %g Hz must be >= 0", st->sample_freq);
  static const char *const nonneg[] = {"d_tether", "rho_tether", "e_tether", "cd_tether"};
  const double vals[] = {st->d_tether, st->rho_tether, st->e_tether, st->cd_tether};
  for (int k = 0; k < 4; k++)
    if (vals[k] < 0)
      return awe_err_at(err, AWE_EINVAL, setting_loc(s, nonneg[k], &fb),
                        "tether.%s = %g must be >= 0", nonneg[k], vals[k]);
  /* quantities that cannot be negative are checked whether or not this model uses them (a
   * kite.mass of -1 is wrong in the file even when the structure gives the masses); negative
   * dampings are legal but feed energy in, and warn like a segment's unit_damping */
  static const char *const phys[] = {"mass", "area", "axial_stiffness", "max_force",
                                     "drum_radius", "gear_ratio", "inertia_total", "f_coulomb",
                                     "c_vf", "v_min", "max_acc", "dtmax", "abs_tol", "rel_tol",
                                     "h_ref", "z0", "sim_time"};
  int nf;
  const awe_setting_field *fl = awe_settings_fields(&nf);
  for (int k = 0; k < AWE_ARRLEN(phys); k++) {
    int i = awe_settings_find(phys[k]);
    if (i < 0 || fl[i].type != AWE_SET_D) continue;
    double v = *(const double *)((const char *)st + fl[i].offset);
    if (!(v >= 0) || !isfinite(v))
      return awe_err_at(err, AWE_EINVAL, setting_loc(s, phys[k], &fb),
                        "%s.%s = %s %s is out of range (allowed: >= 0; checked even where the "
                        "model does not use it)", fl[i].section, phys[k], awe_num_str(v).s,
                        fl[i].unit);
  }
  static const char *const damp[] = {"axial_damping", "rel_damping"};
  for (int k = 0; k < AWE_ARRLEN(damp); k++) {
    int i = awe_settings_find(damp[k]);
    if (i < 0 || fl[i].type != AWE_SET_D) continue;
    double v = *(const double *)((const char *)st + fl[i].offset);
    if (!isfinite(v))
      return awe_err_at(err, AWE_EINVAL, setting_loc(s, damp[k], &fb), "%s.%s = %g is not finite",
                        fl[i].section, damp[k], v);
    if (v < 0)
      awe_warn(w, setting_loc(s, damp[k], &fb), "%s.%s: negative damping %g %s", fl[i].section,
               damp[k], v, fl[i].unit);
  }
  /* derived from run.duration and run.dt (or system.sample_freq when dt is not given): point at
     the value given last of the two */
  const awe_opt *o = &m->opt;
  const awe_run_spec *r = &s->scenario.run;
  awe_loc fb_dur = {s->scenario.path, 1, 1};
  const awe_loc *ldur = r->duration_loc.file ? &r->duration_loc : &fb_dur;
  if (o->dt > o->duration && o->duration > 0)
    return awe_err_at(err, AWE_EINVAL, r->dt_loc.file ? &r->dt_loc : ldur,
                      "run.dt = %g s is longer than run.duration = %g s%s", o->dt, o->duration,
                      r->dt_loc.file ? "" : " (dt = 1/system.sample_freq)");
  if (o->duration / o->dt > 1e9)
    return awe_err_at(err, AWE_EINVAL, ldur, "run.duration / run.dt = %g log steps is too many "
                      "(at most 1e9)", o->duration / o->dt);
  /* log instants are integrator stops, resolved like controller samples to 1 us; the settling's
   * step limit (run.max_step) defaults to dt as well */
  const awe_loc *ldt = r->dt_loc.file ? &r->dt_loc : ldur;
  if (o->dt < 1e-6)
    return awe_err_at(err, AWE_EINVAL, ldt, "run.dt = %s s is out of range (allowed: >= 1e-06 s, "
                      "the resolution of the integrator's stops at log instants)%s",
                      awe_num_str(o->dt).s, r->dt_loc.file ? "" : " (dt = 1/system.sample_freq)");
  double rows = o->duration / o->dt, settle = 0.0;
  if (o->steady_state)
    settle = (o->steady_state_time > 0 ? o->steady_state_time : AWE_RUN_STEADY_TIME) / o->max_step;
  if (rows > 1e7 || settle > 1e7)
    awe_warn(w, ldt, "run.dt = %s s: %.3g log rows for run.duration = %s s and at least %.3g "
             "settling steps (run.max_step = %s s): a long run and a large log; a longer run.dt "
             "(or run.max_step for the settling) is cheaper", awe_num_str(o->dt).s, rows,
             awe_num_str(o->duration).s, settle, awe_num_str(o->max_step).s);
  return AWE_OK;
}


static awe_status check_vsm(const awe_model *m, const awe_spec *s, awe_err *err) {
  const awe_vsm_settings *v = &m->vsm;
  const char *f = s->scenario.vsm_settings_file ? s->scenario.vsm_settings_file : "vsm_settings";
  if (v->n_panels < 1 || v->n_panels > 10000)
    return awe_err_set(err, AWE_EINVAL, "%s: wings[1].n_panels = %d is out of range (1 ... 10000)",
                       f, v->n_panels);
  if (!(v->relaxation_factor > 0 && v->relaxation_factor <= 1))
    return awe_err_set(err, AWE_EINVAL,
                       "%s: solver_settings.relaxation_factor = %s is out of range (0, 1]", f,
                       awe_num_str(v->relaxation_factor).s);
  if (!(v->rtol > 0 && v->rtol < 1))
    return awe_err_set(err, AWE_EINVAL, "%s: solver_settings.rtol = %s is out of range (0, 1)", f,
                       awe_num_str(v->rtol).s);
  if (v->max_iterations < 1)
    return awe_err_set(err, AWE_EINVAL, "%s: solver_settings.max_iterations = %d must be >= 1", f,
                       v->max_iterations);
  if (!(v->density > 0))
    return awe_err_set(err, AWE_EINVAL, "%s: solver_settings.density = %g kg/m^3 must be > 0", f,
                       v->density);
  if (v->core_radius_fraction < 0)
    return awe_err_set(err, AWE_EINVAL, "%s: solver_settings.core_radius_fraction must be >= 0",
                       f);
  /* a particle wing needs LE/TE point pairs; its aero mesh may differ from them (the VSM loads
     are shared out to the pairs, engine/aero_coupling.h); an error here as in the aero
     coupling that simulate builds (engine/aero_coupling.c), so check and simulate agree */
  if (s->has_aero)
    for (int i = 0; i < m->nwing; i++)
      if (m->wing_type[i] == AWE_WING_PARTICLE && m->wing_aero_mode[i] != AWE_AERO_NONE) {
        int nwp = 0;
        for (int k = 0; k < m->wing_point_num[i]; k++)
          nwp += m->point_type[m->wing_points[m->wing_point_adr[i] + k]] == AWE_PT_WING;
        if (nwp < 4 || nwp % 2)
          return awe_err_at(err, AWE_EINVAL, &s->structure.wings[i].loc,
                            "wing '%s': %d WING points; a PARTICLE_DYNAMICS wing needs LE/TE "
                            "point pairs, at least two", m->wing_name[i], nwp);
      }
  for (int i = 0; i < m->nwing; i++)
    if (m->wing_aero_mode[i] != AWE_AERO_NONE && !s->has_aero)
      return awe_err_at(err, AWE_EINVAL, &s->structure.wings[i].loc,
                        "wing '%s': aero mode needs an aero geometry (system.aero_geometry), or "
                        "set aero_mode: AeroNone", m->wing_name[i]);
  return AWE_OK;
}


/* A component name ends up in CSV headers (NAME[unit], comma-separated), HDF5 attributes, the
 * replay page's JSON and plot titles; a comma shifted the CSV header against its rows and a
 * point named "<!--<script>" stopped the replay page. So names keep to one documented set:
 * letters, digits, '_', '-' and '.', at most AWE_NAME_MAX characters (awesim-scenario(5)). */
#define AWE_NAME_MAX 120

static awe_status check_name(const char *what, const char *name, const awe_loc *loc,
                             awe_err *err) {
  if (!name) return AWE_OK;
  size_t n = strlen(name);
  if (n == 0 || n > AWE_NAME_MAX)
    return awe_err_at(err, AWE_EINVAL, loc, "%s name '%.40s%s' has %zu characters; allowed: 1 "
                      "to %d", what, name, n > 40 ? "..." : "", n, AWE_NAME_MAX);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)name[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        c == '_' || c == '-' || c == '.')
      continue;
    return awe_err_at(err, AWE_EINVAL, loc, "%s name '%.60s': character %zu (%s%c%s, byte "
                      "0x%02x) is not allowed; names are made of letters, digits, '_', '-' and "
                      "'.' (they become CSV columns, HDF5 names and replay labels)", what, name,
                      i + 1, c >= 0x20 && c < 0x7f ? "'" : "", c >= 0x20 && c < 0x7f ? c : '?',
                      c >= 0x20 && c < 0x7f ? "'" : "", c);
  }
  return AWE_OK;
}

static awe_status check_names(const awe_spec *s, awe_err *err) {
  const awe_struct_spec *ss = &s->structure;
#define NAMES(arr, cnt, what)                                              \
  for (int i = 0; i < ss->cnt; i++)                                        \
    AWE_TRY(check_name(what, ss->arr[i].name, &ss->arr[i].loc, err))
  NAMES(points, npoint, "point");
  NAMES(segments, nsegment, "segment");
  NAMES(pulleys, npulley, "pulley");
  NAMES(groups, ngroup, "group");
  NAMES(tethers, ntether, "tether");
  NAMES(winches, nwinch, "winch");
  NAMES(wings, nwing, "wing");
  NAMES(transforms, ntransform, "transform");
#undef NAMES
  return AWE_OK;
}


awe_status awe_model_validate(const awe_model *m, const awe_spec *s, awe_diag *w,
                              awe_err *err) {
  AWE_TRY(check_names(s, err));
  AWE_TRY(check_tether_lengths(m, s, err));
  AWE_TRY(check_points(m, s, w, err));
  AWE_TRY(check_segments(m, s, w, err));
  AWE_TRY(check_tethers(m, s, w, err));
  AWE_TRY(check_winches(m, s, w, err));
  AWE_TRY(check_pulleys(m, s, err));
  AWE_TRY(check_wings(m, s, w, err));
  AWE_TRY(check_env(m, s, w, err));
  warn_unused_settings(m, s, w);
  AWE_TRY(check_vsm(m, s, err));
  return AWE_OK;
}
