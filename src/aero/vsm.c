/* vsm.c: the Vortex Step Method wing: allocation (one block, carved), airfoil polars per
 * panel, and the updates between solves (sections, twist, settings). The method is split by
 * stage, one file each: vsm_geometry.c (sections -> panels), vsm_influence.c (inflow and the
 * influence matrices), vsm_circulation.c (the circulation solve), vsm_loads.c (forces, moments,
 * coefficients), vsm_solve.c (one solve from inflow to loads); the shared state is
 * vsm_internal.h, the equations docs/vsm.md.
 *
 * Sources: Cayon, Gaunaa, Schmehl, "Fast aero-structural model of a leading-edge inflatable kite",
 * Energies 16:3061 (2023); VortexStepMethod.jl (solver.jl, body_aerodynamics.jl, panel.jl) and
 * awegroup/Vortex-Step-Method (Solver.py); the method in docs/vsm.md.
 */
#include <math.h>
#include <stdarg.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aero/vsm_internal.h"
#include "util/mem_budget.h"
#include "util/vec3.h"


__attribute__((format(printf, 3, 4)))
static void seterr(char *err, size_t errsz, const char *fmt, ...) {
  if (!err || !errsz) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errsz, fmt, ap);
  va_end(ap);
}



/* ---- allocation ---------------------------------------------------------------------------- */

/* Point the workspace arrays into one block; with base == NULL only count. Returns bytes. */
static size_t carve(awe_vsm_wing *w, char *base) {
  const size_t n = (size_t)w->n, m = (size_t)w->nsec, q = n + 1, nn = n*n;
  size_t off = 0;
#define TAKE(ptr, type, count)                                  \
  do {                                                          \
    off = (off + 15u) & ~(size_t)15u;                           \
    if (base) ptr = (type *)(void *)(base + off);               \
    off += sizeof(type)*(size_t)(count);                        \
  } while (0)
  TAKE(w->pa, awe_vsm_panel_aero, n);
  TAKE(w->sec_le, double, 3*m);
  TAKE(w->sec_te, double, 3*m);
  TAKE(w->sec_theta, double, m);
  TAKE(w->theta_user, double, m);
  TAKE(w->ref_w, double, q);
  TAKE(w->ref_le, double, 3*q);
  TAKE(w->ref_te, double, 3*q);
  TAKE(w->ref_te0, double, 3*q);
  TAKE(w->ref_y, double, 3*q);
  TAKE(w->b1, double, 3*n);
  TAKE(w->b2, double, 3*n);
  TAKE(w->ac, double, 3*n);
  TAKE(w->cp, double, 3*n);
  TAKE(w->ec, double, 3*n);
  TAKE(w->en, double, 3*n);
  TAKE(w->es, double, 3*n);
  TAKE(w->chord, double, n);
  TAKE(w->width, double, n);
  TAKE(w->g_main, double, 3*nn);
  TAKE(w->g_ac, double, 3*nn);
  TAKE(w->vc_main, double, nn);
  TAKE(w->vc_ac, double, nn);
  TAKE(w->gc_qc, double, 3*q);
  TAKE(w->gc_te, double, 3*q);
  TAKE(w->gc_main, double, 3*n);
  TAKE(w->gc_ac, double, 3*n);
  TAKE(w->node_v, double, 3*q);
  TAKE(w->node_r0, double, 3*q);
  TAKE(w->node_l2, double, q);
  TAKE(w->node_sl, double, q);
  TAKE(w->bnd_r0, double, 3*n);
  TAKE(w->bnd_l2, double, n);
  TAKE(w->bnd_eps, double, n);
  TAKE(w->row_rq, double, 3*q);
  TAKE(w->row_rt, double, 3*q);
  TAKE(w->row_nq, double, q);
  TAKE(w->row_nt, double, q);
  TAKE(w->node_v1, double, q);
  TAKE(w->node_v2, double, q);
  TAKE(w->aic, double, 3*nn);
  TAKE(w->semi, double, 3*q);
  TAKE(w->leg_n, double, q);
  TAKE(w->leg1, double, 3*q);
  TAKE(w->leg2, double, 3*q);
  TAKE(w->va, double, 3*n);
  TAKE(w->dva, double, 3*n);
  TAKE(w->va_norm, double, n);
  TAKE(w->ecoef, double, n);
  TAKE(w->kfac, double, n);
  TAKE(w->va_unit, double, 3*n);
  TAKE(w->v_ref, double, n);
  TAKE(w->gam, double, n);
  TAKE(w->gam_start, double, n);
  TAKE(w->gam_prev, double, n);
  TAKE(w->gtry, double, n);
  TAKE(w->graw, double, n);
  TAKE(w->gtarget, double, n);
  TAKE(w->gtarget_try, double, n);
  TAKE(w->step, double, n);
  TAKE(w->rhs, double, n);
  TAKE(w->vel, double, 3*n);
  TAKE(w->alpha, double, n);
  TAKE(w->v_eff, double, n);
  TAKE(w->clv, double, n);
  TAKE(w->gvec, double, 3*n);
  TAKE(w->mu, double, n);
  TAKE(w->relax, double, n);
  TAKE(w->tri, double, 4*n);
  TAKE(w->jac, double, nn);
  TAKE(w->alpha_ac, double, n);
  TAKE(w->cdv, double, n);
  TAKE(w->cmv, double, n);
  TAKE(w->pforce, double, 3*n);
  TAKE(w->pmom, double, n);
  TAKE(w->smom, double, m);
  TAKE(w->lin_gam, double, n);
  TAKE(w->lin_theta, double, m);
  TAKE(w->lin_xp, double, 6 + m);
  TAKE(w->lin_xm, double, 6 + m);
  TAKE(w->sec_af, int, m);
  TAKE(w->ref_l, int, q);
  TAKE(w->pan_sec, int, n);
  TAKE(w->pan_sec_user, int, n);
  TAKE(w->piv, int, n);
  TAKE(w->node_moved, int, q);
  TAKE(w->node_need, int, q);
  TAKE(w->pan_moved, int, n);
#undef TAKE
  return off;
}


