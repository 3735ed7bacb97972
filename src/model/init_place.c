/* init_place.c: initial placement of the system (physics.md §10).
 *
 * Sources: SymbolicAWEModels reinit!(sys_struct, set), src/system_structure/transforms.jl
 * @394ead8/@0e8d31b, apply_tether_init_stretched_lens! / apply_tether_init_forces!
 * (test_tether_init.jl @043c254, test_tether_init_len.jl @2b5f849, CHANGELOG v0.11-v0.17),
 * OpenSourceAWE/KiteGeometry.jl src/placement.jl @2881a9b.
 *
 * 1. World = CAD: pos0 = pos_cad, vel0 = 0.
 * 2. Tether placement (init_stretched_length L): the anchor is the end that is STATIC or a
 *    winch point; the free end moves along anchor->free to distance L, and everything
 *    downstream of it (breadth-first over non-tether segments and points of the same wing,
 *    stopping at STATIC and winch points) moves by the same displacement. Tethers whose
 *    downstream structures touch are placed together by their mean displacement. The inner
 *    points of a tether are spread along the straight new line in proportion to their old
 *    segment lengths. A downstream path back to the anchor, or no anchored end, is an error.
 * 3. Unstretched length from the placed (stretched) length S = sum |p_k+1 - p_k|:
 *      len = S (1 - init_tether_force / unit_stiffness)   or   len = S init_stretch_frac,
 *    default len = S when L is given, else the sum of the rest lengths; every tether segment
 *    gets l0 = len / n (SymbolicAWEModels: l0 = tether_len / n_segments).
 * 4. Transforms, in file order, each moving the points whose transform_idx names it (points a
 *    tether generates inherit the transform of its free end):
 *    a. translate so the base point lands on base_pos (or on the rotation point of an earlier
 *       transform, base_transform_idx);
 *    b. rotate about the base B by the minimal rotation (Rodrigues) that takes the direction of
 *       the rotated object (wing origin, or rot_point) onto
 *         r = [cos e cos a, -cos e sin a, sin e]   (azimuth positive toward -y);
 *    c. rotate about r through B by heading - heading_now (wrapped to [-pi, pi]), where
 *         heading = atan2(e_x . y_t, e_x . x_t),  y_t = n([-r_y, r_x, 0]),  x_t = y_t x r,
 *       e_x the wing's body x axis (from its reference points: z = n(z2 - z1),
 *       y_tmp = n(y2 - y1), x = n(y_tmp x z); without them the CAD x axis carried along);
 *    d. velocities of a rigid spin about B (v0.17):
 *         Omega = de/dt [-sin a, -cos a, 0] - da/dt [0, 0, 1] + turn_rate r,
 *         v = Omega x (p - B).
 * 5. Pulleys: pulley_len0 = len1 / (len1 + len2) sum_len from the placed geometry.
 * 6. Point masses from the new rest lengths.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "util/kite_frames.h"
#include "util/vec3.h"


static int resolve_name(const awe_ref *r, const char *const *names, int n) {
  if (r->name) {
    for (int i = 0; i < n; i++)
      if (names[i] && !strcmp(names[i], r->name)) return i;
    return -1;
  }
  return r->index >= 1 && r->index <= n ? r->index - 1 : -1;
}


static int resolve_transform(const awe_spec *s, const awe_ref *r) {
  const awe_struct_spec *ss = &s->structure;
  if (r->name) {
    for (int i = 0; i < ss->ntransform; i++)
      if (ss->transforms[i].name && !strcmp(ss->transforms[i].name, r->name)) return i;
    return -1;
  }
  return r->index >= 1 && r->index <= ss->ntransform ? r->index - 1 : -1;
}


static int is_anchor(const awe_model *m, int p) {
  if (m->point_type[p] == AWE_PT_STATIC) return 1;
  for (int w = 0; w < m->nwinch; w++)
    if (m->winch_point[w] == p) return 1;
  return 0;
}


/* points of tether t in chain order from tether_start: chain[0..n] (n = segments) */
static int tether_chain(const awe_model *m, int t, int *chain) {
  int n = m->tether_seg_num[t], cur = m->tether_start[t];
  chain[0] = cur;
  for (int k = 0; k < n; k++) {
    int s = m->tether_segs[m->tether_seg_adr[t] + k];
    int a = m->segment_p[2 * s], b = m->segment_p[2 * s + 1];
    if (a == cur) cur = b;
    else if (b == cur) cur = a;
    else return -1;
    chain[k + 1] = cur;
  }
  return n;
}


