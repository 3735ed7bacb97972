/* aero_coupling.c: frozen VSM models of the wings, refreshed in pre-calculate.
 *
 * Equations and sources: see aero_coupling.h (physics.md §8).
 */
#include "engine/aero_coupling.h"
#include "util/vec3.h"

#include <stdlib.h>
#include <string.h>

#include "engine/atmosphere.h"
#include "engine/wind.h"
#include "aero/vsm.h"

typedef struct {
  awe_vsm_wing *vsm;        /* NULL: no aerodynamics */
  awe_aero_mode mode;       /* effective mode (particle wings: DIRECT) */
  int rigid;
  int nsec, ny;             /* sections, inputs 6 + nsec */
  int *sec_group;           /* [nsec] rigid: group of each section, -1 */
  int *sec_le, *sec_te;     /* [nst] particle: LE/TE point of each structural section */
  /* particle wing on an aero mesh that differs from its structure (fine; aero_coupling.h) */
  int nst;                  /* structural sections (LE/TE point pairs; nsec unless fine) */
  int fine;                 /* the VSM sections are not the structure's LE/TE pairs */
  awe_vsm_section *pat;     /* [nst] fine: the structural sections, body frame, unscaled */
  int *map_k;               /* [2 nsec] fine: the structural patch of each aero LE and TE */
  double *map_sc;           /* [4 nsec] their (s, c) in it */
  double *map_off;          /* [6 nsec] their offset from the patch surface, body frame */
  double *sec_span;         /* [nsec] particle: span coordinate of the CAD sections (body y) */
  awe_vsm_section *sec;     /* [nsec] scratch */
  double *theta;            /* [nsec] scratch */
  /* frozen model */
  int valid;
  double area0;             /* projected area of the VSM geometry [m^2] */
  double area, rho_vsm, lref;  /* reference area [m^2], VSM density, half span [m] */
  double rmax, cref;        /* farthest section point from the origin, reference chord [m] */
  double *y0;               /* [ny] */
  double *C0, *JC;          /* [ny], [ny * ny] linearized coefficients */
  double *yj;               /* [ny] y where JC was computed (kept while y stays near it) */
  int jc_ok;                /* JC may be kept (a linearization succeeded, nothing reset) */
  double *x0, *J;           /* [ny], [ny * ny] scratch of the linearization */
  double F_b[3], M_b[3];    /* direct: frozen loads */
  double *M_sec;            /* [nsec] direct: frozen section moments */
  double *dy;               /* [ny] scratch of the right-hand side */
  int npan;                 /* particle: panels */
  double *pw;               /* [3 npan] the wind at each panel's control point less the wind at
                             * the origin, body frame, at the last refresh (per-panel inflow) */
  int npw;                  /* panels pw holds */
  int *pan_k;               /* [npan] particle: the panel lies between structural sections k, k+1 */
  double *pan_sc;           /* [2 npan] particle: its (s, c) in that patch (warm start) */
  /* particle, linearized: loads over the apparent wind (aero_coupling.h) */
  double *gam0;             /* [npan] the circulation at the refresh (next warm start) */
  int have_gam0;
  double rho0;              /* air density at the origin at the refresh [kg/m^3] */
  double F_da[3], F_db[3];  /* slopes of F_b over alpha and beta [N/rad] */
  double q_slopes;          /* rho V^2 the slopes are scaled to [kg/(m s^2)] */
  awe_vsm_section *sec_j;   /* [nsec] the sections where the slopes were computed */
  double M_da[3], M_db[3];  /* of M_b [N m/rad] */
  /* at the last evaluation (awe_aero_eval): the load factor sq = rho V^2/(rho0 V0^2), the
   * angle offsets, and their slopes over the apparent wind va_b */
  double sq, dal, dbe, dsq[3], ddal[3], ddbe[3];
  /* unsteady (unsteady.h): the Wagner lag's deficiency at the refresh (the polars' shift), where
   * the slopes over it were computed, and its offset at the last evaluation; the slopes: rigid
   * Cd [ny] (coefficients per rad), particle F_dd, M_dd (and a->point_dd) */
  int wagner;
  double d0, dj, ddd;
  double *Cd;
  double F_dd[3], M_dd[3];
  /* apparent mass: SCALE pi c_i^2 w_i / 4 of each panel at build [m^3] (times rho: kg) */
  double *pan_ma;
  double ma_coef;           /* their sum [m^3] */
} aero_wing;

struct awe_aero {
  int nwing;
  aero_wing *wing;
  double jac_tol;           /* run.vsm_jacobian_tol [rad]; 0: linearize at every refresh */
  double max_slope;         /* plausible slope of C_F per rad (AWE_AERO_MAX_SLOPE) */
  double *point_f_b;        /* [3 np] frozen body-frame point forces of particle wings */
  double *point_da, *point_db; /* [3 np] their slopes over alpha and beta (linearized) [N/rad] */
  double *point_dd;         /* [3 np] and over the Wagner deficiency (unsteady.h) [N/rad] */
  double *point_cur_b;      /* [3 np] the point forces of the last evaluation (body frame) */
  double *point_tmp;        /* [3 np] scratch of a perturbed solve */
  awe_aero_stats st;
};


static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }


void awe_aero_free(struct awe_aero *a) {
  if (!a) return;
  for (int j = 0; j < a->nwing; j++) {
    aero_wing *x = &a->wing[j];
    awe_vsm_wing_free(x->vsm);
    free(x->sec_group);
    free(x->sec_le);
    free(x->sec_te);
    free(x->pat);
    free(x->map_k);
    free(x->map_sc);
    free(x->map_off);
    free(x->sec_span);
    free(x->sec);
    free(x->theta);
    free(x->y0);
    free(x->C0);
    free(x->JC);
    free(x->yj);
    free(x->x0);
    free(x->J);
    free(x->M_sec);
    free(x->dy);
    free(x->pan_k);
    free(x->pan_sc);
    free(x->gam0);
    free(x->sec_j);
    free(x->pw);
    free(x->Cd);
    free(x->pan_ma);
  }
  free(a->wing);
  free(a->point_f_b);
  free(a->point_da);
  free(a->point_db);
  free(a->point_dd);
  free(a->point_cur_b);
  free(a->point_tmp);
  free(a);
}


/* the WING points of wing j in order (those that are WING type) */
static int wing_points(const awe_model *m, int j, int *out) {
  int n = 0;
  for (int k = 0; k < m->wing_point_num[j]; k++) {
    int p = m->wing_points[m->wing_point_adr[j] + k];
    if (m->point_type[p] == AWE_PT_WING && m->point_wing[p] == j) out[n++] = p;
  }
  return n;
}


/* bilinear coordinates (s, c) of point P in the patch L0 T0 L1 T1 (Gauss-Newton) */
static void patch_coords(const double L0[3], const double T0[3], const double L1[3],
                         const double T1[3], const double P[3], double *s, double *c) {
  double ss = *s, cc = *c;
  for (int it = 0; it < 8; it++) {
    double Q[3], ds[3], dc[3], r[3];
    for (int i = 0; i < 3; i++) {
      double a0 = L0[i] + cc * (T0[i] - L0[i]), a1 = L1[i] + cc * (T1[i] - L1[i]);
      Q[i] = a0 + ss * (a1 - a0);
      ds[i] = a1 - a0;
      dc[i] = (1.0 - ss) * (T0[i] - L0[i]) + ss * (T1[i] - L1[i]);
      r[i] = P[i] - Q[i];
    }
    double a = awe_v3_dot(ds, ds), b = awe_v3_dot(ds, dc), d = awe_v3_dot(dc, dc);
    double e = awe_v3_dot(ds, r), f = awe_v3_dot(dc, r), det = a * d - b * b;
    if (!(fabs(det) > 1e-30)) break;
    double dss = (d * e - b * f) / det, dcc = (a * f - b * e) / det;
    ss += dss;
    cc += dcc;
    if (fabs(dss) + fabs(dcc) < 1e-12) break;
  }
  *s = ss;
  *c = cc;
}


/* the patch (sections k, k+1 of pt[n]) nearest to point P and P's (s, c) in it: s spanwise
 * (unclamped, so that a point beyond the outer sections extrapolates the end patch), c chordwise */
