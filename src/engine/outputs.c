/* outputs.c: fill the registry's output vector from the workspace (post-calculate). */
#include "engine/outputs.h"

#include <string.h>

#include "util/kite_frames.h"
#include "engine/winch.h"


static void put3(double *dst, const double *src) { memcpy(dst, src, 3 * sizeof(double)); }

/* output codes (awe_output_code): the group's range, then the quantity */
enum {
  OC_UNKNOWN = 0,
  OC_INPUT,
  OC_PT_POS, OC_PT_VEL, OC_PT_FORCE,
  OC_SEG_LEN, OC_SEG_FORCE, OC_SEG_L0,
  OC_TE_LEN, OC_TE_STRETCHED,
  OC_WI_FORCE, OC_WI_VEL, OC_WI_TORQUE, OC_WI_ACC, OC_WI_POWER, OC_WI_ENERGY, OC_WI_POWER_EL,
  OC_WI_ENERGY_EL,
  OC_PU_LEN, OC_PU_VEL,
  OC_WG_POS, OC_WG_VEL, OC_WG_QUAT, OC_WG_OMEGA_B, OC_WG_VA, OC_WG_VA_B, OC_WG_FORCE_B,
  OC_WG_MOMENT_B, OC_WG_ELEVATION, OC_WG_AZIMUTH, OC_WG_HEADING, OC_WG_COURSE, OC_WG_AOA,
  OC_WG_AOA_BODY, OC_WG_SIDESLIP, OC_WG_DISTANCE, OC_WG_TURN_RATE, OC_WG_POWER,
  OC_GR_TWIST, OC_GR_TWIST_VEL, OC_WG_WIND, OC_WG_WAGNER_D, OC_WG_WAGNER_X1, OC_WG_WAGNER_X2,
  OC_KCU_DP_SET, OC_KCU_ST_SET, OC_KCU_DP, OC_KCU_ST, OC_KCU_TAPE_DP, OC_KCU_TAPE_L, OC_KCU_TAPE_R,
  OC_CONTROLLER,
  OC_BD_POS, OC_BD_VEL, OC_BD_QUAT, OC_BD_OMEGA_B, OC_BD_FORCE, OC_BD_MOMENT
};

typedef struct {
  const char *group, *var;
  int code;
} out_name;

static const out_name OUT_NAMES[] = {
    {"points", "pos", OC_PT_POS},          {"points", "vel", OC_PT_VEL},
    {"points", "force", OC_PT_FORCE},      {"segments", "len", OC_SEG_LEN},
    {"segments", "force", OC_SEG_FORCE},   {"segments", "l0", OC_SEG_L0},
    {"tethers", "len", OC_TE_LEN},         {"tethers", "stretched_len", OC_TE_STRETCHED},
    {"winches", "force", OC_WI_FORCE},     {"winches", "vel", OC_WI_VEL},
    {"winches", "torque", OC_WI_TORQUE},   {"winches", "acc", OC_WI_ACC},
    {"winches", "power", OC_WI_POWER},     {"winches", "energy", OC_WI_ENERGY},
    {"winches", "power_electrical", OC_WI_POWER_EL},
    {"winches", "energy_electrical", OC_WI_ENERGY_EL},
    {"pulleys", "len", OC_PU_LEN},         {"pulleys", "vel", OC_PU_VEL},
    {"wings", "pos", OC_WG_POS},           {"wings", "vel", OC_WG_VEL},
    {"wings", "quat", OC_WG_QUAT},         {"wings", "omega_b", OC_WG_OMEGA_B},
    {"wings", "va", OC_WG_VA},             {"wings", "va_b", OC_WG_VA_B},
    {"wings", "aero_force_b", OC_WG_FORCE_B}, {"wings", "aero_moment_b", OC_WG_MOMENT_B},
    {"wings", "elevation", OC_WG_ELEVATION}, {"wings", "azimuth", OC_WG_AZIMUTH},
    {"wings", "heading", OC_WG_HEADING},   {"wings", "course", OC_WG_COURSE},
    {"wings", "aoa", OC_WG_AOA},           {"wings", "aoa_body", OC_WG_AOA_BODY},
    {"wings", "sideslip", OC_WG_SIDESLIP},
    {"wings", "distance", OC_WG_DISTANCE}, {"wings", "turn_rate", OC_WG_TURN_RATE},
    {"wings", "power", OC_WG_POWER},       {"wings", "wind", OC_WG_WIND},
    {"wings", "wagner_deficiency", OC_WG_WAGNER_D},
    {"wings", "wagner_x1", OC_WG_WAGNER_X1}, {"wings", "wagner_x2", OC_WG_WAGNER_X2},
    {"groups", "twist", OC_GR_TWIST},
    {"groups", "twist_vel", OC_GR_TWIST_VEL},
    {"kcu", "depower_set", OC_KCU_DP_SET}, {"kcu", "steering_set", OC_KCU_ST_SET},
    {"kcu", "depower_actual", OC_KCU_DP}, {"kcu", "steering_actual", OC_KCU_ST},
    {"kcu", "depower_tape", OC_KCU_TAPE_DP}, {"kcu", "steering_tape_left", OC_KCU_TAPE_L},
    {"kcu", "steering_tape_right", OC_KCU_TAPE_R},
    {"bodies", "pos", OC_BD_POS},          {"bodies", "vel", OC_BD_VEL},
    {"bodies", "quat", OC_BD_QUAT},        {"bodies", "omega_b", OC_BD_OMEGA_B},
    {"bodies", "force", OC_BD_FORCE},      {"bodies", "moment", OC_BD_MOMENT}};