/* spread the inner points of tether t along the line between its (already placed) ends,
 * proportionally to their old segment lengths */
static void respread(awe_model *m, int t, int *chain, double *seglen) {
  int n = tether_chain(m, t, chain);
  if (n < 2) return;
  double *p = m->point_pos0;
  double total = 0.0;
  for (int k = 0; k < n; k++) total += seglen[k];
  if (!(total > 0.0)) return;
  const double *a = p + 3 * chain[0], *b = p + 3 * chain[n];
  double cum = 0.0;
  for (int k = 1; k < n; k++) {
    cum += seglen[k - 1];
    double f = cum / total;
    if (is_anchor(m, chain[k])) continue;
    for (int j = 0; j < 3; j++) p[3 * chain[k] + j] = a[j] + f * (b[j] - a[j]);
  }
}


/* step 2: place tethers with init_stretched_length */
static awe_status place_tethers(awe_model *m, const awe_spec *s, awe_diag *warn, awe_err *err) {
  int np = m->npoint, nt = m->ntether;
  const awe_struct_spec *ss = &s->structure;
  awe_status rc = AWE_OK;
  int *chain = malloc(sizeof(int) * (size_t)(np + 1));
  int *comp = malloc(sizeof(int) * (size_t)(np + 1));
  int *queue = malloc(sizeof(int) * (size_t)(np + 1));
  int *tfree = malloc(sizeof(int) * (size_t)(nt + 1));
  int *tanchor = malloc(sizeof(int) * (size_t)(nt + 1));
  double *disp = calloc((size_t)(nt + 1) * 3, sizeof(double));
  double *cdisp = calloc((size_t)(np + 1) * 3, sizeof(double));
  int *ccount = calloc((size_t)(np + 1), sizeof(int));
  double *seglen = malloc(sizeof(double) * (size_t)(m->nsegment + 1) * 1);
  double *oldlen = malloc(sizeof(double) * (size_t)(m->nsegment + 1));
  unsigned char *moved = calloc((size_t)(np + 1), 1);
  if (!chain || !comp || !queue || !tfree || !tanchor || !disp || !cdisp || !ccount || !seglen ||
      !oldlen || !moved) {
    rc = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto out;
  }
  double *p = m->point_pos0;
  for (int sg = 0; sg < m->nsegment; sg++)
    oldlen[sg] = awe_v3_dist(p + 3 * m->segment_p[2 * sg], p + 3 * m->segment_p[2 * sg + 1]);
  for (int i = 0; i < np; i++) comp[i] = -1;

  int nplaced = 0;
  for (int t = 0; t < nt; t++) {
    tfree[t] = tanchor[t] = -1;
    double L = t < ss->ntether ? ss->tethers[t].init_stretched_length : NAN;
    if (isnan(L)) continue;
    const awe_loc *loc = &ss->tethers[t].loc;
    int a = m->tether_start[t], b = m->tether_end[t];
    int aa = is_anchor(m, a), ab = is_anchor(m, b);
    if (aa && ab) {
      awe_warn(warn, loc, "tether '%s': both ends are fixed, init_stretched_length ignored",
               m->tether_name[t]);
      continue;
    }
    if (!aa && !ab) {
      rc = awe_err_at(err, AWE_EINVAL, loc,
                      "tether '%s': init_stretched_length needs an end at a STATIC or winch "
                      "point", m->tether_name[t]);
      goto out;
    }
    if (!(L > 0.0)) {
      rc = awe_err_at(err, AWE_EINVAL, loc, "tether '%s': init_stretched_length must be > 0",
                      m->tether_name[t]);
      goto out;
    }
    int anc = aa ? a : b, fre = aa ? b : a;
    double d[3];
    awe_v3_sub(d, p + 3 * fre, p + 3 * anc);
    double dl = awe_v3_norm(d);
    if (!(dl > 1e-9)) {
      rc = awe_err_at(err, AWE_EINVAL, loc,
                      "tether '%s': its ends coincide, no direction to place it along",
                      m->tether_name[t]);
      goto out;
    }
    for (int k = 0; k < 3; k++) disp[3 * t + k] = p[3 * anc + k] + L * d[k] / dl - p[3 * fre + k];
    tfree[t] = fre;
    tanchor[t] = anc;
    nplaced++;
  }
  if (!nplaced) goto out;

  /* downstream components: BFS from each free end over non-tether segments and wing siblings */
  int ncomp = 0;
  for (int t = 0; t < nt; t++) {
    if (tfree[t] < 0 || comp[tfree[t]] >= 0) continue;
    int c = ncomp++, head = 0, tail = 0;
    comp[tfree[t]] = c;
    queue[tail++] = tfree[t];
    while (head < tail) {
      int i = queue[head++];
      for (int sg = 0; sg < m->nsegment; sg++) {
        if (m->segment_tether[sg] >= 0) continue;
        int a = m->segment_p[2 * sg], b = m->segment_p[2 * sg + 1], o = -1;
        if (a == i) o = b;
        else if (b == i) o = a;
        if (o < 0 || comp[o] >= 0) continue;
        for (int u = 0; u < nt; u++)
          if (tanchor[u] == o) {
            rc = awe_err_set(err, AWE_EINVAL,
                             "tether '%s': the structure beyond its free end loops back to the "
                             "anchor '%s'", m->tether_name[t], m->point_name[o]);
            goto out;
          }
        if (is_anchor(m, o)) continue;
        comp[o] = c;
        queue[tail++] = o;
      }
      /* rigid siblings: the other points of the same wing */
      int wi = m->point_wing[i];
      if (wi >= 0 && m->point_type[i] == AWE_PT_WING)
        for (int o = 0; o < np; o++)
          if (comp[o] < 0 && m->point_wing[o] == wi && m->point_type[o] == AWE_PT_WING) {
            comp[o] = c;
            queue[tail++] = o;
          }
    }
  }
  for (int t = 0; t < nt; t++) {
    if (tfree[t] < 0) continue;
    int c = comp[tfree[t]];
    for (int k = 0; k < 3; k++) cdisp[3 * c + k] += disp[3 * t + k];
    ccount[c]++;
  }
  for (int i = 0; i < np; i++) {
    int c = comp[i];
    if (c < 0 || m->point_type[i] == AWE_PT_STATIC) continue;
    for (int k = 0; k < 3; k++) p[3 * i + k] += cdisp[3 * c + k] / ccount[c];
    moved[i] = 1;
  }
  /* bodies move with the component of their riders, else of their wing's points */
  for (int j = 0; j < m->nbody; j++) {
    int c = -1;
    for (int k = 0; k < m->body_point_num[j] && c < 0; k++)
      c = comp[m->body_points[m->body_point_adr[j] + k]];
    for (int i = 0; i < np && c < 0 && m->body_wing[j] >= 0; i++)
      if (m->point_wing[i] == m->body_wing[j] && m->point_type[i] == AWE_PT_WING) c = comp[i];
    if (c < 0 || m->body_static[j]) continue;
    for (int k = 0; k < 3; k++) m->body_pos0[3 * j + k] += cdisp[3 * c + k] / ccount[c];
  }
  /* straighten every tether with a moved end */
  for (int t = 0; t < nt; t++) {
    if (!moved[m->tether_start[t]] && !moved[m->tether_end[t]]) continue;
    int n = tether_chain(m, t, chain);
    if (n < 0) continue;
    for (int k = 0; k < n; k++) {
      /* old length of the k-th segment in chain order */
      seglen[k] = oldlen[m->tether_segs[m->tether_seg_adr[t] + k]];
    }
    respread(m, t, chain, seglen);
  }
out:
  free(chain);
  free(comp);
  free(queue);
  free(tfree);
  free(tanchor);
  free(disp);
  free(cdisp);
  free(ccount);
  free(seglen);
  free(oldlen);
  free(moved);
  return rc;
}