/* Deep copy of the airfoils; polar rows with NaN are dropped when remove_nan. */
static int copy_airfoils(awe_vsm_wing *w, const awe_airfoil *af, int naf, char *err,
                         size_t errsz) {
  w->naf = naf;
  if (naf <= 0) return 0;
  w->af = calloc((size_t)naf, sizeof(awe_airfoil));
  if (!w->af) {
    seterr(err, errsz, "vsm: out of memory");
    return -1;
  }
  size_t rows = 0;
  for (int k = 0; k < naf; k++) {
    if (af[k].type == AWE_AIRFOIL_POLARS) {
      if (af[k].n < 1 || !af[k].alpha) {
        seterr(err, errsz, "vsm: airfoil %d (id %d): empty polar table", k, af[k].id);
        return -1;
      }
      rows += (size_t)af[k].n;
    }
  }
  if (rows) {
    w->af_rows = malloc(4*rows*sizeof(double));
    if (!w->af_rows) {
      seterr(err, errsz, "vsm: out of memory");
      return -1;
    }
  }

  double *p = w->af_rows;
  for (int k = 0; k < naf; k++) {
    w->af[k] = af[k];
    if (af[k].type == AWE_AIRFOIL_BREUKELS) {
      if (!isfinite(af[k].t) || !isfinite(af[k].kappa)) {
        seterr(err, errsz, "vsm: airfoil %d (id %d): non-finite Breukels parameters", k,
               af[k].id);
        return -1;
      }
      continue;
    }
    if (af[k].type != AWE_AIRFOIL_POLARS) {
      w->af[k].type = AWE_AIRFOIL_INVISCID;
      continue;
    }

    // copy the rows, dropping NaN rows when remove_nan
    const int n0 = af[k].n;
    double *a = p, *cl = p + n0, *cd = p + 2*n0, *cm = p + 3*n0;
    int nk = 0;
    for (int j = 0; j < n0; j++) {
      double va = af[k].alpha[j];
      double vl = af[k].cl ? af[k].cl[j] : 0.0;
      double vd = af[k].cd ? af[k].cd[j] : 0.0;
      double vm = af[k].cm ? af[k].cm[j] : 0.0;
      int bad = !isfinite(va) || !isfinite(vl) || !isfinite(vd) || !isfinite(vm);
      if (bad && w->s.remove_nan) continue;
      if (!isfinite(va)) {
        seterr(err, errsz, "vsm: airfoil %d (id %d): non-finite alpha in polar", k, af[k].id);
        return -1;
      }
      a[nk] = va;
      cl[nk] = vl;
      cd[nk] = vd;
      cm[nk] = vm;
      nk++;
    }
    if (nk < 1) {
      seterr(err, errsz, "vsm: airfoil %d (id %d): no finite polar rows", k, af[k].id);
      return -1;
    }
    for (int j = 1; j < nk; j++) {
      if (!(a[j] > a[j - 1])) {
        seterr(err, errsz, "vsm: airfoil %d (id %d): polar alpha not strictly increasing", k,
               af[k].id);
        return -1;
      }
    }
    w->af[k].n = nk;
    w->af[k].alpha = a;
    w->af[k].cl = cl;
    w->af[k].cd = cd;
    w->af[k].cm = cm;
    p += 4*n0;
  }
  return 0;
}


