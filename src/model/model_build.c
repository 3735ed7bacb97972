/* model_build.c: spec -> immutable model.
 *
 * Steps (SymbolicAWEModels' SystemStructure constructor):
 *   1. name tables and duplicate checks; auto-generated tethers expanded into points/segments
 *      named <tether>_point_<k> and <tether>_segment_<k>;
 *   2. references resolved to 0-based indices (forward references allowed);
 *   3. line properties: row value, else material, else settings defaults;
 *      unit_stiffness = E*pi*(d/2)^2, unit_damping = damping_per_stiffness*unit_stiffness;
 *   4. rest lengths (missing/0 -> CAD distance), masses (extra + half of each segment);
 *   5. placement (init_place.c), state layout (layout.c), input signals, validation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/solver_default.h"
#include "util/vec3.h"
#include "control/controller.h" /* up: the controllers are part of the read-only model */
#include "util/pool.h"


#define ALLOC(ptr, n)                                                         \
  do {                                                                        \
    (ptr) = awe_pool_array(m->pool, (size_t)((n) > 0 ? (n) : 1), sizeof(*(ptr))); \
    if (!(ptr)) return awe_err_set(err, AWE_ENOMEM, "out of memory");         \
  } while (0)

/* Everything the builder needs while it works; freed at the end. */
typedef struct {
  const awe_spec *s;
  awe_model *m;
  awe_diag *warn;
  /* counts including generated components */
  int np, ns;
  /* per point/segment: source spec index (declared) or generated info */
  const awe_loc **point_loc, **segment_loc;
  int *point_transform;       /* resolved transform (-1) */
} builder;


/* ---- name lookup -------------------------------------------------------------------------- */

static awe_status resolve(const awe_ref *r, const char *const *names, int n, const char *kind,
                          const char *owner, int *out, awe_err *err) {
  if (r->name) {
    for (int i = 0; i < n; i++)
      if (!strcmp(names[i], r->name)) {
        *out = i;
        return AWE_OK;
      }
    const char *best = awe_closest(r->name, names, n);
    if (best)
      return awe_err_at(err, AWE_EINVAL, &r->loc, "%s: unknown %s '%s' (did you mean '%s'?)",
                        owner, kind, r->name, best);
    return awe_err_at(err, AWE_EINVAL, &r->loc, "%s: unknown %s '%s'%s", owner, kind, r->name,
                      n ? "" : " (none are defined)");
  }
  if (r->index >= 1 && r->index <= n) {
    *out = r->index - 1;
    return AWE_OK;
  }
  return awe_err_at(err, AWE_EINVAL, &r->loc, "%s: %s index %d is out of range (1 ... %d)", owner,
                    kind, r->index, n);
}


/* FNV-1a: spreads the generated names (tether_point_1, _2, ...) well */
static size_t name_hash(const char *c) {
  size_t h = (size_t)14695981039346656037ULL;
  for (; *c; c++) h = (h ^ (unsigned char)*c) * (size_t)1099511628211ULL;
  return h;
}


/* Names must be unique: an open-addressing hash table of indices (linear in n; a pairwise
 * comparison took a minute for a 100000-segment tether). */
static awe_status check_unique(const char *const *names, int n, const awe_loc *const *locs,
                               const char *kind, awe_err *err) {
  size_t cap = 16;
  while (cap < 2 * (size_t)n) cap *= 2;
  int *tab = malloc(cap * sizeof(*tab));
  if (!tab) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (size_t k = 0; k < cap; k++) tab[k] = -1;
  for (int i = 0; i < n; i++) {
    size_t k = name_hash(names[i]) & (cap - 1);
    for (; tab[k] >= 0; k = (k + 1) & (cap - 1)) {
      int j = tab[k];
      if (strcmp(names[i], names[j])) continue;
      free(tab);
      char first[512];
      awe_loc_format(locs[j], first, sizeof(first));
      return awe_err_at(err, AWE_EINVAL, locs[i], "duplicate %s name '%s' (first defined at %s)",
                        kind, names[i], first);
    }
    tab[k] = i;
  }
  free(tab);
  return AWE_OK;
}