/* step 3: unstretched tether lengths and rest lengths of tether segments */
static awe_status tether_lengths(awe_model *m, const awe_spec *s, awe_err *err) {
  const awe_struct_spec *ss = &s->structure;
  for (int t = 0; t < m->ntether; t++) {
    int n = m->tether_seg_num[t];
    if (n <= 0) continue;
    double S = 0.0, sum_l0 = 0.0;
    for (int k = 0; k < n; k++) {
      int sg = m->tether_segs[m->tether_seg_adr[t] + k];
      S += awe_v3_dist(m->point_pos0 + 3 * m->segment_p[2 * sg], m->point_pos0 + 3 * m->segment_p[2 * sg + 1]);
      sum_l0 += m->segment_l0[sg];
    }
    double L = NAN, F = NAN, frac = NAN;
    const awe_loc *loc = NULL;
    if (t < ss->ntether) {
      L = ss->tethers[t].init_stretched_length;
      F = ss->tethers[t].init_tether_force;
      frac = ss->tethers[t].init_stretch_frac;
      loc = &ss->tethers[t].loc;
    }
    double len = sum_l0;
    if (!isnan(F) && !isnan(frac))
      return awe_err_at(err, AWE_EINVAL, loc,
                        "tether '%s': give init_tether_force or init_stretch_frac, not both",
                        m->tether_name[t]);
    if (!isnan(F)) {
      double ea = m->segment_unit_k[m->tether_segs[m->tether_seg_adr[t]]];
      if (!(ea > F))
        return awe_err_at(err, AWE_EINVAL, loc,
                          "tether '%s': init_tether_force %g N needs unit_stiffness > it (%g N)",
                          m->tether_name[t], F, ea);
      len = S * (1.0 - F / ea);
    } else if (!isnan(frac)) {
      if (!(frac > 0.0))
        return awe_err_at(err, AWE_EINVAL, loc, "tether '%s': init_stretch_frac must be > 0",
                          m->tether_name[t]);
      len = S * frac;
    } else if (!isnan(L)) {
      len = S;
    } else if (t < ss->ntether && ss->tethers[t].len0 > 0.0) {
      len = ss->tethers[t].len0; /* as built, from an awesIO document */
    }
    m->tether_len0[t] = len;
    m->tether_stretched0[t] = S;
    for (int k = 0; k < n; k++) m->segment_l0[m->tether_segs[m->tether_seg_adr[t] + k]] = len / n;
  }
  return AWE_OK;
}


