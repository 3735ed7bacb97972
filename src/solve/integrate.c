/* integrate.c: GSL odeiv2 driver, coloured finite-difference Jacobian (life cycle: sim.c).
 *
 * Method notes: see integrate.h. GSL odeiv2 (GSL manual §27): gsl_odeiv2_driver with a
 * standard (y) error control, |err_i| <= abs_tol + rel_tol |y_i|.
 */
#include "solve/integrate.h"
#include "io/solver_names.h"

#include <float.h>
#include <limits.h>
#include <gsl/gsl_odeiv2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/jac_color.h"
#include "engine/jacobian.h"
#include "solve/step_rosw.h"
#include "solve/step_trbdf2.h"
#include "engine/wing.h"
#include "engine/body.h"
#include "util/mem_budget.h"

/* ---- stepper table ---- */

typedef struct {
  const char *name;
  const gsl_odeiv2_step_type *const *type;
  int implicit;
} stepper_entry;

/* derived from the one list of steppers (solver_names.h) */
#define STEP_TYPE_gsl(name) &gsl_odeiv2_step_##name
#define STEP_TYPE_awe(name) &awe_step_##name
#define STEP_ENTRY(name, implicit, origin) {#name, STEP_TYPE_##origin(name), implicit},
static const stepper_entry STEPPERS[] = {AWE_SOLVERS(STEP_ENTRY)};
#undef STEP_ENTRY
#define NSTEPPER ((int)(sizeof(STEPPERS) / sizeof(STEPPERS[0])))


static const stepper_entry *find_stepper(const char *name) {
  for (int i = 0; i < NSTEPPER; i++)
    if (!strcmp(STEPPERS[i].name, name)) return &STEPPERS[i];
  return NULL;
}


int awe_solver_implicit(const char *name) {
  const stepper_entry *e = find_stepper(name);
  return e ? e->implicit : -1;
}

/* ---- integrator ---- */

struct awe_integrator {
  awe_ctx *ctx;              /* borrowed; GSL params of the rhs */
  const stepper_entry *st;
  gsl_odeiv2_system sys;
  gsl_odeiv2_driver *d;
  int n;
  int nquat, multistep;      /* rigid wings (quaternion states); a multistep stepper */
  unsigned long count0, failed0; /* evolve counters already added to the statistics */
  awe_guard *guard;          /* borrowed, or NULL (guard.h) */
  int (*post)(void *, double, const double *); /* after every accepted step, or NULL */
  void *post_ctx;
  double *xmax;              /* [n] physically possible |y| (awe_guard_bounds) */
  double atol, rtol;
  /* sparse Jacobian: colours, and per column the rows that depend on it (CSR) */
  int ncolor;
  int *color_adr, *color_num, *color_cols;
  int *col_row_adr, *col_row_num, *col_rows;
  double *yp, *f0, *f1;
  awe_jac_an *an;            /* analytic columns (jacobian.h), NULL with run.jacobian = fd */
  /* co-rotation of trbdf2's Newton: particle wings' frames and the blocks that turn with them */
  int nframe, *frame_wing, *rot_adr, *rot_num, *rot_idx;
  double *fpos;              /* [3 np] point positions of a state (the frames' scratch) */
};


/* ---- sparsity pattern from the topology ---- */

typedef struct {
  int nb;                    /* blocks */
  int *blk_of_x;             /* [n] block of each state element */
  int *blk_adr, *blk_size;   /* first state element, size */
  unsigned char *dep;        /* [nb * nb] dep[r * nb + c]: rows of r depend on block c */
  int *cluster;              /* [nqs] cluster of each quasi-static unknown (point: first elem) */
  unsigned char *cdep;       /* [ncl * nb] blocks a cluster depends on */
  int ncl;
} pattern;


/* block of point i: its own state, or the block of the rigid wing it rides on */
static int point_block(const awe_model *m, const awe_work *w, const pattern *p, int i) {
  if (w->point_x[i] >= 0) return p->blk_of_x[w->point_x[i]];
  if (w->point_slave[i] && w->wing_x[m->point_wing[i]] >= 0)
    return p->blk_of_x[w->wing_x[m->point_wing[i]]];
  if (m->point_body[i] >= 0 && w->body_x[m->point_body[i]] >= 0)
    return p->blk_of_x[w->body_x[m->point_body[i]]]; /* rides a body (body.h) */
  return -1;
}


/* component key of a state variable: a rigid wing and its groups form one block */
static void var_key(const awe_model *m, const awe_var *v, const char **g, int *c) {
  *g = v->group;
  *c = v->comp_index;
  if (!strcmp(v->group, "groups")) {
    *g = "wings";
    *c = m->group_wing[v->comp_index];
  }
}


/* union-find over the quasi-static unknowns */
static int uf_find(int *par, int a) {
  while (par[a] != a) {
    par[a] = par[par[a]];
    a = par[a];
  }
  return a;
}


static void uf_union(int *par, int a, int b) {
  a = uf_find(par, a);
  b = uf_find(par, b);
  if (a != b) par[a < b ? b : a] = a < b ? a : b;
}


