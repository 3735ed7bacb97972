/* model_build_wing.c: pulleys, wings and their twist groups, the derived quantities (rest
 * lengths, masses, wing-internal segments) and which points each transform moves. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_build_internal.h"
#include "util/pool.h"
#include "util/vec3.h"


/* ---- pulleys, wings, groups --------------------------------------------------------------- */

awe_status awe_mb_pulleys(awe_mb_builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  int n = ss->npulley;
  m->npulley = n;
  AWE_MB_ALLOC(m->pulley_name, n);
  AWE_MB_ALLOC(m->pulley_seg, 2 * n);
  AWE_MB_ALLOC(m->pulley_type, n);
  AWE_MB_ALLOC(m->pulley_sum_len, n);
  AWE_MB_ALLOC(m->pulley_len0, n);
  AWE_MB_ALLOC(m->pulley_efficiency, n);
  AWE_MB_ALLOC(m->pulley_friction_eps, n);
  AWE_MB_ALLOC(m->pulley_damping, n);
  AWE_MB_ALLOC(m->pulley_damping_rate, n);
  AWE_MB_ALLOC(m->pulley_brake, n);
  const awe_loc **pl = awe_pool_array(m->pool, (size_t)(n ? n : 1), sizeof(*pl));
  if (!pl) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < n; i++) {
    m->pulley_name[i] = awe_pool_strdup(m->pool, ss->pulleys[i].name);
    pl[i] = &ss->pulleys[i].loc;
  }
  AWE_TRY(awe_mb_check_unique(m->pulley_name, n, pl, "pulley", err));
  for (int i = 0; i < n; i++) {
    const awe_pulley_spec *p = &ss->pulleys[i];
    char owner[300];
    snprintf(owner, sizeof(owner), "pulley '%s'", p->name);
    for (int k = 0; k < 2; k++) {
      int sidx;
      AWE_TRY(awe_mb_resolve(&p->seg[k], m->segment_name, m->nsegment, "segment", owner, &sidx, err));
      if (m->segment_pulley[sidx] >= 0)
        return awe_err_at(err, AWE_EINVAL, &p->seg[k].loc,
                          "%s: segment '%s' already runs over pulley '%s'", owner,
                          m->segment_name[sidx], m->pulley_name[m->segment_pulley[sidx]]);
      if (m->segment_tether[sidx] >= 0)
        return awe_err_at(err, AWE_EINVAL, &p->seg[k].loc,
                          "%s: segment '%s' belongs to tether '%s' and cannot run over a pulley",
                          owner, m->segment_name[sidx], m->tether_name[m->segment_tether[sidx]]);
      m->pulley_seg[2 * i + k] = sidx;
      m->segment_pulley[sidx] = i;
      m->segment_pulley_leg[sidx] = k;
    }
    int s0 = m->pulley_seg[2 * i], s1 = m->pulley_seg[2 * i + 1];
    if (s0 == s1)
      return awe_err_at(err, AWE_EINVAL, &p->seg[1].loc, "%s: both legs are segment '%s'", owner,
                        m->segment_name[s0]);
    int a0 = m->segment_p[2 * s0], a1 = m->segment_p[2 * s0 + 1];
    int b0 = m->segment_p[2 * s1], b1 = m->segment_p[2 * s1 + 1];
    if (a0 != b0 && a0 != b1 && a1 != b0 && a1 != b1)
      return awe_err_at(err, AWE_EINVAL, &p->loc,
                        "%s: segments '%s' and '%s' share no point, so no line can run over a "
                        "pulley between them", owner, m->segment_name[s0], m->segment_name[s1]);
    m->pulley_type[i] = p->type == AWE_DYN_STATIC ? AWE_DYN_DYNAMIC : p->type;
    m->pulley_efficiency[i] = p->efficiency;
    m->pulley_friction_eps[i] = p->friction_epsilon;
    m->pulley_damping[i] = p->damping;
    m->pulley_damping_rate[i] = p->damping_rate;
    m->pulley_brake[i] = p->brake;
    if (p->brake && p->type == AWE_DYN_QUASI_STATIC)
      return awe_err_at(err, AWE_EINVAL, &p->loc, "%s: brake holds the rope split of a DYNAMIC "
                        "pulley; a QUASI_STATIC pulley has no split state to hold", owner);
    if (!(p->efficiency > 0.0 && p->efficiency <= 1.0))
      return awe_err_at(err, AWE_EINVAL, &p->loc, "%s: efficiency %s is out of range "
                        "(allowed: 0 < efficiency <= 1; 1 is a frictionless sheave)", owner,
                        awe_num_str(p->efficiency).s);
    if (!(p->friction_epsilon > 0.0) || !isfinite(p->friction_epsilon))
      return awe_err_at(err, AWE_EINVAL, &p->loc, "%s: friction_epsilon %s m/s must be > 0",
                        owner, awe_num_str(p->friction_epsilon).s);
    if (!(p->damping >= 0.0) || !isfinite(p->damping))
      return awe_err_at(err, AWE_EINVAL, &p->loc, "%s: damping %s N s/m must be >= 0", owner,
                        awe_num_str(p->damping).s);
    if (!(p->damping_rate >= 0.0) || !isfinite(p->damping_rate))
      return awe_err_at(err, AWE_EINVAL, &p->loc, "%s: damping_rate %s 1/s must be >= 0", owner,
                        awe_num_str(p->damping_rate).s);
    if (p->type == AWE_DYN_STATIC)
      return awe_err_at(err, AWE_EINVAL, &p->loc, "%s: type must be DYNAMIC or QUASI_STATIC",
                        owner);
  }
  return AWE_OK;
}