/* ---- transforms ---- */

/* rotation by angle th about unit axis k (Rodrigues) */
static void axis_angle(const double k[3], double th, double R[9]) {
  double c = cos(th), s = sin(th), v = 1.0 - c;
  R[0] = c + k[0] * k[0] * v;
  R[1] = k[0] * k[1] * v - k[2] * s;
  R[2] = k[0] * k[2] * v + k[1] * s;
  R[3] = k[1] * k[0] * v + k[2] * s;
  R[4] = c + k[1] * k[1] * v;
  R[5] = k[1] * k[2] * v - k[0] * s;
  R[6] = k[2] * k[0] * v - k[1] * s;
  R[7] = k[2] * k[1] * v + k[0] * s;
  R[8] = c + k[2] * k[2] * v;
}


/* minimal rotation taking unit a onto unit b */
static void min_rotation(const double a[3], const double b[3], double R[9]) {
  double k[3];
  awe_v3_cross(k, a, b);
  double s = awe_v3_norm(k), c = awe_v3_dot(a, b);
  if (s < 1e-15) {
    if (c > 0) {
      axis_angle((double[3]){1, 0, 0}, 0.0, R);
      return;
    }
    /* antiparallel: half turn about any axis perpendicular to a */
    double e[3] = {fabs(a[0]) < 0.9 ? 1.0 : 0.0, fabs(a[0]) < 0.9 ? 0.0 : 1.0, 0.0};
    awe_v3_cross(k, a, e);
    s = awe_v3_norm(k);
    for (int j = 0; j < 3; j++) k[j] /= s;
    axis_angle(k, AWE_PI, R);
    return;
  }
  for (int j = 0; j < 3; j++) k[j] /= s;
  axis_angle(k, atan2(s, c), R);
}