/* Airfoil blend of every panel from the refinement weights of its two refined sections. */
static void setup_panel_aero(awe_vsm_wing *w) {
  for (int i = 0; i < w->n; i++) {
    awe_vsm_panel_aero *pa = &w->pa[i];
    memset(pa, 0, sizeof(*pa));
    int idx[4];
    double wt[4];
    int nt = 0;
    for (int e = 0; e < 2; e++) {
      const int r = i + e, l = w->ref_l[r];
      const int cand[2] = {w->sec_af[l], w->sec_af[l + 1]};
      const double cw[2] = {0.5*w->ref_w[r], 0.5*(1.0 - w->ref_w[r])};
      for (int c = 0; c < 2; c++) {
        if (cw[c] <= 0.0) continue;
        int found = -1;
        for (int t = 0; t < nt; t++) {
          if (idx[t] == cand[c]) found = t;
        }
        if (found >= 0) {
          wt[found] += cw[c];
        } else {
          idx[nt] = cand[c];
          wt[nt] = cw[c];
          nt++;
        }
      }
    }

    // all Breukels: blend the parameters (the regression is nonlinear in t and kappa)
    int all_breukels = nt > 0;
    for (int t = 0; t < nt; t++) {
      if (idx[t] < 0 || w->af[idx[t]].type != AWE_AIRFOIL_BREUKELS) all_breukels = 0;
    }
    if (all_breukels) {
      pa->nterm = 0;
      pa->own.type = AWE_AIRFOIL_BREUKELS;
      for (int t = 0; t < nt; t++) {
        pa->own.t += wt[t]*w->af[idx[t]].t;
        pa->own.kappa += wt[t]*w->af[idx[t]].kappa;
      }
      continue;
    }

    pa->nterm = nt;
    pa->amin = -INFINITY;
    pa->amax = INFINITY;
    for (int t = 0; t < nt; t++) {
      pa->idx[t] = idx[t];
      pa->wt[t] = wt[t];
      if (idx[t] >= 0 && w->af[idx[t]].type == AWE_AIRFOIL_POLARS) {
        const awe_airfoil *a = &w->af[idx[t]];
        pa->has_polar = 1;
        pa->amin = fmax(pa->amin, a->alpha[0]);
        pa->amax = fmin(pa->amax, a->alpha[a->n - 1]);
      }
    }
  }
}


/* Section coefficients of panel i at alpha. */
void awe_vsm_panel_coeffs(const awe_vsm_wing *w, int i, double alpha, double *cl, double *cd,
                          double *cm) {
  const awe_vsm_panel_aero *pa = &w->pa[i];
  if (w->alpha_shift != 0.0) alpha -= w->alpha_shift; /* the Wagner lag: the polar's alpha */
  if (pa->nterm == 0) {
    awe_airfoil_eval(&pa->own, alpha, cl, cd, cm);
    return;
  }
  double sl = 0.0, sd = 0.0, sm = 0.0;
  for (int t = 0; t < pa->nterm; t++) {
    double l = 0.0, d = 0.0, m = 0.0;
    const awe_airfoil *a = pa->idx[t] >= 0 ? &w->af[pa->idx[t]] : NULL;
    awe_airfoil_eval(a, alpha, cl ? &l : NULL, cd ? &d : NULL, cm ? &m : NULL);
    sl += pa->wt[t]*l;
    sd += pa->wt[t]*d;
    sm += pa->wt[t]*m;
  }
  // VortexStepMethod.jl with remove_nan = false: NaN outside the tables
  if (pa->has_polar && !w->s.remove_nan && (alpha < pa->amin || alpha > pa->amax)) {
    sl = sd = sm = NAN;
  }
  if (cl) *cl = sl;
  if (cd) *cd = sd;
  if (cm) *cm = sm;
}


