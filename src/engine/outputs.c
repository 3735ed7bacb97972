/* outputs.c: fill the registry's output vector from the workspace (post-calculate). */
#include "engine/outputs.h"

#include <string.h>

#include "util/kite_frames.h"
#include "engine/winch.h"


static void put3(double *dst, const double *src) { memcpy(dst, src, 3 * sizeof(double)); }


/* mean twist of the mid-span group(s) of wing j (0 without groups) */
static double mid_twist(const awe_model *m, const awe_work *w, int j) {
  int n = m->wing_group_num[j], adr = m->wing_group_adr[j];
  if (n == 0) return 0.0;
  if (n % 2) return w->twist[m->wing_groups[adr + n / 2]];
  return 0.5 * (w->twist[m->wing_groups[adr + n / 2 - 1]] + w->twist[m->wing_groups[adr + n / 2]]);
}


/* one wing quantity (physics.md §9) */
static void wing_output(const awe_model *m, const awe_work *w, int j, const char *q, double *o) {
  const double *R = w->wing_R + 9 * j, *pos = w->wing_pos + 3 * j, *vel = w->wing_vel + 3 * j;
  const double *vab = w->wing_va_b + 3 * j, *ww = w->wing_omega_w + 3 * j;
  double r[3], ex[3] = {R[0], R[3], R[6]};
  awe_v3_sub(r, pos, w->wg[j].base);
  if (!strcmp(q, "pos")) {
    put3(o, pos);
  } else if (!strcmp(q, "vel")) {
    put3(o, vel);
  } else if (!strcmp(q, "quat")) {
    awe_R_to_quat(R, o);
  } else if (!strcmp(q, "omega_b")) {
    for (int k = 0; k < 3; k++) o[k] = R[k] * ww[0] + R[3 + k] * ww[1] + R[6 + k] * ww[2];
  } else if (!strcmp(q, "va")) {
    put3(o, w->wing_va + 3 * j);
  } else if (!strcmp(q, "va_b")) {
    put3(o, vab);
  } else if (!strcmp(q, "aero_force_b")) {
    put3(o, w->wing_aero_force_b + 3 * j);
  } else if (!strcmp(q, "aero_moment_b")) {
    put3(o, w->wing_aero_moment_b + 3 * j);
  } else if (!strcmp(q, "elevation")) {
    *o = awe_elevation(r);
  } else if (!strcmp(q, "azimuth")) {
    *o = awe_azimuth(r);
  } else if (!strcmp(q, "heading")) {
    *o = awe_heading(r, ex);
  } else if (!strcmp(q, "course")) {
    *o = awe_course(r, vel);
  } else if (!strcmp(q, "aoa")) {
    *o = atan2(vab[2], vab[0]) + mid_twist(m, w, j);
  } else if (!strcmp(q, "sideslip")) {
    *o = atan2(vab[1], hypot(vab[0], vab[2]));
  } else if (!strcmp(q, "distance")) {
    *o = awe_v3_norm(r);
  } else if (!strcmp(q, "turn_rate")) {
    /* view frame: z = r/|r|, y = n(z x e_x), x = y x z;  turn_rate = R_vw^T omega_w */
    double z[3], y[3], x[3];
    double rn = awe_v3_norm(r);
    for (int k = 0; k < 3; k++) z[k] = rn > 0.0 ? r[k] / rn : (k == 2);
    awe_v3_cross(y, z, ex);
    double yn = awe_v3_norm(y);
    for (int k = 0; k < 3; k++) y[k] = yn > 0.0 ? y[k] / yn : (k == 1);
    awe_v3_cross(x, y, z);
    o[0] = awe_v3_dot(x, ww);
    o[1] = awe_v3_dot(y, ww);
    o[2] = awe_v3_dot(z, ww);
  } else if (!strcmp(q, "power")) {
    /* the winches at the wing's ground station; all of them if none is there */
    double P = 0.0, Pall = 0.0;
    int n = 0;
    for (int i = 0; i < m->nwinch; i++) {
      double Pi = awe_winch_power(w, i);
      Pall += Pi;
      if (m->winch_point[i] == m->wing_ground_point[j]) P += Pi, n++;
    }
    *o = n ? P : Pall;
  } else {
    *o = NAN;
  }
}