/* weighted position of set k (0 z1, 1 z2, 2 y1, 3 y2) of wing w; -1 if empty */
static int wing_ref_pos(const awe_model *m, int w, int k, double out[3]) {
  int adr = m->wing_ref_adr[4 * w + k], n = m->wing_ref_num[4 * w + k];
  double sw = 0.0;
  out[0] = out[1] = out[2] = 0.0;
  for (int j = 0; j < n; j++) {
    double wt = m->wing_ref_w[adr + j];
    awe_v3_addto(out, wt, m->point_pos0 + 3 * m->wing_ref_pts[adr + j]);
    sw += wt;
  }
  if (n == 0 || sw == 0.0) return -1;
  for (int j = 0; j < 3; j++) out[j] /= sw;
  return 0;
}


/* wing origin (weighted origin set; else mean of its points) */
static void wing_origin(const awe_model *m, int w, double out[3]) {
  int adr = m->wing_origin_adr[w], n = m->wing_origin_num[w];
  double sw = 0.0;
  out[0] = out[1] = out[2] = 0.0;
  for (int j = 0; j < n; j++) {
    awe_v3_addto(out, m->wing_origin_w[adr + j], m->point_pos0 + 3 * m->wing_origin_pts[adr + j]);
    sw += m->wing_origin_w[adr + j];
  }
  if (n > 0 && sw != 0.0) {
    for (int j = 0; j < 3; j++) out[j] /= sw;
    return;
  }
  n = m->wing_point_num[w];
  for (int j = 0; j < n; j++)
    awe_v3_addto(out, 1.0 / n, m->point_pos0 + 3 * m->wing_points[m->wing_point_adr[w] + j]);
}


/* body x axis of wing w from its reference points; -1 if it has none */
static int wing_x_axis(const awe_model *m, int w, double ex[3]) {
  double z1[3], z2[3], y1[3], y2[3], z[3], y[3];
  if (wing_ref_pos(m, w, 0, z1) || wing_ref_pos(m, w, 1, z2) || wing_ref_pos(m, w, 2, y1) ||
      wing_ref_pos(m, w, 3, y2))
    return -1;
  awe_v3_sub(z, z2, z1);
  awe_v3_sub(y, y2, y1);
  awe_v3_cross(ex, y, z);
  double n = awe_v3_norm(ex);
  if (!(n > 0.0)) return -1;
  for (int j = 0; j < 3; j++) ex[j] /= n;
  return 0;
}


/* heading of body x axis ex at radial r (physics.md §9) */
static double heading_of(const double r[3], const double ex[3]) {
  double yt[3] = {-r[1], r[0], 0.0}, xt[3];
  double n = awe_v3_norm(yt);
  if (n < 1e-12) {
    yt[0] = 0.0;
    yt[1] = 1.0;
  } else {
    yt[0] /= n;
    yt[1] /= n;
  }
  awe_v3_cross(xt, yt, r);
  return atan2(awe_v3_dot(ex, yt), awe_v3_dot(ex, xt));
}


/* apply p' = B + R (p - B) to the members of transform k, and to its bodies' poses
 * (Q' = R Q: the body turns with its points) */
static void rotate_members(awe_model *m, const int *member, int k, const double B[3],
                           const double R[9]) {
  for (int i = 0; i < m->npoint; i++) {
    if (member[i] != k) continue;
    double d[3];
    awe_v3_sub(d, m->point_pos0 + 3 * i, B);
    awe_mat3_vec(R, d, d);
    for (int j = 0; j < 3; j++) m->point_pos0[3 * i + j] = B[j] + d[j];
  }
  for (int i = 0; i < m->nbody; i++) {
    if (m->body_transform[i] != k) continue;
    double d[3], Rb[9], Rn[9];
    awe_v3_sub(d, m->body_pos0 + 3 * i, B);
    awe_mat3_vec(R, d, d);
    for (int j = 0; j < 3; j++) m->body_pos0[3 * i + j] = B[j] + d[j];
    awe_quat_to_R(m->body_q0 + 4 * i, Rb);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++)
        Rn[3 * r + c] = R[3 * r] * Rb[c] + R[3 * r + 1] * Rb[3 + c] + R[3 * r + 2] * Rb[6 + c];
    awe_R_to_quat(Rn, m->body_q0 + 4 * i);
  }
}