/* Angle of each panel's largest cl on a 0.1 deg grid over -20..40 deg (INFINITY when cl still
 * rises at 40 deg): beyond it a panel is post-stall (awe_vsm_result.n_stalled). */
static void find_clmax(awe_vsm_wing *w) {
  const double a0 = -20.0*AWE_PI/180.0, da = 0.1*AWE_PI/180.0;
  const int na = 600;
  for (int i = 0; i < w->n; i++) {
    double best = -INFINITY;
    int kbest = na;
    for (int k = 0; k <= na; k++) {
      double cl;
      awe_vsm_panel_coeffs(w, i, a0 + k*da, &cl, NULL, NULL);
      if (cl > best) {
        best = cl;
        kbest = k;
      }
    }
    w->pa[i].a_clmax = kbest >= na ? INFINITY : a0 + kbest*da;
  }
}


double awe_vsm_panel_cl(const awe_vsm_wing *w, int i, double alpha) {
  double cl;
  awe_vsm_panel_coeffs(w, i, alpha, &cl, NULL, NULL);
  return cl;
}


awe_vsm_wing *awe_vsm_wing_alloc(const awe_vsm_section *sec, int nsec, const awe_airfoil *af,
                                 int naf, const awe_vsm_settings *s, char *err, size_t errsz) {
  if (err && errsz) err[0] = '\0';
  if (!sec || !s) {
    seterr(err, errsz, "vsm: NULL sections or settings");
    return NULL;
  }
  if (nsec < 2) {
    seterr(err, errsz, "vsm: need at least 2 sections, got %d", nsec);
    return NULL;
  }
  if (naf > 0 && !af) {
    seterr(err, errsz, "vsm: NULL airfoil array with %d airfoils", naf);
    return NULL;
  }

  // settings
  if (!(s->relaxation_factor > 0.0 && s->relaxation_factor <= 1.0)) {
    seterr(err, errsz, "vsm: relaxation_factor must be in (0, 1]");
    return NULL;
  }
  if (!(s->rtol > 0.0) || s->max_iterations < 1 || !(s->density > 0.0) ||
      !(s->tol_reference_error >= 0.0) || !(s->core_radius_fraction >= 0.0)) {
    seterr(err, errsz,
           "vsm: invalid solver settings (need rtol > 0, max_iterations >= 1, density > 0, "
           "tol_reference_error >= 0, core_radius_fraction >= 0)");
    return NULL;
  }
  double sdir[3] = {s->spanwise_direction[0], s->spanwise_direction[1],
                    s->spanwise_direction[2]};
  if (!awe_vsm_finite3(sdir) || awe_v3_norm(sdir) <= 0.0) {
    seterr(err, errsz, "vsm: spanwise_direction must be a non-zero vector");
    return NULL;
  }
  awe_v3_normalize(sdir);

  // panel count from the distribution
  int n;
  if (s->distribution == AWE_DIST_UNCHANGED) {
    n = nsec - 1;
  } else {
    n = s->n_panels;
    if (n < 1) {
      seterr(err, errsz, "vsm: n_panels must be >= 1, got %d", n);
      return NULL;
    }
    if ((s->distribution == AWE_DIST_SPLIT_PROVIDED || s->distribution == AWE_DIST_BILLOWING) &&
        n % (nsec - 1) != 0) {
      seterr(err, errsz, "vsm: %s needs n_panels (%d) to be a multiple of the number of provided "
             "panels (%d)", s->distribution == AWE_DIST_BILLOWING ? "BILLOWING" : "SPLIT_PROVIDED",
             n, nsec - 1);
      return NULL;
    }
    if (s->distribution == AWE_DIST_COSINE_VAN_GARREL && n != nsec - 1) {
      seterr(err, errsz, "vsm: COSINE_VAN_GARREL is not supported (broken upstream); use "
             "COSINE");
      return NULL;
    }
    if (s->distribution < AWE_DIST_LINEAR || s->distribution > AWE_DIST_BILLOWING) {
      seterr(err, errsz, "vsm: unknown spanwise distribution %d", (int)s->distribution);
      return NULL;
    }
  }

  // sections: finite points, non-zero chords, valid airfoil indices
  for (int k = 0; k < nsec; k++) {
    double c[3] = {sec[k].te[0] - sec[k].le[0], sec[k].te[1] - sec[k].le[1],
                   sec[k].te[2] - sec[k].le[2]};
    if (!awe_vsm_finite3(sec[k].le) || !awe_vsm_finite3(sec[k].te)) {
      seterr(err, errsz, "vsm: section %d: non-finite LE/TE", k);
      return NULL;
    }
    if (!(awe_v3_norm(c) > 0.0)) {
      seterr(err, errsz, "vsm: section %d: zero chord", k);
      return NULL;
    }
    if (sec[k].airfoil >= naf) {
      seterr(err, errsz, "vsm: section %d: airfoil index %d out of range", k, sec[k].airfoil);
      return NULL;
    }
  }

  awe_vsm_wing *w = calloc(1, sizeof(*w));
  if (!w) {
    seterr(err, errsz, "vsm: out of memory");
    return NULL;
  }
  w->s = *s;
  w->nsec = nsec;
  w->n = n;
  w->moment_frac = 0.25;
  w->last_status = AWE_VSM_EINVAL;  // no solve yet (awe_vsm_velocity_at)
  memcpy(w->sdir, sdir, sizeof(sdir));
  w->s.spanwise_direction[0] = sdir[0];
  w->s.spanwise_direction[1] = sdir[1];
  w->s.spanwise_direction[2] = sdir[2];

  // one block for all arrays
  size_t bytes = carve(w, NULL);
  /* the influence matrices grow as panels squared: 10,000 panels ask for gigabytes */
  awe_err merr = {0};
  char what[64];
  snprintf(what, sizeof(what), "a VSM wing of %d panels", n);
  if (awe_mem_check((double)bytes, what, &merr)) {
    awe_vsm_wing_free(w);
    seterr(err, errsz, "vsm: %s", merr.msg);
    return NULL;
  }
  char *block = calloc(1, bytes);
  if (!block) {
    free(block);
    awe_vsm_wing_free(w);
    seterr(err, errsz, "vsm: out of memory (%d panels)", n);
    return NULL;
  }
  carve(w, block);

  if (copy_airfoils(w, af, naf, err, errsz) != 0) {
    awe_vsm_wing_free(w);
    return NULL;
  }

  // internal order runs from +y (along spanwise_direction) to -y
  double qa[3], qb[3];
  for (int c = 0; c < 3; c++) {
    qa[c] = sec[0].le[c] + 0.25*(sec[0].te[c] - sec[0].le[c]);
    qb[c] = sec[nsec - 1].le[c] + 0.25*(sec[nsec - 1].te[c] - sec[nsec - 1].le[c]);
  }
  w->reversed = awe_v3_dot(qa, sdir) < awe_v3_dot(qb, sdir);
  for (int k = 0; k < nsec; k++) {
    const awe_vsm_section *sk = &sec[w->reversed ? nsec - 1 - k : k];
    memcpy(w->sec_le + 3*k, sk->le, 3*sizeof(double));
    memcpy(w->sec_te + 3*k, sk->te, 3*sizeof(double));
    w->sec_af[k] = sk->airfoil < 0 ? -1 : sk->airfoil;
  }

  if (awe_vsm_geom_setup(w, err, errsz) != 0) {
    awe_vsm_wing_free(w);
    return NULL;
  }
  awe_vsm_geom_update(w);
  awe_vsm_geom_map_panels(w);
  setup_panel_aero(w);
  find_clmax(w);
  for (int i = 0; i < n; i++) {
    if (!(w->width[i] > 0.0) || !(w->chord[i] > 0.0)) {
      seterr(err, errsz, "vsm: panel %d has zero width or chord (coincident sections?)", i);
      awe_vsm_wing_free(w);
      return NULL;
    }
  }
  return w;
}