static awe_status resolve_wref(awe_mb_builder *b, const awe_wref *w, const char *owner, int *pts,
                               double *wt, awe_err *err) {
  for (int k = 0; k < w->n; k++) {
    AWE_TRY(awe_mb_resolve(&w->pt[k], b->m->point_name, b->m->npoint, "point", owner, &pts[k], err));
    wt[k] = w->w[k];
  }
  return AWE_OK;
}


awe_status awe_mb_wings_groups(awe_mb_builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  int nw = ss->nwing, ng = ss->ngroup;
  m->nwing = nw;
  m->ngroup = ng;
  AWE_MB_ALLOC(m->wing_name, nw);
  AWE_MB_ALLOC(m->wing_type, nw);
  AWE_MB_ALLOC(m->wing_aero_mode, nw);
  AWE_MB_ALLOC(m->wing_group_adr, nw);
  AWE_MB_ALLOC(m->wing_group_num, nw);
  AWE_MB_ALLOC(m->wing_point_adr, nw);
  AWE_MB_ALLOC(m->wing_point_num, nw);
  AWE_MB_ALLOC(m->wing_origin_adr, nw);
  AWE_MB_ALLOC(m->wing_origin_num, nw);
  AWE_MB_ALLOC(m->wing_ref_adr, 4 * nw);
  AWE_MB_ALLOC(m->wing_ref_num, 4 * nw);
  AWE_MB_ALLOC(m->wing_y_damping, nw);
  AWE_MB_ALLOC(m->wing_angular_damping, nw);
  AWE_MB_ALLOC(m->wing_ang_damp, 3 * nw);
  AWE_MB_ALLOC(m->wing_aero_scale_chord, nw);
  AWE_MB_ALLOC(m->wing_aero_z_offset, nw);
  AWE_MB_ALLOC(m->wing_apparent_mass, nw);
  AWE_MB_ALLOC(m->wing_wagner, nw);
  AWE_MB_ALLOC(m->wing_wagner_gains, 2 * nw);
  AWE_MB_ALLOC(m->wing_wagner_rates, 2 * nw);
  AWE_MB_ALLOC(m->wing_transform, nw);
  AWE_MB_ALLOC(m->wing_pos_cad, 3 * nw);
  AWE_MB_ALLOC(m->wing_mass, nw);
  AWE_MB_ALLOC(m->wing_ground_point, nw);
  AWE_MB_ALLOC(m->wing_ground, 3 * nw);
  AWE_MB_ALLOC(m->group_name, ng);
  AWE_MB_ALLOC(m->group_point_adr, ng);
  AWE_MB_ALLOC(m->group_point_num, ng);
  AWE_MB_ALLOC(m->group_type, ng);
  AWE_MB_ALLOC(m->group_moment_frac, ng);
  AWE_MB_ALLOC(m->group_damping, ng);
  AWE_MB_ALLOC(m->group_wing, ng);
  const awe_loc **wl = awe_pool_array(m->pool, (size_t)(nw + ng + 1), sizeof(*wl));
  if (!wl) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < nw; i++) {
    m->wing_name[i] = awe_pool_strdup(m->pool, ss->wings[i].name);
    wl[i] = &ss->wings[i].loc;
  }
  AWE_TRY(awe_mb_check_unique(m->wing_name, nw, wl, "wing", err));
  for (int i = 0; i < ng; i++) {
    m->group_name[i] = awe_pool_strdup(m->pool, ss->groups[i].name);
    wl[i] = &ss->groups[i].loc;
  }
  AWE_TRY(awe_mb_check_unique(m->group_name, ng, wl, "group", err));

  /* point -> wing (each point's wing_idx; WING points without wings become STATIC) */
  for (int i = 0; i < ss->npoint; i++) {
    const awe_point_spec *p = &ss->points[i];
    char owner[300];
    snprintf(owner, sizeof(owner), "point '%s'", p->name);
    if (AWE_REF_GIVEN(p->body)) {
      /* rides a rigid body (model_build_body.c): no state, placed by the body. A rider that
       * names a wing stays that wing's point (its aerodynamic force reaches the body) */
      if (m->point_type[i] == AWE_PT_WING && AWE_REF_GIVEN(p->wing) && nw > 0) {
        AWE_TRY(awe_mb_resolve(&p->wing, m->wing_name, nw, "wing", owner, &m->point_wing[i],
                               err));
        continue;
      }
      m->point_type[i] = AWE_PT_STATIC;
      continue;
    }
    if (AWE_REF_GIVEN(p->wing) && nw > 0) {
      AWE_TRY(awe_mb_resolve(&p->wing, m->wing_name, nw, "wing", owner, &m->point_wing[i], err));
    } else if (AWE_REF_GIVEN(p->wing) && p->wing.name) {
      /* names a wing but there are none: SymbolicAWEModels errors on unknown wings */
      AWE_TRY(awe_mb_resolve(&p->wing, m->wing_name, nw, "wing", owner, &m->point_wing[i], err));
    }
    if (m->point_type[i] == AWE_PT_WING && nw == 0) {
      awe_warn(b->warn, &p->loc, "%s: WING point in a structure without wings is treated as "
               "STATIC (as SymbolicAWEModels does)", owner);
      m->point_type[i] = AWE_PT_STATIC;
    } else if (m->point_type[i] == AWE_PT_WING && m->point_wing[i] < 0) {
      return awe_err_at(err, AWE_EINVAL, &p->loc,
                        "%s: a WING point must name its wing in wing_idx", owner);
    }
  }

  /* wing lists */
  int gtotal = 0, ptotal = 0, ototal = 0, rtotal = 0;
  for (int i = 0; i < nw; i++) {
    gtotal += ss->wings[i].ngroup;
    ototal += ss->wings[i].origin.n;
    for (int k = 0; k < 2; k++) rtotal += ss->wings[i].z_ref[k].n + ss->wings[i].y_ref[k].n;
  }
  for (int i = 0; i < m->npoint; i++) ptotal += m->point_wing[i] >= 0;
  AWE_MB_ALLOC(m->wing_groups, gtotal);
  AWE_MB_ALLOC(m->wing_points, ptotal);
  AWE_MB_ALLOC(m->wing_origin_pts, ototal);
  AWE_MB_ALLOC(m->wing_origin_w, ototal);
  AWE_MB_ALLOC(m->wing_ref_pts, rtotal);
  AWE_MB_ALLOC(m->wing_ref_w, rtotal);
  for (int g = 0; g < ng; g++) m->group_wing[g] = -1;
  int ga = 0, pa = 0, oa = 0, ra = 0;
  for (int i = 0; i < nw; i++) {
    const awe_wing_spec *w = &ss->wings[i];
    char owner[300];
    snprintf(owner, sizeof(owner), "wing '%s'", w->name);
    m->wing_type[i] = w->type;
    m->wing_aero_mode[i] = w->aero_mode != AWE_AERO_DEFAULT ? w->aero_mode
                                                            : AWE_AERO_LINEARIZED;
    m->wing_y_damping[i] = w->y_damping;
    m->wing_angular_damping[i] = w->angular_damping;
    for (int k = 0; k < 3; k++)
      m->wing_ang_damp[3 * i + k] = w->has_angular_damping_vec
                                        ? w->angular_damping_vec[k]
                                        : w->angular_damping + (k == 1 ? w->y_damping : 0.0);
    m->wing_aero_scale_chord[i] = w->aero_scale_chord;
    m->wing_aero_z_offset[i] = w->aero_z_offset;
    m->wing_apparent_mass[i] = w->apparent_mass;
    m->wing_wagner[i] = (unsigned char)(w->wagner != 0);
    /* R. T. Jones' fit of Wagner's function unless the wing sets its own (engine/unsteady.h) */
    int own_a = w->wagner_own[0], own_b = w->wagner_own[1];
    m->wing_wagner_gains[2 * i] = own_a ? w->wagner_gains[0] : 0.165;
    m->wing_wagner_gains[2 * i + 1] = own_a ? w->wagner_gains[1] : 0.335;
    m->wing_wagner_rates[2 * i] = own_b ? w->wagner_rates[0] : 0.0455;
    m->wing_wagner_rates[2 * i + 1] = own_b ? w->wagner_rates[1] : 0.3;
    if (w->apparent_mass > 0.0 && w->type == AWE_WING_RIGID)
      return awe_err_at(err, AWE_EINVAL, w->unsteady_loc.file ? &w->unsteady_loc : &w->loc,
                        "%s: unsteady.apparent_mass needs a PARTICLE_DYNAMICS wing: the added "
                        "mass is spread over the wing's points with the weights of the panel "
                        "forces, which a RIGID_DYNAMICS wing does not have (SymbolicAWEModels "
                        "refuses it too); use 0 or a particle wing", owner);
    m->wing_transform[i] = -1;
    for (int k = 0; k < 3; k++) m->wing_pos_cad[3 * i + k] = w->has_pos_cad ? w->pos_cad[k] : NAN;
    m->wing_ground_point[i] = -1;
    if (AWE_REF_GIVEN(w->ground_point))
      AWE_TRY(awe_mb_resolve(&w->ground_point, m->point_name, m->npoint, "point", owner,
                      &m->wing_ground_point[i], err));
    m->wing_group_adr[i] = ga;
    m->wing_group_num[i] = w->ngroup;
    for (int k = 0; k < w->ngroup; k++) {
      int g;
      AWE_TRY(awe_mb_resolve(&w->groups[k], m->group_name, ng, "group", owner, &g, err));
      if (m->group_wing[g] >= 0 && m->group_wing[g] != i)
        return awe_err_at(err, AWE_EINVAL, &w->groups[k].loc,
                          "%s: group '%s' already belongs to wing '%s'", owner, m->group_name[g],
                          m->wing_name[m->group_wing[g]]);
      m->group_wing[g] = i;
      m->wing_groups[ga++] = g;
    }
    m->wing_point_adr[i] = pa;
    for (int p = 0; p < m->npoint; p++)
      if (m->point_wing[p] == i) m->wing_points[pa++] = p;
    m->wing_point_num[i] = pa - m->wing_point_adr[i];
    /* the wing's own point_idxs list (older files) must agree with the points' wing_idx */
    for (int k = 0; k < w->npoint; k++) {
      int p;
      AWE_TRY(awe_mb_resolve(&w->points[k], m->point_name, m->npoint, "point", owner, &p, err));
      if (m->point_wing[p] != i)
        awe_warn(b->warn, &w->points[k].loc,
                 "%s: point_idxs lists '%s', whose wing_idx does not name this wing", owner,
                 m->point_name[p]);
    }
    m->wing_origin_adr[i] = oa;
    m->wing_origin_num[i] = w->origin.n;
    AWE_TRY(resolve_wref(b, &w->origin, owner, &m->wing_origin_pts[oa], &m->wing_origin_w[oa], err));
    oa += w->origin.n;
    const awe_wref *refs[4] = {&w->z_ref[0], &w->z_ref[1], &w->y_ref[0], &w->y_ref[1]};
    for (int k = 0; k < 4; k++) {
      m->wing_ref_adr[4 * i + k] = ra;
      m->wing_ref_num[4 * i + k] = refs[k]->n;
      AWE_TRY(resolve_wref(b, refs[k], owner, &m->wing_ref_pts[ra], &m->wing_ref_w[ra], err));
      ra += refs[k]->n;
    }
  }

  /* groups */
  int gp = 0;
  for (int g = 0; g < ng; g++) gp += ss->groups[g].npoint;
  AWE_MB_ALLOC(m->group_points, gp);
  int adr = 0;
  for (int g = 0; g < ng; g++) {
    const awe_group_spec *gs = &ss->groups[g];
    char owner[300];
    snprintf(owner, sizeof(owner), "group '%s'", gs->name);
    m->group_point_adr[g] = adr;
    m->group_point_num[g] = gs->npoint;
    m->group_type[g] = gs->type;
    m->group_moment_frac[g] = gs->moment_frac;
    m->group_damping[g] = gs->damping;
    for (int k = 0; k < gs->npoint; k++) {
      int p;
      AWE_TRY(awe_mb_resolve(&gs->points[k], m->point_name, m->npoint, "point", owner, &p, err));
      for (int j = 0; j < k; j++)
        if (m->group_points[adr + j] == p)
          return awe_err_at(err, AWE_EINVAL, &gs->points[k].loc, "%s: point '%s' is listed twice",
                            owner, m->point_name[p]);
      m->group_points[adr + k] = p;
      if (m->group_wing[g] < 0 && m->point_wing[p] >= 0) m->group_wing[g] = m->point_wing[p];
    }
    adr += gs->npoint;
  }
  return AWE_OK;
}