int awe_model_find_point(const awe_model *m, const char *name) {
  for (int i = 0; i < m->npoint; i++)
    if (!strcmp(m->point_name[i], name)) return i;
  return -1;
}

int awe_model_find_segment(const awe_model *m, const char *name) {
  for (int i = 0; i < m->nsegment; i++)
    if (!strcmp(m->segment_name[i], name)) return i;
  return -1;
}

int awe_model_find_winch(const awe_model *m, const char *name) {
  for (int i = 0; i < m->nwinch; i++)
    if (!strcmp(m->winch_name[i], name)) return i;
  return -1;
}

int awe_model_find_tether(const awe_model *m, const char *name) {
  for (int i = 0; i < m->ntether; i++)
    if (!strcmp(m->tether_name[i], name)) return i;
  return -1;
}


double awe_model_total_mass(const awe_model *m) {
  double t = 0;
  for (int i = 0; i < m->npoint; i++)
    if (m->point_type[i] != AWE_PT_STATIC) t += m->point_mass0[i];
  return t;
}


/* ---- line properties ---------------------------------------------------------------------- */

typedef struct {
  double d_m, unit_k, unit_c, cfrac, density;
} line_values;

static awe_status line_resolve(builder *b, const awe_line_props *p, const char *owner,
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
  if (isnan(k) && mat) k = !isnan(mat->unit_stiffness) ? mat->unit_stiffness
                           : !isnan(mat->youngs_modulus) ? mat->youngs_modulus * area : NAN;
  if (isnan(k)) k = set->e_tether * area;
  if (isnan(c) && mat) c = !isnan(mat->unit_damping) ? mat->unit_damping
                           : !isnan(mat->damping_per_stiffness) ? mat->damping_per_stiffness * k
                                                                : NAN;
  if (isnan(c)) c = set->rel_damping != 0 ? set->rel_damping * k : 0.0;
  out->d_m = dmm / 1000.0;
  out->unit_k = k;
  out->unit_c = c;
  out->cfrac = isnan(p->compression_frac) ? 0.1 : p->compression_frac;
  out->density = rho;
  return AWE_OK;
}


/* ---- points and segments (with generated tethers) ----------------------------------------- */

static awe_status build_points_segments(builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  /* count generated components */
  int np = ss->npoint, ns = ss->nsegment;
  for (int t = 0; t < ss->ntether; t++) {
    const awe_tether_spec *ts = &ss->tethers[t];
    if (ts->nseg) continue;
    if (ts->n_segments < 1 || ts->n_segments > 100000)
      return awe_err_at(err, AWE_EINVAL, &ts->loc,
                        "tether '%s': n_segments = %d is out of range (1 ... 100000)", ts->name,
                        ts->n_segments);
    np += ts->n_segments - 1;
    ns += ts->n_segments;
  }
  b->np = np;
  b->ns = ns;
  m->npoint = np;
  m->nsegment = ns;
  ALLOC(m->point_name, np);
  ALLOC(m->point_type, np);
  ALLOC(m->point_wing, np);
  ALLOC(m->point_pos_cad, 3 * np);
  ALLOC(m->point_pos0, 3 * np);
  ALLOC(m->point_vel0, 3 * np);
  ALLOC(m->point_extra_mass, np);
  ALLOC(m->point_mass0, np);
  ALLOC(m->point_bfd, 3 * np);
  ALLOC(m->point_wfd, 3 * np);
  ALLOC(m->point_area, np);
  ALLOC(m->point_cd, np);
  ALLOC(b->point_loc, np);
  ALLOC(b->point_transform, np);
  ALLOC(m->segment_name, ns);
  ALLOC(m->segment_p, 2 * ns);
  ALLOC(m->segment_l0, ns);
  ALLOC(m->segment_diameter, ns);
  ALLOC(m->segment_unit_k, ns);
  ALLOC(m->segment_unit_c, ns);
  ALLOC(m->segment_compression_frac, ns);
  ALLOC(m->segment_density, ns);
  ALLOC(m->segment_tether, ns);
  ALLOC(m->segment_pulley, ns);
  ALLOC(m->segment_pulley_leg, ns);
  ALLOC(m->segment_wing_internal, ns);
  ALLOC(b->segment_loc, ns);

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
  AWE_TRY(check_unique(m->point_name, np, b->point_loc, "point", err));
  AWE_TRY(check_unique(m->segment_name, ns, b->segment_loc, "segment", err));

  /* declared segments */
  for (int i = 0; i < ss->nsegment; i++) {
    const awe_segment_spec *g = &ss->segments[i];
    char owner[300];
    snprintf(owner, sizeof(owner), "segment '%s'", g->name);
    for (int k = 0; k < 2; k++)
      AWE_TRY(resolve(&g->p[k], m->point_name, np, "point", owner, &m->segment_p[2 * i + k], err));
    line_values lv;
    AWE_TRY(line_resolve(b, &g->props, owner, &lv, err));
    m->segment_diameter[i] = lv.d_m;
    m->segment_unit_k[i] = lv.unit_k;
    m->segment_unit_c[i] = lv.unit_c;
    m->segment_compression_frac[i] = lv.cfrac;
    m->segment_density[i] = lv.density;
    m->segment_l0[i] = g->l0;
    m->segment_tether[i] = -1;
    m->segment_pulley[i] = -1;
  }
  return AWE_OK;
}