/* mark in row[] the blocks segment s depends on, skipping quasi-static cluster `skip` */
static void seg_deps(const awe_model *m, const awe_work *w, const pattern *p, int s,
                     unsigned char *row, int skip) {
  for (int e = 0; e < 2; e++) {
    int i = m->segment_p[2 * s + e];
    int b = point_block(m, w, p, i);
    if (b >= 0) row[b] = 1;
    if (w->point_qs[i] >= 0) {
      int c = p->cluster[w->point_qs[i]];
      if (c != skip)
        for (int k = 0; k < p->nb; k++) row[k] |= p->cdep[(size_t)c * (size_t)p->nb + (size_t)k];
    }
  }
  int t = m->segment_tether[s];
  if (t >= 0 && w->tether_x[t] >= 0) row[p->blk_of_x[w->tether_x[t]]] = 1;
  /* a reeling tether's damper reads the winch speed (d l0/dt = v / n, segment.h) */
  if (t >= 0 && w->tether_x[t] >= 0 && m->tether_winch[t] >= 0 &&
      w->winch_x[m->tether_winch[t]] >= 0 && !m->winch_endpoint_damping[m->tether_winch[t]])
    row[p->blk_of_x[w->winch_x[m->tether_winch[t]]]] = 1;
  int pu = m->segment_pulley[s];
  if (pu >= 0 && w->pulley_x[pu] >= 0) row[p->blk_of_x[w->pulley_x[pu]]] = 1;
  /* a KCU tape's rest length follows the motor positions */
  if (m->has_kcu)
    for (int j = 0; j < 3; j++)
      if (m->kcu_seg[j] == s && w->kcu_x[j > 0] >= 0) row[p->blk_of_x[w->kcu_x[j > 0]]] = 1;
  if (pu >= 0 && w->pulley_qs[pu] >= 0) {
    int c = p->cluster[w->pulley_qs[pu]];
    if (c != skip)
      for (int k = 0; k < p->nb; k++) row[k] |= p->cdep[(size_t)c * (size_t)p->nb + (size_t)k];
  }
}


