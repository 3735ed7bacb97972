/* work_alloc.c: the workspace's life cycle: allocation with every component's part (address
 * maps from the registry, wing and group geometry, quasi-static scratch, the aerodynamic
 * coupling), the initial state, free. It sits above the components, which see only work.h. */
#include "engine/work_alloc.h"

#include <string.h>

#include "engine/aero_coupling.h"
#include "engine/group.h"
#include "engine/outputs.h"
#include "engine/quasi_static.h"
#include "engine/wing.h"
#include "engine/body.h"


/* find var (group, comp_index, var) in a list; returns the offset or -1 */
static int var_offset(const awe_varlist *l, const char *group, int comp, const char *var) {
  for (int k = 0; k < l->n; k++) {
    const awe_var *v = &l->v[k];
    if (v->comp_index == comp && !strcmp(v->group, group) && !strcmp(v->var, var))
      return v->offset;
  }
  return -1;
}


static int *ints(awe_pool *p, int n, int fill) {
  int *a = awe_pool_array(p, (size_t)(n > 0 ? n : 1), sizeof(int));
  if (a)
    for (int i = 0; i < n; i++) a[i] = fill;
  return a;
}


static double *dbls(awe_pool *p, int n) {
  return awe_pool_array(p, (size_t)(n > 0 ? n : 1), sizeof(double));
}


/* address maps from the registry; the registry is the one definition of the layout */
static int build_maps(const awe_model *m, awe_work *w) {
  awe_pool *p = w->pool;
  const awe_varlist *x = &m->reg.state, *u = &m->reg.input;
  w->point_x = ints(p, m->npoint, -1);
  w->point_qs = ints(p, m->npoint, -1);
  w->point_u_force = ints(p, m->npoint, -1);
  w->tether_x = ints(p, m->ntether, -1);
  w->winch_x = ints(p, m->nwinch, -1);
  w->winch_u_torque = ints(p, m->nwinch, -1);
  w->winch_u_brake = ints(p, m->nwinch, -1);
  w->winch_u_speed = ints(p, m->nwinch, -1);
  w->pulley_x = ints(p, m->npulley, -1);
  w->pulley_qs = ints(p, m->npulley, -1);
  w->segment_u_l0 = ints(p, m->nsegment, -1);
  w->wing_x = ints(p, m->nwing, -1);
  w->wing_u_force = ints(p, m->nwing, -1);
  w->wing_u_moment = ints(p, m->nwing, -1);
  w->group_x = ints(p, m->ngroup, -1);
  if (!w->point_x || !w->point_qs || !w->point_u_force || !w->tether_x || !w->winch_x ||
      !w->winch_u_torque || !w->winch_u_brake || !w->winch_u_speed || !w->pulley_x ||
      !w->pulley_qs || !w->segment_u_l0 || !w->wing_x || !w->wing_u_force ||
      !w->wing_u_moment || !w->group_x)
    return -1;
  for (int j = 0; j < m->nwing; j++) {
    w->wing_x[j] = var_offset(x, "wings", j, "com");
    w->wing_u_force[j] = var_offset(u, "wings", j, "force");
    w->wing_u_moment[j] = var_offset(u, "wings", j, "moment");
  }
  for (int g = 0; g < m->ngroup; g++) w->group_x[g] = var_offset(x, "groups", g, "twist");
  w->wing_wag_x = ints(p, m->nwing, -1);
  if (!w->wing_wag_x) return -1;
  for (int j = 0; j < m->nwing; j++) w->wing_wag_x[j] = var_offset(x, "wings", j, "wagner_x1");
  w->body_x = ints(p, m->nbody, -1);
  w->body_u_force = ints(p, m->nbody, -1);
  w->body_u_moment = ints(p, m->nbody, -1);
  if (!w->body_x || !w->body_u_force || !w->body_u_moment) return -1;
  for (int j = 0; j < m->nbody; j++) {
    w->body_x[j] = var_offset(x, "bodies", j, "pos");
    w->body_u_force[j] = var_offset(u, "bodies", j, "force");
    w->body_u_moment[j] = var_offset(u, "bodies", j, "moment");
  }

  int nqs = 0;
  for (int i = 0; i < m->npoint; i++) {
    w->point_x[i] = var_offset(x, "points", i, "pos");
    w->point_u_force[i] = var_offset(u, "points", i, "force");
    if (w->point_x[i] < 0 && m->point_type[i] == AWE_PT_QUASI_STATIC) {
      w->point_qs[i] = nqs;
      nqs += 3;
    }
  }
  w->nqs_point = nqs / 3;
  for (int i = 0; i < m->npulley; i++) {
    w->pulley_x[i] = var_offset(x, "pulleys", i, "len");
    if (w->pulley_x[i] < 0 && m->pulley_type[i] != AWE_DYN_STATIC) w->pulley_qs[i] = nqs++;
  }
  w->nqs = nqs;
  for (int i = 0; i < m->ntether; i++) w->tether_x[i] = var_offset(x, "tethers", i, "len");
  for (int i = 0; i < m->nwinch; i++) {
    w->winch_x[i] = var_offset(x, "winches", i, "vel");
    w->winch_u_torque[i] = var_offset(u, "winches", i, "torque");
    w->winch_u_brake[i] = var_offset(u, "winches", i, "brake");
    w->winch_u_speed[i] = var_offset(u, "winches", i, "speed");
  }
  for (int i = 0; i < m->nsegment; i++)
    w->segment_u_l0[i] = var_offset(u, "segments", i, "l0");
  w->u_v_wind = var_offset(u, "wind", 0, "v_wind");
  w->u_wind_dir = var_offset(u, "wind", 0, "direction");
  w->u_wind_w = var_offset(u, "wind", 0, "w");
  static const char *const kx[2] = {"depower_actual", "steering_actual"};
  static const char *const ku[2] = {"depower", "steering"};
  for (int j = 0; j < 2; j++) {
    w->kcu_x[j] = var_offset(x, "kcu", 0, kx[j]);
    w->kcu_u[j] = var_offset(u, "kcu", 0, ku[j]);
  }
  return 0;
}