void awe_outputs_fill(const awe_model *m, const awe_work *w, double *yout) {
  const awe_varlist *l = &m->reg.output;
  for (int k = 0; k < l->n; k++) {
    const awe_var *v = &l->v[k];
    double *o = yout + v->offset;
    int i = v->comp_index;
    const char *g = v->group, *q = v->var;
    if (!strcmp(g, "inputs")) {
      *o = w->u[i]; /* comp_index is the input's index in u */
    } else if (!strcmp(g, "points")) {
      if (!strcmp(q, "pos")) put3(o, w->pos + 3 * i);
      else if (!strcmp(q, "vel")) put3(o, w->vel + 3 * i);
      else if (!strcmp(q, "force")) put3(o, w->force + 3 * i);
      else o[0] = o[1] = o[2] = NAN;
    } else if (!strcmp(g, "segments")) {
      if (!strcmp(q, "len")) *o = w->seg_len[i];
      else if (!strcmp(q, "force")) *o = w->seg_force[i];
      else if (!strcmp(q, "l0")) *o = w->seg_l0[i];
      else *o = NAN;
    } else if (!strcmp(g, "tethers")) {
      if (!strcmp(q, "len")) {
        *o = w->tether_len[i];
      } else if (!strcmp(q, "stretched_len")) {
        double sum = 0.0;
        for (int j = 0; j < m->tether_seg_num[i]; j++)
          sum += w->seg_len[m->tether_segs[m->tether_seg_adr[i] + j]];
        *o = sum;
      } else {
        *o = NAN;
      }
    } else if (!strcmp(g, "winches")) {
      if (!strcmp(q, "force")) *o = w->winch_force[i];
      else if (!strcmp(q, "vel")) *o = w->winch_vel[i];
      else if (!strcmp(q, "torque")) *o = w->winch_torque[i];
      else if (!strcmp(q, "acc")) *o = w->winch_acc[i];
      else if (!strcmp(q, "power")) *o = awe_winch_power(w, i);
      else if (!strcmp(q, "energy")) *o = w->winch_energy[i];
      else *o = NAN;
    } else if (!strcmp(g, "pulleys")) {
      if (!strcmp(q, "len")) *o = w->pulley_len[i];
      else if (!strcmp(q, "vel")) *o = w->pulley_vel[i];
      else *o = NAN;
    } else if (!strcmp(g, "wings")) {
      wing_output(m, w, i, q, o);
    } else if (!strcmp(g, "groups")) {
      if (!strcmp(q, "twist")) *o = w->twist[i];
      else if (!strcmp(q, "twist_vel")) *o = w->twist_vel[i];
      else *o = NAN;
    } else if (!strcmp(g, "controllers")) {
      /* written at the sample instants by the controllers (controller.h) */
    } else {
      for (int j = 0; j < v->dim; j++) o[j] = NAN;
    }
  }
}


int awe_outputs_eval(awe_ctx *ctx, double t, const double *y, double *dydt, double *yout) {
  int st = awe_rhs(t, y, dydt, ctx);
  awe_outputs_fill(ctx->m, ctx->w, yout);
  return st;
}


int awe_outputs_log(awe_ctx *ctx, double t, const double *y, double *dydt, double *yout,
                    int first) {
  const awe_model *m = ctx->m;
  awe_work *w = ctx->w;
  int st = awe_rhs(t, y, dydt, ctx);
  /* energy: trapezoid of the power over the log interval (exact for power linear in time) */
  for (int i = 0; i < m->nwinch; i++) {
    double P = awe_winch_power(w, i);
    if (first) w->winch_energy[i] = 0.0;
    else w->winch_energy[i] += 0.5 * (t - w->log_t) * (w->winch_power_log[i] + P);
    w->winch_power_log[i] = P;
  }
  w->log_t = t;
  awe_outputs_fill(m, w, yout);
  return st;
}