static void locate(const awe_vsm_section *pt, int n, const double P[3], int *kk, double *ss,
                   double *cc) {
  double best = INFINITY;
  *kk = 0;
  *ss = 0.5;
  *cc = 0.25;
  for (int k = 0; k + 1 < n; k++) {
    double s = 0.5, c = 0.25, Q[3];
    const awe_vsm_section *a = &pt[k], *b = &pt[k + 1];
    patch_coords(a->le, a->te, b->le, b->te, P, &s, &c);
    double sc = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
    for (int q = 0; q < 3; q++) {
      double a0 = a->le[q] + c * (a->te[q] - a->le[q]), a1 = b->le[q] + c * (b->te[q] - b->le[q]);
      Q[q] = a0 + sc * (a1 - a0) - P[q];
    }
    double d = awe_v3_norm(Q) + fabs(s - sc);
    if (d < best) {
      best = d;
      *kk = k;
      *ss = s;
      *cc = c;
    }
  }
}


/* the point (s, c) of patch k of pt (bilinear) */
static void patch_point(const awe_vsm_section *pt, int k, double s, double c, double out[3]) {
  const awe_vsm_section *a = &pt[k], *b = &pt[k + 1];
  for (int q = 0; q < 3; q++) {
    double a0 = a->le[q] + c * (a->te[q] - a->le[q]), a1 = b->le[q] + c * (b->te[q] - b->le[q]);
    out[q] = a0 + s * (a1 - a0);
  }
}


/* particle wing: the patch (structural sections k, k+1) of every panel, from the initial
 * geometry (the CAD sections; fine: the structure's) */
static awe_status map_panels(aero_wing *x) {
  awe_vsm_geometry g;
  awe_vsm_wing_geometry(x->vsm, &g);
  x->npan = g.n_panels;
  x->pan_k = malloc(sizeof(int) * (size_t)g.n_panels);
  x->pan_sc = malloc(sizeof(double) * 2 * (size_t)g.n_panels);
  if (!x->pan_k || !x->pan_sc) return AWE_ENOMEM;
  const awe_vsm_section *pt = x->fine ? x->pat : x->sec;
  int n = x->fine ? x->nst : x->nsec;
  for (int i = 0; i < g.n_panels; i++)
    locate(pt, n, g.aero_center + 3 * i, &x->pan_k[i], &x->pan_sc[2 * i], &x->pan_sc[2 * i + 1]);
  return AWE_OK;
}


/* fine particle wing: the structural sections from the CAD points (body frame), and where each
 * aero section's LE and TE sits on them (patch, (s, c), offset off the bilinear surface) */
static awe_status map_sections(const awe_model *m, const awe_wing_geom *G, aero_wing *x) {
  x->pat = calloc((size_t)x->nst, sizeof(awe_vsm_section));
  x->map_k = malloc(sizeof(int) * 2 * (size_t)x->nsec);
  x->map_sc = malloc(sizeof(double) * 4 * (size_t)x->nsec);
  x->map_off = malloc(sizeof(double) * 6 * (size_t)x->nsec);
  if (!x->pat || !x->map_k || !x->map_sc || !x->map_off) return AWE_ENOMEM;
  for (int k = 0; k < x->nst; k++) {
    double d[3];
    awe_v3_sub(d, m->point_pos_cad + 3 * x->sec_le[k], G->origin_cad);
    awe_mat3_tvec(G->R_bc, d, x->pat[k].le);
    awe_v3_sub(d, m->point_pos_cad + 3 * x->sec_te[k], G->origin_cad);
    awe_mat3_tvec(G->R_bc, d, x->pat[k].te);
  }
  for (int a = 0; a < x->nsec; a++)
    for (int e = 0; e < 2; e++) {
      const double *P = e == 0 ? x->sec[a].le : x->sec[a].te;
      double *sc = x->map_sc + 4 * a + 2 * e, Q[3];
      locate(x->pat, x->nst, P, &x->map_k[2 * a + e], &sc[0], &sc[1]);
      patch_point(x->pat, x->map_k[2 * a + e], sc[0], sc[1], Q);
      awe_v3_sub(x->map_off + 6 * a + 3 * e, P, Q);
    }
  return AWE_OK;
}


static awe_status setup_wing(const awe_model *m, const awe_work *w, int j, aero_wing *x,
                             awe_err *err) {
  int ns = m->nsection, ny = 6 + ns;
  const awe_wing_geom *G = &w->wg[j];
  x->rigid = m->wing_type[j] == AWE_WING_RIGID;
  x->mode = m->wing_aero_mode[j];
  x->wagner = m->wing_wagner[j];
  x->nsec = ns;
  x->ny = ny;
  x->sec_group = malloc(sizeof(int) * (size_t)ns);
  x->sec_le = malloc(sizeof(int) * (size_t)ns);
  x->sec_te = malloc(sizeof(int) * (size_t)ns);
  x->sec_span = malloc(sizeof(double) * (size_t)ns);
  x->sec = calloc((size_t)ns, sizeof(awe_vsm_section));
  x->theta = calloc((size_t)ns, sizeof(double));
  x->y0 = calloc((size_t)ny, sizeof(double));
  x->C0 = calloc((size_t)ny, sizeof(double));
  x->JC = calloc((size_t)ny * (size_t)ny, sizeof(double));
  x->yj = calloc((size_t)ny, sizeof(double));
  x->x0 = calloc((size_t)ny, sizeof(double));
  x->J = calloc((size_t)ny * (size_t)ny, sizeof(double));
  x->M_sec = calloc((size_t)ns, sizeof(double));
  x->dy = calloc((size_t)ny, sizeof(double));
  x->Cd = calloc((size_t)ny, sizeof(double));
  int *pts = malloc(sizeof(int) * ((size_t)m->npoint + 1));
  if (!x->sec_group || !x->sec_le || !x->sec_te || !x->sec_span || !x->sec || !x->theta ||
      !x->y0 || !x->C0 || !x->JC || !x->yj || !x->x0 || !x->J || !x->M_sec || !x->dy || !x->Cd ||
      !pts) {
    free(pts);
    return awe_err_set(err, AWE_ENOMEM, "out of memory (aerodynamics)");
  }
  /* sections in the body frame of the CAD geometry */
  for (int k = 0; k < ns; k++) {
    double d[3];
    awe_v3_sub(d, m->section_le + 3 * k, G->origin_cad);
    awe_mat3_tvec(G->R_bc, d, x->sec[k].le);
    awe_v3_sub(d, m->section_te + 3 * k, G->origin_cad);
    awe_mat3_tvec(G->R_bc, d, x->sec[k].te);
    if (x->rigid) {
      x->sec[k].le[2] += m->wing_aero_z_offset[j];
      x->sec[k].te[2] += m->wing_aero_z_offset[j];
    }
    x->sec[k].airfoil = m->section_airfoil[k];
    x->sec_span[k] = x->sec[k].le[1];
    x->sec_group[k] = x->sec_le[k] = x->sec_te[k] = -1;
  }
  int np = wing_points(m, j, pts);
  if (x->rigid) {
    /* section k belongs to the group whose LE point is nearest its LE (within 10 % chord) */
    for (int k = 0; k < ns; k++) {
      double c[3], best = INFINITY;
      awe_v3_sub(c, x->sec[k].te, x->sec[k].le);
      double tol = 0.1 * awe_v3_norm(c);
      for (int q = 0; q < m->wing_group_num[j]; q++) {
        int g = m->wing_groups[m->wing_group_adr[j] + q];
        if (m->group_point_num[g] < 1) continue;
        double d[3];
        awe_v3_sub(d, w->gg[g].le_b, x->sec[k].le);
        double dist = awe_v3_norm(d);
        if (dist < best && dist <= tol + fabs(m->wing_aero_z_offset[j])) {
          best = dist;
          x->sec_group[k] = g;
        }
      }
    }
  } else {
    if (np < 4 || np % 2) {
      free(pts);
      return awe_err_set(err, AWE_EINVAL,
                         "wing '%s': %d WING points; a PARTICLE_DYNAMICS wing needs LE/TE point "
                         "pairs, at least two", m->wing_name[j], np);
    }
    x->nst = np / 2;
    x->fine = x->nst != ns;
    if (x->fine) {
      free(x->sec_le);
      free(x->sec_te);
      x->sec_le = malloc(sizeof(int) * (size_t)x->nst);
      x->sec_te = malloc(sizeof(int) * (size_t)x->nst);
      if (!x->sec_le || !x->sec_te) {
        free(pts);
        return awe_err_set(err, AWE_ENOMEM, "out of memory (aerodynamics)");
      }
    }
    for (int k = 0; k < x->nst; k++) {
      x->sec_le[k] = pts[2 * k];
      x->sec_te[k] = pts[2 * k + 1];
    }
    if (x->fine && map_sections(m, G, x)) {
      free(pts);
      return awe_err_set(err, AWE_ENOMEM, "out of memory (aerodynamics)");
    }
  }
  free(pts);
  awe_vsm_settings s = m->vsm;
  s.solver = AWE_VSM_SOLVER_NEWTON;
  s.use_gamma_prev = 1;
  if (s.max_iterations > AWE_AERO_MAX_LOOP) s.max_iterations = AWE_AERO_MAX_LOOP;
  char msg[512] = "";
  x->vsm = awe_vsm_wing_alloc(x->sec, ns, m->airfoils, m->nairfoil, &s, msg, sizeof(msg));
  if (!x->vsm)
    return awe_err_set(err, strstr(msg, "memory") ? AWE_ENOMEM : AWE_EINVAL,
                       "wing '%s': aero geometry: %s", m->wing_name[j],
                       msg[0] ? msg : "cannot build the VSM wing");
  if (x->rigid && m->wing_group_num[j] > 0)
    awe_vsm_wing_set_moment_frac(x->vsm, m->group_moment_frac[m->wing_groups[m->wing_group_adr[j]]]);
  x->rho_vsm = s.density;
  awe_vsm_geometry pg;
  awe_vsm_wing_geometry(x->vsm, &pg);
  x->npw = pg.n_panels;
  x->pw = calloc(3 * (size_t)(pg.n_panels > 0 ? pg.n_panels : 1), sizeof(double));
  if (!x->pw) return awe_err_set(err, AWE_ENOMEM, "out of memory (aerodynamics)");
  /* reach of the moments: the farthest section point from the origin */
  x->rmax = 0.0;
  for (int k = 0; k < ns; k++) {
    x->rmax = fmax(x->rmax, awe_v3_norm(x->sec[k].le));
    x->rmax = fmax(x->rmax, awe_v3_norm(x->sec[k].te));
  }
  awe_vsm_geometry g0;
  awe_vsm_wing_geometry(x->vsm, &g0);
  x->cref = g0.c_ref;
  x->area0 = g0.area;
  if (!x->rigid && map_panels(x))
    return awe_err_set(err, AWE_ENOMEM, "out of memory (aerodynamics)");
  if (!x->rigid && (!(x->gam0 = calloc((size_t)x->npan + 1, sizeof(double))) ||
                    !(x->sec_j = calloc((size_t)ns, sizeof(awe_vsm_section)))))
    return awe_err_set(err, AWE_ENOMEM, "out of memory (aerodynamics)");
  return AWE_OK;
}