static awe_status apply_transforms(awe_model *m, const awe_spec *s, awe_diag *warn,
                                   awe_err *err) {
  const awe_struct_spec *ss = &s->structure;
  int nt = ss->ntransform, np = m->npoint;
  if (nt == 0) return AWE_OK;
  int *member = malloc(sizeof(int) * (size_t)(np + 1));
  double *rotpos = calloc((size_t)(nt + 1) * 3, sizeof(double));
  int *chain = malloc(sizeof(int) * (size_t)(np + 1));
  awe_status rc = AWE_OK;
  if (!member || !rotpos || !chain) {
    rc = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto out;
  }
  for (int i = 0; i < np; i++) member[i] = m->point_transform ? m->point_transform[i] : -1;
  /* points a tether generates ride with the transform of its free end (else of either end) */
  for (int t = 0; t < m->ntether; t++) {
    int n = tether_chain(m, t, chain);
    if (n < 2) continue;
    int a = chain[0], b = chain[n];
    int tr = is_anchor(m, a) ? member[b] : is_anchor(m, b) ? member[a] : -1;
    if (tr < 0) tr = member[b] >= 0 ? member[b] : member[a];
    for (int k = 1; k < n; k++)
      if (chain[k] >= ss->npoint && member[chain[k]] < 0) member[chain[k]] = tr;
  }
  if (m->point_transform)
    for (int i = 0; i < np; i++) m->point_transform[i] = member[i];

  for (int k = 0; k < nt; k++) {
    const awe_transform_spec *T = &ss->transforms[k];
    char tname[200];
    snprintf(tname, sizeof(tname), "transform '%s'", T->name ? T->name : "?");
    int wing = AWE_REF_GIVEN(T->wing) ? resolve_name(&T->wing, m->wing_name, m->nwing) : -1;
    int rotp = AWE_REF_GIVEN(T->rot_point) ? resolve_name(&T->rot_point, m->point_name, np) : -1;
    int basep =
        AWE_REF_GIVEN(T->base_point) ? resolve_name(&T->base_point, m->point_name, np) : -1;
    int baset = AWE_REF_GIVEN(T->base_transform) ? resolve_transform(s, &T->base_transform) : -1;
    if (wing < 0 && rotp < 0) {
      rc = awe_err_at(err, AWE_EINVAL, &T->loc, "%s: nothing to rotate (wing_idx/rot_point_idx)",
                      tname);
      goto out;
    }
    /* a. translate */
    double B[3] = {T->base_pos[0], T->base_pos[1], T->base_pos[2]};
    if (baset >= 0 && baset < k) memcpy(B, rotpos + 3 * baset, sizeof(B));
    if (basep >= 0) {
      double d[3];
      awe_v3_sub(d, B, m->point_pos0 + 3 * basep);
      for (int i = 0; i < np; i++)
        if (member[i] == k) awe_v3_addto(m->point_pos0 + 3 * i, 1.0, d);
      for (int i = 0; i < m->nbody; i++)
        if (m->body_transform[i] == k) awe_v3_addto(m->body_pos0 + 3 * i, 1.0, d);
    }
    /* b. elevation and azimuth: minimal rotation of the current radial onto the target */
    double P[3], rel[3];
    if (wing >= 0) wing_origin(m, wing, P);
    else memcpy(P, m->point_pos0 + 3 * rotp, sizeof(P));
    awe_v3_sub(rel, P, B);
    double dl = awe_v3_norm(rel);
    if (!(dl > 1e-6)) {
      rc = awe_err_at(err, AWE_EINVAL, &T->loc,
                      "%s: the rotated object is at the base point, no direction to rotate",
                      tname);
      goto out;
    }
    for (int j = 0; j < 3; j++) rel[j] /= dl;
    double e = T->elevation, a = T->azimuth;
    double r[3] = {cos(e) * cos(a), -cos(e) * sin(a), sin(e)};
    if (fabs(fabs(e) - AWE_PI / 2) < 1e-9)
      awe_warn(warn, &T->loc, "%s: elevation 90 deg: heading is measured about the zenith",
               tname);
    double R1[9], ex[3] = {1.0, 0.0, 0.0};
    min_rotation(rel, r, R1);
    rotate_members(m, member, k, B, R1);
    /* c. heading about the radial */
    if (wing < 0 || wing_x_axis(m, wing, ex)) awe_mat3_vec(R1, (double[3]){1.0, 0.0, 0.0}, ex);
    double dh = T->heading - heading_of(r, ex);
    dh = atan2(sin(dh), cos(dh));
    double R2[9];
    axis_angle(r, dh, R2);
    rotate_members(m, member, k, B, R2);
    /* d. velocities of a rigid spin about the base */
    double Om[3] = {-T->elevation_vel * sin(a) + T->turn_rate * r[0],
                    -T->elevation_vel * cos(a) + T->turn_rate * r[1],
                    -T->azimuth_vel + T->turn_rate * r[2]};
    for (int i = 0; i < np; i++) {
      if (member[i] != k) continue;
      double d[3];
      awe_v3_sub(d, m->point_pos0 + 3 * i, B);
      awe_v3_cross(m->point_vel0 + 3 * i, Om, d);
    }
    for (int i = 0; i < m->nbody; i++) {
      if (m->body_transform[i] != k) continue;
      double d[3], Rb[9];
      awe_v3_sub(d, m->body_pos0 + 3 * i, B);
      awe_v3_cross(m->body_vel0 + 3 * i, Om, d);
      awe_quat_to_R(m->body_q0 + 4 * i, Rb);
      awe_mat3_tvec(Rb, Om, m->body_omega0 + 3 * i); /* body frame */
    }
    for (int j = 0; j < 3; j++) rotpos[3 * k + j] = B[j] + dl * r[j];
  }
out:
  free(member);
  free(rotpos);
  free(chain);
  return rc;
}