/* ---- tethers ------------------------------------------------------------------------------ */

static awe_status build_tethers(builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  int nt = ss->ntether;
  m->ntether = nt;
  ALLOC(m->tether_name, nt);
  ALLOC(m->tether_seg_adr, nt);
  ALLOC(m->tether_seg_num, nt);
  ALLOC(m->tether_start, nt);
  ALLOC(m->tether_end, nt);
  ALLOC(m->tether_len0, nt);
  ALLOC(m->tether_stretched0, nt);
  ALLOC(m->tether_winch, nt);
  int total = 0;
  for (int t = 0; t < nt; t++)
    total += ss->tethers[t].nseg ? ss->tethers[t].nseg : ss->tethers[t].n_segments;
  ALLOC(m->tether_segs, total);
  const awe_loc **tl;
  tl = awe_pool_array(m->pool, (size_t)(nt ? nt : 1), sizeof(*tl));
  if (!tl) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int t = 0; t < nt; t++) {
    m->tether_name[t] = awe_pool_strdup(m->pool, ss->tethers[t].name);
    tl[t] = &ss->tethers[t].loc;
  }
  AWE_TRY(check_unique(m->tether_name, nt, tl, "tether", err));

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
      AWE_TRY(resolve(&ts->start, m->point_name, b->np, "point", owner, &ps, err));
      AWE_TRY(resolve(&ts->end, m->point_name, b->np, "point", owner, &pe, err));
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
      AWE_TRY(resolve(&ts->segs[k], m->segment_name, b->ns, "segment", owner, &sidx, err));
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
      AWE_TRY(resolve(&ts->start, m->point_name, b->np, "point", owner, &ps, err));
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
      AWE_TRY(resolve(&ts->end, m->point_name, b->np, "point", owner, &pe, err));
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