static int build_pattern(const awe_model *m, const awe_work *w, pattern *p, awe_err *err) {
  int n = w->nx;
  memset(p, 0, sizeof(*p));
  p->blk_of_x = malloc(sizeof(int) * (size_t)(n + 1));
  p->blk_adr = malloc(sizeof(int) * (size_t)(n + 1));
  p->blk_size = malloc(sizeof(int) * (size_t)(n + 1));
  if (!p->blk_of_x || !p->blk_adr || !p->blk_size) return -1;
  /* blocks = registry variables of a component: pos+vel of a point, len+vel of a pulley */
  const awe_varlist *x = &m->reg.state;
  for (int k = 0; k < x->n; k++) {
    const awe_var *v = &x->v[k];
    int joined = p->nb > 0 && (!strcmp(v->var, "vel")) && k > 0 &&
                 x->v[k - 1].comp_index == v->comp_index && !strcmp(x->v[k - 1].group, v->group) &&
                 strcmp(v->group, "winches") != 0;
    if (k > 0 && p->nb > 0) {
      const char *g0, *g1;
      int c0, c1;
      var_key(m, &x->v[k - 1], &g0, &c0);
      var_key(m, v, &g1, &c1);
      if (!strcmp(g1, "wings") && !strcmp(g0, "wings") && c0 == c1) joined = 1;
      if (!strcmp(g1, "bodies") && !strcmp(g0, "bodies") && c0 == c1) joined = 1;
    }
    if (!joined) {
      p->blk_adr[p->nb] = v->offset;
      p->blk_size[p->nb] = 0;
      p->nb++;
    }
    for (int j = 0; j < v->dim; j++) p->blk_of_x[v->offset + j] = p->nb - 1;
    p->blk_size[p->nb - 1] += v->dim;
  }
  int nb = p->nb;
  /* dep is dense, nb^2 bytes (5 GB at 100000 tether segments): asked of the budget first */
  char what[160];
  snprintf(what, sizeof(what), "the Jacobian's block pattern (%d blocks of %d states)", nb, n);
  if (awe_mem_check((double)nb * (double)nb, what, err)) return -1;
  p->dep = calloc((size_t)nb * (size_t)nb + 1, 1);
  if (!p->dep) return -1;

  /* quasi-static clusters */
  int nqs = w->nqs;
  if (nqs > 0) {
    int *par = malloc(sizeof(int) * (size_t)nqs);
    p->cluster = malloc(sizeof(int) * (size_t)nqs);
    if (!par || !p->cluster) {
      free(par);
      return -1;
    }
    for (int k = 0; k < nqs; k++) par[k] = k;
    for (int s = 0; s < m->nsegment; s++) {
      int qa = w->point_qs[m->segment_p[2 * s]], qb = w->point_qs[m->segment_p[2 * s + 1]];
      int pu = m->segment_pulley[s];
      int qp = pu >= 0 ? w->pulley_qs[pu] : -1;
      if (qa >= 0 && qb >= 0) uf_union(par, qa, qb);
      if (qp >= 0 && qa >= 0) uf_union(par, qp, qa);
      if (qp >= 0 && qb >= 0) uf_union(par, qp, qb);
    }
    /* number the clusters */
    int *id = malloc(sizeof(int) * (size_t)nqs);
    if (!id) {
      free(par);
      return -1;
    }
    for (int k = 0; k < nqs; k++) id[k] = -1;
    for (int k = 0; k < nqs; k++) {
      int r = uf_find(par, k);
      if (id[r] < 0) id[r] = p->ncl++;
      p->cluster[k] = id[r];
    }
    free(id);
    free(par);
    if (awe_mem_check((double)nb * (double)(nb + p->ncl), what, err)) return -1;
    p->cdep = calloc((size_t)p->ncl * (size_t)nb + 1, 1);
    if (!p->cdep) return -1;
    for (int s = 0; s < m->nsegment; s++) {
      int cl[3] = {-1, -1, -1};
      int qa = w->point_qs[m->segment_p[2 * s]], qb = w->point_qs[m->segment_p[2 * s + 1]];
      int pu = m->segment_pulley[s];
      if (qa >= 0) cl[0] = p->cluster[qa];
      if (qb >= 0) cl[1] = p->cluster[qb];
      if (pu >= 0 && w->pulley_qs[pu] >= 0) cl[2] = p->cluster[w->pulley_qs[pu]];
      for (int e = 0; e < 3; e++)
        if (cl[e] >= 0) seg_deps(m, w, p, s, p->cdep + (size_t)cl[e] * (size_t)nb, cl[e]);
    }
  }

  /* point rows */
  for (int i = 0; i < m->npoint; i++) {
    int r = point_block(m, w, p, i);
    if (r < 0) continue;
    unsigned char *row = p->dep + (size_t)r * (size_t)nb;
    row[r] = 1;
    for (int k = 0; k < w->point_seg_num[i]; k++)
      seg_deps(m, w, p, w->point_segs[w->point_seg_adr[i] + k], row, -1);
    int wi = m->point_wing[i];
    if (wi >= 0) {
      /* body-frame damping and particle-wing aerodynamics follow the wing's origin and frame */
      for (int k = 0; k < m->wing_origin_num[wi]; k++) {
        int b = point_block(m, w, p, m->wing_origin_pts[m->wing_origin_adr[wi] + k]);
        if (b >= 0) row[b] = 1;
      }
      for (int set = 0; set < 4; set++)
        for (int k = 0; k < m->wing_ref_num[4 * wi + set]; k++) {
          int b = point_block(m, w, p, m->wing_ref_pts[m->wing_ref_adr[4 * wi + set] + k]);
          if (b >= 0) row[b] = 1;
        }
    }
  }
  /* body rows: the body itself and, through each tube, the body at its other end */
  for (int i = 0; i < m->ntube; i++) {
    int xa = w->body_x[m->tube_body[2 * i]], xb = w->body_x[m->tube_body[2 * i + 1]];
    int ba = xa >= 0 ? p->blk_of_x[xa] : -1, bb = xb >= 0 ? p->blk_of_x[xb] : -1;
    if (ba >= 0 && bb >= 0) {
      p->dep[(size_t)ba * (size_t)nb + (size_t)bb] = 1;
      p->dep[(size_t)bb * (size_t)nb + (size_t)ba] = 1;
    }
  }
  for (int j = 0; j < m->nbody; j++)
    if (w->body_x[j] >= 0) {
      int r = p->blk_of_x[w->body_x[j]];
      unsigned char *row = p->dep + (size_t)r * (size_t)nb;
      row[r] = 1;
      /* the forces on its riding points */
      for (int k = 0; k < m->body_point_num[j]; k++) {
        int i = m->body_points[m->body_point_adr[j] + k];
        for (int e = 0; e < w->point_seg_num[i]; e++)
          seg_deps(m, w, p, w->point_segs[w->point_seg_adr[i] + e], row, -1);
      }
    }
  /* tether rows: d len/dt = winch speed */
  for (int t = 0; t < m->ntether; t++) {
    if (w->tether_x[t] < 0) continue;
    int r = p->blk_of_x[w->tether_x[t]], wi = m->tether_winch[t];
    if (wi >= 0 && w->winch_x[wi] >= 0) p->dep[(size_t)r * (size_t)nb + (size_t)p->blk_of_x[w->winch_x[wi]]] = 1;
  }
  /* winch rows: own speed, and the segments at the winch point */
  for (int wi = 0; wi < m->nwinch; wi++) {
    if (w->winch_x[wi] < 0) continue;
    int r = p->blk_of_x[w->winch_x[wi]];
    unsigned char *row = p->dep + (size_t)r * (size_t)nb;
    row[r] = 1;
    for (int k = 0; k < m->winch_tether_num[wi]; k++) {
      int t = m->winch_tethers[m->winch_tether_adr[wi] + k];
      for (int j = 0; j < m->tether_seg_num[t]; j++) {
        int s = m->tether_segs[m->tether_seg_adr[t] + j];
        if (m->segment_p[2 * s] == m->winch_point[wi] ||
            m->segment_p[2 * s + 1] == m->winch_point[wi])
          seg_deps(m, w, p, s, row, -1);
      }
    }
  }
  /* KCU rows: each motor follows its own position (and its input) */
  for (int j = 0; j < 2 && m->has_kcu; j++) {
    if (w->kcu_x[j] < 0) continue;
    int r = p->blk_of_x[w->kcu_x[j]];
    p->dep[(size_t)r * (size_t)nb + (size_t)r] = 1;
  }
  /* Wagner lag rows (engine/unsteady.h): its own states and the wing's apparent wind (a rigid
   * wing's block; a particle wing's origin, reference and WING points); the wing's loads depend
   * on the lag (the rigid wing's block; a particle wing's WING points) */
  for (int j = 0; j < m->nwing; j++) {
    if (w->wing_wag_x[j] < 0) continue;
    int r = p->blk_of_x[w->wing_wag_x[j]];
    unsigned char *row = p->dep + (size_t)r * (size_t)nb;
    row[r] = 1;
    if (w->wing_x[j] >= 0) {
      int b = p->blk_of_x[w->wing_x[j]];
      row[b] = 1;
      p->dep[(size_t)b * (size_t)nb + (size_t)r] = 1;
      continue;
    }
    for (int k = 0; k < m->wing_origin_num[j]; k++) {
      int b = point_block(m, w, p, m->wing_origin_pts[m->wing_origin_adr[j] + k]);
      if (b >= 0) row[b] = 1;
    }
    for (int set = 0; set < 4; set++)
      for (int k = 0; k < m->wing_ref_num[4 * j + set]; k++) {
        int b = point_block(m, w, p, m->wing_ref_pts[m->wing_ref_adr[4 * j + set] + k]);
        if (b >= 0) row[b] = 1;
      }
    for (int i = 0; i < m->npoint; i++) {
      if (m->point_wing[i] != j || m->point_type[i] != AWE_PT_WING) continue;
      int b = point_block(m, w, p, i);
      if (b < 0) continue;
      p->dep[(size_t)b * (size_t)nb + (size_t)r] = 1;
      row[b] = 1; /* the lag's inflow: the mean apparent wind over the WING points */
    }
  }
  /* pulley rows */
  for (int pu = 0; pu < m->npulley; pu++) {
    if (w->pulley_x[pu] < 0) continue;
    int r = p->blk_of_x[w->pulley_x[pu]];
    unsigned char *row = p->dep + (size_t)r * (size_t)nb;
    row[r] = 1;
    seg_deps(m, w, p, m->pulley_seg[2 * pu], row, -1);
    seg_deps(m, w, p, m->pulley_seg[2 * pu + 1], row, -1);
  }
  return 0;
}