int awe_output_code(const char *group, const char *var) {
  if (!strcmp(group, "inputs")) return OC_INPUT;
  if (!strcmp(group, "controllers")) return OC_CONTROLLER;
  for (size_t k = 0; k < sizeof(OUT_NAMES) / sizeof(OUT_NAMES[0]); k++)
    if (!strcmp(group, OUT_NAMES[k].group) && !strcmp(var, OUT_NAMES[k].var))
      return OUT_NAMES[k].code;
  return OC_UNKNOWN;
}


/* mean twist of the mid-span group(s) of wing j (0 without groups) */
static double mid_twist(const awe_model *m, const awe_work *w, int j) {
  int n = m->wing_group_num[j], adr = m->wing_group_adr[j];
  if (n == 0) return 0.0;
  if (n % 2) return w->twist[m->wing_groups[adr + n / 2]];
  return 0.5 * (w->twist[m->wing_groups[adr + n / 2 - 1]] + w->twist[m->wing_groups[adr + n / 2]]);
}


/* particle wing j: nose-up pitch [rad] of its mid-span chord (LE -> TE of the middle LE/TE pair,
 * or the mean of the two middle pairs) in the body x-z plane, so that alpha = atan2(va_z, va_x)
 * + pitch is the angle between the apparent wind and that chord. The body frame follows the
 * reference points (kcu to the wing), not the chord: without this term the angle of attack does
 * not see the wing pitch about its leading edge that the power tape sets (physics.md §9). */
static double mid_chord_pitch(const awe_model *m, const awe_work *w, int j) {
  int adr = m->wing_point_adr[j], n = m->wing_point_num[j], nw = 0;
  for (int k = 0; k < n; k++) {
    int p = m->wing_points[adr + k];
    nw += m->point_type[p] == AWE_PT_WING && m->point_wing[p] == j;
  }
  int npair = nw / 2, q1 = (npair - 1) / 2, q2 = npair / 2, q = 0;
  if (npair < 1) return 0.0;
  double c[3] = {0.0, 0.0, 0.0}, le[3] = {0.0, 0.0, 0.0};
  for (int k = 0; k < n; k++) {
    int p = m->wing_points[adr + k];
    if (m->point_type[p] != AWE_PT_WING || m->point_wing[p] != j) continue;
    int pair = q / 2, is_te = q % 2;
    q++;
    if (pair != q1 && pair != q2) continue;
    for (int i = 0; i < 3; i++) {
      if (is_te)
        c[i] += w->pos[3 * p + i] - le[i];
      else
        le[i] = w->pos[3 * p + i];
    }
  }
  awe_mat3_tvec(w->wing_R + 9 * j, c, c); /* body axes */
  return atan2(-c[2], c[0]);
}


