/* model_build_lines.c: the lines of the model and what they connect: points and segments
 * (auto-generated tethers expanded into <tether>_point_<k> and <tether>_segment_<k>), line
 * properties (row value, else material, else settings defaults; unit_stiffness =
 * E pi (d/2)^2, unit_damping = damping_per_stiffness unit_stiffness), tethers, winches. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_build_internal.h"
#include "util/pool.h"
#include "util/vec3.h"


/* ---- line properties ---------------------------------------------------------------------- */

typedef struct {
  double d_m, unit_k, unit_c, cfrac, cdfrac, density;
} line_values;

static awe_status line_resolve(awe_mb_builder *b, const awe_line_props *p, const char *owner,
                               line_values *out, awe_err *err) {
  const awe_spec *s = b->s;
  const awe_settings *set = &s->settings;
  const awe_material_spec *mat = NULL;
  if (p->material) {
    for (int i = 0; i < s->structure.nmaterial; i++)
      if (!strcmp(s->structure.materials[i].name, p->material)) mat = &s->structure.materials[i];
    if (!mat) {
      const char *cands[256];
      int nc = s->structure.nmaterial < 256 ? s->structure.nmaterial : 256;
      for (int i = 0; i < nc; i++) cands[i] = s->structure.materials[i].name;
      const char *best = awe_closest(p->material, cands, nc);
      return awe_err_at(err, AWE_EINVAL, &p->material_loc,
                        "%s: '%s' is neither a number nor a material%s%s%s", owner, p->material,
                        best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
    }
  }
  double dmm = p->diameter_mm, k = p->unit_stiffness, c = p->unit_damping, rho = p->density;
  if (isnan(dmm) && mat) dmm = mat->diameter_mm;
  if (isnan(dmm)) dmm = set->d_tether;
  if (isnan(rho) && mat) rho = mat->density;
  if (isnan(rho)) rho = set->rho_tether;
  double area = M_PI * (dmm / 2000.0) * (dmm / 2000.0);
  /* the row's own SymbolicAWEModels 0.14 columns before a (legacy) material */
  if (isnan(k) && !isnan(p->youngs_modulus)) k = p->youngs_modulus * area;
  if (isnan(k) && mat) k = !isnan(mat->unit_stiffness) ? mat->unit_stiffness
                           : !isnan(mat->youngs_modulus) ? mat->youngs_modulus * area : NAN;
  if (isnan(k)) k = set->e_tether * area;
  if (isnan(c) && !isnan(p->damping_per_stiffness)) c = p->damping_per_stiffness * k;
  if (isnan(c) && mat) c = !isnan(mat->unit_damping) ? mat->unit_damping
                           : !isnan(mat->damping_per_stiffness) ? mat->damping_per_stiffness * k
                                                                : NAN;
  if (isnan(c)) c = set->rel_damping != 0 ? set->rel_damping * k : 0.0;
  out->d_m = dmm / 1000.0;
  out->unit_k = k;
  out->unit_c = c;
  out->cfrac = isnan(p->compression_frac) ? 0.1 : p->compression_frac;
  out->cdfrac = isnan(p->compression_damping_frac) ? 1.0 : p->compression_damping_frac;
  out->density = rho;
  return AWE_OK;
}


/* ---- points and segments (with generated tethers) ----------------------------------------- */

awe_status awe_mb_points_segments(awe_mb_builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  /* count generated components */
  int np = ss->npoint, ns = ss->nsegment;
  for (int t = 0; t < ss->ntether; t++) {
    const awe_tether_spec *ts = &ss->tethers[t];
    if (ts->nseg) continue;
    if (ts->n_segments < 1 || ts->n_segments > AWE_N_SEGMENTS_MAX)
      return awe_err_at(err, AWE_EINVAL, &ts->loc,
                        "tether '%s': n_segments = %d is out of range (1 ... %d)", ts->name,
                        ts->n_segments, AWE_N_SEGMENTS_MAX);
    np += ts->n_segments - 1;
    ns += ts->n_segments;
  }
  b->np = np;
  b->ns = ns;
  m->npoint = np;
  m->nsegment = ns;
  AWE_MB_ALLOC(m->point_name, np);
  AWE_MB_ALLOC(m->point_type, np);
  AWE_MB_ALLOC(m->point_wing, np);
  AWE_MB_ALLOC(m->point_pos_cad, 3 * np);
  AWE_MB_ALLOC(m->point_pos0, 3 * np);
  AWE_MB_ALLOC(m->point_vel0, 3 * np);
  AWE_MB_ALLOC(m->point_extra_mass, np);
  AWE_MB_ALLOC(m->point_mass0, np);
  AWE_MB_ALLOC(m->point_bfd, 3 * np);
  AWE_MB_ALLOC(m->point_wfd, 3 * np);
  AWE_MB_ALLOC(m->point_area, np);
  AWE_MB_ALLOC(m->point_cd, np);
  AWE_MB_ALLOC(b->point_loc, np);
  AWE_MB_ALLOC(b->point_transform, np);
  AWE_MB_ALLOC(m->segment_name, ns);
  AWE_MB_ALLOC(m->segment_p, 2 * ns);
  AWE_MB_ALLOC(m->segment_l0, ns);
  AWE_MB_ALLOC(m->segment_diameter, ns);
  AWE_MB_ALLOC(m->segment_unit_k, ns);
  AWE_MB_ALLOC(m->segment_unit_c, ns);
  AWE_MB_ALLOC(m->segment_compression_frac, ns);
  AWE_MB_ALLOC(m->segment_compression_damping_frac, ns);
  AWE_MB_ALLOC(m->segment_density, ns);
  AWE_MB_ALLOC(m->segment_tether, ns);
  AWE_MB_ALLOC(m->segment_pulley, ns);
  AWE_MB_ALLOC(m->segment_pulley_leg, ns);
  AWE_MB_ALLOC(m->segment_wing_internal, ns);
  AWE_MB_ALLOC(b->segment_loc, ns);

  /* declared points */
  for (int i = 0; i < ss->npoint; i++) {
    const awe_point_spec *p = &ss->points[i];
    m->point_name[i] = awe_pool_strdup(m->pool, p->name);
    m->point_type[i] = p->type;
    memcpy(&m->point_pos_cad[3 * i], p->pos_cad, sizeof(p->pos_cad));
    m->point_extra_mass[i] = p->extra_mass;
    memcpy(&m->point_bfd[3 * i], p->bfd, sizeof(p->bfd));
    memcpy(&m->point_wfd[3 * i], p->wfd, sizeof(p->wfd));
    m->point_area[i] = p->area;
    m->point_cd[i] = p->drag_coeff;
    m->point_wing[i] = -1;
    b->point_transform[i] = -1;
    b->point_loc[i] = &p->loc;
  }
  for (int i = 0; i < ss->nsegment; i++) {
    m->segment_name[i] = awe_pool_strdup(m->pool, ss->segments[i].name);
    b->segment_loc[i] = &ss->segments[i].loc;
  }
  /* generated names first, so references to them resolve */
  int ip = ss->npoint, is = ss->nsegment;
  for (int t = 0; t < ss->ntether; t++) {
    const awe_tether_spec *ts = &ss->tethers[t];
    if (ts->nseg) continue;
    char nm[512];
    for (int k = 1; k < ts->n_segments; k++) {
      snprintf(nm, sizeof(nm), "%s_point_%d", ts->name, k);
      m->point_name[ip] = awe_pool_strdup(m->pool, nm);
      m->point_type[ip] = AWE_PT_DYNAMIC;
      m->point_wing[ip] = -1;
      b->point_transform[ip] = -1;
      b->point_loc[ip] = &ts->loc;
      ip++;
    }
    for (int k = 1; k <= ts->n_segments; k++) {
      snprintf(nm, sizeof(nm), "%s_segment_%d", ts->name, k);
      m->segment_name[is] = awe_pool_strdup(m->pool, nm);
      b->segment_loc[is] = &ts->loc;
      is++;
    }
  }
  for (int i = 0; i < np; i++)
    if (!m->point_name[i]) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  AWE_TRY(awe_mb_check_unique(m->point_name, np, b->point_loc, "point", err));
  AWE_TRY(awe_mb_check_unique(m->segment_name, ns, b->segment_loc, "segment", err));

  /* declared segments */
  for (int i = 0; i < ss->nsegment; i++) {
    const awe_segment_spec *g = &ss->segments[i];
    char owner[300];
    snprintf(owner, sizeof(owner), "segment '%s'", g->name);
    for (int k = 0; k < 2; k++)
      AWE_TRY(awe_mb_resolve(&g->p[k], m->point_name, np, "point", owner, &m->segment_p[2 * i + k], err));
    line_values lv;
    AWE_TRY(line_resolve(b, &g->props, owner, &lv, err));
    m->segment_diameter[i] = lv.d_m;
    m->segment_unit_k[i] = lv.unit_k;
    m->segment_unit_c[i] = lv.unit_c;
    m->segment_compression_frac[i] = lv.cfrac;
    m->segment_compression_damping_frac[i] = lv.cdfrac;
    m->segment_density[i] = lv.density;
    m->segment_l0[i] = g->l0;
    m->segment_tether[i] = -1;
    m->segment_pulley[i] = -1;
  }
  return AWE_OK;
}


/* ---- tethers ------------------------------------------------------------------------------ */

awe_status awe_mb_tethers(awe_mb_builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  int nt = ss->ntether;
  m->ntether = nt;
  AWE_MB_ALLOC(m->tether_name, nt);
  AWE_MB_ALLOC(m->tether_seg_adr, nt);
  AWE_MB_ALLOC(m->tether_seg_num, nt);
  AWE_MB_ALLOC(m->tether_start, nt);
  AWE_MB_ALLOC(m->tether_end, nt);
  AWE_MB_ALLOC(m->tether_len0, nt);
  AWE_MB_ALLOC(m->tether_stretched0, nt);
  AWE_MB_ALLOC(m->tether_winch, nt);
  AWE_MB_ALLOC(m->tether_init, 3 * nt);
  int total = 0;
  for (int t = 0; t < nt; t++)
    total += ss->tethers[t].nseg ? ss->tethers[t].nseg : ss->tethers[t].n_segments;
  AWE_MB_ALLOC(m->tether_segs, total);
  const awe_loc **tl;
  tl = awe_pool_array(m->pool, (size_t)(nt ? nt : 1), sizeof(*tl));
  if (!tl) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int t = 0; t < nt; t++) {
    m->tether_name[t] = awe_pool_strdup(m->pool, ss->tethers[t].name);
    tl[t] = &ss->tethers[t].loc;
    m->tether_init[3 * t] = ss->tethers[t].init_stretched_length;
    m->tether_init[3 * t + 1] = ss->tethers[t].init_tether_force;
    m->tether_init[3 * t + 2] = ss->tethers[t].init_stretch_frac;
  }
  AWE_TRY(awe_mb_check_unique(m->tether_name, nt, tl, "tether", err));

  int adr = 0, ip = ss->npoint, is = ss->nsegment;
  for (int t = 0; t < nt; t++) {
    const awe_tether_spec *ts = &ss->tethers[t];
    char owner[300];
    snprintf(owner, sizeof(owner), "tether '%s'", ts->name);
    m->tether_seg_adr[t] = adr;
    m->tether_winch[t] = -1;
    if (ts->nseg == 0) {
      /* route 2: generate a straight chain start -> end */
      int ps, pe;
      AWE_TRY(awe_mb_resolve(&ts->start, m->point_name, b->np, "point", owner, &ps, err));
      AWE_TRY(awe_mb_resolve(&ts->end, m->point_name, b->np, "point", owner, &pe, err));
      if (ps == pe)
        return awe_err_at(err, AWE_EINVAL, &ts->start.loc, "%s: start and end are the same point",
                          owner);
      line_values lv;
      AWE_TRY(line_resolve(b, &ts->props, owner, &lv, err));
      const double *a = &m->point_pos_cad[3 * ps], *e = &m->point_pos_cad[3 * pe];
      int n = ts->n_segments, first_pt = ip;
      for (int k = 1; k < n; k++, ip++)
        for (int d = 0; d < 3; d++)
          m->point_pos_cad[3 * ip + d] = a[d] + (e[d] - a[d]) * (double)k / n;
      double l0 = awe_v3_dist(a, e) / n;
      for (int k = 0; k < n; k++, is++) {
        int pi = k == 0 ? ps : first_pt + k - 1;
        int pj = k == n - 1 ? pe : first_pt + k;
        m->segment_p[2 * is] = pi;
        m->segment_p[2 * is + 1] = pj;
        m->segment_l0[is] = l0;
        m->segment_diameter[is] = lv.d_m;
        m->segment_unit_k[is] = lv.unit_k;
        m->segment_unit_c[is] = lv.unit_c;
        m->segment_compression_frac[is] = lv.cfrac;
        m->segment_compression_damping_frac[is] = lv.cdfrac;
        m->segment_density[is] = lv.density;
        m->segment_pulley[is] = -1;
        m->segment_tether[is] = t;
        m->tether_segs[adr++] = is;
      }
      m->tether_seg_num[t] = n;
      m->tether_start[t] = ps;
      m->tether_end[t] = pe;
      continue;
    }
    /* route 1: an ordered chain of existing segments */
    for (int k = 0; k < ts->nseg; k++) {
      int sidx;
      AWE_TRY(awe_mb_resolve(&ts->segs[k], m->segment_name, b->ns, "segment", owner, &sidx, err));
      if (m->segment_tether[sidx] >= 0)
        return awe_err_at(err, AWE_EINVAL, &ts->segs[k].loc,
                          "%s: segment '%s' already belongs to tether '%s'", owner,
                          m->segment_name[sidx], m->tether_name[m->segment_tether[sidx]]);
      m->segment_tether[sidx] = t;
      m->tether_segs[adr + k] = sidx;
    }
    /* chain check: consecutive segments share a point; find the two free ends */
    const int *sg = &m->tether_segs[adr];
    int n = ts->nseg, start, end;
    if (n == 1) {
      start = m->segment_p[2 * sg[0]];
      end = m->segment_p[2 * sg[0] + 1];
    } else {
      int a0 = m->segment_p[2 * sg[0]], a1 = m->segment_p[2 * sg[0] + 1];
      int b0 = m->segment_p[2 * sg[1]], b1 = m->segment_p[2 * sg[1] + 1];
      int shared = (a0 == b0 || a0 == b1) ? a0 : (a1 == b0 || a1 == b1) ? a1 : -1;
      if (shared < 0)
        return awe_err_at(err, AWE_EINVAL, &ts->segs[1].loc,
                          "%s: segments '%s' and '%s' share no point; a tether must be a chain",
                          owner, m->segment_name[sg[0]], m->segment_name[sg[1]]);
      start = shared == a0 ? a1 : a0;
      int cur = shared;
      for (int k = 1; k < n; k++) {
        int p0 = m->segment_p[2 * sg[k]], p1 = m->segment_p[2 * sg[k] + 1];
        if (p0 != cur && p1 != cur)
          return awe_err_at(err, AWE_EINVAL, &ts->segs[k].loc,
                            "%s: segment '%s' does not continue the chain at point '%s'", owner,
                            m->segment_name[sg[k]], m->point_name[cur]);
        cur = p0 == cur ? p1 : p0;
      }
      end = cur;
      if (end == start)
        return awe_err_at(err, AWE_EINVAL, &ts->loc,
                          "%s: its segments form a closed loop (both ends at point '%s')", owner,
                          m->point_name[start]);
    }
    /* orient by the named start/end point, if given */
    if (AWE_REF_GIVEN(ts->start)) {
      int ps;
      AWE_TRY(awe_mb_resolve(&ts->start, m->point_name, b->np, "point", owner, &ps, err));
      if (ps == end) {
        end = start;
        start = ps;
        for (int k = 0; k < n / 2; k++) {
          int tmp = m->tether_segs[adr + k];
          m->tether_segs[adr + k] = m->tether_segs[adr + n - 1 - k];
          m->tether_segs[adr + n - 1 - k] = tmp;
        }
      } else if (ps != start) {
        return awe_err_at(err, AWE_EINVAL, &ts->start.loc,
                          "%s: start_point '%s' is not an end of the segment chain", owner,
                          m->point_name[ps]);
      }
    } else if (AWE_REF_GIVEN(ts->end)) {
      int pe;
      AWE_TRY(awe_mb_resolve(&ts->end, m->point_name, b->np, "point", owner, &pe, err));
      if (pe == start) {
        start = end;
        end = pe;
        for (int k = 0; k < n / 2; k++) {
          int tmp = m->tether_segs[adr + k];
          m->tether_segs[adr + k] = m->tether_segs[adr + n - 1 - k];
          m->tether_segs[adr + n - 1 - k] = tmp;
        }
      } else if (pe != end) {
        return awe_err_at(err, AWE_EINVAL, &ts->end.loc,
                          "%s: point '%s' is not an end of the segment chain", owner,
                          m->point_name[pe]);
      }
    }
    m->tether_start[t] = start;
    m->tether_end[t] = end;
    m->tether_seg_num[t] = n;
    adr += n;
  }
  return AWE_OK;
}