/* segments at each point, CSR */
static int build_point_segs(const awe_model *m, awe_work *w) {
  awe_pool *p = w->pool;
  w->point_seg_adr = ints(p, m->npoint, 0);
  w->point_seg_num = ints(p, m->npoint, 0);
  w->point_segs = ints(p, 2 * m->nsegment, -1);
  if (!w->point_seg_adr || !w->point_seg_num || !w->point_segs) return -1;
  for (int s = 0; s < m->nsegment; s++) {
    w->point_seg_num[m->segment_p[2 * s]]++;
    if (m->segment_p[2 * s + 1] != m->segment_p[2 * s]) w->point_seg_num[m->segment_p[2 * s + 1]]++;
  }
  int adr = 0;
  for (int i = 0; i < m->npoint; i++) {
    w->point_seg_adr[i] = adr;
    adr += w->point_seg_num[i];
    w->point_seg_num[i] = 0;
  }
  for (int s = 0; s < m->nsegment; s++) {
    int a = m->segment_p[2 * s], b = m->segment_p[2 * s + 1];
    w->point_segs[w->point_seg_adr[a] + w->point_seg_num[a]++] = s;
    if (b != a) w->point_segs[w->point_seg_adr[b] + w->point_seg_num[b]++] = s;
  }
  w->point_seg_sign = dbls(p, 2 * m->nsegment);
  if (!w->point_seg_sign) return -1;
  for (int i = 0; i < m->npoint; i++)
    for (int k = 0; k < w->point_seg_num[i]; k++) {
      int e = w->point_seg_adr[i] + k;
      w->point_seg_sign[e] = m->segment_p[2 * w->point_segs[e]] == i ? 1.0 : -1.0;
    }
  /* the tether segments at each winch point (the winch force), in the order of the tethers */
  w->winch_seg_adr = ints(p, m->nwinch, 0);
  w->winch_seg_num = ints(p, m->nwinch, 0);
  int nws = 0;
  for (int i = 0; i < m->nwinch; i++)
    for (int k = 0; k < m->winch_tether_num[i]; k++)
      nws += m->tether_seg_num[m->winch_tethers[m->winch_tether_adr[i] + k]];
  w->winch_segs = ints(p, nws, -1);
  w->winch_seg_sign = dbls(p, nws);
  if (!w->winch_seg_adr || !w->winch_seg_num || !w->winch_segs || !w->winch_seg_sign) return -1;
  int e = 0;
  for (int i = 0; i < m->nwinch; i++) {
    int wp = m->winch_point[i];
    w->winch_seg_adr[i] = e;
    for (int k = 0; k < m->winch_tether_num[i]; k++) {
      int t = m->winch_tethers[m->winch_tether_adr[i] + k];
      for (int j = 0; j < m->tether_seg_num[t]; j++) {
        int s = m->tether_segs[m->tether_seg_adr[t] + j];
        if (m->segment_p[2 * s] != wp && m->segment_p[2 * s + 1] != wp) continue;
        w->winch_segs[e] = s;
        w->winch_seg_sign[e++] = m->segment_p[2 * s] == wp ? 1.0 : -1.0;
      }
    }
    w->winch_seg_num[i] = e - w->winch_seg_adr[i];
  }
  return 0;
}