struct awe_aero *awe_aero_alloc(const awe_model *m, const awe_work *w, awe_err *err) {
  int any = 0;
  for (int j = 0; j < m->nwing; j++) any |= m->wing_aero_mode[j] != AWE_AERO_NONE;
  if (!any || m->nsection < 2) return NULL;
  struct awe_aero *a = calloc(1, sizeof(*a));
  if (!a) goto oom;
  a->nwing = m->nwing;
  a->jac_tol = m->opt.vsm_jacobian_tol;
  a->max_slope = AWE_AERO_MAX_SLOPE;
  a->wing = calloc((size_t)m->nwing, sizeof(aero_wing));
  a->point_f_b = calloc(3 * (size_t)m->npoint + 1, sizeof(double));
  a->point_da = calloc(3 * (size_t)m->npoint + 1, sizeof(double));
  a->point_db = calloc(3 * (size_t)m->npoint + 1, sizeof(double));
  a->point_dd = calloc(3 * (size_t)m->npoint + 1, sizeof(double));
  a->point_cur_b = calloc(3 * (size_t)m->npoint + 1, sizeof(double));
  a->point_tmp = calloc(3 * (size_t)m->npoint + 1, sizeof(double));
  if (!a->wing || !a->point_f_b || !a->point_da || !a->point_db || !a->point_dd ||
      !a->point_cur_b ||
      !a->point_tmp)
    goto oom;
  for (int j = 0; j < m->nwing; j++) {
    if (m->wing_aero_mode[j] == AWE_AERO_NONE) continue;
    if (setup_wing(m, w, j, &a->wing[j], err)) {
      awe_aero_free(a);
      return NULL;
    }
  }
  return a;
oom:
  awe_aero_free(a);
  awe_err_set(err, AWE_ENOMEM, "out of memory (aerodynamics)");
  return NULL;
}


void awe_aero_reset(const awe_model *m, awe_work *w) {
  struct awe_aero *a = w->aero;
  (void)m;
  if (!a) return;
  for (int j = 0; j < a->nwing; j++) {
    aero_wing *x = &a->wing[j];
    x->valid = 0;
    x->jc_ok = 0;
    x->have_gam0 = 0;
    if (x->vsm) awe_vsm_wing_reset_gamma(x->vsm);
  }
  memset(a->point_f_b, 0, sizeof(double) * 3 * (size_t)m->npoint);
  memset(a->point_da, 0, sizeof(double) * 3 * (size_t)m->npoint);
  memset(a->point_db, 0, sizeof(double) * 3 * (size_t)m->npoint);
  memset(a->point_dd, 0, sizeof(double) * 3 * (size_t)m->npoint);
  memset(a->point_cur_b, 0, sizeof(double) * 3 * (size_t)m->npoint);
  memset(&a->st, 0, sizeof(a->st));
}


void awe_aero_set_max_slope(awe_work *w, double per_rad) {
  struct awe_aero *a = w->aero;
  if (!a) return;
  a->max_slope = per_rad > 0.0 ? per_rad : AWE_AERO_MAX_SLOPE;
  for (int j = 0; j < a->nwing; j++) a->wing[j].jc_ok = 0;
}


void awe_aero_set_jacobian_tol(awe_work *w, double tol) {
  struct awe_aero *a = w->aero;
  if (!a) return;
  a->jac_tol = tol > 0.0 ? tol : 0.0;
  for (int j = 0; j < a->nwing; j++) a->wing[j].jc_ok = 0;
}


void awe_aero_reset_stats(awe_work *w) {
  if (w->aero) memset(&w->aero->st, 0, sizeof(w->aero->st));
}


awe_aero_stats awe_aero_get_stats(const awe_work *w) {
  awe_aero_stats z;
  memset(&z, 0, sizeof(z));
  return w->aero ? w->aero->st : z;
}


const double *awe_aero_point_forces_b(const awe_work *w) {
  return w->aero ? w->aero->point_cur_b : NULL;
}


int awe_aero_point_forces_on(const awe_work *w, int j) {
  const struct awe_aero *a = w->aero;
  if (!a || j < 0 || j >= a->nwing) return 0;
  const aero_wing *x = &a->wing[j];
  return x->vsm && !x->rigid && x->valid; /* as awe_aero_point_forces */
}


struct awe_vsm_wing *awe_aero_vsm(const awe_work *w, int j) {
  return w->aero && j >= 0 && j < w->aero->nwing ? w->aero->wing[j].vsm : NULL;
}


void awe_aero_section_twist(const awe_model *m, const awe_work *w, int j, double *theta) {
  const aero_wing *x = w->aero ? &w->aero->wing[j] : NULL;
  for (int k = 0; k < m->nsection; k++)
    theta[k] = x && x->sec_group && x->sec_group[k] >= 0 ? w->twist[x->sec_group[k]] : 0.0;
}


/* ---- refresh ---- */

/* body rates of wing j */
static void omega_b(const awe_work *w, int j, double om[3]) {
  const double *R = w->wing_R + 9 * j, *ww = w->wing_omega_w + 3 * j;
  awe_mat3_tvec(R, ww, om);
}


static int finite_n(const double *v, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i])) return 0;
  return 1;
}


/* loads x = [F, M, M_sec] plausible for q A (|C_F| <= AWE_AERO_MAX_COEF, moments likewise
 * with the reach of the wing)? */
static int plausible(const aero_wing *x, const double *F, const double *M, double qa) {
  return awe_v3_norm(F) <= AWE_AERO_MAX_COEF * qa &&
         awe_v3_norm(M) <= AWE_AERO_MAX_COEF * qa * (x->rmax + x->cref);
}


/* angles of the apparent wind: alpha = atan2(va_z, va_x), beta = atan2(va_y, hypot(va_x, va_z)) */
static void wind_angles(const double va[3], double *V, double *al, double *be) {
  *V = awe_v3_norm(va);
  *al = atan2(va[2], va[0]);
  *be = atan2(va[1], hypot(va[0], va[2]));
}


/* may the linearized wing keep its coefficient slopes JC at the wind coordinates (V, alpha,
 * beta, omega, this->theta)? Yes while each angle, normalised rate and twist is within jac_tol
 * of where JC was computed and V within that fraction of its speed there */
