/* linearize.c: central-difference linearization with rotation-vector orientation coordinates,
 * the model as a linearization problem, default channels, and the operating point.
 *
 * Equations and sources: see linearize.h (seed 002 OpenFAST ModVar; physics.md §11).
 */
#include "analysis/linearize.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/input_signal.h"
#include "util/kite_frames.h"
#include "engine/aero_coupling.h"
#include "engine/outputs.h"
#include "solve/steady.h"
#include "engine/winch.h"

/* ---- quaternions (w, x, y, z): products, exp and log are kite_frames.h's ---- */

/* body rate omega = 2 Im(q* qdot) / |q|^2 */
static void qrate(const double q[4], const double qd[4], double om[3]) {
  double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (!(n2 > 0.0)) n2 = 1.0;
  const double *v = q + 1, *d = qd + 1;
  double c[3];
  awe_v3_cross(c, v, d);
  for (int k = 0; k < 3; k++) om[k] = 2.0 * (q[0] * d[k] - qd[0] * v[k] - c[k]) / n2;
}


/* r = Jr^-1(th) om */
static void jr_inv(const double th[3], const double om[3], double r[3]) {
  double a2 = awe_v3_dot(th, th), a = sqrt(a2);
  double g = a < 1e-4 ? 1.0 / 12.0 + a2 / 720.0
                      : 1.0 / a2 - (1.0 + cos(a)) / (2.0 * a * sin(a));
  double c1[3], c2[3];
  awe_v3_cross(c1, th, om);
  awe_v3_cross(c2, th, c1);
  for (int k = 0; k < 3; k++) r[k] = om[k] + 0.5 * c1[k] + g * c2[k];
}

/* ---- channels ---- */

static int var_nchan(const awe_var *v) { return (v->flags & AWE_VF_QUAT) ? 3 : v->dim; }


int awe_lin_nchan(const awe_varlist *l) {
  int n = 0;
  for (int i = 0; i < l->n; i++) n += var_nchan(&l->v[i]);
  return n;
}


void awe_lin_channels(const awe_varlist *l, awe_lin_chan *ch) {
  int n = 0;
  for (int i = 0; i < l->n; i++) {
    const awe_var *v = &l->v[i];
    int q = (v->flags & AWE_VF_QUAT) != 0;
    for (int k = 0; k < var_nchan(v); k++) {
      ch[n].var = i;
      ch[n].k = k;
      ch[n].scalar = v->offset + (q ? 0 : k);
      n++;
    }
  }
}


void awe_lin_chan_name(const awe_varlist *l, const awe_lin_chan *c, char *buf, size_t n) {
  const awe_var *v = &l->v[c->var];
  if (v->flags & AWE_VF_QUAT) {
    static const char *const r[] = {"rx", "ry", "rz"};
    char base[448];
    awe_var_name(v, base, sizeof(base));
    snprintf(buf, n, "%s.%s", base, r[c->k]);
  } else {
    awe_var_scalar_name(v, c->k, buf, n);
  }
}


const char *awe_lin_chan_unit(const awe_varlist *l, const awe_lin_chan *c) {
  const awe_var *v = &l->v[c->var];
  return (v->flags & AWE_VF_QUAT) ? "rad" : v->unit;
}


/* copy pattern [s, e) without blanks into buf */
static void trim_copy(const char *s, const char *e, char *buf, size_t n) {
  while (s < e && (*s == ' ' || *s == '\t')) s++;
  while (e > s && (e[-1] == ' ' || e[-1] == '\t')) e--;
  size_t len = (size_t)(e - s);
  if (len >= n) len = n - 1;
  memcpy(buf, s, len);
  buf[len] = 0;
}


