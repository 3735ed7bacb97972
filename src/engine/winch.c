/* winch.c: winch force, friction and drum dynamics.
 *
 * Equations and sources: see winch.h (physics.md §5).
 */
#include "engine/winch.h"


int awe_winch_braked(const awe_work *w, int i) {
  return w->winch_u_brake[i] >= 0 && w->u[w->winch_u_brake[i]] > 0.5;
}


double awe_winch_power(const awe_work *w, int i) {
  return awe_winch_braked(w, i) ? 0.0 : w->winch_force[i] * w->winch_vel[i];
}


double awe_winch_friction(const awe_model *m, int i, double v) {
  double ratio = m->winch_drum_radius[i] / m->winch_gear_ratio[i];
  double wm = v / ratio, eps = m->winch_friction_eps[i];
  double sgn = wm / sqrt(wm * wm + eps * eps);
  return sgn * m->winch_f_coulomb[i] * ratio + m->winch_c_vf[i] * wm * ratio * ratio;
}


void awe_winch_forces(const awe_model *m, awe_work *w) {
  for (int i = 0; i < m->nwinch; i++) {
    double F[3] = {0.0, 0.0, 0.0};
    const int *segs = w->winch_segs + w->winch_seg_adr[i];
    const double *sign = w->winch_seg_sign + w->winch_seg_adr[i];
    for (int k = 0; k < w->winch_seg_num[i]; k++)
      awe_v3_addto(F, sign[k] * w->seg_force[segs[k]], w->seg_dir + 3 * segs[k]);
    w->winch_force[i] = sqrt(awe_v3_dot(F, F) + 1e-24);
  }
}


/* synchronous speed of an AsyncMachine winch's set-point [rad/s] */
static double omega_sync(const awe_model *m, const awe_work *w, int i) {
  double ratio = m->winch_drum_radius[i] / m->winch_gear_ratio[i];
  return (w->winch_u_speed[i] >= 0 ? w->u[w->winch_u_speed[i]] : 0.0) / ratio;
}


double awe_winch_motor_torque(const awe_model *m, const awe_work *w, int i, double *dtau_dv) {
  double tau = w->winch_u_torque[i] >= 0 ? w->u[w->winch_u_torque[i]] : 0.0;
  if (dtau_dv) *dtau_dv = 0.0;
  if (!m->winch_async[i]) return tau;
  double ratio = m->winch_drum_radius[i] / m->winch_gear_ratio[i], dt;
  tau += awe_async_torque(&m->winch_machine[i], omega_sync(m, w, i), w->winch_vel[i] / ratio,
                          &dt);
  if (dtau_dv) *dtau_dv = dt / ratio;
  return tau;
}


double awe_winch_power_electrical(const awe_model *m, const awe_work *w, int i) {
  if (awe_winch_braked(w, i) || w->winch_x[i] < 0) return 0.0;
  double ratio = m->winch_drum_radius[i] / m->winch_gear_ratio[i];
  double tau_set = w->winch_u_torque[i] >= 0 ? w->u[w->winch_u_torque[i]] : 0.0;
  /* power the drive puts into the shaft: the set torque at the shaft speed, and the machine's
   * torque at the synchronous speed (its rotor losses tau (w_s - w) come from the supply) */
  double P = tau_set * w->winch_vel[i] / ratio;
  if (m->winch_async[i]) {
    double ws = omega_sync(m, w, i);
    P += awe_async_torque(&m->winch_machine[i], ws, w->winch_vel[i] / ratio, NULL) * ws;
  }
  double eta = m->winch_eta[i];
  return P <= 0.0 ? -P * eta : -P / eta; /* produced: generating > 0 */
}


void awe_winch_dynamics(const awe_model *m, awe_work *w, int brake_all) {
  for (int i = 0; i < m->nwinch; i++) {
    double tau_set = awe_winch_motor_torque(m, w, i, NULL);
    w->winch_torque[i] = tau_set;
    if (brake_all || awe_winch_braked(w, i) || w->winch_x[i] < 0) {
      w->winch_acc[i] = 0.0;
      continue;
    }
    double ratio = m->winch_drum_radius[i] / m->winch_gear_ratio[i];
    double tau = tau_set + ratio * w->winch_force[i] - awe_winch_friction(m, i, w->winch_vel[i]);
    w->winch_acc[i] = ratio * tau / m->winch_inertia[i];
  }
}


double awe_winch_steady_torque(const awe_model *m, const awe_work *w, int i) {
  double ratio = m->winch_drum_radius[i] / m->winch_gear_ratio[i];
  return -ratio * w->winch_force[i] + awe_winch_friction(m, i, w->winch_vel[i]);
}