/* ---- derived: rest lengths, masses, wing-internal segments -------------------------------- */

awe_status awe_mb_derive(awe_mb_builder *b, awe_err *err) {
  awe_model *m = b->m;
  (void)err;
  for (int i = 0; i < m->nsegment; i++) {
    int a = m->segment_p[2 * i], c = m->segment_p[2 * i + 1];
    if (isnan(m->segment_l0[i]) || m->segment_l0[i] == 0.0)
      m->segment_l0[i] = awe_v3_dist(&m->point_pos_cad[3 * a], &m->point_pos_cad[3 * c]);
    m->segment_wing_internal[i] = m->point_type[a] == AWE_PT_WING &&
                                  m->point_type[c] == AWE_PT_WING &&
                                  m->point_wing[a] == m->point_wing[c];
  }
  for (int t = 0; t < m->ntether; t++) {
    double len = 0;
    for (int k = 0; k < m->tether_seg_num[t]; k++)
      len += m->segment_l0[m->tether_segs[m->tether_seg_adr[t] + k]];
    m->tether_len0[t] = len;
    m->tether_stretched0[t] = len;
  }
  for (int i = 0; i < m->npulley; i++) {
    double l1 = m->segment_l0[m->pulley_seg[2 * i]], l2 = m->segment_l0[m->pulley_seg[2 * i + 1]];
    double given = i < b->s->structure.npulley ? b->s->structure.pulleys[i].sum_len : 0.0;
    m->pulley_sum_len[i] = given > 0.0 ? given : l1 + l2;
    m->pulley_len0[i] = l1;
  }
  for (int i = 0; i < m->npoint; i++) m->point_mass0[i] = m->point_extra_mass[i];
  for (int i = 0; i < m->nsegment; i++) {
    double r = m->segment_diameter[i] / 2;
    double half = 0.5 * m->segment_density[i] * M_PI * r * r * m->segment_l0[i];
    m->point_mass0[m->segment_p[2 * i]] += half;
    m->point_mass0[m->segment_p[2 * i + 1]] += half;
  }
  /* a wing's mass is carried by its WING points (bridle points may name the wing only for
     body-frame damping) */
  for (int w = 0; w < m->nwing; w++) {
    double mass = 0;
    for (int k = 0; k < m->wing_point_num[w]; k++) {
      int p = m->wing_points[m->wing_point_adr[w] + k];
      if (m->point_type[p] == AWE_PT_WING) mass += m->point_mass0[p];
    }
    m->wing_mass[w] = mass;
  }
  return AWE_OK;
}