static awe_status build_winches(builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  const awe_settings *set = &b->s->settings;
  awe_model *m = b->m;
  int nw = ss->nwinch;
  m->nwinch = nw;
  ALLOC(m->winch_name, nw);
  ALLOC(m->winch_tether_adr, nw);
  ALLOC(m->winch_tether_num, nw);
  ALLOC(m->winch_point, nw);
  ALLOC(m->winch_drum_radius, nw);
  ALLOC(m->winch_gear_ratio, nw);
  ALLOC(m->winch_inertia, nw);
  ALLOC(m->winch_f_coulomb, nw);
  ALLOC(m->winch_c_vf, nw);
  ALLOC(m->winch_friction_eps, nw);
  ALLOC(m->winch_init_vel, nw);
  ALLOC(m->winch_brake0, nw);
  ALLOC(m->winch_speed_controlled, nw);
  int total = 0;
  for (int w = 0; w < nw; w++) total += ss->winches[w].ntether;
  ALLOC(m->winch_tethers, total);
  const awe_loc **wl = awe_pool_array(m->pool, (size_t)(nw ? nw : 1), sizeof(*wl));
  if (!wl) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int w = 0; w < nw; w++) {
    m->winch_name[w] = awe_pool_strdup(m->pool, ss->winches[w].name);
    wl[w] = &ss->winches[w].loc;
  }
  AWE_TRY(check_unique(m->winch_name, nw, wl, "winch", err));
  int adr = 0;
  for (int w = 0; w < nw; w++) {
    const awe_winch_spec *ws = &ss->winches[w];
    char owner[300];
    snprintf(owner, sizeof(owner), "winch '%s'", ws->name);
    m->winch_tether_adr[w] = adr;
    m->winch_tether_num[w] = ws->ntether;
    for (int k = 0; k < ws->ntether; k++) {
      int t;
      AWE_TRY(resolve(&ws->tethers[k], m->tether_name, m->ntether, "tether", owner, &t, err));
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
      AWE_TRY(resolve(&ws->point, m->point_name, m->npoint, "point", owner, &m->winch_point[w], err));
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
    m->winch_f_coulomb[w] = set->f_coulomb;
    m->winch_c_vf[w] = set->c_vf;
    m->winch_friction_eps[w] = ws->friction_epsilon;
    m->winch_init_vel[w] = ws->init_vel;
    m->winch_brake0[w] = ws->brake;
    m->winch_speed_controlled[w] = ws->speed_controlled;
  }
  return AWE_OK;
}


/* ---- pulleys, wings, groups --------------------------------------------------------------- */

static awe_status build_pulleys(builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  int n = ss->npulley;
  m->npulley = n;
  ALLOC(m->pulley_name, n);
  ALLOC(m->pulley_seg, 2 * n);
  ALLOC(m->pulley_type, n);
  ALLOC(m->pulley_sum_len, n);
  ALLOC(m->pulley_len0, n);
  const awe_loc **pl = awe_pool_array(m->pool, (size_t)(n ? n : 1), sizeof(*pl));
  if (!pl) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < n; i++) {
    m->pulley_name[i] = awe_pool_strdup(m->pool, ss->pulleys[i].name);
    pl[i] = &ss->pulleys[i].loc;
  }
  AWE_TRY(check_unique(m->pulley_name, n, pl, "pulley", err));
  for (int i = 0; i < n; i++) {
    const awe_pulley_spec *p = &ss->pulleys[i];
    char owner[300];
    snprintf(owner, sizeof(owner), "pulley '%s'", p->name);
    for (int k = 0; k < 2; k++) {
      int sidx;
      AWE_TRY(resolve(&p->seg[k], m->segment_name, m->nsegment, "segment", owner, &sidx, err));
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
    if (p->type == AWE_DYN_STATIC)
      return awe_err_at(err, AWE_EINVAL, &p->loc, "%s: type must be DYNAMIC or QUASI_STATIC",
                        owner);
  }
  return AWE_OK;
}


static awe_status resolve_wref(builder *b, const awe_wref *w, const char *owner, int *pts,
                               double *wt, awe_err *err) {
  for (int k = 0; k < w->n; k++) {
    AWE_TRY(resolve(&w->pt[k], b->m->point_name, b->m->npoint, "point", owner, &pts[k], err));
    wt[k] = w->w[k];
  }
  return AWE_OK;
}