static int jacobian_holds(const struct awe_aero *a, const aero_wing *x, double V, double al,
                          double be, const double om[3]) {
  const double tol = a->jac_tol, *yj = x->yj;
  if (!x->jc_ok || !(tol > 0.0)) return 0;
  int ok = fabs(V / yj[0] - 1.0) <= tol && fabs(remainder(al - yj[1], 2.0 * AWE_PI)) <= tol &&
           fabs(be - yj[2]) <= tol;
  for (int k = 0; k < 3; k++) ok = ok && fabs(om[k] * x->lref / V - yj[3 + k]) <= tol;
  for (int k = 0; k < x->nsec; k++) ok = ok && fabs(x->theta[k] - yj[6 + k]) <= tol;
  return ok;
}


/* the wind along the span at a refresh: each panel's control point gets the wind there less
 * the wind at the origin (which the apparent wind va_b carries), body frame; a wind the same
 * everywhere on the wing leaves the VSM's uniform inflow (bit for bit) */
static void panel_wind(const awe_model *m, const awe_work *w, int j, aero_wing *x) {
  awe_vsm_geometry g;
  awe_vsm_wing_geometry(x->vsm, &g);
  const double *R = w->wing_R + 9 * j, *o = w->wing_pos + 3 * j;
  int n = g.n_panels < x->npw ? g.n_panels : x->npw, any = 0;
  double w0[3];
  awe_wind_point(m, w, o, w0);
  for (int i = 0; i < n; i++) {
    double p[3], wi[3], d[3];
    awe_mat3_vec(R, g.control_point + 3 * i, p);
    for (int k = 0; k < 3; k++) p[k] += o[k];
    awe_wind_point(m, w, p, wi);
    awe_v3_sub(d, wi, w0);
    awe_mat3_tvec(R, d, x->pw + 3 * i);
    any |= d[0] != 0.0 || d[1] != 0.0 || d[2] != 0.0;
  }
  awe_vsm_wing_set_panel_wind(x->vsm, any && n == g.n_panels ? x->pw : NULL);
}


/* rigid wing with a Wagner lag: Cd = dC/dd, the coefficients' slope over the polars' shift d,
 * by a forward difference (one more solve at d0 + AWE_AERO_PARTICLE_H; zero if it fails) */
static void wagner_slope(struct awe_aero *a, aero_wing *x, const double *va, const double *om,
                         double qa) {
  const double h = AWE_AERO_PARTICLE_H;
  awe_vsm_result r;
  awe_vsm_wing_set_alpha_shift(x->vsm, x->d0 + h);
  int st = awe_vsm_solve(x->vsm, va, om, NULL, &r);
  awe_vsm_wing_set_alpha_shift(x->vsm, x->d0);
  a->st.solves++;
  x->dj = x->d0;
  memset(x->Cd, 0, sizeof(double) * (size_t)x->ny);
  if (st != AWE_VSM_OK || !finite_n(r.force, 3) || !finite_n(r.moment, 3) ||
      !finite_n(r.section_moment, x->nsec))
    return;
  for (int i = 0; i < 3; i++) {
    x->Cd[i] = (r.force[i] - x->x0[i]) / (h * qa);
    x->Cd[3 + i] = (r.moment[i] - x->x0[3 + i]) / (h * qa);
  }
  for (int k = 0; k < x->nsec; k++) x->Cd[6 + k] = (r.section_moment[k] - x->x0[6 + k]) / (h * qa);
}


/* rigid wing, linearized: x0, J = dx/d(va, omega, theta) at the refresh state, converted to
 * coefficients over the wind coordinates (V, alpha, beta, omega_hat, theta) */
static int refresh_linearized(const awe_model *m, awe_work *w, int j, aero_wing *x) {
  struct awe_aero *a = w->aero;
  double va[3], om[3];
  memcpy(va, w->wing_va_b + 3 * j, sizeof(va));
  omega_b(w, j, om);
  double vn = awe_v3_norm(va);
  if (vn < AWE_AERO_MIN_WIND) {
    a->st.low_wind++;
    if (vn > 1e-9) {
      for (int i = 0; i < 3; i++) va[i] *= AWE_AERO_MIN_WIND / vn;
    } else {
      va[0] = AWE_AERO_MIN_WIND;
      va[1] = va[2] = 0.0;
    }
  }
  if (va[0] <= 0.0) {
    a->st.reversed++; /* flow from the trailing edge: no VSM solution, the rhs uses drag */
    return 0;
  }
  awe_aero_section_twist(m, w, j, x->theta);
  const double *cur = awe_vsm_wing_twist(x->vsm);
  int same = 1;
  for (int k = 0; k < x->nsec; k++) same &= cur[k] == x->theta[k];
  if (!same) awe_vsm_wing_set_twist(x->vsm, x->theta);
  int ny = x->ny;
  double V0, al0, be0;
  wind_angles(va, &V0, &al0, &be0);
  int keep = jacobian_holds(a, x, V0, al0, be0, om);
  double d0 = x->wagner ? w->wing_wag_d[j] : 0.0;
  if (x->wagner) {
    keep = keep && fabs(d0 - x->dj) <= a->jac_tol;
    awe_vsm_wing_set_alpha_shift(x->vsm, d0);
  }
  panel_wind(m, w, j, x);
  awe_vsm_result r;
  int st = awe_vsm_linearize_forward(x->vsm, va, om, NULL, x->x0, keep ? NULL : x->J, &r);
  a->st.solves += keep ? 1 : 1 + (unsigned long)ny;
  x->jc_ok = 0; /* until this refresh succeeds */
  if (st != AWE_VSM_OK || !finite_n(x->x0, ny) || (!keep && !finite_n(x->J, ny * ny)) ||
      !(r.area > 0.0))
    return -1;
  double L = 0.5 * r.span > 1e-6 ? 0.5 * r.span : 1.0;
  double qa = 0.5 * x->rho_vsm * V0 * V0 * r.area;
  if (!plausible(x, x->x0, x->x0 + 3, qa)) return -1;
  x->area = r.area;
  x->lref = L;
  x->y0[0] = V0;
  x->y0[1] = al0;
  x->y0[2] = be0;
  for (int k = 0; k < 3; k++) x->y0[3 + k] = om[k] * L / V0;
  memcpy(x->y0 + 6, x->theta, sizeof(double) * (size_t)x->nsec);
  x->valid = 1;
  x->jc_ok = 1;
  x->d0 = d0;
  for (int i = 0; i < ny; i++) x->C0[i] = x->x0[i] / qa;
  if (keep) return 0; /* the coefficient slopes JC of the last linearization stay */
  if (x->wagner) wagner_slope(a, x, va, om, qa);
  a->st.jacobians++;
  memcpy(x->yj, x->y0, sizeof(double) * (size_t)ny);
  double ca = cos(al0), sa = sin(al0), cb = cos(be0), sb = sin(be0);
  double eV[3] = {va[0] / V0, va[1] / V0, va[2] / V0};
  double tal[3] = {-V0 * cb * sa, 0.0, V0 * cb * ca};
  double tbe[3] = {-V0 * sb * ca, V0 * cb, -V0 * sb * sa};
  for (int i = 0; i < ny; i++) {
    const double *Jr = x->J + (size_t)i * (size_t)ny;
    double *C = x->JC + (size_t)i * (size_t)ny;
    double jw = Jr[3] * om[0] + Jr[4] * om[1] + Jr[5] * om[2];
    C[0] = (awe_v3_dot(Jr, eV) - 2.0 * x->x0[i] / V0 + jw / V0) / qa;
    C[1] = awe_v3_dot(Jr, tal) / qa;
    C[2] = awe_v3_dot(Jr, tbe) / qa;
    for (int k = 0; k < 3; k++) C[3 + k] = Jr[3 + k] * V0 / L / qa;
    for (int k = 6; k < ny; k++) C[k] = Jr[k] / qa;
  }
  return 0;
}