awe_work *awe_work_alloc(const awe_model *m, awe_err *err) {
  awe_pool *p = awe_pool_new();
  awe_work *w = p ? awe_pool_alloc(p, sizeof(awe_work)) : NULL;
  if (!w) {
    awe_pool_free(p);
    awe_err_set(err, AWE_ENOMEM, "out of memory (workspace)");
    return NULL;
  }
  w->pool = p;
  w->nx = m->reg.state.size;
  w->nu = m->reg.input.size;
  w->ny = m->reg.output.size;
  w->bad_x = -1;
  int np = m->npoint, ns = m->nsegment;
  if (build_maps(m, w) || build_point_segs(m, w)) goto oom;

  w->segment_lambda = dbls(p, ns);
  w->pulley_mass = dbls(p, m->npulley);
  w->pos = dbls(p, 3 * np);
  w->vel = dbls(p, 3 * np);
  w->acc = dbls(p, 3 * np);
  w->mass = dbls(p, np);
  w->spring = dbls(p, 3 * np);
  w->force = dbls(p, 3 * np);
  w->seg_l0 = dbls(p, ns);
  w->seg_l0_rate = dbls(p, ns);
  w->seg_len = dbls(p, ns);
  w->seg_force = dbls(p, ns);
  w->seg_dir = dbls(p, 3 * ns);
  w->seg_drag = dbls(p, 3 * ns);
  w->tether_len = dbls(p, m->ntether);
  w->tether_stretched = dbls(p, m->ntether);
  w->winch_vel = dbls(p, m->nwinch);
  w->winch_force = dbls(p, m->nwinch);
  w->winch_torque = dbls(p, m->nwinch);
  w->winch_acc = dbls(p, m->nwinch);
  w->winch_energy = dbls(p, m->nwinch);
  w->winch_power_log = dbls(p, m->nwinch);
  w->winch_energy_el = dbls(p, m->nwinch);
  w->winch_power_el_log = dbls(p, m->nwinch);
  w->pulley_len = dbls(p, m->npulley);
  w->pulley_vel = dbls(p, m->npulley);
  w->pulley_acc = dbls(p, m->npulley);
  w->u = dbls(p, w->nu);
  w->refresh_dydt = dbls(p, w->nx);
  w->out_code = ints(p, m->reg.output.n, 0);
  int nw = m->nwing, ng = m->ngroup;
  w->wg = awe_pool_array(p, (size_t)(nw > 0 ? nw : 1), sizeof(awe_wing_geom));
  w->gg = awe_pool_array(p, (size_t)(ng > 0 ? ng : 1), sizeof(awe_group_geom));
  w->point_pos_b = dbls(p, 3 * np);
  w->point_slave = awe_pool_array(p, (size_t)(np > 0 ? np : 1), 1);
  w->point_group = ints(p, np, -1);
  w->point_twist_r = dbls(p, np);
  w->seg_rigid = awe_pool_array(p, (size_t)(ns > 0 ? ns : 1), 1);
  double **wv[] = {&w->wing_pos, &w->wing_vel, &w->wing_com, &w->wing_com_vel, &w->wing_omega_p,
                   &w->wing_omega_w, &w->wing_va, &w->wing_va_b, &w->wing_aero_force_b,
                   &w->wing_aero_moment_b, &w->wing_force, &w->wing_moment, &w->wing_acc,
                   &w->wing_alpha_p, &w->wing_dcom};
  for (size_t k = 0; k < sizeof(wv) / sizeof(wv[0]); k++)
    if (!(*wv[k] = dbls(p, 3 * nw))) goto oom;
  int nb = m->nbody;
  double **bv[] = {&w->body_pos, &w->body_vel, &w->body_omega, &w->body_omega_w, &w->body_force,
                   &w->body_moment};
  for (size_t k = 0; k < sizeof(bv) / sizeof(bv[0]); k++)
    if (!(*bv[k] = dbls(p, 3 * nb))) goto oom;
  if (!(w->body_q = dbls(p, 4 * nb)) || !(w->body_R = dbls(p, 9 * nb)) ||
      !(w->body_dydt = dbls(p, 13 * nb)))
    goto oom;
  w->wing_R = dbls(p, 9 * nw);
  w->wing_Rp = dbls(p, 9 * nw);
  w->wing_q = dbls(p, 4 * nw);
  w->wing_qdot = dbls(p, 4 * nw);
  w->twist = dbls(p, ng);
  w->twist_free = dbls(p, ng);
  w->twist_vel = dbls(p, ng);
  w->twist_acc = dbls(p, ng);
  w->group_moment_aero = dbls(p, ng);
  w->group_moment_tether = dbls(p, ng);
  w->wing_wag_chord = dbls(p, nw);
  w->wing_wag_d = dbls(p, nw);
  w->wing_wag_dx = dbls(p, 2 * nw);
  w->wing_wag_xs = dbls(p, 2 * nw);
  w->wing_ma = dbls(p, nw);
  int any_ma = 0;
  for (int j = 0; j < nw; j++) any_ma |= m->wing_apparent_mass[j] > 0.0;
  w->point_ma = any_ma ? dbls(p, np) : NULL;
  if (!w->wing_wag_chord || !w->wing_wag_d || !w->wing_wag_dx || !w->wing_wag_xs || !w->wing_ma ||
      (any_ma && !w->point_ma))
    goto oom;
  if (!w->wg || !w->gg || !w->point_pos_b || !w->point_slave || !w->point_group ||
      !w->point_twist_r || !w->seg_rigid || !w->wing_R || !w->wing_Rp || !w->wing_q ||
      !w->wing_qdot || !w->twist || !w->twist_free || !w->twist_vel || !w->twist_acc ||
      !w->group_moment_aero || !w->group_moment_tether)
    goto oom;
  if (!w->segment_lambda || !w->pulley_mass || !w->pos || !w->vel || !w->acc || !w->mass ||
      !w->spring || !w->force || !w->seg_l0 || !w->seg_l0_rate || !w->seg_len || !w->seg_force ||
      !w->seg_dir ||
      !w->seg_drag || !w->tether_len || !w->tether_stretched || !w->winch_vel ||
      !w->winch_force || !w->winch_torque || !w->winch_acc || !w->winch_energy ||
      !w->winch_power_log || !w->winch_energy_el || !w->winch_power_el_log || !w->pulley_len ||
      !w->pulley_vel || !w->pulley_acc || !w->u || !w->refresh_dydt || !w->out_code)
    goto oom;
  for (int k = 0; k < m->reg.output.n; k++)
    w->out_code[k] = awe_output_code(m->reg.output.v[k].group, m->reg.output.v[k].var);

  for (int s = 0; s < ns; s++) {
    double d = m->segment_diameter[s];
    w->segment_lambda[s] = m->segment_density[s] * AWE_PI * 0.25 * d * d;
  }
  for (int i = 0; i < m->npulley; i++)
    w->pulley_mass[i] = m->pulley_sum_len[i] * w->segment_lambda[m->pulley_seg[2 * i]];

  for (int i = 0; i < np; i++) w->point_slave[i] = (unsigned char)awe_point_is_slave(m, i);
  for (int s = 0; s < ns; s++) {
    int a = m->segment_p[2 * s];
    w->seg_rigid[s] = (unsigned char)(m->segment_wing_internal[s] && w->point_slave[a] &&
                                      w->point_slave[m->segment_p[2 * s + 1]]);
  }
  for (int j = 0; j < nw; j++) w->wing_R[9 * j] = w->wing_R[9 * j + 4] = w->wing_R[9 * j + 8] = 1.0;
  w->seg_hot = awe_pool_array(p, (size_t)(ns > 0 ? ns : 1), sizeof(awe_seg_hot));
  if (!w->seg_hot) goto oom;
  for (int s = 0; s < ns; s++) {
    awe_seg_hot *h = w->seg_hot + s;
    double cd = m->env.cd_tether, dia = m->segment_diameter[s];
    h->a = m->segment_p[2 * s];
    h->b = m->segment_p[2 * s + 1];
    h->pulley = m->segment_pulley[s];
    h->leg_sign = m->segment_pulley_leg[s] == 0 ? 1.0 : -1.0;
    h->unit_k = m->segment_unit_k[s];
    h->unit_c = m->segment_unit_c[s];
    h->comp_frac = m->segment_compression_frac[s];
    h->comp_damp_frac = m->segment_compression_damping_frac[s];
    h->drag = m->segment_wing_internal[s] || cd == 0.0 || dia <= 0.0 ? 0.0 : 0.5 * cd * dia;
    h->rigid = w->seg_rigid[s];
  }

  if (w->nqs > 0) {
    w->qs = awe_qs_alloc(m, w);
    if (!w->qs) goto oom;
  }
  if (awe_wing_setup(m, w, err)) {
    awe_work_free(w);
    return NULL;
  }
  awe_err e2 = {0};
  w->aero = awe_aero_alloc(m, w, &e2);
  if (!w->aero && e2.code) {
    if (err) *err = e2;
    awe_work_free(w);
    return NULL;
  }
  if (awe_aero_unsteady_init(m, w)) goto oom;
  return w;

oom:
  awe_work_free(w);
  awe_err_set(err, AWE_ENOMEM, "out of memory (workspace)");
  return NULL;
}