static void free_pattern(pattern *p) {
  free(p->blk_of_x);
  free(p->blk_adr);
  free(p->blk_size);
  free(p->dep);
  free(p->cluster);
  free(p->cdep);
}


/* colours on the pattern (jac_color.h) of the columns not in skip (NULL: all), columns per
 * colour (CSR, in column order; skipped columns are left out) */
static int color_columns(awe_integrator *it, int n, const unsigned char *skip) {
  int *color = malloc(sizeof(int) * (size_t)(n + 1));
  int *num = calloc((size_t)(n + 1), sizeof(int));
  if (!color || !num) {
    free(color);
    free(num);
    return -1;
  }
  for (int j = 0; j < n; j++) num[j] = skip && skip[j] ? 0 : it->col_row_num[j];
  int ncolor = awe_color_columns(n, it->col_row_adr, num, it->col_rows, color);
  free(num);
  if (ncolor < 0) {
    free(color);
    return -1;
  }
  for (int c = 0; c <= n; c++) it->color_num[c] = 0;
  for (int j = 0; j < n; j++)
    if (!(skip && skip[j])) it->color_num[color[j]]++;
  int adr = 0, nc = 0;
  for (int c = 0; c < ncolor; c++) {
    it->color_adr[c] = adr;
    adr += it->color_num[c];
    it->color_num[c] = 0;
  }
  for (int j = 0; j < n; j++)
    if (!(skip && skip[j])) it->color_cols[it->color_adr[color[j]] + it->color_num[color[j]]++] = j;
  for (int c = 0; c < ncolor; c++)
    if (it->color_num[c] > 0) { /* drop colours left empty */
      it->color_adr[nc] = it->color_adr[c];
      it->color_num[nc++] = it->color_num[c];
    }
  it->ncolor = nc;
  free(color);
  return 0;
}


/* the Jacobian pattern by columns and its colouring (jac_color.h) */
static int build_coloring(awe_integrator *it, const awe_model *m, const awe_work *w,
                          awe_err *err) {
  pattern p;
  int n = w->nx, rc = -1;
  int *color = NULL, *vel_of = NULL, *brow = NULL;
  size_t *badr = NULL;
  if (build_pattern(m, w, &p, err)) goto out;
  int nb = p.nb;
  color = malloc(sizeof(int) * (size_t)(n + 1));
  it->col_row_adr = malloc(sizeof(int) * (size_t)(n + 1));
  it->col_row_num = calloc((size_t)(n + 1), sizeof(int));
  it->color_adr = malloc(sizeof(int) * (size_t)(n + 1));
  it->color_num = calloc((size_t)(n + 1), sizeof(int));
  it->color_cols = malloc(sizeof(int) * (size_t)(n + 1));
  if (!color || !it->col_row_adr || !it->col_row_num || !it->color_adr ||
      !it->color_num || !it->color_cols)
    goto out;
  /* rows depending on each column; a point's position rows (d pos/dt = vel, copied in
   * rhs.c) depend on its own velocity only, whatever its block depends on */
  vel_of = malloc(sizeof(int) * (size_t)(n + 1));
  if (!vel_of) goto out;
  for (int i = 0; i < n; i++) vel_of[i] = -1;
  for (int i = 0; i < m->npoint; i++)
    if (w->point_x[i] >= 0)
      for (int e = 0; e < 3; e++) vel_of[w->point_x[i] + e] = w->point_x[i] + 3 + e;
  /* the block rows of each block column, read off the dense pattern once (nb^2; scanning it
   * per state column was n nb, minutes at 100000 tether segments), rows ascending */
  badr = calloc((size_t)nb + 2, sizeof(size_t));
  if (!badr) goto out;
  size_t nblk = 0;
  for (size_t r = 0; r < (size_t)nb; r++) {
    const unsigned char *row = p.dep + r * (size_t)nb;
    for (size_t c = 0; c < (size_t)nb; c++) badr[c + 2] += row[c] != 0;
  }
  for (size_t c = 0; c < (size_t)nb; c++) badr[c + 2] += badr[c + 1];
  nblk = badr[nb + 1];
  brow = malloc(sizeof(int) * (nblk + 1));
  if (!brow) goto out;
  for (size_t r = 0; r < (size_t)nb; r++) {
    const unsigned char *row = p.dep + r * (size_t)nb;
    for (size_t c = 0; c < (size_t)nb; c++)
      if (row[c]) brow[badr[c + 1]++] = (int)r;
  }
  /* now badr[c] .. badr[c + 1] are block column c's rows */
  size_t nnz = 0;
  for (int j = 0; j < n; j++) {
    int bj = p.blk_of_x[j];
    for (size_t q = badr[bj]; q < badr[bj + 1]; q++) nnz += (size_t)p.blk_size[brow[q]];
  }
  if (nnz > (size_t)INT_MAX - 1) goto out; /* the column arrays hold int offsets */
  it->col_rows = malloc(sizeof(int) * (nnz + 1));
  if (!it->col_rows) goto out;
  int k = 0;
  for (int j = 0; j < n; j++) {
    int bj = p.blk_of_x[j];
    it->col_row_adr[j] = k;
    for (size_t q = badr[bj]; q < badr[bj + 1]; q++) {
      int r = brow[q];
        for (int e = 0; e < p.blk_size[r]; e++) {
          int i = p.blk_adr[r] + e;
          if (vel_of[i] < 0 || vel_of[i] == j) it->col_rows[k++] = i;
        }
    }
    it->col_row_num[j] = k - it->col_row_adr[j];
  }
  if (color_columns(it, n, NULL)) goto out;
  rc = 0;
out:
  free(color);
  free(vel_of);
  free(badr);
  free(brow);
  free_pattern(&p);
  return rc;
}