/* rigid wing, direct: frozen loads */
static int refresh_direct(const awe_model *m, awe_work *w, int j, aero_wing *x) {
  struct awe_aero *a = w->aero;
  double va[3], om[3];
  memcpy(va, w->wing_va_b + 3 * j, sizeof(va));
  omega_b(w, j, om);
  if (awe_v3_norm(va) < AWE_AERO_MIN_WIND) {
    a->st.low_wind++;
    memset(x->F_b, 0, sizeof(x->F_b));
    memset(x->M_b, 0, sizeof(x->M_b));
    memset(x->M_sec, 0, sizeof(double) * (size_t)x->nsec);
    x->valid = 1;
    return 0;
  }
  if (va[0] <= 0.0) {
    a->st.reversed++;
    return 0;
  }
  awe_aero_section_twist(m, w, j, x->theta);
  const double *cur = awe_vsm_wing_twist(x->vsm);
  int same = 1;
  for (int k = 0; k < x->nsec; k++) same &= cur[k] == x->theta[k];
  if (!same) awe_vsm_wing_set_twist(x->vsm, x->theta);
  awe_vsm_result r;
  panel_wind(m, w, j, x);
  if (x->wagner) awe_vsm_wing_set_alpha_shift(x->vsm, x->d0 = w->wing_wag_d[j]);
  int st = awe_vsm_solve(x->vsm, va, om, NULL, &r);
  a->st.solves++;
  if (st != AWE_VSM_OK || !finite_n(r.force, 3) || !finite_n(r.moment, 3) ||
      !plausible(x, r.force, r.moment, r.q_inf * r.area))
    return -1;
  double f = awe_density(&m->env, w->wing_pos[3 * j + 2]) / x->rho_vsm;
  for (int i = 0; i < 3; i++) {
    x->F_b[i] = f * r.force[i];
    x->M_b[i] = f * r.moment[i];
  }
  for (int k = 0; k < x->nsec; k++) x->M_sec[k] = f * r.section_moment[k];
  x->valid = 1;
  return 0;
}


/* zero the 3-vectors of particle wing x's points in v [3 np] */
static void zero_points(const aero_wing *x, double *v) {
  for (int k = 0; k < x->nst; k++) {
    memset(v + 3 * x->sec_le[k], 0, 3 * sizeof(double));
    memset(v + 3 * x->sec_te[k], 0, 3 * sizeof(double));
  }
}


/* the structural point e (0 LE, 1 TE) of structural section k of particle wing x, body frame
 * at the last refresh */
static void struct_point(const aero_wing *x, int k, int e, double sc, double r[3]) {
  if (x->fine) {
    memcpy(r, e == 0 ? x->pat[k].le : x->pat[k].te, 3 * sizeof(double));
    return;
  }
  for (int i = 0; i < 3; i++)
    r[i] = e == 0 ? x->sec[k].le[i] : x->sec[k].le[i] + (x->sec[k].te[i] - x->sec[k].le[i]) / sc;
}


/* fine particle wing: the shared point forces out[] carry the VSM's force exactly (the bilinear
 * weights sum to 1) but their moment about the origin misses the panels' offsets from the
 * structural patches (a finer aero mesh has its own camber and billow). The difference dM is
 * added as the zero-sum forces f_p = a x (r_p - r_mean), I a = dM, I = sum |rho|^2 1 - rho rho^T
 * (rho = r_p - r_mean, the points' unit-mass inertia about their mean): the least-squares
 * forces with no resultant and that moment. Then sum f_p = f F_vsm and sum r_p x f_p = f M_vsm
 * about the origin, to rounding. */
static void fine_moment(const aero_wing *x, const awe_vsm_result *r, double f, double *out) {
  int n = 2 * x->nst;
  double rm[3] = {0, 0, 0}, M[3] = {0, 0, 0}, I[9] = {0}, a[3];
  for (int k = 0; k < x->nst; k++)
    for (int e = 0; e < 2; e++) {
      double p[3], t[3];
      struct_point(x, k, e, 1.0, p);
      awe_v3_addto(rm, 1.0 / n, p);
      awe_v3_cross(t, p, out + 3 * (e == 0 ? x->sec_le[k] : x->sec_te[k]));
      awe_v3_addto(M, 1.0, t);
    }
  for (int k = 0; k < x->nst; k++)
    for (int e = 0; e < 2; e++) {
      double p[3];
      struct_point(x, k, e, 1.0, p);
      awe_v3_sub(p, p, rm);
      double p2 = awe_v3_dot(p, p);
      for (int u = 0; u < 3; u++)
        for (int v = 0; v < 3; v++) I[3 * u + v] += (u == v ? p2 : 0.0) - p[u] * p[v];
    }
  double dM[3];
  for (int i = 0; i < 3; i++) dM[i] = f * r->moment[i] - M[i];
  /* I a = dM by Cramer's rule (I is positive definite unless the points are collinear) */
  double det = I[0] * (I[4] * I[8] - I[5] * I[7]) - I[1] * (I[3] * I[8] - I[5] * I[6]) +
               I[2] * (I[3] * I[7] - I[4] * I[6]);
  if (!(fabs(det) > 0.0)) return;
  for (int c = 0; c < 3; c++) {
    double B[9];
    memcpy(B, I, sizeof(B));
    for (int row = 0; row < 3; row++) B[3 * row + c] = dM[row];
    a[c] = (B[0] * (B[4] * B[8] - B[5] * B[7]) - B[1] * (B[3] * B[8] - B[5] * B[6]) +
            B[2] * (B[3] * B[7] - B[4] * B[6])) / det;
  }
  for (int k = 0; k < x->nst; k++)
    for (int e = 0; e < 2; e++) {
      double p[3], t[3];
      struct_point(x, k, e, 1.0, p);
      awe_v3_sub(p, p, rm);
      awe_v3_cross(t, a, p);
      awe_v3_addto(out + 3 * (e == 0 ? x->sec_le[k] : x->sec_te[k]), 1.0, t);
    }
}


/* particle wing: the panel loads of r, times f, shared out to the LE/TE points in out (body
 * frame; the wing's points zeroed first) */
static void share_panels(aero_wing *x, const awe_vsm_result *r, double f, double sc, double *out) {
  zero_points(x, out);
  awe_vsm_geometry g;
  awe_vsm_wing_geometry(x->vsm, &g);
  double sc1 = 1.0 / sc;
  for (int i = 0; i < r->n_panels && i < x->npan; i++) {
    const double *ac = g.aero_center + 3 * i, *fp = r->panel_force + 3 * i;
    int k = x->pan_k[i];
    double l0[3], t0[3], l1[3], t1[3];
    if (x->fine) {
      memcpy(l0, x->pat[k].le, sizeof(l0));
      memcpy(l1, x->pat[k + 1].le, sizeof(l1));
      memcpy(t0, x->pat[k].te, sizeof(t0));
      memcpy(t1, x->pat[k + 1].te, sizeof(t1));
    } else {
      memcpy(l0, x->sec[k].le, sizeof(l0));
      memcpy(l1, x->sec[k + 1].le, sizeof(l1));
      /* the structural TE (the aero TE is scaled by sc) */
      for (int q = 0; q < 3; q++) {
        t0[q] = l0[q] + (x->sec[k].te[q] - l0[q]) * sc1;
        t1[q] = l1[q] + (x->sec[k + 1].te[q] - l1[q]) * sc1;
      }
    }
    double s = x->pan_sc[2 * i], c = x->pan_sc[2 * i + 1];
    patch_coords(l0, t0, l1, t1, ac, &s, &c);
    x->pan_sc[2 * i] = s;
    x->pan_sc[2 * i + 1] = c;
    double wt[4] = {(1 - s) * (1 - c), (1 - s) * c, s * (1 - c), s * c};
    int pp[4] = {x->sec_le[k], x->sec_te[k], x->sec_le[k + 1], x->sec_te[k + 1]};
    for (int e = 0; e < 4; e++) awe_v3_addto(out + 3 * pp[e], f * wt[e], fp);
    /* the panel pitching moment as a couple along the normal: +F at the TE, -F at the LE */
    double mom = r->panel_moment[i] - awe_v3_dot(fp, g.e_normal + 3 * i) *
                                          (g.moment_frac - 0.25) * g.chord[i];
    double dl[3], n[3], es[3], dxn[3];
    for (int q = 0; q < 3; q++) {
      double le = l0[q] + s * (l1[q] - l0[q]), te = t0[q] + s * (t1[q] - t0[q]);
      dl[q] = te - le;
      n[q] = g.e_normal[3 * i + q];
      es[q] = g.e_span[3 * i + q];
    }
    awe_v3_cross(dxn, dl, n);
    double den = awe_v3_dot(dxn, dxn);
    if (den > 0.0 && mom != 0.0) {
      double fc = f * mom * awe_v3_dot(es, dxn) / den;
      double cw[4] = {-(1 - s), (1 - s), -s, s};
      for (int e = 0; e < 4; e++) awe_v3_addto(out + 3 * pp[e], fc * cw[e], n);
    }
  }
  if (x->fine) fine_moment(x, r, f, out);
}


/* apparent mass (unsteady.h): each panel's rho SCALE pi c^2 w/4 onto the LE/TE points with the
 * weights of its force (x->pan_sc as share_panels left them), into w->point_ma and wing_ma */