/* ---- winches ------------------------------------------------------------------------------ */

/* settings winch.winch_model and the asynchronous machine's rated values (winch_machine.h);
 * errors at the key in settings.yaml */
static awe_status winch_machine(const awe_spec *s, int *async, awe_async_machine *am,
                                awe_err *err) {
  const awe_settings *set = &s->settings;
  int k = awe_settings_find("winch_model");
  const awe_loc *loc = k >= 0 && k < 128 && s->settings.given[k] ? &s->settings.loc[k] : NULL;
  if (!strcmp(set->winch_model, "AsyncMachine")) *async = 1;
  else if (set->winch_model[0] && strcmp(set->winch_model, "TorqueControlledMachine"))
    return awe_err_at(err, AWE_EINVAL, loc, "winch.winch_model: unknown model '%s' (allowed: "
                      "TorqueControlledMachine, AsyncMachine)", set->winch_model);
  if (awe_async_init(am, set->u_nom, set->omega_sn, set->omega_mn, set->tau_n, set->tau_b) &&
      *async)
    return awe_err_at(err, AWE_EINVAL, loc, "winch: AsyncMachine needs u_nom > 0, 0 < omega_mn "
                      "< omega_sn and 0 < tau_n < tau_b (got u_nom %g V, omega_sn %g, omega_mn "
                      "%g rad/s, tau_n %g, tau_b %g N m)", set->u_nom, set->omega_sn,
                      set->omega_mn, set->tau_n, set->tau_b);
  int e = awe_settings_find("efficiency");
  if (!(set->efficiency > 0 && set->efficiency <= 1))
    return awe_err_at(err, AWE_EINVAL, e >= 0 && e < 128 && s->settings.given[e] ?
                      &s->settings.loc[e] : NULL, "winch.efficiency: %g is out of range "
                      "(allowed: 0 < efficiency <= 1)", set->efficiency);
  return AWE_OK;
}