int awe_integrator_analytic_columns(const awe_integrator *it) { return awe_jac_an_count(it->an); }


const unsigned char *awe_integrator_analytic_mask(const awe_integrator *it) {
  return it->an ? awe_jac_an_mask(it->an) : NULL;
}


/* the coloured finite-difference columns at (t, y), it->f0 = f(t, y): into the dense
 * row-major dfdy, or (dfdy NULL) into jval on the pattern */
static int fd_columns(awe_integrator *it, double t, const double y[], double *dfdy,
                      double *jval) {
  int n = it->n;
  memcpy(it->yp, y, sizeof(double) * (size_t)n);
  const double sq = sqrt(DBL_EPSILON);
  for (int c = 0; c < it->ncolor; c++) {
    const int *cols = it->color_cols + it->color_adr[c];
    int nc = it->color_num[c];
    for (int k = 0; k < nc; k++) {
      int j = cols[k];
      double h = sq * (fabs(y[j]) > 1.0 ? fabs(y[j]) : 1.0);
      it->yp[j] = y[j] + h;
    }
    int st = awe_rhs(t, it->yp, it->f1, it->ctx);
    if (st != GSL_SUCCESS) return st;
    for (int k = 0; k < nc; k++) {
      int j = cols[k];
      double inv_h = 1.0 / (it->yp[j] - y[j]); /* the step actually taken */
      const int *rows = it->col_rows + it->col_row_adr[j];
      for (int e = 0; e < it->col_row_num[j]; e++) {
        double v = (it->f1[rows[e]] - it->f0[rows[e]]) * inv_h;
        if (dfdy)
          dfdy[rows[e] * n + j] = v;
        else
          jval[it->col_row_adr[j] + e] = v;
      }
      it->yp[j] = y[j];
    }
  }
  return GSL_SUCCESS;
}


int awe_jacobian_fd(double t, const double y[], double *dfdy, double dfdt[], void *params) {
  awe_integrator *it = params;
  awe_ctx *ctx = it->ctx;
  int n = it->n;
  ctx->w->stats.jac++;
  int st = awe_rhs(t, y, it->f0, ctx);
  if (st != GSL_SUCCESS) return st;
  memset(dfdy, 0, sizeof(double) * (size_t)n * (size_t)n);
  awe_jac_an_dense(it->an, ctx, dfdy); /* the workspace holds (t, y) */
  st = fd_columns(it, t, y, dfdy, NULL);
  if (st != GSL_SUCCESS) return st;
  const double sq = sqrt(DBL_EPSILON);
  /* df/dt: only the scheduled inputs and ramped controller outputs depend on t explicitly
   * (backward difference, so an interval that ends on a breakpoint is not differenced
   * across it) */
  if (ctx->nsig > 0 || ctx->add_from) {
    double h = sq * (fabs(t) > 1.0 ? fabs(t) : 1.0);
    double tb = t - h;
    if (tb < ctx->t_lo) tb = t + h;
    st = awe_rhs(tb, y, it->f1, ctx);
    if (st != GSL_SUCCESS) return st;
    double inv = 1.0 / (t - tb);
    for (int i = 0; i < n; i++) dfdt[i] = (it->f0[i] - it->f1[i]) * inv;
  } else {
    memset(dfdt, 0, sizeof(double) * (size_t)n);
  }
  return GSL_SUCCESS;
}


void awe_integrator_pattern(const awe_integrator *it, const int **adr, const int **num,
                            const int **rows) {
  *adr = it->col_row_adr;
  *num = it->col_row_num;
  *rows = it->col_rows;
}


int awe_jacobian_sparse(awe_integrator *it, double t, const double y[], double *jval) {
  awe_ctx *ctx = it->ctx;
  ctx->w->stats.jac++;
  int st = awe_rhs(t, y, it->f0, ctx);
  if (st != GSL_SUCCESS) return st;
  awe_jac_an_pattern(it->an, ctx, jval); /* the workspace holds (t, y) */
  return fd_columns(it, t, y, NULL, jval);
}


static int jac_wrapper(double t, const double y[], double *dfdy, double dfdt[], void *params);
static int rhs_wrapper(double t, const double y[], double dydt[], void *params);


/* the GSL system's params is the integrator (the Jacobian needs it); the rhs forwards. A
 * tripped guard (a signal, the wall-time limit) stops the stepper at once: GSL passes
 * GSL_EBADFUNC from the function straight up through every stepper and evolve_apply. */
static int rhs_wrapper(double t, const double y[], double dydt[], void *params) {
  awe_integrator *it = params;
  if (it->guard && awe_guard_poll(it->guard, t, 0)) return AWE_INTEG_GUARD;
  return awe_rhs(t, y, dydt, it->ctx);
}


static int jac_wrapper(double t, const double y[], double *dfdy, double dfdt[], void *params) {
  awe_integrator *it = params;
  if (it->guard && awe_guard_poll(it->guard, t, 0)) return AWE_INTEG_GUARD;
  return awe_jacobian_fd(t, y, dfdy, dfdt, params);
}


/* trbdf2's co-rotation: the frames of the particle wings at state y */
static void trbdf2_frame(void *params, const double *y, double *R) {
  awe_integrator *it = params;
  const awe_model *m = it->ctx->m;
  const awe_work *w = it->ctx->w;
  for (int i = 0; i < m->npoint; i++)
    if (w->point_x[i] >= 0) memcpy(it->fpos + 3 * i, y + w->point_x[i], 3 * sizeof(double));
  for (int f = 0; f < it->nframe; f++) awe_wing_frame_at(m, it->frame_wing[f], it->fpos, R + 9 * f);
}