static void apparent_mass_points(const awe_model *m, awe_work *w, int j, const aero_wing *x,
                                 double rho) {
  (void)m;
  if (!w->point_ma || !x->pan_ma) return;
  for (int k = 0; k < x->nsec; k++) w->point_ma[x->sec_le[k]] = w->point_ma[x->sec_te[k]] = 0.0;
  double sum = 0.0;
  for (int i = 0; i < x->npan; i++) {
    int k = x->pan_k[i];
    double s = x->pan_sc[2 * i], c = x->pan_sc[2 * i + 1], ma = rho * x->pan_ma[i];
    double wt[4] = {(1 - s) * (1 - c), (1 - s) * c, s * (1 - c), s * c};
    int pp[4] = {x->sec_le[k], x->sec_te[k], x->sec_le[k + 1], x->sec_te[k + 1]};
    for (int e = 0; e < 4; e++) w->point_ma[pp[e]] += ma * wt[e];
    sum += ma;
  }
  w->wing_ma[j] = sum;
}


/* no slopes: particle wing x's loads frozen until the next refresh */
static void zero_slopes(struct awe_aero *a, aero_wing *x) {
  zero_points(x, a->point_da);
  zero_points(x, a->point_db);
  zero_points(x, a->point_dd);
  memset(x->F_dd, 0, sizeof(x->F_dd));
  memset(x->M_dd, 0, sizeof(x->M_dd));
  memset(x->F_da, 0, sizeof(x->F_da));
  memset(x->F_db, 0, sizeof(x->F_db));
  memset(x->M_da, 0, sizeof(x->M_da));
  memset(x->M_db, 0, sizeof(x->M_db));
  x->jc_ok = 0;
}


/* particle wing, linearized: the point forces' slopes over alpha and beta at fixed V by
 * forward differences (two solves from the circulation of the refresh, gam0), and the
 * resultant's and its moment's slopes (points at their structural place in the body frame) */
static void particle_slopes(struct awe_aero *a, aero_wing *x, double f, double sc,
                            const double *va, double qa) {
  double V, al, be;
  wind_angles(va, &V, &al, &be);
  double *slope[3] = {a->point_da, a->point_db, a->point_dd};
  double *Fs[3] = {x->F_da, x->F_db, x->F_dd}, *Ms[3] = {x->M_da, x->M_db, x->M_dd};
  /* with a Wagner lag a third solve: the slope over the polars' shift d (unsteady.h) */
  for (int q = 0; q < (x->wagner ? 3 : 2); q++) {
    double a1 = al + (q == 0 ? AWE_AERO_PARTICLE_H : 0.0);
    double b1 = be + (q == 1 ? AWE_AERO_PARTICLE_H : 0.0), vp[3];
    vp[0] = V * cos(b1) * cos(a1);
    vp[1] = V * sin(b1);
    vp[2] = V * cos(b1) * sin(a1);
    if (q == 2) {
      memcpy(vp, va, sizeof(vp));
      awe_vsm_wing_set_alpha_shift(x->vsm, x->d0 + AWE_AERO_PARTICLE_H);
    }
    awe_vsm_result rp;
    int st = awe_vsm_solve_from(x->vsm, vp, NULL, NULL, x->gam0, &rp);
    if (q == 2) awe_vsm_wing_set_alpha_shift(x->vsm, x->d0);
    a->st.solves++;
    if (st != AWE_VSM_OK || !finite_n(rp.panel_force, 3 * rp.n_panels)) {
      zero_slopes(a, x);
      return;
    }
    share_panels(x, &rp, f, sc, a->point_tmp);
    memset(Fs[q], 0, 3 * sizeof(double));
    memset(Ms[q], 0, 3 * sizeof(double));
    for (int k = 0; k < x->nst; k++) {
      int pp[2] = {x->sec_le[k], x->sec_te[k]};
      for (int e = 0; e < 2; e++) {
        double *d = slope[q] + 3 * pp[e], r[3], t[3];
        for (int i = 0; i < 3; i++)
          d[i] = (a->point_tmp[3 * pp[e] + i] - a->point_f_b[3 * pp[e] + i]) /
                 AWE_AERO_PARTICLE_H;
        /* the structural point in the body frame: the LE, or the TE of the unscaled chord */
        struct_point(x, k, e, sc, r);
        awe_v3_cross(t, r, d);
        awe_v3_addto(Fs[q], 1.0, d);
        awe_v3_addto(Ms[q], 1.0, t);
      }
    }
    /* a perturbed solve that settled on another branch of a stalled wing gives a slope of
     * their difference over 1e-4 rad: no plausible lift slope; frozen loads instead */
    double lim = a->max_slope * qa;
    if (!(awe_v3_norm(Fs[q]) <= lim && awe_v3_norm(Ms[q]) <= lim * (x->rmax + x->cref))) {
      zero_slopes(a, x);
      return;
    }
  }
  a->st.jacobians++;
  x->jc_ok = 1;
  x->yj[0] = V;
  x->yj[1] = al;
  x->yj[2] = be;
  x->dj = x->d0;
  memcpy(x->sec_j, x->sec, sizeof(awe_vsm_section) * (size_t)x->nsec);
}


/* may particle wing x keep its slopes at the wind (V, alpha, beta)? While both angles stay
 * within jac_tol [rad] of where they were computed, V within that fraction, and every section
 * point within jac_tol chords (the shape) */
static int particle_slopes_hold(const struct awe_aero *a, const aero_wing *x, double V,
                                double al, double be) {
  const double tol = a->jac_tol, *yj = x->yj;
  if (!x->jc_ok || !(tol > 0.0)) return 0;
  if (!(fabs(V / yj[0] - 1.0) <= tol && fabs(remainder(al - yj[1], 2.0 * AWE_PI)) <= tol &&
        fabs(be - yj[2]) <= tol))
    return 0;
  if (x->wagner && !(fabs(x->d0 - x->dj) <= tol)) return 0;
  double lim = tol * x->cref;
  for (int k = 0; k < x->nsec; k++)
    for (int i = 0; i < 3; i++)
      if (fabs(x->sec[k].le[i] - x->sec_j[k].le[i]) > lim ||
          fabs(x->sec[k].te[i] - x->sec_j[k].te[i]) > lim)
        return 0;
  return 1;
}


/* the kept slopes rescaled to the dynamic pressure rho V^2 = q */
static void particle_slopes_rescale(struct awe_aero *a, aero_wing *x, double q) {
  double r = q / x->q_slopes;
  for (int k = 0; k < x->nst; k++) {
    int pp[2] = {x->sec_le[k], x->sec_te[k]};
    for (int e = 0; e < 2; e++)
      for (int i = 0; i < 3; i++) {
        a->point_da[3 * pp[e] + i] *= r;
        a->point_db[3 * pp[e] + i] *= r;
        a->point_dd[3 * pp[e] + i] *= r;
      }
  }
  for (int i = 0; i < 3; i++) {
    x->F_dd[i] *= r;
    x->M_dd[i] *= r;
    x->F_da[i] *= r;
    x->F_db[i] *= r;
    x->M_da[i] *= r;
    x->M_db[i] *= r;
  }
  x->q_slopes = q;
}


/* fine particle wing: the structural sections from the points (body frame), and each aero
 * section where the CAD geometry put it on them (bilinear in its patch plus its offset from the
 * patch surface, body frame), its chord scaled by sc from its LE */
static void refresh_fine_sections(const awe_work *w, int j, aero_wing *x, double sc) {
  const double *R = w->wing_R + 9 * j, *o = w->wing_pos + 3 * j;
  for (int k = 0; k < x->nst; k++) {
    double d[3];
    awe_v3_sub(d, w->pos + 3 * x->sec_le[k], o);
    awe_mat3_tvec(R, d, x->pat[k].le);
    awe_v3_sub(d, w->pos + 3 * x->sec_te[k], o);
    awe_mat3_tvec(R, d, x->pat[k].te);
  }
  for (int a = 0; a < x->nsec; a++) {
    double le[3], te[3];
    const double *sa = x->map_sc + 4 * a, *off = x->map_off + 6 * a;
    patch_point(x->pat, x->map_k[2 * a], sa[0], sa[1], le);
    patch_point(x->pat, x->map_k[2 * a + 1], sa[2], sa[3], te);
    for (int i = 0; i < 3; i++) {
      le[i] += off[i];
      te[i] += off[3 + i];
      x->sec[a].le[i] = le[i];
      x->sec[a].te[i] = le[i] + sc * (te[i] - le[i]);
    }
  }
}


/* particle wing: move the sections, solve, share the panel loads out to the LE/TE points;
 * linearized: also their slopes over the wind angles */