void awe_work_free(awe_work *w) {
  if (!w) return;
  awe_qs_free(w->qs);
  awe_aero_free(w->aero);
  awe_pool_free(w->pool);
}


void awe_state_init(const awe_model *m, awe_work *w, double *y) {
  int np = m->npoint;
  memcpy(w->pos, m->point_pos0, sizeof(double) * 3 * (size_t)np);
  memset(w->vel, 0, sizeof(double) * 3 * (size_t)np);
  for (int i = 0; i < np; i++) {
    int o = w->point_x[i];
    if (o < 0) continue;
    for (int k = 0; k < 3; k++) {
      y[o + k] = m->point_pos0[3 * i + k];
      y[o + 3 + k] = m->point_vel0[3 * i + k];
    }
  }
  for (int i = 0; i < m->ntether; i++) {
    w->tether_len[i] = m->tether_len0[i];
    if (w->tether_x[i] >= 0) y[w->tether_x[i]] = m->tether_len0[i];
  }
  for (int i = 0; i < m->nwinch; i++) {
    w->winch_vel[i] = m->winch_init_vel[i];
    if (w->winch_x[i] >= 0) y[w->winch_x[i]] = m->winch_brake0[i] ? 0.0 : m->winch_init_vel[i];
  }
  for (int i = 0; i < m->npulley; i++) {
    w->pulley_len[i] = m->pulley_len0[i];
    w->pulley_vel[i] = 0.0;
    if (w->pulley_x[i] >= 0) {
      y[w->pulley_x[i]] = m->pulley_len0[i];
      y[w->pulley_x[i] + 1] = 0.0;
    }
  }
  if (m->has_kcu) {
    const double k0[2] = {m->kcu_depower0, m->kcu_steering0};
    for (int j = 0; j < 2; j++) {
      w->kcu_act[j] = w->kcu_set[j] = k0[j];
      if (w->kcu_x[j] >= 0) y[w->kcu_x[j]] = k0[j];
    }
    awe_kcu_tapes(m, k0[0], k0[1], w->kcu_l0);
  }
  awe_group_state_init(m, w, y);
  awe_wing_state_init(m, w, y);
  awe_body_state_init(m, w, y);
  if (w->qs) awe_qs_reset(m, w);
  awe_aero_reset(m, w);
}