awe_status awe_mb_winches(awe_mb_builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  const awe_settings *set = &b->s->settings;
  awe_model *m = b->m;
  int nw = ss->nwinch;
  m->nwinch = nw;
  AWE_MB_ALLOC(m->winch_name, nw);
  AWE_MB_ALLOC(m->winch_tether_adr, nw);
  AWE_MB_ALLOC(m->winch_tether_num, nw);
  AWE_MB_ALLOC(m->winch_point, nw);
  AWE_MB_ALLOC(m->winch_drum_radius, nw);
  AWE_MB_ALLOC(m->winch_gear_ratio, nw);
  AWE_MB_ALLOC(m->winch_inertia, nw);
  AWE_MB_ALLOC(m->winch_f_coulomb, nw);
  AWE_MB_ALLOC(m->winch_c_vf, nw);
  AWE_MB_ALLOC(m->winch_friction_eps, nw);
  AWE_MB_ALLOC(m->winch_init_vel, nw);
  AWE_MB_ALLOC(m->winch_brake0, nw);
  AWE_MB_ALLOC(m->winch_speed_controlled, nw);
  AWE_MB_ALLOC(m->winch_endpoint_damping, nw);
  AWE_MB_ALLOC(m->winch_async, nw);
  AWE_MB_ALLOC(m->winch_machine, nw);
  AWE_MB_ALLOC(m->winch_eta, nw);
  int async = 0;
  awe_async_machine am = {0};
  AWE_TRY(winch_machine(b->s, &async, &am, err));
  int total = 0;
  for (int w = 0; w < nw; w++) total += ss->winches[w].ntether;
  AWE_MB_ALLOC(m->winch_tethers, total);
  const awe_loc **wl = awe_pool_array(m->pool, (size_t)(nw ? nw : 1), sizeof(*wl));
  if (!wl) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int w = 0; w < nw; w++) {
    m->winch_name[w] = awe_pool_strdup(m->pool, ss->winches[w].name);
    wl[w] = &ss->winches[w].loc;
  }
  AWE_TRY(awe_mb_check_unique(m->winch_name, nw, wl, "winch", err));
  int adr = 0;
  for (int w = 0; w < nw; w++) {
    const awe_winch_spec *ws = &ss->winches[w];
    char owner[300];
    snprintf(owner, sizeof(owner), "winch '%s'", ws->name);
    m->winch_tether_adr[w] = adr;
    m->winch_tether_num[w] = ws->ntether;
    for (int k = 0; k < ws->ntether; k++) {
      int t;
      AWE_TRY(awe_mb_resolve(&ws->tethers[k], m->tether_name, m->ntether, "tether", owner, &t, err));
      if (m->tether_winch[t] >= 0)
        return awe_err_at(err, AWE_EINVAL, &ws->tethers[k].loc,
                          "%s: tether '%s' is already reeled by winch '%s'", owner,
                          m->tether_name[t], m->winch_name[m->tether_winch[t]]);
      m->tether_winch[t] = w;
      m->winch_tethers[adr++] = t;
    }
    /* the winch point: given, else the STATIC end of the first tether */
    int t0 = m->winch_tethers[m->winch_tether_adr[w]];
    if (AWE_REF_GIVEN(ws->point)) {
      AWE_TRY(awe_mb_resolve(&ws->point, m->point_name, m->npoint, "point", owner, &m->winch_point[w], err));
    } else {
      int e = m->tether_end[t0], s0 = m->tether_start[t0];
      m->winch_point[w] = m->point_type[e] == AWE_PT_STATIC    ? e
                          : m->point_type[s0] == AWE_PT_STATIC ? s0
                                                               : e;
    }
    int wp = m->winch_point[w];
    for (int k = 0; k < ws->ntether; k++) {
      int t = m->winch_tethers[m->winch_tether_adr[w] + k];
      if (m->tether_start[t] != wp && m->tether_end[t] != wp)
        return awe_err_at(err, AWE_EINVAL, ws->point.name ? &ws->point.loc : &ws->loc,
                          "%s: winch point '%s' is not an end of tether '%s' (its ends are '%s' "
                          "and '%s')", owner, m->point_name[wp], m->tether_name[t],
                          m->point_name[m->tether_start[t]], m->point_name[m->tether_end[t]]);
    }
    m->winch_drum_radius[w] = set->drum_radius;
    m->winch_gear_ratio[w] = set->gear_ratio;
    m->winch_inertia[w] = set->inertia_total;
    m->winch_f_coulomb[w] = isnan(ws->coulomb_friction) ? set->f_coulomb : ws->coulomb_friction;
    m->winch_c_vf[w] = isnan(ws->viscous_coefficient) ? set->c_vf : ws->viscous_coefficient;
    m->winch_friction_eps[w] = ws->friction_epsilon;
    m->winch_init_vel[w] = ws->init_vel;
    m->winch_brake0[w] = ws->brake;
    m->winch_speed_controlled[w] = ws->speed_controlled;
    m->winch_endpoint_damping[w] = ws->endpoint_damping;
    /* a speed-controlled winch follows its input exactly: no machine */
    m->winch_async[w] = async && !ws->speed_controlled;
    m->winch_machine[w] = am;
    m->winch_eta[w] = set->efficiency;
  }
  return AWE_OK;
}