static int refresh_particle(const awe_model *m, awe_work *w, int j, aero_wing *x) {
  struct awe_aero *a = w->aero;
  const double *R = w->wing_R + 9 * j, *o = w->wing_pos + 3 * j;
  double sc = 1.0 + m->wing_aero_scale_chord[j];
  if (x->fine) {
    refresh_fine_sections(w, j, x, sc);
  } else {
    for (int k = 0; k < x->nsec; k++) {
      const int lp = x->sec_le[k], tp = x->sec_te[k];
      double d[3], cb[3];
      awe_v3_sub(d, w->pos + 3 * lp, o);
      awe_mat3_tvec(R, d, x->sec[k].le);
      awe_v3_sub(d, w->pos + 3 * tp, w->pos + 3 * lp);
      awe_mat3_tvec(R, d, cb);
      for (int i = 0; i < 3; i++) x->sec[k].te[i] = x->sec[k].le[i] + sc * cb[i];
    }
  }
  double va[3];
  memcpy(va, w->wing_va_b + 3 * j, sizeof(va));
  if (awe_v3_norm(va) < AWE_AERO_MIN_WIND || va[0] <= 0.0) {
    if (va[0] <= 0.0) a->st.reversed++;
    else a->st.low_wind++;
    zero_points(x, a->point_f_b);
    zero_slopes(a, x);
    memset(x->F_b, 0, sizeof(x->F_b));
    memset(x->M_b, 0, sizeof(x->M_b));
    x->y0[0] = 0.0;
    x->valid = 1;
    return 0;
  }
  if (awe_vsm_wing_set_sections(x->vsm, x->sec, x->nsec) != AWE_VSM_OK) return -1;
  panel_wind(m, w, j, x);
  if (x->wagner) awe_vsm_wing_set_alpha_shift(x->vsm, x->d0 = w->wing_wag_d[j]);
  awe_vsm_result r;
  /* warm start: the circulation of the last refresh (a linearized refresh ends on a
   * perturbed solve) */
  int st = awe_vsm_solve_from(x->vsm, va, NULL, NULL, x->have_gam0 ? x->gam0 : NULL, &r);
  a->st.solves++;
  x->have_gam0 = 0;
  if (st != AWE_VSM_OK || !finite_n(r.force, 3) || !finite_n(r.panel_force, 3 * r.n_panels) ||
      !plausible(x, r.force, r.moment, r.q_inf * r.area)) {
    x->jc_ok = 0;
    return -1;
  }
  x->rho0 = awe_density(&m->env, o[2]);
  double f = x->rho0 / x->rho_vsm;
  for (int i = 0; i < 3; i++) {
    x->F_b[i] = f * r.force[i];
    x->M_b[i] = f * r.moment[i];
  }
  share_panels(x, &r, f, sc, a->point_f_b);
  if (m->wing_apparent_mass[j] > 0.0) apparent_mass_points(m, w, j, x, x->rho0);
  wind_angles(va, &x->y0[0], &x->y0[1], &x->y0[2]);
  int n = r.n_panels < x->npan ? r.n_panels : x->npan;
  memcpy(x->gam0, r.gamma, sizeof(double) * (size_t)n);
  x->have_gam0 = 1;
  x->valid = 1;
  if (x->mode != AWE_AERO_LINEARIZED) return 0;
  double q = x->rho0 * x->y0[0] * x->y0[0];
  if (particle_slopes_hold(a, x, x->y0[0], x->y0[1], x->y0[2])) {
    particle_slopes_rescale(a, x, q); /* one solve instead of three */
  } else {
    particle_slopes(a, x, f, sc, va, f * r.q_inf * r.area);
    x->q_slopes = q;
  }
  return 0;
}


int awe_aero_refresh(const awe_model *m, awe_work *w, double t) {
  struct awe_aero *a = w->aero;
  if (!a) return 0;
  int nfail = 0;
  for (int j = 0; j < a->nwing; j++) {
    aero_wing *x = &a->wing[j];
    if (!x->vsm) continue;
    a->st.refreshes++;
    int rc = !x->rigid ? refresh_particle(m, w, j, x)
             : x->mode == AWE_AERO_LINEARIZED ? refresh_linearized(m, w, j, x)
                                               : refresh_direct(m, w, j, x);
    if (rc) {
      if (a->st.failures++ == 0) a->st.t_fail = t;
      awe_vsm_wing_reset_gamma(x->vsm);
      nfail++;
    }
  }
  return nfail;
}


/* ---- right-hand side ---- */

/* weight of the reversed-flow drag: 0 while the flow meets the LE within 80 deg of the body x
 * axis, 1 from 100 deg on, smoothstep between */
static double reversed_weight(const double va[3]) {
  double V = awe_v3_norm(va);
  if (!(V > 0.0)) return 0.0;
  double g = acos(fmax(-1.0, fmin(1.0, va[0] / V)));
  double u = (g - AWE_PI * 80.0 / 180.0) / (AWE_PI * 20.0 / 180.0);
  if (u <= 0.0) return 0.0;
  if (u >= 1.0) return 1.0;
  return u * u * (3.0 - 2.0 * u);
}


static void vsm_loads(const awe_model *m, awe_work *w, int j, aero_wing *x);


/* particle wing j: the load factor and angle offsets of the linear model at the current
 * apparent wind, with their slopes over it (for the Jacobian), into x; F_b, M_b */
static void particle_loads(const awe_model *m, awe_work *w, int j, aero_wing *x, double *F,
                           double *M) {
  const double *va = w->wing_va_b + 3 * j;
  x->sq = 1.0;
  x->dal = x->dbe = 0.0;
  memset(x->dsq, 0, sizeof(x->dsq));
  memset(x->ddal, 0, sizeof(x->ddal));
  memset(x->ddbe, 0, sizeof(x->ddbe));
  if (x->mode == AWE_AERO_LINEARIZED && x->y0[0] > 0.0) {
    double V, al, be, lim = AWE_AERO_MAX_DELTA;
    wind_angles(va, &V, &al, &be);
    double rv = V / x->y0[0];
    x->sq = awe_density(&m->env, w->wing_pos[3 * j + 2]) / x->rho0 * fmin(rv, 2.0) *
            fmin(rv, 2.0);
    double da = atan2(sin(al - x->y0[1]), cos(al - x->y0[1])), db = be - x->y0[2];
    x->dal = clampd(da, -lim, lim);
    x->dbe = clampd(db, -lim, lim);
    double h2 = va[0] * va[0] + va[2] * va[2], h = sqrt(h2), V2 = V * V;
    if (rv < 2.0 && V2 > 0.0)
      for (int i = 0; i < 3; i++) x->dsq[i] = 2.0 * x->sq * va[i] / V2;
    if (fabs(da) < lim && h2 > 0.0) {
      x->ddal[0] = -va[2] / h2;
      x->ddal[2] = va[0] / h2;
    }
    if (fabs(db) < lim && h > 0.0 && V2 > 0.0) {
      x->ddbe[0] = -va[1] * va[0] / (h * V2);
      x->ddbe[1] = h / V2;
      x->ddbe[2] = -va[1] * va[2] / (h * V2);
    }
  }
  x->ddd = 0.0;
  if (x->wagner && x->mode == AWE_AERO_LINEARIZED && x->y0[0] > 0.0)
    x->ddd = clampd(w->wing_wag_d[j] - x->d0, -AWE_AERO_MAX_DELTA, AWE_AERO_MAX_DELTA);
  for (int i = 0; i < 3; i++) {
    F[i] = x->sq * (x->F_b[i] + x->F_da[i] * x->dal + x->F_db[i] * x->dbe);
    M[i] = x->sq * (x->M_b[i] + x->M_da[i] * x->dal + x->M_db[i] * x->dbe);
    if (x->wagner) {
      F[i] += x->sq * x->F_dd[i] * x->ddd;
      M[i] += x->sq * x->M_dd[i] * x->ddd;
    }
  }
}


void awe_aero_eval(const awe_model *m, awe_work *w) {
  struct awe_aero *a = w->aero;
  for (int g = 0; g < m->ngroup; g++) w->group_moment_aero[g] = 0.0;
  for (int j = 0; j < m->nwing; j++) {
    double *F = w->wing_aero_force_b + 3 * j, *M = w->wing_aero_moment_b + 3 * j;
    F[0] = F[1] = F[2] = M[0] = M[1] = M[2] = 0.0;
    aero_wing *x = a ? &a->wing[j] : NULL;
    if (!x || !x->vsm || !x->rigid) {
      if (x && x->vsm && x->valid) particle_loads(m, w, j, x, F, M);
      continue;
    }
    const double *va = w->wing_va_b + 3 * j;
    double s = reversed_weight(va);
    if (x->valid && s < 1.0) vsm_loads(m, w, j, x);
    if (s > 0.0) {
      /* reversed flow: bluff-body drag along va, no moment (dissipative in still air) */
      double hd = 0.5 * awe_density(&m->env, w->wing_pos[3 * j + 2]) * x->area0 *
                  AWE_AERO_REVERSED_CD * awe_v3_norm(va);
      for (int k = 0; k < 3; k++) {
        F[k] = (1.0 - s) * F[k] + s * hd * va[k];
        M[k] *= 1.0 - s;
      }
      for (int k = 0; k < x->nsec; k++)
        if (x->sec_group[k] >= 0) w->group_moment_aero[x->sec_group[k]] *= 1.0 - s;
    }
  }
}