void awe_vsm_wing_free(awe_vsm_wing *w) {
  if (!w) return;
  free(w->af_rows);
  free(w->af);
  free(w->pa);  // the block starts with the panel aero array
  free(w);
}


/* ---- wing updates -------------------------------------------------------------------------- */

int awe_vsm_wing_set_sections(awe_vsm_wing *w, const awe_vsm_section *sec, int nsec) {
  if (!w || !sec || nsec != w->nsec) return AWE_VSM_EINVAL;
  for (int k = 0; k < nsec; k++) {
    double c[3] = {sec[k].te[0] - sec[k].le[0], sec[k].te[1] - sec[k].le[1],
                   sec[k].te[2] - sec[k].le[2]};
    if (!awe_vsm_finite3(sec[k].le) || !awe_vsm_finite3(sec[k].te) || !(awe_v3_norm(c) > 0.0)) return AWE_VSM_EINVAL;
  }
  for (int k = 0; k < nsec; k++) {
    const awe_vsm_section *sk = &sec[w->reversed ? nsec - 1 - k : k];
    memcpy(w->sec_le + 3*k, sk->le, 3*sizeof(double));
    memcpy(w->sec_te + 3*k, sk->te, 3*sizeof(double));
  }
  awe_vsm_geom_update(w);
  return AWE_VSM_OK;
}