/* ---- transforms: which points each transform moves ---------------------------------------- */

awe_status awe_mb_transforms(awe_mb_builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  int nt = ss->ntransform;
  const char **names = awe_pool_array(m->pool, (size_t)(nt ? nt : 1), sizeof(*names));
  const awe_loc **tl = awe_pool_array(m->pool, (size_t)(nt ? nt : 1), sizeof(*tl));
  if (!names || !tl) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < nt; i++) {
    names[i] = ss->transforms[i].name;
    tl[i] = &ss->transforms[i].loc;
  }
  AWE_TRY(awe_mb_check_unique(names, nt, tl, "transform", err));
  m->ntransform = nt;
  m->transforms = awe_pool_array(m->pool, (size_t)(nt ? nt : 1), sizeof(*m->transforms));
  if (!m->transforms) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < nt; i++) {
    awe_transform_spec *c = &m->transforms[i];
    *c = ss->transforms[i];
    memset(&c->loc, 0, sizeof(c->loc));
    memset(c->angle_loc, 0, sizeof(c->angle_loc));
    c->name = c->name ? awe_pool_strdup(m->pool, c->name) : NULL;
    awe_ref *r[4] = {&c->base_point, &c->base_transform, &c->wing, &c->rot_point};
    for (int k = 0; k < 4; k++) {
      memset(&r[k]->loc, 0, sizeof(r[k]->loc));
      if (r[k]->name) r[k]->name = awe_pool_strdup(m->pool, r[k]->name);
    }
  }
  m->point_transform = b->point_transform;
  for (int i = 0; i < ss->npoint; i++) {
    const awe_point_spec *p = &ss->points[i];
    if (!AWE_REF_GIVEN(p->transform)) continue;
    char owner[300];
    snprintf(owner, sizeof(owner), "point '%s'", p->name);
    AWE_TRY(awe_mb_resolve(&p->transform, names, nt, "transform", owner, &b->point_transform[i], err));
  }
  for (int i = 0; i < ss->nwing; i++) {
    const awe_wing_spec *w = &ss->wings[i];
    if (!AWE_REF_GIVEN(w->transform)) continue;
    char owner[300];
    snprintf(owner, sizeof(owner), "wing '%s'", w->name);
    AWE_TRY(awe_mb_resolve(&w->transform, names, nt, "transform", owner, &m->wing_transform[i], err));
  }
  for (int i = 0; i < nt; i++) {
    const awe_transform_spec *t = &ss->transforms[i];
    char owner[300];
    snprintf(owner, sizeof(owner), "transform '%s'", t->name);
    int dummy;
    if (AWE_REF_GIVEN(t->wing)) AWE_TRY(awe_mb_resolve(&t->wing, m->wing_name, m->nwing, "wing", owner, &dummy, err));
    if (AWE_REF_GIVEN(t->rot_point))
      AWE_TRY(awe_mb_resolve(&t->rot_point, m->point_name, m->npoint, "point", owner, &dummy, err));
    if (AWE_REF_GIVEN(t->base_point))
      AWE_TRY(awe_mb_resolve(&t->base_point, m->point_name, m->npoint, "point", owner, &dummy, err));
    if (AWE_REF_GIVEN(t->base_transform)) {
      AWE_TRY(awe_mb_resolve(&t->base_transform, names, nt, "transform", owner, &dummy, err));
      if (dummy >= i)
        return awe_err_at(err, AWE_EINVAL, &t->base_transform.loc,
                          "%s: base_transform_idx must name an earlier transform", owner);
    }
    if (!AWE_REF_GIVEN(t->wing) && !AWE_REF_GIVEN(t->rot_point))
      return awe_err_at(err, AWE_EINVAL, &t->loc,
                        "%s: give wing_idx or rot_point_idx (what is rotated)", owner);
    if (!AWE_REF_GIVEN(t->base_transform) && !(t->has_base_pos && AWE_REF_GIVEN(t->base_point)))
      return awe_err_at(err, AWE_EINVAL, &t->loc,
                        "%s: give base_pos and base_point_idx, or base_transform_idx", owner);
  }
  return AWE_OK;
}