awe_status awe_model_place(awe_model *m, const awe_spec *s, awe_diag *warn, awe_err *err) {
  int np = m->npoint;
  /* 1. world = CAD */
  memcpy(m->point_pos0, m->point_pos_cad, sizeof(double) * 3 * (size_t)np);
  memset(m->point_vel0, 0, sizeof(double) * 3 * (size_t)np);
  /* 2.-3. tethers */
  awe_status rc = place_tethers(m, s, warn, err);
  if (rc) return rc;
  rc = tether_lengths(m, s, err);
  if (rc) return rc;
  /* 4. transforms */
  rc = apply_transforms(m, s, warn, err);
  if (rc) return rc;
  /* 5. pulleys: split of the rope by the placed geometry */
  for (int i = 0; i < m->npulley; i++) {
    int s1 = m->pulley_seg[2 * i], s2 = m->pulley_seg[2 * i + 1];
    double l1 = awe_v3_dist(m->point_pos0 + 3 * m->segment_p[2 * s1], m->point_pos0 + 3 * m->segment_p[2 * s1 + 1]);
    double l2 = awe_v3_dist(m->point_pos0 + 3 * m->segment_p[2 * s2], m->point_pos0 + 3 * m->segment_p[2 * s2 + 1]);
    double sum = m->pulley_sum_len[i];
    m->pulley_len0[i] = l1 + l2 > 0.0 ? l1 / (l1 + l2) * sum : 0.5 * sum;
    m->segment_l0[s1] = m->pulley_len0[i];
    m->segment_l0[s2] = sum - m->pulley_len0[i];
  }
  /* 6. masses from the new rest lengths */
  for (int i = 0; i < np; i++) m->point_mass0[i] = m->point_extra_mass[i];
  for (int sg = 0; sg < m->nsegment; sg++) {
    double d = m->segment_diameter[sg];
    double half = 0.5 * m->segment_density[sg] * AWE_PI * 0.25 * d * d * m->segment_l0[sg];
    m->point_mass0[m->segment_p[2 * sg]] += half;
    m->point_mass0[m->segment_p[2 * sg + 1]] += half;
  }
  for (int w = 0; w < m->nwing; w++) {
    double mass = 0.0;
    for (int k = 0; k < m->wing_point_num[w]; k++) {
      int p = m->wing_points[m->wing_point_adr[w] + k];
      if (m->point_type[p] == AWE_PT_WING) mass += m->point_mass0[p];
    }
    m->wing_mass[w] = mass;
  }
  return AWE_OK;
}