awe_status awe_lin_select(const awe_varlist *l, const char *patterns, unsigned need_flags,
                          awe_lin_chan **out, int *n, awe_err *err) {
  *out = NULL;
  *n = 0;
  int nall = awe_lin_nchan(l);
  awe_lin_chan *all = malloc(sizeof(*all) * (size_t)(nall + 1));
  awe_lin_chan *sel = malloc(sizeof(*sel) * (size_t)(nall + 1));
  char **names = calloc((size_t)nall + 1, sizeof(char *));
  char *store = malloc((size_t)(nall + 1) * 256);
  awe_status st = AWE_OK;
  if (!all || !sel || !names || !store) {
    st = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto done;
  }
  awe_lin_channels(l, all);
  int ncand = 0;
  for (int j = 0; j < nall; j++) {
    names[j] = store + (size_t)j * 256;
    awe_lin_chan_name(l, &all[j], names[j], 256);
  }
  unsigned char *used = calloc((size_t)nall + 1, 1);
  if (!used) {
    st = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto done;
  }
  const char *s = patterns ? patterns : "";
  while (*s) {
    const char *c = strchr(s, ',');
    const char *e = c ? c : s + strlen(s);
    char pat[256];
    trim_copy(s, e, pat, sizeof(pat));
    s = c ? c + 1 : e;
    if (!pat[0]) continue;
    int hit = 0;
    for (int j = 0; j < nall; j++) {
      const awe_var *v = &l->v[all[j].var];
      if ((v->flags & need_flags) != need_flags) continue;
      char vname[448];
      awe_var_name(v, vname, sizeof(vname));
      if (awe_glob_match(pat, names[j]) || awe_glob_match(pat, vname)) {
        hit = 1;
        used[j] = 1;
      }
    }
    if (!hit) {
      const char **cands = (const char **)names;
      for (int j = 0; j < nall; j++)
        if ((l->v[all[j].var].flags & need_flags) == need_flags) cands[ncand++] = names[j];
      const char *best = awe_closest(pat, cands, ncand);
      if (best)
        st = awe_err_set(err, AWE_EUSAGE, "'%s' matches no variable (did you mean '%s'?)", pat,
                         best);
      else
        st = awe_err_set(err, AWE_EUSAGE, "'%s' matches no variable%s%s%s", pat,
                         ncand ? " (e.g. " : "", ncand ? cands[0] : "", ncand ? ")" : "");
      free(used);
      goto done;
    }
  }
  for (int j = 0; j < nall; j++)
    if (used[j]) sel[(*n)++] = all[j];
  free(used);
  *out = sel;
  sel = NULL;
done:
  free(all);
  free(sel);
  free(names);
  free(store);
  return st;
}

/* ---- linearization ---- */

/* minimal derivative rows of all state channels from the full dxdt at x; a QUAT variable
 * perturbed by the rotation vector th (qv = its index, -1: none) uses Jr^-1(th) */
static void minimal_deriv(const awe_varlist *xl, const awe_lin_chan *xc, int nx, const double *x,
                          const double *dxdt, int qv, const double th[3], double *out) {
  for (int j = 0; j < nx; j++) {
    const awe_var *v = &xl->v[xc[j].var];
    if (!(v->flags & AWE_VF_QUAT)) {
      out[j] = dxdt[xc[j].scalar];
      continue;
    }
    if (xc[j].k != 0) continue;
    double om[3], r[3];
    static const double zero[3] = {0.0, 0.0, 0.0};
    qrate(x + v->offset, dxdt + v->offset, om);
    jr_inv(xc[j].var == qv ? th : zero, om, r);
    for (int k = 0; k < 3; k++) out[j + k] = r[k];
  }
}


/* output coordinates relative to the operating point: y - y_op (angles wrapped), rotation
 * vectors of q_op* q for quaternions */
static void output_rel(const awe_varlist *yl, const awe_lin_chan *yc, int ny, const double *y,
                       const double *y0, double *out) {
  for (int j = 0; j < ny; j++) {
    const awe_var *v = &yl->v[yc[j].var];
    int o = yc[j].scalar;
    if (v->flags & AWE_VF_QUAT) {
      double c[4] = {y0[o], -y0[o + 1], -y0[o + 2], -y0[o + 3]}, d[4], th[3];
      awe_quat_mul(c, y + o, d);
      awe_quat_to_rotvec(d, th);
      out[j] = th[yc[j].k];
    } else if (v->flags & AWE_VF_ANGLE) {
      out[j] = remainder(y[o] - y0[o], 2.0 * AWE_PI);
    } else {
      out[j] = y[o] - y0[o];
    }
  }
}


static double chan_perturb(const awe_var *v, double val) {
  if (v->perturb > 0.0) return v->perturb;
  return 1e-6 * (fabs(val) > 1.0 ? fabs(val) : 1.0);
}