/* the frames that co-rotate trbdf2's Newton: one per particle wing, turning the positions and
 * velocities of the points of that wing (its WING points, bridle and kcu: every point with a
 * state that names the wing and is not inside a tether) */
static int build_frames(awe_integrator *it, const awe_model *m, const awe_work *w) {
  int nf = 0;
  for (int j = 0; j < m->nwing; j++) nf += w->wing_x[j] < 0;
  if (nf == 0) return 0;
  unsigned char *inner = calloc((size_t)m->npoint + 1, 1);
  it->frame_wing = malloc(sizeof(int) * (size_t)nf);
  it->rot_adr = malloc(sizeof(int) * (size_t)nf);
  it->rot_num = malloc(sizeof(int) * (size_t)nf);
  it->rot_idx = malloc(sizeof(int) * (2 * (size_t)m->npoint + 1));
  it->fpos = malloc(sizeof(double) * (3 * (size_t)m->npoint + 1));
  if (!inner || !it->frame_wing || !it->rot_adr || !it->rot_num || !it->rot_idx || !it->fpos) {
    free(inner);
    return -1;
  }
  memcpy(it->fpos, m->point_pos0, sizeof(double) * 3 * (size_t)m->npoint);
  for (int s = 0; s < m->nsegment; s++) {
    int t = m->segment_tether[s];
    if (t < 0) continue;
    for (int e = 0; e < 2; e++) {
      int p = m->segment_p[2 * s + e];
      if (p != m->tether_start[t] && p != m->tether_end[t]) inner[p] = 1;
    }
  }
  int nb = 0;
  for (int j = 0; j < m->nwing; j++) {
    if (w->wing_x[j] >= 0) continue;
    int f = it->nframe++;
    it->frame_wing[f] = j;
    it->rot_adr[f] = nb;
    for (int p = 0; p < m->npoint; p++) {
      if (w->point_x[p] < 0 || m->point_wing[p] != j || inner[p]) continue;
      it->rot_idx[nb++] = w->point_x[p];
      it->rot_idx[nb++] = w->point_x[p] + 3;
    }
    it->rot_num[f] = nb - it->rot_adr[f];
  }
  free(inner);
  return 0;
}


/* trbdf2's analytic columns: the workspace at (t, y), then jacobian.h */
static int trbdf2_jac(void *params, double t, const double *y, double *jval) {
  awe_integrator *it = params;
  int st = awe_rhs(t, y, it->f1, it->ctx);
  if (st != GSL_SUCCESS) return st;
  awe_jac_an_pattern(it->an, it->ctx, jval);
  return GSL_SUCCESS;
}


/* A developer's measurement, not a user option (docs/speed.md, "The floor"): the states whose
 * names contain one of the comma-separated parts of AWESIM_DEV_ERROR_EXCLUDE are left out of
 * the error test (GSL's scaled control, their absolute tolerance times 1e9), to count the steps
 * the others need. Says so on stderr: a run with it is not a result. */
static int dev_error_exclude(awe_integrator *it, const awe_model *m, int n, double abs_tol,
                             double rel_tol) {
  const char *spec = getenv("AWESIM_DEV_ERROR_EXCLUDE");
  double *sc = malloc(sizeof(double) * ((size_t)n + 1));
  if (!sc) return -1;
  int nx = 0;
  for (int i = 0; i < n; i++) {
    char name[256], list[512];
    awe_state_name(m, i, name, sizeof(name));
    snprintf(list, sizeof(list), "%s", spec);
    sc[i] = 1.0;
    char *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
      if (*tok && strstr(name, tok)) {
        sc[i] = 1e9;
        nx++;
        break;
      }
  }
  fprintf(stderr, "awesim: AWESIM_DEV_ERROR_EXCLUDE='%s': %d of %d states are out of the error "
          "test (a measurement of the step count, not a result)\n", spec, nx, n);
  gsl_odeiv2_control *c = gsl_odeiv2_control_scaled_new(abs_tol, rel_tol, 1.0, 0.0, sc,
                                                        (size_t)n);
  free(sc);
  if (!c) return -1;
  gsl_odeiv2_control_free(it->d->c);
  it->d->c = c;
  gsl_odeiv2_control_set_driver(c, it->d);
  return 0;
}