static awe_status build_wings_groups(builder *b, awe_err *err) {
  const awe_struct_spec *ss = &b->s->structure;
  awe_model *m = b->m;
  int nw = ss->nwing, ng = ss->ngroup;
  m->nwing = nw;
  m->ngroup = ng;
  ALLOC(m->wing_name, nw);
  ALLOC(m->wing_type, nw);
  ALLOC(m->wing_aero_mode, nw);
  ALLOC(m->wing_group_adr, nw);
  ALLOC(m->wing_group_num, nw);
  ALLOC(m->wing_point_adr, nw);
  ALLOC(m->wing_point_num, nw);
  ALLOC(m->wing_origin_adr, nw);
  ALLOC(m->wing_origin_num, nw);
  ALLOC(m->wing_ref_adr, 4 * nw);
  ALLOC(m->wing_ref_num, 4 * nw);
  ALLOC(m->wing_y_damping, nw);
  ALLOC(m->wing_angular_damping, nw);
  ALLOC(m->wing_aero_scale_chord, nw);
  ALLOC(m->wing_aero_z_offset, nw);
  ALLOC(m->wing_transform, nw);
  ALLOC(m->wing_mass, nw);
  ALLOC(m->wing_ground_point, nw);
  ALLOC(m->wing_ground, 3 * nw);
  ALLOC(m->group_name, ng);
  ALLOC(m->group_point_adr, ng);
  ALLOC(m->group_point_num, ng);
  ALLOC(m->group_type, ng);
  ALLOC(m->group_moment_frac, ng);
  ALLOC(m->group_damping, ng);
  ALLOC(m->group_wing, ng);
  const awe_loc **wl = awe_pool_array(m->pool, (size_t)(nw + ng + 1), sizeof(*wl));
  if (!wl) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < nw; i++) {
    m->wing_name[i] = awe_pool_strdup(m->pool, ss->wings[i].name);
    wl[i] = &ss->wings[i].loc;
  }
  AWE_TRY(check_unique(m->wing_name, nw, wl, "wing", err));
  for (int i = 0; i < ng; i++) {
    m->group_name[i] = awe_pool_strdup(m->pool, ss->groups[i].name);
    wl[i] = &ss->groups[i].loc;
  }
  AWE_TRY(check_unique(m->group_name, ng, wl, "group", err));

  /* point -> wing (each point's wing_idx; WING points without wings become STATIC) */
  for (int i = 0; i < ss->npoint; i++) {
    const awe_point_spec *p = &ss->points[i];
    char owner[300];
    snprintf(owner, sizeof(owner), "point '%s'", p->name);
    if (AWE_REF_GIVEN(p->wing) && nw > 0) {
      AWE_TRY(resolve(&p->wing, m->wing_name, nw, "wing", owner, &m->point_wing[i], err));
    } else if (AWE_REF_GIVEN(p->wing) && p->wing.name) {
      /* names a wing but there are none: SymbolicAWEModels errors on unknown wings */
      AWE_TRY(resolve(&p->wing, m->wing_name, nw, "wing", owner, &m->point_wing[i], err));
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
  ALLOC(m->wing_groups, gtotal);
  ALLOC(m->wing_points, ptotal);
  ALLOC(m->wing_origin_pts, ototal);
  ALLOC(m->wing_origin_w, ototal);
  ALLOC(m->wing_ref_pts, rtotal);
  ALLOC(m->wing_ref_w, rtotal);
  for (int g = 0; g < ng; g++) m->group_wing[g] = -1;
  int ga = 0, pa = 0, oa = 0, ra = 0;
  for (int i = 0; i < nw; i++) {
    const awe_wing_spec *w = &ss->wings[i];
    char owner[300];
    snprintf(owner, sizeof(owner), "wing '%s'", w->name);
    m->wing_type[i] = w->type;
    m->wing_aero_mode[i] = w->aero_mode != AWE_AERO_DEFAULT ? w->aero_mode
                           : w->type == AWE_WING_RIGID     ? AWE_AERO_LINEARIZED
                                                           : AWE_AERO_DIRECT;
    m->wing_y_damping[i] = w->y_damping;
    m->wing_angular_damping[i] = w->angular_damping;
    m->wing_aero_scale_chord[i] = w->aero_scale_chord;
    m->wing_aero_z_offset[i] = w->aero_z_offset;
    m->wing_transform[i] = -1;
    m->wing_ground_point[i] = -1;
    if (AWE_REF_GIVEN(w->ground_point))
      AWE_TRY(resolve(&w->ground_point, m->point_name, m->npoint, "point", owner,
                      &m->wing_ground_point[i], err));
    m->wing_group_adr[i] = ga;
    m->wing_group_num[i] = w->ngroup;
    for (int k = 0; k < w->ngroup; k++) {
      int g;
      AWE_TRY(resolve(&w->groups[k], m->group_name, ng, "group", owner, &g, err));
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
      AWE_TRY(resolve(&w->points[k], m->point_name, m->npoint, "point", owner, &p, err));
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
  ALLOC(m->group_points, gp);
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
      AWE_TRY(resolve(&gs->points[k], m->point_name, m->npoint, "point", owner, &p, err));
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

static awe_status derive(builder *b, awe_err *err) {
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
    m->pulley_sum_len[i] = l1 + l2;
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

static awe_status resolve_transforms(builder *b, awe_err *err) {
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
  AWE_TRY(check_unique(names, nt, tl, "transform", err));
  m->point_transform = b->point_transform;
  for (int i = 0; i < ss->npoint; i++) {
    const awe_point_spec *p = &ss->points[i];
    if (!AWE_REF_GIVEN(p->transform)) continue;
    char owner[300];
    snprintf(owner, sizeof(owner), "point '%s'", p->name);
    AWE_TRY(resolve(&p->transform, names, nt, "transform", owner, &b->point_transform[i], err));
  }
  for (int i = 0; i < ss->nwing; i++) {
    const awe_wing_spec *w = &ss->wings[i];
    if (!AWE_REF_GIVEN(w->transform)) continue;
    char owner[300];
    snprintf(owner, sizeof(owner), "wing '%s'", w->name);
    AWE_TRY(resolve(&w->transform, names, nt, "transform", owner, &m->wing_transform[i], err));
  }
  for (int i = 0; i < nt; i++) {
    const awe_transform_spec *t = &ss->transforms[i];
    char owner[300];
    snprintf(owner, sizeof(owner), "transform '%s'", t->name);
    int dummy;
    if (AWE_REF_GIVEN(t->wing)) AWE_TRY(resolve(&t->wing, m->wing_name, m->nwing, "wing", owner, &dummy, err));
    if (AWE_REF_GIVEN(t->rot_point))
      AWE_TRY(resolve(&t->rot_point, m->point_name, m->npoint, "point", owner, &dummy, err));
    if (AWE_REF_GIVEN(t->base_point))
      AWE_TRY(resolve(&t->base_point, m->point_name, m->npoint, "point", owner, &dummy, err));
    if (AWE_REF_GIVEN(t->base_transform)) {
      AWE_TRY(resolve(&t->base_transform, names, nt, "transform", owner, &dummy, err));
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


/* ---- aero, environment, options ----------------------------------------------------------- */

static awe_status build_aero(builder *b, awe_err *err) {
  const awe_spec *s = b->s;
  awe_model *m = b->m;
  m->vsm = s->vsm;
  if (!s->has_aero) return AWE_OK;
  const awe_aero_spec *a = &s->aero;
  m->nsection = a->nsection;
  m->nairfoil = a->nairfoil;
  ALLOC(m->section_le, 3 * a->nsection);
  ALLOC(m->section_te, 3 * a->nsection);
  ALLOC(m->section_airfoil, a->nsection);
  ALLOC(m->airfoils, a->nairfoil);
  for (int i = 0; i < a->nairfoil; i++) {
    m->airfoils[i] = a->airfoils[i];
    int n = a->airfoils[i].n;
    if (a->airfoils[i].type == AWE_AIRFOIL_POLARS) {
      double **dst[4] = {&m->airfoils[i].alpha, &m->airfoils[i].cl, &m->airfoils[i].cd,
                         &m->airfoils[i].cm};
      const double *src[4] = {a->airfoils[i].alpha, a->airfoils[i].cl, a->airfoils[i].cd,
                              a->airfoils[i].cm};
      for (int k = 0; k < 4; k++) {
        ALLOC(*dst[k], n);
        memcpy(*dst[k], src[k], sizeof(double) * (size_t)n);
      }
    }
  }
  for (int i = 0; i < a->nsection; i++) {
    memcpy(&m->section_le[3 * i], a->sections[i].le, sizeof(double) * 3);
    memcpy(&m->section_te[3 * i], a->sections[i].te, sizeof(double) * 3);
    for (int j = 0; j < a->nairfoil; j++)
      if (a->airfoils[j].id == a->sections[i].airfoil_id) m->section_airfoil[i] = j;
  }
  return AWE_OK;
}


static void build_env_opt(builder *b) {
  const awe_spec *s = b->s;
  const awe_settings *st = &s->settings;
  awe_model *m = b->m;
  awe_env *e = &m->env;
  e->g = st->g_earth;
  e->rho_0 = st->rho_0;
  e->temp_ref = st->temp_ref;
  e->height_gnd = st->height_gnd;
  e->h_ref = st->h_ref;
  e->alpha = st->alpha;
  e->z0 = st->z0;
  e->profile_law = st->profile_law;
  e->cd_tether = st->cd_tether;
  if (st->use_wind_vec) {
    double v = sqrt(st->wind_vec[0] * st->wind_vec[0] + st->wind_vec[1] * st->wind_vec[1] +
                    st->wind_vec[2] * st->wind_vec[2]);
    e->v_wind = v;
    for (int k = 0; k < 3; k++) e->wind_dir[k] = v > 0 ? st->wind_vec[k] / v : (k == 0);
  } else {
    /* Rz(-upwind_dir) Rx(upwind_elevation) [0,-1,0]: upwind_dir = -90 deg -> +x */
    double psi = -st->upwind_dir * M_PI / 180, el = st->upwind_elevation * M_PI / 180;
    double v0[3] = {0, -cos(el), -sin(el)};
    e->wind_dir[0] = cos(psi) * v0[0] - sin(psi) * v0[1];
    e->wind_dir[1] = sin(psi) * v0[0] + cos(psi) * v0[1];
    e->wind_dir[2] = v0[2];
    e->v_wind = st->v_wind;
  }
  const awe_run_spec *r = &s->scenario.run;
  awe_opt *o = &m->opt;
  o->duration = r->duration;
  o->dt = !isnan(r->dt) ? r->dt : st->sample_freq > 0 ? 1.0 / st->sample_freq : AWE_RUN_DT;
  if (isnan(r->dt) && !(st->sample_freq > 0))
    awe_warn(b->warn, NULL, "neither run.dt nor system.sample_freq is set: logging every %g s",
             AWE_RUN_DT);
  snprintf(o->solver, sizeof(o->solver), "%s", r->solver ? r->solver : awe_default_solver(m));
  o->jacobian_fd = r->jacobian_fd;
  o->abs_tol = !isnan(r->abs_tol) ? r->abs_tol : AWE_RUN_TOL;
  o->rel_tol = !isnan(r->rel_tol) ? r->rel_tol : AWE_RUN_TOL;
  o->max_step = !isnan(r->max_step) ? r->max_step : o->dt;
  o->vsm_interval = r->vsm_interval;
  o->steady_state = r->steady_state;
  o->steady_state_time = r->steady_state_time;
  o->min_step = !isnan(r->min_step) ? r->min_step : 0.0;
  o->max_wall_time = !isnan(r->max_wall_time) ? r->max_wall_time : 0.0;
  o->max_steps = !isnan(r->max_steps) ? r->max_steps : 1e9; /* AWE_GUARD_MAX_STEPS */
  m->settings = *st;
}


/* Scenario inputs -> input vector elements. */
static awe_status build_signals(builder *b, awe_err *err) {
  const awe_scenario_spec *sc = &b->s->scenario;
  awe_model *m = b->m;
  m->nsignal = sc->ninput;
  ALLOC(m->signals, sc->ninput);
  const awe_varlist *u = &m->reg.input;
  for (int i = 0; i < sc->ninput; i++) {
    const awe_input_spec *in = &sc->inputs[i];
    int found = -1;
    char name[512];
    for (int v = 0; v < u->n && found < 0; v++)
      for (int k = 0; k < u->v[v].dim && found < 0; k++) {
        awe_var_scalar_name(&u->v[v], k, name, sizeof(name));
        if (!strcmp(name, in->channel)) found = u->v[v].offset + k;
      }
    if (found < 0) {
      /* suggest from the scalar input names */
      int nn = u->size < 4096 ? u->size : 4096;
      char **names = malloc(sizeof(char *) * (size_t)(nn ? nn : 1));
      char *store = malloc((size_t)(nn ? nn : 1) * 160);
      const char *best = NULL;
      if (names && store) {
        int c = 0;
        for (int v = 0; v < u->n && c < nn; v++)
          for (int k = 0; k < u->v[v].dim && c < nn; k++, c++) {
            names[c] = store + (size_t)c * 160;
            awe_var_scalar_name(&u->v[v], k, names[c], 160);
          }
        best = awe_closest(in->channel, (const char *const *)names, c);
      }
      char bestbuf[160] = "";
      if (best) snprintf(bestbuf, sizeof(bestbuf), "%s", best);
      free(names);
      free(store);
      if (bestbuf[0])
        return awe_err_at(err, AWE_EINVAL, &in->loc,
                          "inputs: unknown input channel '%s' (did you mean '%s'?)", in->channel,
                          bestbuf);
      return awe_err_at(err, AWE_EINVAL, &in->loc,
                        "inputs: unknown input channel '%s' (inputs are winches.NAME.torque, "
                        "winches.NAME.brake, segments.NAME.l0, points.NAME.force.x|y|z, "
                        "wind.v_wind)", in->channel);
    }
    m->signals[i].u_index = found;
    m->signals[i].sig = *in;
    if (in->type == AWE_SIG_TABLE) {
      ALLOC(m->signals[i].sig.table_t, in->ntable);
      ALLOC(m->signals[i].sig.table_v, in->ntable);
      memcpy(m->signals[i].sig.table_t, in->table_t, sizeof(double) * (size_t)in->ntable);
      memcpy(m->signals[i].sig.table_v, in->table_v, sizeof(double) * (size_t)in->ntable);
    }
    m->signals[i].sig.channel = awe_pool_strdup(m->pool, in->channel);
  }
  return AWE_OK;
}


static awe_status build(builder *b, awe_err *err) {
  AWE_TRY(build_points_segments(b, err));
  AWE_TRY(build_tethers(b, err));
  AWE_TRY(build_winches(b, err));
  AWE_TRY(build_pulleys(b, err));
  AWE_TRY(build_wings_groups(b, err));
  AWE_TRY(resolve_transforms(b, err));
  AWE_TRY(derive(b, err));
  AWE_TRY(build_aero(b, err));
  build_env_opt(b);
  AWE_TRY(awe_model_validate(b->m, b->s, b->warn, err));
  AWE_TRY(awe_model_place(b->m, b->s, b->warn, err));
  AWE_TRY(awe_model_ground_stations(b->m, b->s, err));
  AWE_TRY(awe_model_layout(b->m, err));
  AWE_TRY(build_signals(b, err));
  AWE_TRY(awe_model_layout_inputs(b->m, err));
  AWE_TRY(awe_controllers_build(b->m, b->s, err));
  return AWE_OK;
}


awe_model *awe_model_build(const awe_spec *s, awe_diag *warn, awe_err *err) {
  awe_model *m = calloc(1, sizeof(*m));
  if (!m || !(m->pool = awe_pool_new())) {
    free(m);
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  m->name = awe_pool_strdup(m->pool, s->scenario.name ? s->scenario.name : "model");
  builder b = {.s = s, .m = m, .warn = warn};
  if (build(&b, err)) {
    awe_model_free(m);
    return NULL;
  }
  return m;
}


void awe_model_free(awe_model *m) {
  if (!m) return;
  awe_registry_free(&m->reg);
  awe_pool_free(m->pool);
  free(m);
}