static awe_status eval_fail(awe_err *err, const char *what, const char *name, int rc) {
  return awe_err_set(err, AWE_ENOCONV,
                     "linearize: the right-hand side cannot be evaluated %s%s (status %d)", what,
                     name, rc);
}


awe_status awe_lin_deriv(const awe_lin_problem *p, const double *x, const double *u,
                         double *dx_min, double *residual, int *worst, awe_err *err) {
  int nxf = p->xl->size, nyf = p->yl->size, nx = awe_lin_nchan(p->xl);
  double *f = malloc(sizeof(double) * (size_t)(nxf + nyf + 1));
  awe_lin_chan *xc = malloc(sizeof(*xc) * (size_t)(nx + 1));
  if (!f || !xc) {
    free(f);
    free(xc);
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  int rc = p->eval(p->ctx, x, u, f, f + nxf);
  if (rc) {
    free(f);
    free(xc);
    return eval_fail(err, "at the operating point", "", rc);
  }
  awe_lin_channels(p->xl, xc);
  minimal_deriv(p->xl, xc, nx, x, f, -1, NULL, dx_min);
  double r2 = 0.0, big = -1.0;
  int wi = -1;
  for (int j = 0; j < nx; j++) {
    if (p->integrating && p->integrating(&p->xl->v[xc[j].var])) continue;
    r2 += dx_min[j] * dx_min[j];
    if (fabs(dx_min[j]) > big) {
      big = fabs(dx_min[j]);
      wi = j;
    }
  }
  if (residual) *residual = sqrt(r2);
  if (worst) *worst = wi;
  free(f);
  free(xc);
  return AWE_OK;
}


static char *dupname(const awe_varlist *l, const awe_lin_chan *c) {
  char buf[512];
  awe_lin_chan_name(l, c, buf, sizeof(buf));
  size_t n = strlen(buf) + 1;
  char *s = malloc(n);
  if (s) memcpy(s, buf, n);
  return s;
}


void awe_linsys_free(awe_linsys *L) {
  if (!L) return;
  free(L->A);
  free(L->B);
  free(L->C);
  free(L->D);
  free(L->x_op);
  free(L->u_op);
  free(L->y_op);
  free(L->dx_op);
  free(L->x_perturb);
  free(L->u_perturb);
  free(L->x_integrating);
  for (int i = 0; L->x_name && i < L->nx; i++) free(L->x_name[i]);
  for (int i = 0; L->u_name && i < L->nu; i++) free(L->u_name[i]);
  for (int i = 0; L->y_name && i < L->ny; i++) free(L->y_name[i]);
  free(L->x_name);
  free(L->u_name);
  free(L->y_name);
  free(L->x_unit);
  free(L->u_unit);
  free(L->y_unit);
  memset(L, 0, sizeof(*L));
}


static void *zalloc(size_t n, size_t size) { return calloc(n ? n : 1, size); }


static awe_status linsys_alloc(awe_linsys *L, const awe_lin_problem *p, const awe_lin_chan *xc) {
  int nx = L->nx, nu = L->nu, ny = L->ny;
  size_t snx = (size_t)nx, snu = (size_t)nu, sny = (size_t)ny;
  L->A = zalloc(snx * snx, sizeof(double));
  L->B = zalloc(snx * snu, sizeof(double));
  L->C = zalloc(sny * snx, sizeof(double));
  L->D = zalloc(sny * snu, sizeof(double));
  L->x_op = zalloc(snx, sizeof(double));
  L->u_op = zalloc(snu, sizeof(double));
  L->y_op = zalloc(sny, sizeof(double));
  L->dx_op = zalloc(snx, sizeof(double));
  L->x_perturb = zalloc(snx, sizeof(double));
  L->u_perturb = zalloc(snu, sizeof(double));
  L->x_integrating = zalloc(snx, 1);
  L->x_name = zalloc(snx, sizeof(char *));
  L->u_name = zalloc(snu, sizeof(char *));
  L->y_name = zalloc(sny, sizeof(char *));
  L->x_unit = zalloc(snx, sizeof(char *));
  L->u_unit = zalloc(snu, sizeof(char *));
  L->y_unit = zalloc(sny, sizeof(char *));
  if (!L->A || !L->B || !L->C || !L->D || !L->x_op || !L->u_op || !L->y_op || !L->dx_op ||
      !L->x_perturb || !L->u_perturb || !L->x_integrating || !L->x_name || !L->u_name ||
      !L->y_name || !L->x_unit || !L->u_unit || !L->y_unit)
    return AWE_ENOMEM;
  for (int j = 0; j < nx; j++) {
    if (!(L->x_name[j] = dupname(p->xl, &xc[j]))) return AWE_ENOMEM;
    L->x_unit[j] = awe_lin_chan_unit(p->xl, &xc[j]);
    L->x_integrating[j] = p->integrating && p->integrating(&p->xl->v[xc[j].var]);
  }
  for (int j = 0; j < nu; j++) {
    if (!(L->u_name[j] = dupname(p->ul, &p->uc[j]))) return AWE_ENOMEM;
    L->u_unit[j] = awe_lin_chan_unit(p->ul, &p->uc[j]);
  }
  for (int j = 0; j < ny; j++) {
    if (!(L->y_name[j] = dupname(p->yl, &p->yc[j]))) return AWE_ENOMEM;
    L->y_unit[j] = awe_lin_chan_unit(p->yl, &p->yc[j]);
  }
  return AWE_OK;
}


awe_status awe_linearize(const awe_lin_problem *p, const double *x_op, const double *u_op,
                         awe_linsys *L, awe_err *err) {
  memset(L, 0, sizeof(*L));
  const awe_varlist *xl = p->xl, *ul = p->ul, *yl = p->yl;
  int nxf = xl->size, nuf = ul->size, nyf = yl->size;
  int nx = awe_lin_nchan(xl), nu = p->nu, ny = p->ny;
  for (int j = 0; j < nu; j++) {
    const awe_var *v = &ul->v[p->uc[j].var];
    if (v->flags & AWE_VF_QUAT)
      return awe_err_set(err, AWE_EUSAGE, "linearize: quaternion inputs are not supported");
    if (!(v->perturb > 0.0)) {
      char nm[512];
      awe_lin_chan_name(ul, &p->uc[j], nm, sizeof(nm));
      return awe_err_set(err, AWE_EUSAGE,
                         "linearize: input %s is discrete (no perturbation size) and cannot be "
                         "linearized", nm);
    }
  }
  L->nx = nx;
  L->nu = nu;
  L->ny = ny;
  awe_lin_chan *xc = malloc(sizeof(*xc) * (size_t)(nx + 1));
  /* scratch: x0, x, u, f, y0, y (full), minimal f+, f-, output coordinates +, - */
  size_t nscr = (size_t)(3 * nxf + nuf + 2 * nyf + 2 * nx + 2 * ny + 8);
  double *scr = malloc(sizeof(double) * nscr);
  awe_status st = AWE_OK;
  if (!xc || !scr || (awe_lin_channels(xl, xc), linsys_alloc(L, p, xc))) {
    st = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto done;
  }
  double *x0 = scr, *xp = x0 + nxf, *up = xp + nxf, *f = up + nuf, *y0 = f + nxf,
         *yv = y0 + nyf, *fp = yv + nyf, *fm = fp + nx, *yp = fm + nx, *ym = yp + ny;
  if (nyf > 0) memset(y0, 0, sizeof(double) * (size_t)nyf);
  memcpy(x0, x_op, sizeof(double) * (size_t)nxf);
  for (int i = 0; i < xl->n; i++)
    if (xl->v[i].flags & AWE_VF_QUAT) awe_quat_normalize(x0 + xl->v[i].offset);
  if (nuf > 0) memcpy(up, u_op, sizeof(double) * (size_t)nuf);

  /* operating point */
  int rc = p->eval(p->ctx, x0, up, f, y0);
  L->nevals++;
  if (rc) {
    st = eval_fail(err, "at the operating point", "", rc);
    goto done;
  }
  minimal_deriv(xl, xc, nx, x0, f, -1, NULL, L->dx_op);
  double r2 = 0.0, big = -1.0;
  L->residual_worst = -1;
  for (int j = 0; j < nx; j++) {
    const awe_var *v = &xl->v[xc[j].var];
    if (v->flags & AWE_VF_QUAT) {
      double th[3];
      awe_quat_to_rotvec(x0 + v->offset, th);
      L->x_op[j] = th[xc[j].k];
    } else {
      L->x_op[j] = x0[xc[j].scalar];
    }
    L->x_perturb[j] = chan_perturb(v, L->x_op[j]);
    if (L->x_integrating[j]) continue;
    r2 += L->dx_op[j] * L->dx_op[j];
    if (fabs(L->dx_op[j]) > big) {
      big = fabs(L->dx_op[j]);
      L->residual_worst = j;
    }
  }
  L->residual = sqrt(r2);
  for (int j = 0; j < nu; j++) {
    L->u_op[j] = up[p->uc[j].scalar];
    L->u_perturb[j] = chan_perturb(&ul->v[p->uc[j].var], L->u_op[j]);
  }
  for (int j = 0; j < ny; j++) {
    const awe_var *v = &yl->v[p->yc[j].var];
    if (v->flags & AWE_VF_QUAT) {
      double th[3];
      awe_quat_to_rotvec(y0 + v->offset, th);
      L->y_op[j] = th[p->yc[j].k];
    } else {
      L->y_op[j] = y0[p->yc[j].scalar];
    }
  }

  /* A, C: state perturbations */
  for (int j = 0; j < nx; j++) {
    const awe_var *v = &xl->v[xc[j].var];
    if (p->stop && *p->stop) {
      st = awe_err_set(err, AWE_EINTR, "linearize: interrupted by signal %d", (int)*p->stop);
      goto done;
    }
    int q = (v->flags & AWE_VF_QUAT) != 0;
    /* the step actually taken (x + h rounds) */
    double h = L->x_perturb[j], h2 = 2.0 * h;
    if (!q) h2 = (x0[xc[j].scalar] + h) - (x0[xc[j].scalar] - h);
    for (int sgn = 0; sgn < 2; sgn++) {
      double s = sgn ? -h : h, th[3] = {0.0, 0.0, 0.0};
      memcpy(xp, x0, sizeof(double) * (size_t)nxf);
      if (q) {
        double e[4];
        th[xc[j].k] = s;
        awe_quat_from_rotvec(th, e);
        awe_quat_mul(x0 + v->offset, e, xp + v->offset);
      } else {
        xp[xc[j].scalar] += s;
      }
      rc = p->eval(p->ctx, xp, up, f, yv);
      L->nevals++;
      if (rc) {
        char nm[512];
        awe_lin_chan_name(xl, &xc[j], nm, sizeof(nm));
        st = eval_fail(err, "perturbing state ", nm, rc);
        goto done;
      }
      minimal_deriv(xl, xc, nx, xp, f, q ? xc[j].var : -1, th, sgn ? fm : fp);
      output_rel(yl, p->yc, ny, yv, y0, sgn ? ym : yp);
    }
    for (int i = 0; i < nx; i++) L->A[(size_t)i * (size_t)nx + (size_t)j] = (fp[i] - fm[i]) / h2;
    for (int i = 0; i < ny; i++) L->C[(size_t)i * (size_t)nx + (size_t)j] = (yp[i] - ym[i]) / h2;
  }

  /* B, D: input perturbations */
  for (int j = 0; j < nu; j++) {
    double h = L->u_perturb[j], h2 = (L->u_op[j] + h) - (L->u_op[j] - h);
    int o = p->uc[j].scalar;
    if (p->stop && *p->stop) {
      st = awe_err_set(err, AWE_EINTR, "linearize: interrupted by signal %d", (int)*p->stop);
      goto done;
    }
    for (int sgn = 0; sgn < 2; sgn++) {
      up[o] = L->u_op[j] + (sgn ? -h : h);
      rc = p->eval(p->ctx, x0, up, f, yv);
      L->nevals++;
      if (rc) {
        char nm[512];
        awe_lin_chan_name(ul, &p->uc[j], nm, sizeof(nm));
        st = eval_fail(err, "perturbing input ", nm, rc);
        goto done;
      }
      minimal_deriv(xl, xc, nx, x0, f, -1, NULL, sgn ? fm : fp);
      output_rel(yl, p->yc, ny, yv, y0, sgn ? ym : yp);
    }
    up[o] = L->u_op[j];
    for (int i = 0; i < nx; i++) L->B[(size_t)i * (size_t)nu + (size_t)j] = (fp[i] - fm[i]) / h2;
    for (int i = 0; i < ny; i++) L->D[(size_t)i * (size_t)nu + (size_t)j] = (yp[i] - ym[i]) / h2;
  }

done:
  if (st) awe_linsys_free(L);
  free(xc);
  free(scr);
  return st;
}

/* ---- the model as a linearization problem ---- */

void awe_lin_model_init(awe_lin_model *lm, const awe_model *m, awe_work *w, unsigned ctx_flags) {
  lm->ctx = awe_ctx_make(m, w, NULL);
  lm->ctx.flags = ctx_flags;
  lm->t = 0.0;
}


int awe_lin_model_eval(void *p, const double *x, const double *u, double *dxdt, double *y) {
  awe_lin_model *lm = p;
  lm->ctx.u = u;
  int st = awe_rhs(lm->t, x, dxdt, &lm->ctx);
  if (st != GSL_SUCCESS) return st;
  awe_outputs_fill(lm->ctx.m, lm->ctx.w, y);
  return 0;
}


int awe_lin_model_integrating(const awe_var *v) {
  return (v->flags & AWE_VF_QUAT) || !strstr(v->unit, "/s");
}


/* channels of the variables accepted by keep(m, v) */
static awe_status pick(const awe_model *m, const awe_varlist *l,
                       int (*keep)(const awe_model *, const awe_var *), awe_lin_chan **out,
                       int *n, awe_err *err) {
  int nall = awe_lin_nchan(l);
  awe_lin_chan *all = malloc(sizeof(*all) * (size_t)(nall + 1));
  *out = malloc(sizeof(**out) * (size_t)(nall + 1));
  *n = 0;
  if (!all || !*out) {
    free(all);
    free(*out);
    *out = NULL;
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  awe_lin_channels(l, all);
  for (int j = 0; j < nall; j++)
    if (keep(m, &l->v[all[j].var])) (*out)[(*n)++] = all[j];
  free(all);
  return AWE_OK;
}


static int keep_flagged(const awe_model *m, const awe_var *v) {
  (void)m;
  return (v->flags & AWE_VF_LINEARIZE) != 0;
}


static int keep_flagged_or_tether(const awe_model *m, const awe_var *v) {
  (void)m;
  return (v->flags & AWE_VF_LINEARIZE) ||
         (!strcmp(v->group, "tethers") && !strcmp(v->var, "len"));
}


static int moving_point(const awe_model *m, const awe_var *v) {
  return !strcmp(v->group, "points") && v->comp_index >= 0 && v->comp_index < m->npoint &&
         awe_point_has_state(m, v->comp_index);
}


static int keep_point_force(const awe_model *m, const awe_var *v) {
  return moving_point(m, v) && !strcmp(v->var, "force");
}


static int keep_point_pos(const awe_model *m, const awe_var *v) {
  return moving_point(m, v) && !strcmp(v->var, "pos");
}


awe_status awe_lin_default_inputs(const awe_model *m, awe_lin_chan **out, int *n, int *fallback,
                                  awe_err *err) {
  *fallback = 0;
  awe_status st = pick(m, &m->reg.input, keep_flagged, out, n, err);
  if (st || *n) return st;
  free(*out);
  *fallback = 1;
  return pick(m, &m->reg.input, keep_point_force, out, n, err);
}


awe_status awe_lin_default_outputs(const awe_model *m, awe_lin_chan **out, int *n,
                                   int *fallback, awe_err *err) {
  *fallback = 0;
  awe_status st = pick(m, &m->reg.output, keep_flagged_or_tether, out, n, err);
  if (st || *n) return st;
  free(*out);
  *fallback = 1;
  return pick(m, &m->reg.output, keep_point_pos, out, n, err);
}

/* ---- operating point ---- */

awe_status awe_op_advance(awe_sim *s, double t_at, awe_err *err) {
  double dt = s->m->opt.dt, eps = 1e-9 * (t_at > 1.0 ? t_at : 1.0);
  while (s->t < t_at - eps) {
    /* the next log time k dt as simulate computes it; the last step ends exactly at t_at */
    double tn = (double)(s->nstep + 1) * dt;
    if (!(dt > 0.0) || tn > t_at - eps) tn = t_at;
    AWE_TRY(awe_sim_step(s, tn, err));
    if (s->t < tn) break; /* stopped by a crash */
  }
  return AWE_OK;
}


awe_status awe_op_here(awe_sim *s, awe_op *op, int fold, awe_err *err) {
  const awe_model *m = s->m;
  awe_work *w = s->w;
  op->t = s->t;
  op->x = malloc(sizeof(double) * ((size_t)w->nx + 1));
  op->u = malloc(sizeof(double) * ((size_t)w->nu + 1));
  if (!op->x || !op->u) {
    awe_op_free(op);
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  memcpy(op->x, s->y, sizeof(double) * (size_t)w->nx);
  memcpy(op->u, s->u, sizeof(double) * (size_t)w->nu);
  awe_signals_apply(m->signals, m->nsignal, op->t, op->u);
  if (fold) /* the controllers' outputs from s->t on, as the simulation adds them */
    for (int j = 0; j < s->ctx.nadd; j++)
      op->u[s->ctx.add_idx[j]] += awe_ctx_add(&s->ctx, j, op->t);
  return AWE_OK;
}


void awe_op_free(awe_op *op) {
  if (!op) return;
  free(op->x);
  free(op->u);
  op->x = op->u = NULL;
}


static int scheduled(const awe_model *m, int u_index) {
  for (int k = 0; k < m->nsignal; k++)
    if (m->signals[k].u_index == u_index) return 1;
  return 0;
}


awe_status awe_op_find(awe_sim *s, double t_at, unsigned flags, awe_op *op, awe_err *err) {
  const awe_model *m = s->m;
  awe_work *w = s->w;
  memset(op, 0, sizeof(*op));
  op->steady_residual = NAN;
  if (!isnan(t_at) && !(t_at >= 0.0 && isfinite(t_at)))
    return awe_err_set(err, AWE_EUSAGE, "operating point time %g s: must be >= 0", t_at);
  awe_aero_set_jacobian_tol(w, 0.0); /* the VSM Jacobian of the operating point itself */
  awe_status st = AWE_OK;
  if (flags & AWE_OP_GIVEN) {
    op->steady = op->trim = 1;
    awe_trim_aero_refresh(s);
    awe_trim_residual(s, &op->tr);
  } else if ((st = awe_sim_start(s, err))) {
    return st;
  } else if (isnan(t_at)) {
    if (!m->opt.steady_state) {
      st = awe_sim_steady_state(s, m->opt.steady_state_time, err);
      if (st) return st;
    }
    op->steady = 1;
    op->steady_residual = s->steady_residual;
    if (flags & AWE_OP_TRIM) {
      st = awe_trim_solve(s, NULL, &op->tr, err);
      if (st) return st;
      op->trim = 1;
    }
  } else {
    op->steady = m->opt.steady_state && t_at == 0.0;
    if (m->opt.steady_state) op->steady_residual = s->steady_residual;
    if (t_at > 0.0) {
      st = awe_op_advance(s, t_at, err);
      if (st) return st;
    }
  }
  /* a trim's and a simulated point's controller outputs are part of u (the linear model
   * evaluates the plant without its controllers); a steady state's stay out as before */
  st = awe_op_here(s, op, (op->trim && !(flags & AWE_OP_GIVEN)) || !isnan(t_at), err);
  if (st) return st;

  if (op->steady && (flags & AWE_OP_HOLD_TORQUE) && m->nwinch > 0) {
    awe_ctx c = awe_ctx_make(m, w, op->u);
    if (awe_rhs(op->t, op->x, s->dydt, &c) != GSL_SUCCESS) {
      awe_op_free(op);
      return awe_err_set(err, AWE_ENOCONV, "operating point: the settled state cannot be "
                                           "evaluated");
    }
    for (int i = 0; i < m->nwinch; i++) {
      int ui = w->winch_u_torque[i];
      if (w->winch_x[i] < 0 || ui < 0 || awe_winch_braked(w, i) || scheduled(m, ui)) continue;
      op->u[ui] = awe_winch_steady_torque(m, w, i);
      op->nheld++;
    }
  }
  return AWE_OK;
}