awe_integrator *awe_integrator_alloc(awe_ctx *ctx, const char *solver, double h0, double abs_tol,
                                     double rel_tol, double hmax, awe_err *err) {
  const stepper_entry *st = find_stepper(solver);
  if (!st) {
    awe_err_set(err, AWE_EINVAL, "unknown solver '%s' (valid: %s)", solver, awe_solver_names());
    return NULL;
  }
  awe_integrator *it = calloc(1, sizeof(*it));
  if (!it) goto oom;
  it->ctx = ctx;
  it->st = st;
  it->n = ctx->w->nx;
  for (int j = 0; j < ctx->m->nwing; j++) it->nquat += ctx->w->wing_x[j] >= 0;
  for (int j = 0; j < ctx->m->nbody; j++) it->nquat += ctx->w->body_x[j] >= 0;
  it->multistep = !strcmp(st->name, "msbdf") || !strcmp(st->name, "msadams");
  int n = it->n;
  it->yp = calloc((size_t)n + 1, sizeof(double));
  it->f0 = calloc((size_t)n + 1, sizeof(double));
  it->f1 = calloc((size_t)n + 1, sizeof(double));
  it->xmax = calloc((size_t)n + 1, sizeof(double));
  if (!it->yp || !it->f0 || !it->f1 || !it->xmax) goto oom;
  awe_guard_bounds(ctx->m, it->xmax);
  it->atol = abs_tol;
  it->rtol = rel_tol;
  awe_err perr = {0};
  if (build_coloring(it, ctx->m, ctx->w, &perr)) {
    if (!perr.msg[0]) goto oom;
    awe_integrator_free(it); /* over the memory budget: its message, not "out of memory" */
    if (err) *err = perr;
    return NULL;
  }
  if (!ctx->m->opt.jacobian_fd) {
    it->an = awe_jac_an_alloc(ctx->m, ctx->w, n, it->col_row_adr, it->col_row_num, it->col_rows);
    if (!it->an || color_columns(it, n, awe_jac_an_mask(it->an))) goto oom;
  }
  if (n == 0) return it; /* nothing moves: awe_integrator_apply just advances t */
  it->sys.function = rhs_wrapper;
  it->sys.jacobian = st->implicit ? jac_wrapper : NULL;
  it->sys.dimension = (size_t)n;
  it->sys.params = it;
  it->d = gsl_odeiv2_driver_alloc_y_new(&it->sys, *st->type, h0, abs_tol, rel_tol);
  if (!it->d) goto oom;
  if (hmax > 0.0) gsl_odeiv2_driver_set_hmax(it->d, hmax);
  if (getenv("AWESIM_DEV_ERROR_EXCLUDE") && dev_error_exclude(it, ctx->m, n, abs_tol, rel_tol))
    goto oom;
  int rosw = *st->type == awe_step_ros34pw2;
  if (*st->type == awe_step_trbdf2 || rosw) {
    /* the stepper builds its sparse Jacobian itself, on the topology's pattern */
    awe_jac_pattern pat = {.n = n, .col_adr = it->col_row_adr, .col_num = it->col_row_num,
                           .rows = it->col_rows, .njac = &ctx->w->stats.jac,
                           .nfact = &ctx->w->stats.lu, .nsolve = &ctx->w->stats.lu_solves,
                           .nnewton_tr = &ctx->w->stats.newton_tr,
                           .nnewton_bdf = &ctx->w->stats.newton_bdf,
                           .nnewton_fail = &ctx->w->stats.newton_fail};
    if (awe_jac_an_count(it->an) > 0) {
      pat.analytic = awe_jac_an_mask(it->an);
      pat.jac = trbdf2_jac;
      pat.jac_ctx = it;
    }
    /* Newton's matrix turns with the particle wings (step_trbdf2.h) */
    if (build_frames(it, ctx->m, ctx->w)) goto oom;
    if (it->nframe > 0) {
      pat.nframe = it->nframe;
      pat.rot_adr = it->rot_adr;
      pat.rot_num = it->rot_num;
      pat.rot_idx = it->rot_idx;
      pat.frame = trbdf2_frame;
      pat.frame_ctx = it;
    }
    if ((rosw ? awe_rosw_set_pattern : awe_trbdf2_set_pattern)(it->d->s, &pat) != GSL_SUCCESS)
      goto oom;
  }
  return it;
oom:
  awe_integrator_free(it);
  awe_err_set(err, AWE_ENOMEM, "out of memory (integrator)");
  return NULL;
}


void awe_integrator_free(awe_integrator *it) {
  if (!it) return;
  if (it->d) gsl_odeiv2_driver_free(it->d);
  free(it->color_adr);
  free(it->color_num);
  free(it->color_cols);
  free(it->col_row_adr);
  free(it->col_row_num);
  free(it->col_rows);
  awe_jac_an_free(it->an);
  free(it->yp);
  free(it->f0);
  free(it->f1);
  free(it->xmax);
  free(it->frame_wing);
  free(it->rot_adr);
  free(it->rot_num);
  free(it->rot_idx);
  free(it->fpos);
  free(it);
}


/* add the evolve counters to the statistics */
static void collect(awe_integrator *it) {
  if (!it->d) return;
  awe_stats *s = &it->ctx->w->stats;
  s->steps += it->d->e->count - it->count0;
  s->rejected += it->d->e->failed_steps - it->failed0;
  it->count0 = it->d->e->count;
  it->failed0 = it->d->e->failed_steps;
}


void awe_integrator_reset(awe_integrator *it) {
  if (!it->d) return;
  collect(it);
  gsl_odeiv2_driver_reset(it->d);
  it->count0 = it->failed0 = 0;
}


void awe_integrator_set_guard(awe_integrator *it, awe_guard *g) { it->guard = g; }


void awe_integrator_set_post(awe_integrator *it, int (*fn)(void *, double, const double *),
                             void *ctx) {
  it->post = fn;
  it->post_ctx = ctx;
}


int awe_integrator_limiting_state(const awe_integrator *it, const double *y) {
  if (!it->d) return -1;
  const double *e = it->d->e->yerr;
  double best = -1.0;
  int k = -1;
  for (int i = 0; i < it->n; i++) {
    double r = fabs(e[i]) / (it->atol + it->rtol * fabs(y[i]));
    if (r > best && isfinite(r)) {
      best = r;
      k = i;
    }
  }
  return k;
}


/* the variable holding scalar state k */
static const awe_var *state_var(const awe_model *m, int k) {
  const awe_varlist *x = &m->reg.state;
  for (int i = 0; i < x->n; i++)
    if (k >= x->v[i].offset && k < x->v[i].offset + x->v[i].dim) return &x->v[i];
  return NULL;
}


/* trip the guard (not NULL) for a step below the floor (or a stepper that gave up) */
static void trip_step_size(awe_integrator *it, double t, double h, const double *y, int gave_up) {
  char name[256] = "", what[400] = "";
  int k = awe_integrator_limiting_state(it, y);
  if (k >= 0) {
    awe_state_name(it->ctx->m, k, name, sizeof(name));
    snprintf(what, sizeof(what), "; the step is limited by %s = %.6g", name, y[k]);
  }
  awe_guard *g = it->guard;
  const char *phase = awe_guard_phase_text(g->phase);
  if (gave_up)
    awe_guard_trip(g, AWE_GUARD_STEP_SIZE,
                   "step size underflow at t=%.6g s (h=%.2g): stepper %s cannot meet the "
                   "tolerances even at the smallest step, in %s: the system is unstable or too "
                   "stiff for %s at these tolerances%s",
                   t, h, it->st->name, phase, it->st->name, what);
  else
    awe_guard_trip(g, AWE_GUARD_STEP_SIZE,
                   "step size underflow at t=%.6g s (h=%.2g, floor %.2g) in %s: the system is "
                   "unstable or too stiff for %s at these tolerances%s",
                   t, h, awe_guard_step_floor(g, t), phase, it->st->name, what);
}