/* loads of the frozen VSM model of rigid wing j into the workspace */
static void vsm_loads(const awe_model *m, awe_work *w, int j, aero_wing *x) {
  double *F = w->wing_aero_force_b + 3 * j, *M = w->wing_aero_moment_b + 3 * j;
  if (x->mode == AWE_AERO_DIRECT) {
    memcpy(F, x->F_b, sizeof(x->F_b));
    memcpy(M, x->M_b, sizeof(x->M_b));
    for (int k = 0; k < x->nsec; k++)
      if (x->sec_group[k] >= 0) w->group_moment_aero[x->sec_group[k]] += x->M_sec[k];
    return;
  }
  /* linearized: C = C0 + dC/dy (y - y0) over y = (V, alpha, beta, omega_hat, theta),
   * loads = q A C; the rate terms are evaluated as (q A / V) L (dC/domega_hat . omega), which
   * stays finite (-> 0) as V -> 0 */
  int ny = x->ny, ns = x->nsec;
  const double *va = w->wing_va_b + 3 * j;
  double om[3], *d = x->dy, V, al, be;
  omega_b(w, j, om);
  wind_angles(va, &V, &al, &be);
  const double lim = AWE_AERO_MAX_DELTA;
  d[0] = clampd(V - x->y0[0], -x->y0[0], x->y0[0]);
  d[1] = clampd(atan2(sin(al - x->y0[1]), cos(al - x->y0[1])), -lim, lim);
  d[2] = clampd(be - x->y0[2], -lim, lim);
  for (int k = 0; k < ns; k++)
    d[6 + k] = clampd((x->sec_group[k] >= 0 ? w->twist[x->sec_group[k]] : 0.0) - x->y0[6 + k],
                      -lim, lim);
  /* rates: omega_hat - omega_hat0 limited to +-lim, written as V-scaled terms */
  double hq = 0.5 * awe_density(&m->env, w->wing_pos[3 * j + 2]) * x->area;
  double qa = hq * V * V, qv = hq * V * x->lref, wr[3];
  for (int k = 0; k < 3; k++) {
    double w0 = x->y0[3 + k] * V / x->lref; /* omega giving omega_hat0 at this V */
    wr[k] = w0 + clampd(om[k] - w0, -lim * V / x->lref, lim * V / x->lref);
  }
  for (int i = 0; i < ny; i++) {
    if (i >= 6 && x->sec_group[i - 6] < 0) continue;
    const double *Jr = x->JC + (size_t)i * (size_t)ny;
    double c = x->C0[i] + Jr[0] * d[0] + Jr[1] * d[1] + Jr[2] * d[2];
    if (x->wagner) c += x->Cd[i] * clampd(w->wing_wag_d[j] - x->d0, -lim, lim);
    for (int k = 3; k < 6; k++) c -= Jr[k] * x->y0[k];
    for (int k = 6; k < ny; k++) c += Jr[k] * d[k];
    c = qa * c + qv * (Jr[3] * wr[0] + Jr[4] * wr[1] + Jr[5] * wr[2]);
    if (i < 3) F[i] = c;
    else if (i < 6) M[i - 3] = c;
    else w->group_moment_aero[x->sec_group[i - 6]] += c;
  }
  /* a limiter outside the VSM's range: |C_F| and the moments bounded like at a refresh */
  double fn = awe_v3_norm(F), mn = awe_v3_norm(M);
  double fl = AWE_AERO_MAX_COEF * qa, ml = fl * (x->rmax + x->cref);
  if (fn > fl)
    for (int k = 0; k < 3; k++) F[k] *= fl / fn;
  if (mn > ml)
    for (int k = 0; k < 3; k++) M[k] *= ml / mn;
  for (int k = 0; k < ns; k++) {
    int g = x->sec_group[k];
    if (g >= 0) w->group_moment_aero[g] = clampd(w->group_moment_aero[g], -fl * x->cref,
                                                 fl * x->cref);
  }
}


void awe_aero_point_forces(const awe_model *m, awe_work *w) {
  struct awe_aero *a = w->aero;
  if (!a) return;
  for (int j = 0; j < a->nwing; j++) {
    aero_wing *x = &a->wing[j];
    if (!x->vsm || x->rigid || !x->valid) continue;
    const double *R = w->wing_R + 9 * j;
    for (int k = 0; k < x->nst; k++) {
      int pp[2] = {x->sec_le[k], x->sec_te[k]};
      for (int e = 0; e < 2; e++) {
        const double *f0 = a->point_f_b + 3 * pp[e], *da = a->point_da + 3 * pp[e],
                     *db = a->point_db + 3 * pp[e];
        double *fb = a->point_cur_b + 3 * pp[e], fw[3];
        for (int i = 0; i < 3; i++) fb[i] = x->sq * (f0[i] + da[i] * x->dal + db[i] * x->dbe);
        if (x->wagner)
          for (int i = 0; i < 3; i++) fb[i] += x->sq * a->point_dd[3 * pp[e] + i] * x->ddd;
        awe_mat3_vec(R, fb, fw);
        awe_v3_addto(w->force + 3 * pp[e], 1.0, fw);
      }
    }
  }
  (void)m;
}


int awe_aero_point_force_slope(const awe_work *w, int j, int i, double G[9]) {
  const struct awe_aero *a = w->aero;
  memset(G, 0, 9 * sizeof(double));
  if (!a || j < 0 || j >= a->nwing) return 0;
  const aero_wing *x = &a->wing[j];
  if (!x->vsm || x->rigid || !x->valid || x->mode != AWE_AERO_LINEARIZED || !(x->y0[0] > 0.0))
    return 0;
  const double *f0 = a->point_f_b + 3 * i, *da = a->point_da + 3 * i, *db = a->point_db + 3 * i;
  const double *dd = a->point_dd + 3 * i;
  for (int r = 0; r < 3; r++) {
    double g = f0[r] + da[r] * x->dal + db[r] * x->dbe;
    if (x->wagner) g += dd[r] * x->ddd;
    for (int c = 0; c < 3; c++)
      G[3 * r + c] = g * x->dsq[c] + x->sq * (da[r] * x->ddal[c] + db[r] * x->ddbe[c]);
  }
  return 1;
}


int awe_aero_unsteady_init(const awe_model *m, awe_work *w) {
  for (int j = 0; j < m->nwing; j++) {
    aero_wing *x = w->aero ? &w->aero->wing[j] : NULL;
    w->wing_wag_chord[j] = 1.0;
    w->wing_wag_d[j] = 0.0;
    w->wing_ma[j] = 0.0;
    if (!x || !x->vsm) continue;
    awe_vsm_geometry g;
    awe_vsm_wing_geometry(x->vsm, &g);
    double cw = 0.0, ws = 0.0;
    for (int i = 0; i < g.n_panels; i++) {
      cw += g.chord[i] * g.width[i];
      ws += g.width[i];
    }
    if (ws > 0.0 && cw > 0.0) w->wing_wag_chord[j] = cw / ws;
    double scale = m->wing_apparent_mass[j];
    if (!(scale > 0.0) || x->rigid || !w->point_ma || x->pan_ma) continue;
    x->pan_ma = malloc(sizeof(double) * (size_t)(x->npan > 0 ? x->npan : 1));
    if (!x->pan_ma) return -1;
    x->ma_coef = 0.0;
    for (int i = 0; i < x->npan; i++) {
      double c = i < g.n_panels ? g.chord[i] : 0.0, wd = i < g.n_panels ? g.width[i] : 0.0;
      x->pan_ma[i] = scale * AWE_PI * c * c * wd / 4.0;
      x->ma_coef += x->pan_ma[i];
    }
    apparent_mass_points(m, w, j, x, x->rho_vsm);
  }
  return 0;
}


double awe_aero_apparent_mass(const awe_work *w, int j, double rho) {
  const struct awe_aero *a = w->aero;
  if (!a || j < 0 || j >= a->nwing || !a->wing[j].pan_ma) return 0.0;
  return rho * a->wing[j].ma_coef;
}