void awe_vsm_wing_set_panel_wind(awe_vsm_wing *w, const double *dva_b) {
  w->has_dva = dva_b != NULL;
  if (dva_b) memcpy(w->dva, dva_b, sizeof(double) * 3 * (size_t)w->n);
}


int awe_vsm_wing_set_twist(awe_vsm_wing *w, const double *theta) {
  if (!w) return AWE_VSM_EINVAL;
  if (theta) {
    for (int k = 0; k < w->nsec; k++) {
      if (!isfinite(theta[k])) return AWE_VSM_EINVAL;
    }
  }
  for (int k = 0; k < w->nsec; k++) {
    const double t = theta ? theta[k] : 0.0;
    w->theta_user[k] = t;
    w->sec_theta[w->reversed ? w->nsec - 1 - k : k] = t;
  }
  awe_vsm_geom_update_twist(w);
  return AWE_VSM_OK;
}


const double *awe_vsm_wing_twist(const awe_vsm_wing *w) {
  return w ? w->theta_user : NULL;
}


void awe_vsm_wing_set_alpha_shift(awe_vsm_wing *w, double shift) {
  if (w && isfinite(shift)) w->alpha_shift = shift;
}


void awe_vsm_wing_set_moment_frac(awe_vsm_wing *w, double frac) {
  if (w && isfinite(frac)) w->moment_frac = frac;
}


void awe_vsm_wing_set_stop(awe_vsm_wing *w, const awe_stop_flag *stop) {
  if (w) w->stop = stop;
}


void awe_vsm_wing_reset_gamma(awe_vsm_wing *w) {
  if (w) w->gam_prev_valid = 0;
}


void awe_vsm_wing_reset(awe_vsm_wing *w) {
  if (!w) return;
  w->gam_prev_valid = 0;
  w->lu_valid = 0;
}


void awe_vsm_wing_set_settings(awe_vsm_wing *w, const awe_vsm_settings *s) {
  if (!w || !s) return;
  awe_vsm_settings keep = w->s;
  w->s = *s;
  w->s.n_panels = keep.n_panels;
  w->s.distribution = keep.distribution;
  memcpy(w->s.spanwise_direction, keep.spanwise_direction, sizeof(keep.spanwise_direction));
  if (!(w->s.relaxation_factor > 0.0 && w->s.relaxation_factor <= 1.0)) {
    w->s.relaxation_factor = keep.relaxation_factor;
  }
  if (!(w->s.rtol > 0.0)) w->s.rtol = keep.rtol;
  if (w->s.max_iterations < 1) w->s.max_iterations = keep.max_iterations;
  w->geom_valid = 0;  // the model and the bound core enter the cached matrices
  w->lu_valid = 0;
}


const awe_vsm_settings *awe_vsm_wing_settings(const awe_vsm_wing *w) {
  return w ? &w->s : NULL;
}


void awe_vsm_wing_geometry(const awe_vsm_wing *w, awe_vsm_geometry *g) {
  if (!w || !g) return;
  g->n_panels = w->n;
  g->n_sections = w->nsec;
  g->area = w->area;
  g->span = w->span;
  g->c_ref = w->c_ref;
  g->moment_frac = w->moment_frac;
  g->aero_center = w->ac;
  g->control_point = w->cp;
  g->chord = w->chord;
  g->width = w->width;
  g->e_chord = w->ec;
  g->e_normal = w->en;
  g->e_span = w->es;
  g->panel_section = w->pan_sec_user;
}
