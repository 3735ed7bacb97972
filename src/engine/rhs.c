/* rhs.c: the staged right-hand side of the whole system.
 *
 * The stages and the return contract are documented in rhs.h; the physics of each stage in the
 * module it calls (equations and sources at the top of each file).
 */
#include "engine/rhs.h"

#include <stdio.h>
#include <string.h>

#include "engine/aero_coupling.h"
#include "engine/body.h"
#include "engine/atmosphere.h"
#include "engine/wind.h"
#include "engine/group.h"
#include "engine/kcu.h"
#include "engine/point.h"
#include "engine/pulley.h"
#include "engine/quasi_static.h"
#include "engine/segment.h"
#include "engine/unsteady.h"
#include "model/input_signal.h"
#include "engine/winch.h"
#include "engine/wing.h"


awe_ctx awe_ctx_make(const awe_model *m, awe_work *w, const double *u) {
  awe_ctx c;
  memset(&c, 0, sizeof(c));
  c.m = m;
  c.w = w;
  c.u = u;
  c.t_lo = -INFINITY;
  c.t_hi = INFINITY;
  return c;
}


int awe_first_nonfinite(const double *v, int n) {
  for (int k = 0; k < n; k++)
    if (!isfinite(v[k])) return k;
  return -1;
}


static int bad(awe_work *w, double t, int k, int is_dydt) {
  if (w->bad_x < 0) {
    w->bad_x = k;
    w->bad_dydt = is_dydt;
    w->bad_t = t;
  }
  awe_work_warn(w, AWE_WARN_NONFINITE, t, k);
  return AWE_RHS_RETRY;
}


/* stage 1: effective inputs */
static void inputs(const awe_ctx *c, double t) {
  awe_work *w = c->w;
  if (w->nu > 0) memcpy(w->u, c->u, sizeof(double) * (size_t)w->nu);
  if (c->nsig > 0) {
    double te = t;
    if (te >= c->t_hi) te = nextafter(c->t_hi, -INFINITY);
    if (te < c->t_lo) te = c->t_lo;
    awe_signals_apply(c->sig, c->nsig, te, w->u);
  }
  for (int j = 0; j < c->nadd; j++) w->u[c->add_idx[j]] += awe_ctx_add(c, j, t);
}


/* stage 2: unpack the state */
static void unpack(const awe_model *m, awe_work *w, const double *y) {
  for (int i = 0; i < m->npoint; i++) {
    int o = w->point_x[i];
    double *p = w->pos + 3 * i, *v = w->vel + 3 * i;
    if (w->point_slave[i]) {
      continue; /* placed by the wing (awe_wing_kinematics) */
    } else if (o >= 0) {
      memcpy(p, y + o, 3 * sizeof(double));
      memcpy(v, y + o + 3, 3 * sizeof(double));
    } else if (w->point_qs[i] < 0) {
      memcpy(p, m->point_pos0 + 3 * i, 3 * sizeof(double));
      v[0] = v[1] = v[2] = 0.0;
    } else {
      v[0] = v[1] = v[2] = 0.0; /* position: the solver's warm start */
    }
  }
  for (int i = 0; i < m->ntether; i++)
    w->tether_len[i] = w->tether_x[i] >= 0 ? y[w->tether_x[i]] : m->tether_len0[i];
  for (int i = 0; i < m->nwinch; i++) {
    if (w->winch_x[i] >= 0) w->winch_vel[i] = y[w->winch_x[i]];
    else w->winch_vel[i] = w->winch_u_speed[i] >= 0 ? w->u[w->winch_u_speed[i]] : 0.0;
  }
  for (int i = 0; i < m->npulley; i++) {
    if (w->pulley_x[i] >= 0) {
      w->pulley_len[i] = y[w->pulley_x[i]];
      /* a braked pulley (SymbolicAWEModels 0.14) holds its split: no rope speed */
      w->pulley_vel[i] = m->pulley_brake[i] ? 0.0 : y[w->pulley_x[i] + 1];
    } else {
      w->pulley_vel[i] = 0.0;
      if (w->pulley_qs[i] < 0) w->pulley_len[i] = m->pulley_len0[i];
    }
  }
  awe_kcu_unpack(m, w, y);
  awe_group_unpack(m, w, y);
  /* bodies first: a particle wing's frame may hang on points riding them */
  awe_body_kinematics(m, w, y);
  awe_wing_kinematics(m, w, y);
}