/* after an accepted step from t0 to *t (< t1: not the last one): floor, step limit, bounds */
static int check_step(awe_integrator *it, double t0, double t, double t1, const double *y) {
  awe_guard *g = it->guard;
  if (!g) return 0;
  if (awe_guard_poll(g, t, 0)) return 1;
  double floor = awe_guard_step_floor(g, t), taken = t - t0;
  if (t < t1 && (taken < floor || fabs(it->d->h) < floor)) {
    trip_step_size(it, t, taken < fabs(it->d->h) ? taken : fabs(it->d->h), y, 0);
    return 1;
  }
  const awe_stats *s = &it->ctx->w->stats;
  if (g->max_steps > 0.0 && (double)(s->steps + s->rejected) > g->max_steps) {
    awe_guard_trip(g, AWE_GUARD_STEPS,
                   "step limit run.max_steps = %.0f reached at t = %.9g s in %s (%lu accepted, "
                   "%lu rejected steps)", g->max_steps, t, awe_guard_phase_text(g->phase),
                   s->steps, s->rejected);
    return 1;
  }
  for (int i = 0; i < it->n; i++) {
    if (fabs(y[i]) <= it->xmax[i] || !isfinite(y[i])) continue; /* non-finite: the caller */
    char name[256];
    const awe_var *v = state_var(it->ctx->m, i);
    awe_state_name(it->ctx->m, i, name, sizeof(name));
    awe_guard_trip(g, AWE_GUARD_RANGE,
                   "t = %.9g s: %s = %.6g %s is beyond the physically possible range "
                   "(|%s| <= %.6g %s: %s) in %s: the run diverged (the system is unstable, or "
                   "the solver %s at these tolerances cannot follow it)",
                   t, name, y[i], v ? v->unit : "", name, it->xmax[i], v ? v->unit : "",
                   v && !strcmp(v->unit, "m/s") ? "10 x the speed of sound"
                                                : "1000 x the model's size",
                   awe_guard_phase_text(g->phase), it->st->name);
    return 1;
  }
  return 0;
}


int awe_integrator_apply(awe_integrator *it, double *t, double t1, double y[]) {
  if (!it->d) {
    *t = t1;
    return GSL_SUCCESS;
  }
  /* gsl_odeiv2_driver_apply, except that a sliver left by rounding (t + h lands an ulp short
   * of t1 when h = hmax = t1 - t) is absorbed instead of being stepped: the implicit steppers'
   * Newton test fails on a 1e-17 s step (their corrections are pure rounding noise) */
  gsl_odeiv2_driver *d = it->d;
  int st = GSL_SUCCESS;
  while (*t < t1) {
    double sliver = 1e-12 * (fabs(t1) > 1.0 ? fabs(t1) : 1.0);
    if (t1 - *t <= sliver) {
      *t = t1;
      break;
    }
    double t0 = *t;
    st = gsl_odeiv2_evolve_apply(d->e, d->c, d->s, d->sys, t, t1, &d->h, y);
    collect(it);
    if (st == AWE_INTEG_GUARD) {
      /* a stop from inside: evolve must be reset before it is used again (GSL manual); its
       * counters restart at 0, and so do the marks collect() counts from (else the final
       * collect below would take back every step counted so far) */
      gsl_odeiv2_evolve_reset(d->e);
      it->count0 = it->failed0 = 0;
      break;
    }
    if (st == GSL_FAILURE) {
      /* GSL gives up when a step that fails its error test cannot shrink any further */
      if (it->guard) {
        trip_step_size(it, *t, d->h, y, 1);
        st = AWE_INTEG_GUARD;
      }
      break;
    }
    if (st != GSL_SUCCESS) break;
    if (check_step(it, t0, *t, t1, y)) {
      st = AWE_INTEG_GUARD;
      break;
    }
    if (it->nquat) {
      /* unit quaternions: single-step steppers are renormalised after every accepted step;
       * multistep steppers keep a history, so only a drift beyond 1e-6 (the Baumgarte term
       * normally prevents it) is corrected, followed by a restart */
      const awe_model *m = it->ctx->m;
      if (!it->multistep) {
        awe_wing_normalize(m, it->ctx->w, y);
        awe_body_normalize(m, it->ctx->w, y);
      } else {
        double dev = 0.0;
        for (int j = 0; j < m->nwing; j++) {
          int o = it->ctx->w->wing_x[j];
          if (o < 0) continue;
          const double *q = y + o + 6;
          double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
          if (fabs(n - 1.0) > dev) dev = fabs(n - 1.0);
        }
        for (int j = 0; j < m->nbody; j++) {
          int o = it->ctx->w->body_x[j];
          if (o < 0) continue;
          const double *q = y + o + 6;
          double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
          if (fabs(n - 1.0) > dev) dev = fabs(n - 1.0);
        }
        if (dev > 1e-6) {
          awe_wing_normalize(m, it->ctx->w, y);
          awe_body_normalize(m, it->ctx->w, y);
          collect(it);
          gsl_odeiv2_driver_reset(d);
          it->count0 = it->failed0 = 0;
        }
      }
    }
    if (it->post && it->post(it->post_ctx, *t, y)) {
      st = AWE_INTEG_STOP;
      break;
    }
  }
  collect(it);
  return st;
}


const char *awe_integrator_name(const awe_integrator *it) { return it->st->name; }


int awe_integrator_ncolors(const awe_integrator *it) { return it->ncolor; }