/* one wing quantity (physics.md §9) */
static void wing_output(const awe_model *m, const awe_work *w, int j, int code, double *o) {
  const double *R = w->wing_R + 9 * j, *pos = w->wing_pos + 3 * j, *vel = w->wing_vel + 3 * j;
  const double *vab = w->wing_va_b + 3 * j, *ww = w->wing_omega_w + 3 * j;
  double r[3], ex[3] = {R[0], R[3], R[6]};
  awe_v3_sub(r, pos, w->wg[j].base);
  if (code == OC_WG_POS) {
    put3(o, pos);
  } else if (code == OC_WG_VEL) {
    put3(o, vel);
  } else if (code == OC_WG_QUAT) {
    awe_R_to_quat(R, o);
  } else if (code == OC_WG_OMEGA_B) {
    for (int k = 0; k < 3; k++) o[k] = R[k] * ww[0] + R[3 + k] * ww[1] + R[6 + k] * ww[2];
  } else if (code == OC_WG_VA) {
    put3(o, w->wing_va + 3 * j);
  } else if (code == OC_WG_VA_B) {
    put3(o, vab);
  } else if (code == OC_WG_FORCE_B) {
    put3(o, w->wing_aero_force_b + 3 * j);
  } else if (code == OC_WG_MOMENT_B) {
    put3(o, w->wing_aero_moment_b + 3 * j);
  } else if (code == OC_WG_ELEVATION) {
    *o = awe_elevation(r);
  } else if (code == OC_WG_AZIMUTH) {
    *o = awe_azimuth(r);
  } else if (code == OC_WG_HEADING) {
    *o = awe_heading(r, ex);
  } else if (code == OC_WG_COURSE) {
    *o = awe_course(r, vel);
  } else if (code == OC_WG_AOA) {
    if (m->wing_type[j] == AWE_WING_PARTICLE) /* a folded wing's chord may point anywhere */
      *o = remainder(atan2(vab[2], vab[0]) + mid_chord_pitch(m, w, j), 2.0 * AWE_PI);
    else
      *o = atan2(vab[2], vab[0]) + mid_twist(m, w, j);
  } else if (code == OC_WG_AOA_BODY) {
    *o = atan2(vab[2], vab[0]);
  } else if (code == OC_WG_SIDESLIP) {
    *o = atan2(vab[1], hypot(vab[0], vab[2]));
  } else if (code == OC_WG_DISTANCE) {
    *o = awe_v3_norm(r);
  } else if (code == OC_WG_TURN_RATE) {
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
  } else if (code == OC_WG_POWER) {
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
    int i = v->comp_index, code = w->out_code[k];
    switch (code) {
      case OC_INPUT: *o = w->u[i]; break; /* comp_index is the input's index in u */
      case OC_PT_POS: put3(o, w->pos + 3 * i); break;
      case OC_PT_VEL: put3(o, w->vel + 3 * i); break;
      case OC_PT_FORCE: put3(o, w->force + 3 * i); break;
      case OC_SEG_LEN: *o = w->seg_len[i]; break;
      case OC_SEG_FORCE: *o = w->seg_force[i]; break;
      case OC_SEG_L0: *o = w->seg_l0[i]; break;
      case OC_TE_LEN: *o = w->tether_len[i]; break;
      case OC_TE_STRETCHED: {
        double sum = 0.0;
        for (int j = 0; j < m->tether_seg_num[i]; j++)
          sum += w->seg_len[m->tether_segs[m->tether_seg_adr[i] + j]];
        *o = sum;
        break;
      }
      case OC_WI_FORCE: *o = w->winch_force[i]; break;
      case OC_WI_VEL: *o = w->winch_vel[i]; break;
      case OC_WI_TORQUE: *o = w->winch_torque[i]; break;
      case OC_WI_ACC: *o = w->winch_acc[i]; break;
      case OC_WI_POWER: *o = awe_winch_power(w, i); break;
      case OC_WI_ENERGY: *o = w->winch_energy[i]; break;
      case OC_WI_POWER_EL: *o = awe_winch_power_electrical(m, w, i); break;
      case OC_WI_ENERGY_EL: *o = w->winch_energy_el[i]; break;
      case OC_PU_LEN: *o = w->pulley_len[i]; break;
      case OC_PU_VEL: *o = w->pulley_vel[i]; break;
      case OC_BD_POS: put3(o, w->body_pos + 3 * i); break;
      case OC_BD_VEL: put3(o, w->body_vel + 3 * i); break;
      case OC_BD_QUAT: memcpy(o, w->body_q + 4 * i, 4 * sizeof(double)); break;
      case OC_BD_OMEGA_B: put3(o, w->body_omega + 3 * i); break;
      case OC_BD_FORCE: put3(o, w->body_force + 3 * i); break;
      case OC_BD_MOMENT: put3(o, w->body_moment + 3 * i); break;
      case OC_WG_WIND: /* the wind at the wing's origin: its apparent wind plus its velocity */
        for (int c = 0; c < 3; c++) o[c] = w->wing_va[3 * i + c] + w->wing_vel[3 * i + c];
        break;
      case OC_WG_WAGNER_D: *o = w->wing_wag_d[i]; break; /* unsteady.h */
      case OC_WG_WAGNER_X1: *o = w->wing_wag_xs[2 * i]; break;
      case OC_WG_WAGNER_X2: *o = w->wing_wag_xs[2 * i + 1]; break;
      case OC_GR_TWIST: *o = w->twist[i]; break;
      case OC_GR_TWIST_VEL: *o = w->twist_vel[i]; break;
      case OC_KCU_DP_SET: *o = w->kcu_set[0]; break;
      case OC_KCU_ST_SET: *o = w->kcu_set[1]; break;
      case OC_KCU_DP: *o = w->kcu_act[0]; break;
      case OC_KCU_ST: *o = w->kcu_act[1]; break;
      case OC_KCU_TAPE_DP: *o = m->kcu_seg[0] >= 0 ? w->seg_l0[m->kcu_seg[0]] : NAN; break;
      case OC_KCU_TAPE_L: *o = m->kcu_seg[1] >= 0 ? w->seg_l0[m->kcu_seg[1]] : NAN; break;
      case OC_KCU_TAPE_R: *o = m->kcu_seg[2] >= 0 ? w->seg_l0[m->kcu_seg[2]] : NAN; break;
      case OC_CONTROLLER: break; /* written at the sample instants (controller.h) */
      default:
        if (code >= OC_WG_POS && code <= OC_WG_POWER) wing_output(m, w, i, code, o);
        else
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
    double Pe = awe_winch_power_electrical(m, w, i);
    if (first) w->winch_energy_el[i] = 0.0;
    else w->winch_energy_el[i] += 0.5 * (t - w->log_t) * (w->winch_power_el_log[i] + Pe);
    w->winch_power_el_log[i] = Pe;
  }
  w->log_t = t;
  awe_outputs_fill(m, w, yout);
  return st;
}