/* stage 11: derivatives in the layout of y */
static void assemble(const awe_model *m, awe_work *w, int brake_all, double *dydt) {
  int sphere = (w->flags & AWE_CTX_FIX_SPHERE) != 0;
  for (int i = 0; i < m->npoint; i++) {
    int o = w->point_x[i];
    if (o < 0) continue;
    int j = m->point_wing[i];
    if (sphere && m->point_type[i] == AWE_PT_WING && j >= 0) {
      /* a particle wing held on its sphere: its points move only radially (SymbolicAWEModels'
       * fix_sphere on the wing, fix_point_sphere on its points) */
      awe_v3_radial_part(w->pos + 3 * i, w->wg[j].base, w->vel + 3 * i, dydt + o);
      awe_v3_radial_part(w->pos + 3 * i, w->wg[j].base, w->acc + 3 * i, dydt + o + 3);
      continue;
    }
    memcpy(dydt + o, w->vel + 3 * i, 3 * sizeof(double));
    memcpy(dydt + o + 3, w->acc + 3 * i, 3 * sizeof(double));
  }
  for (int i = 0; i < m->ntether; i++) {
    if (w->tether_x[i] < 0) continue;
    int wi = m->tether_winch[i];
    int held = brake_all || wi < 0 || awe_winch_braked(w, wi);
    dydt[w->tether_x[i]] = held ? 0.0 : w->winch_vel[wi];
  }
  for (int i = 0; i < m->nwinch; i++)
    if (w->winch_x[i] >= 0) dydt[w->winch_x[i]] = w->winch_acc[i];
  for (int i = 0; i < m->npulley; i++) {
    if (w->pulley_x[i] < 0) continue;
    dydt[w->pulley_x[i]] = w->pulley_vel[i];
    dydt[w->pulley_x[i] + 1] = w->pulley_acc[i];
  }
  awe_kcu_assemble(m, w, dydt);
  awe_wing_assemble(m, w, dydt);
  awe_group_assemble(m, w, dydt);
  awe_unsteady_assemble(m, w, dydt);
  awe_body_assemble(m, w, dydt);
}


int awe_rhs(double t, const double y[], double dydt[], void *params) {
  const awe_ctx *c = params;
  const awe_model *m = c->m;
  awe_work *w = c->w;
  int brake_all = (c->flags & AWE_CTX_BRAKE_ALL) != 0;
  w->stats.rhs++;
  w->flags = c->flags;

  int k = awe_first_nonfinite(y, w->nx);
  if (k >= 0) return bad(w, t, k, 0);

  inputs(c, t);                                  /* 1. inputs */
  unpack(m, w, y);                               /* 2. unpack */
  awe_wind_update(m, w, t);                      /* 3. wind */
  awe_wing_apparent_wind(m, w);
  awe_unsteady_eval(m, w, y);                    /*    Wagner lag (unsteady.h) */
  awe_segment_rest_lengths(m, w);                /* 4. rest lengths */
  if (w->qs && awe_qs_solve(m, w, t))            /* 5. quasi-static points, pulleys */
    return AWE_RHS_RETRY;
  awe_point_masses(m, w);                        /* 6. masses */
  awe_segment_forces(m, w);                      /* 7. segments */
  awe_point_forces(m, w);                        /* 8. points */
  awe_aero_eval(m, w);                           /*    wing aerodynamics (frozen model) */
  awe_aero_point_forces(m, w);
  if (awe_group_quasi_static(m, w)) return AWE_RHS_RETRY;
  awe_point_accelerations(m, w);
  awe_wing_dynamics(m, w, c->flags);             /*    rigid wings and their twist */
  awe_group_dynamics(m, w, c->flags);
  awe_body_dynamics(m, w, c->flags);             /*    rigid bodies and their tubes */
  awe_winch_forces(m, w);                        /* 9. winches */
  awe_winch_dynamics(m, w, brake_all);
  awe_pulley_dynamics(m, w);                     /* 10. pulleys */
  assemble(m, w, brake_all, dydt);               /* 11. assemble */

  k = awe_first_nonfinite(dydt, w->nx);
  if (k >= 0) return bad(w, t, k, 1);
  return GSL_SUCCESS;
}


void awe_state_name(const awe_model *m, int k, char *buf, size_t n) {
  const awe_varlist *l = &m->reg.state;
  for (int i = 0; i < l->n; i++) {
    const awe_var *v = &l->v[i];
    if (k >= v->offset && k < v->offset + v->dim) {
      awe_var_scalar_name(v, k - v->offset, buf, n);
      return;
    }
  }
  snprintf(buf, n, "state[%d]", k);
}


int awe_rhs_aero_refresh(awe_ctx *ctx, double t, const double *y) {
  awe_work *w = ctx->w;
  if (!w->aero) return 0;
  if (awe_rhs(t, y, w->refresh_dydt, ctx) != GSL_SUCCESS && awe_first_nonfinite(y, w->nx) >= 0)
    return ctx->m->nwing;
  return awe_aero_refresh(ctx->m, w, t);
}
