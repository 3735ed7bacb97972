/* layout.c: the state vector, inputs and outputs of a model, declared in the registry.
 *
 * State choice (seed 001: the variable that conditions best where there is a choice):
 *   DYNAMIC points          pos [m], vel [m/s]  (world frame)
 *   WING points             particle wings (PARTICLE_DYNAMICS/REFINE): pos, vel as DYNAMIC
 *                           points; rigid wings: no state, slaves of the wing body (wing.h)
 *   RIGID_DYNAMICS wings    com [m], com_vel [m/s] (centre of mass, world), Q [-] (unit
 *                           quaternion w,x,y,z, principal -> world, flag AWE_VF_QUAT),
 *                           omega_p [rad/s] (body rates in the principal frame, where Euler's
 *                           equations are diagonal); physics.md §4
 *   DYNAMIC twist groups    twist [rad] (free twist angle, clamped to +-90 deg where used),
 *                           twist_vel [rad/s]; registered right after their wing's states so
 *                           that a wing and its groups form one contiguous block (integrate.c)
 *   tethers on a winch      len [m] (unstretched length, not the drum angle; l0 = len/n)
 *   torque-driven winches   vel [m/s] (reel-out speed at the drum)
 *   DYNAMIC pulleys         len [m] (rest length of leg 1), vel [m/s]; a pulley whose rope has
 *                           no mass cannot be DYNAMIC (m_p = 0) and is solved quasi-statically
 *   DYNAMIC bodies          pos [m], vel [m/s] (centre of mass, world), Q [-] (Q_b_to_w, flag
 *                           AWE_VF_QUAT), omega [rad/s] (body frame); body.h, physics.md §18
 * QUASI_STATIC points and pulleys are algebraic (solved inside the right-hand side by Newton's
 * method, quasi_static.c) and have no state; a speed-controlled winch has no state either: its
 * reel-out speed is the input winches.NAME.speed.
 * Absolute positions were kept over positions relative to a base point: at the tether lengths
 * of these models (<= 1 km) double precision leaves 1e-13 m resolution, far below the
 * tolerances used. Perturbation sizes follow OpenFAST (~1e-6 of the typical scale).
 *
 * Inputs: winches.NAME.torque [N m], winches.NAME.brake [-] (> 0.5 braked),
 * winches.NAME.speed [m/s] (speed-controlled winches: the speed; AsyncMachine winches: the
 * speed set-point, i.e. the synchronous speed at the drum), segments.NAME.l0 [m] (change of the
 * rest length), points.NAME.force [N] (external force), wind.v_wind [m/s], wind.direction
 * [deg] (upwind, clockwise from north), wind.w [m/s] (vertical),
 * wings.NAME.force [N] and wings.NAME.moment [N m] (external force at the centre of mass and
 * moment on a rigid wing, world frame), bodies.NAME.force [N] and bodies.NAME.moment [N m]
 * (the same on a DYNAMIC body).
 *
 * Wing outputs (physics.md §9; outputs.c): pos, vel (wing origin, world), quat (body -> world,
 * w,x,y,z), omega_b, va_b, aero_force_b, aero_moment_b (about the wing origin, body frame),
 * va (apparent wind at the origin, world), elevation, azimuth, heading, course, aoa, sideslip,
 * distance, power; groups.NAME.twist [rad].
 *
 * Unsteady aerodynamics (engine/unsteady.h): a wing with unsteady.wagner has the states
 * wings.NAME.wagner_x1, wings.NAME.wagner_x2 [rad] (after the kcu's; in the Jacobian's pattern
 * they join a rigid wing's block when they follow it directly, integrate.c), logged as outputs
 * of the same names with wings.NAME.wagner_deficiency [rad].
 *
 * Kite control unit (kcu.h; scenario kcu:): states kcu.depower_actual, kcu.steering_actual
 * [%] (the motors' positions), inputs kcu.depower, kcu.steering [%] (the commands), outputs
 * kcu.depower_set, kcu.steering_set (the commands as used, clamped), kcu.depower_actual,
 * kcu.steering_actual [%], kcu.depower_tape, kcu.steering_tape_left, kcu.steering_tape_right
 * [m] (the tapes' rest lengths).
 *
 * Winch outputs: force, vel, torque, power [W] (|F_w| times the tether's reel-out rate, reel-out
 * positive), energy [J] (power integrated over the run, outputs.c), power_electrical [W]
 * (produced: positive generating, negative motoring; winch.h) and energy_electrical [J].
 *
 * Scheduled inputs (the scenario's inputs:) are logged too, each as its own channel
 * inputs.<input name> (e.g. inputs.segments.kcu_steering_left.l0 [m], inputs.wind.v_wind), the
 * value the right-hand side used at the logged time (awe_model_layout_inputs, after the signals
 * are resolved).
 */
#include <math.h>

#include "model/model.h"
#include "util/pool.h"
#include "util/vec3.h"

#define ADD(list, ...)                                          \
  do {                                                          \
    if (awe_varlist_add(list, __VA_ARGS__) < 0)                 \
      return awe_err_set(err, AWE_ENOMEM, "out of memory");     \
  } while (0)


int awe_point_is_slave(const awe_model *m, int i) {
  int wi = m->point_wing[i];
  return m->point_type[i] == AWE_PT_WING && wi >= 0 && m->wing_type[wi] == AWE_WING_RIGID;
}


int awe_point_has_state(const awe_model *m, int i) {
  /* particle-wing points move freely; rigid-wing points are slaves of the wing body, points
   * riding a rigid body (engine/body.h) are placed by it */
  if (m->point_body && m->point_body[i] >= 0) return 0;
  if (m->point_type[i] == AWE_PT_DYNAMIC) return 1;
  return m->point_type[i] == AWE_PT_WING && !awe_point_is_slave(m, i);
}


int awe_group_has_state(const awe_model *m, int g) {
  int wi = m->group_wing[g];
  return m->group_type[g] == AWE_DYN_DYNAMIC && wi >= 0 && m->wing_type[wi] == AWE_WING_RIGID;
}


int awe_pulley_has_state(const awe_model *m, int i) {
  if (m->pulley_type[i] != AWE_DYN_DYNAMIC) return 0;
  int s = m->pulley_seg[2 * i];
  double d = m->segment_diameter[s];
  double mp = m->pulley_sum_len[i] * m->segment_density[s] * AWE_PI * 0.25 * d * d;
  return mp > 0.0 && isfinite(mp);
}


awe_status awe_model_layout(awe_model *m, awe_err *err) {
  awe_varlist *x = &m->reg.state, *u = &m->reg.input, *y = &m->reg.output;
  const unsigned LL = AWE_VF_LOG | AWE_VF_LINEARIZE;

  /* states */
  for (int i = 0; i < m->npoint; i++) {
    if (!awe_point_has_state(m, i)) continue;
    ADD(x, "points", m->point_name[i], i, "pos", "m", 3, 1e-6, LL);
    ADD(x, "points", m->point_name[i], i, "vel", "m/s", 3, 1e-6, LL);
  }
  for (int i = 0; i < m->ntether; i++)
    if (m->tether_winch[i] >= 0) ADD(x, "tethers", m->tether_name[i], i, "len", "m", 1, 1e-6, LL);
  for (int i = 0; i < m->nwinch; i++)
    if (!m->winch_speed_controlled[i])
      ADD(x, "winches", m->winch_name[i], i, "vel", "m/s", 1, 1e-6, LL);
  for (int i = 0; i < m->npulley; i++) {
    if (!awe_pulley_has_state(m, i)) continue;
    ADD(x, "pulleys", m->pulley_name[i], i, "len", "m", 1, 1e-6, LL);
    ADD(x, "pulleys", m->pulley_name[i], i, "vel", "m/s", 1, 1e-6, LL);
  }
  for (int i = 0; i < m->nwing; i++) {
    if (m->wing_type[i] != AWE_WING_RIGID) continue;
    ADD(x, "wings", m->wing_name[i], i, "com", "m", 3, 1e-6, LL);
    ADD(x, "wings", m->wing_name[i], i, "com_vel", "m/s", 3, 1e-6, LL);
    ADD(x, "wings", m->wing_name[i], i, "Q", "-", 4, 1e-6, LL | AWE_VF_QUAT);
    ADD(x, "wings", m->wing_name[i], i, "omega_p", "rad/s", 3, 1e-6, LL);
    for (int k = 0; k < m->wing_group_num[i]; k++) {
      int g = m->wing_groups[m->wing_group_adr[i] + k];
      if (!awe_group_has_state(m, g)) continue;
      ADD(x, "groups", m->group_name[g], g, "twist", "rad", 1, 1e-6, LL);
      ADD(x, "groups", m->group_name[g], g, "twist_vel", "rad/s", 1, 1e-6, LL);
    }
  }
  /* rigid bodies (engine/body.h): centre of mass, Q_b_to_w, body-frame angular velocity */
  for (int i = 0; i < m->nbody; i++) {
    if (m->body_static[i]) continue;
    ADD(x, "bodies", m->body_name[i], i, "pos", "m", 3, 1e-6, LL);
    ADD(x, "bodies", m->body_name[i], i, "vel", "m/s", 3, 1e-6, LL);
    ADD(x, "bodies", m->body_name[i], i, "Q", "-", 4, 1e-6, LL | AWE_VF_QUAT);
    ADD(x, "bodies", m->body_name[i], i, "omega", "rad/s", 3, 1e-6, LL);
  }
  /* kite control unit: a motor for each tape set it drives */
  if (m->has_kcu && m->kcu_seg[0] >= 0) ADD(x, "kcu", "", 0, "depower_actual", "%", 1, 1e-4, LL);
  if (m->has_kcu && m->kcu_seg[1] >= 0) ADD(x, "kcu", "", 0, "steering_actual", "%", 1, 1e-4, LL);
  /* Wagner lift lag (engine/unsteady.h): two states per wing, [rad] (per semi-chord) */
  for (int i = 0; i < m->nwing; i++) {
    if (!m->wing_wagner[i]) continue;
    ADD(x, "wings", m->wing_name[i], i, "wagner_x1", "rad", 1, 1e-6, LL);
    ADD(x, "wings", m->wing_name[i], i, "wagner_x2", "rad", 1, 1e-6, LL);
  }

  /* inputs */
  for (int i = 0; i < m->nwinch; i++) {
    ADD(u, "winches", m->winch_name[i], i, "torque", "N m", 1, 1e-3, LL);
    ADD(u, "winches", m->winch_name[i], i, "brake", "-", 1, 0.0, AWE_VF_LOG);
    if (m->winch_speed_controlled[i] || m->winch_async[i])
      ADD(u, "winches", m->winch_name[i], i, "speed", "m/s", 1, 1e-6, LL);
  }
  for (int i = 0; i < m->nsegment; i++)
    ADD(u, "segments", m->segment_name[i], i, "l0", "m", 1, 1e-6, AWE_VF_LOG);
  for (int i = 0; i < m->npoint; i++)
    ADD(u, "points", m->point_name[i], i, "force", "N", 3, 1e-3, 0);
  ADD(u, "wind", "", 0, "v_wind", "m/s", 1, 1e-3, AWE_VF_LOG);
  ADD(u, "wind", "", 0, "direction", "deg", 1, 1e-3, AWE_VF_LOG);
  ADD(u, "wind", "", 0, "w", "m/s", 1, 1e-3, AWE_VF_LOG);
  if (m->has_kcu && m->kcu_seg[0] >= 0) ADD(u, "kcu", "", 0, "depower", "%", 1, 1e-4, LL);
  if (m->has_kcu && m->kcu_seg[1] >= 0) ADD(u, "kcu", "", 0, "steering", "%", 1, 1e-4, LL);
  for (int i = 0; i < m->nwing; i++)
    if (m->wing_type[i] == AWE_WING_RIGID)
      ADD(u, "wings", m->wing_name[i], i, "force", "N", 3, 1e-3, 0);
  for (int i = 0; i < m->nbody; i++)
    if (!m->body_static[i]) ADD(u, "bodies", m->body_name[i], i, "force", "N", 3, 1e-3, 0);
  for (int i = 0; i < m->nbody; i++)
    if (!m->body_static[i]) ADD(u, "bodies", m->body_name[i], i, "moment", "N m", 3, 1e-3, 0);
  for (int i = 0; i < m->nwing; i++)
    if (m->wing_type[i] == AWE_WING_RIGID)
      ADD(u, "wings", m->wing_name[i], i, "moment", "N m", 3, 1e-3, 0);

  /* outputs (HDF5 datasets are formed from runs of equal group.var) */
  for (int i = 0; i < m->npoint; i++)
    ADD(y, "points", m->point_name[i], i, "pos", "m", 3, 0, AWE_VF_LOG);
  for (int i = 0; i < m->npoint; i++)
    ADD(y, "points", m->point_name[i], i, "vel", "m/s", 3, 0, AWE_VF_LOG);
  for (int i = 0; i < m->npoint; i++)
    ADD(y, "points", m->point_name[i], i, "force", "N", 3, 0, AWE_VF_LOG);
  for (int i = 0; i < m->nsegment; i++)
    ADD(y, "segments", m->segment_name[i], i, "len", "m", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->nsegment; i++)
    ADD(y, "segments", m->segment_name[i], i, "force", "N", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->ntether; i++)
    ADD(y, "tethers", m->tether_name[i], i, "len", "m", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->ntether; i++)
    ADD(y, "tethers", m->tether_name[i], i, "stretched_len", "m", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->nwinch; i++)
    ADD(y, "winches", m->winch_name[i], i, "force", "N", 1, 0, AWE_VF_LOG | AWE_VF_LINEARIZE);
  for (int i = 0; i < m->nwinch; i++)
    ADD(y, "winches", m->winch_name[i], i, "vel", "m/s", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->nwinch; i++)
    ADD(y, "winches", m->winch_name[i], i, "torque", "N m", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->nwinch; i++)
    ADD(y, "winches", m->winch_name[i], i, "power", "W", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->nwinch; i++)
    ADD(y, "winches", m->winch_name[i], i, "energy", "J", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->nwinch; i++)
    ADD(y, "winches", m->winch_name[i], i, "power_electrical", "W", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->nwinch; i++)
    ADD(y, "winches", m->winch_name[i], i, "energy_electrical", "J", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->npulley; i++)
    ADD(y, "pulleys", m->pulley_name[i], i, "len", "m", 1, 0, AWE_VF_LOG);

  /* wings: one run per quantity (HDF5 datasets [T, Wi, ...]) */
  static const struct {
    const char *var, *unit;
    int dim;
    unsigned flags;
  } wv[] = {
      {"pos", "m", 3, AWE_VF_LOG},
      {"vel", "m/s", 3, AWE_VF_LOG},
      {"quat", "-", 4, AWE_VF_LOG | AWE_VF_QUAT},
      {"omega_b", "rad/s", 3, AWE_VF_LOG},
      {"va", "m/s", 3, AWE_VF_LOG},
      {"va_b", "m/s", 3, AWE_VF_LOG},
      {"aero_force_b", "N", 3, AWE_VF_LOG},
      {"aero_moment_b", "N m", 3, AWE_VF_LOG},
      {"elevation", "rad", 1, AWE_VF_LOG | AWE_VF_ANGLE | AWE_VF_LINEARIZE},
      {"azimuth", "rad", 1, AWE_VF_LOG | AWE_VF_ANGLE | AWE_VF_LINEARIZE},
      {"heading", "rad", 1, AWE_VF_LOG | AWE_VF_ANGLE | AWE_VF_LINEARIZE},
      {"course", "rad", 1, AWE_VF_LOG | AWE_VF_ANGLE},
      {"aoa", "rad", 1, AWE_VF_LOG | AWE_VF_ANGLE | AWE_VF_LINEARIZE},
      {"aoa_body", "rad", 1, AWE_VF_LOG | AWE_VF_ANGLE},
      {"sideslip", "rad", 1, AWE_VF_LOG | AWE_VF_ANGLE},
      {"distance", "m", 1, AWE_VF_LOG},
      {"turn_rate", "rad/s", 3, AWE_VF_LOG},
      {"power", "W", 1, AWE_VF_LOG},
      {"wind", "m/s", 3, AWE_VF_LOG},
  };
  for (int k = 0; k < (int)(sizeof(wv) / sizeof(wv[0])); k++)
    for (int i = 0; i < m->nwing; i++)
      ADD(y, "wings", m->wing_name[i], i, wv[k].var, wv[k].unit, wv[k].dim, 0, wv[k].flags);
  for (int i = 0; i < m->nwing; i++)
    if (m->wing_wagner[i])
      ADD(y, "wings", m->wing_name[i], i, "wagner_deficiency", "rad", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->nwing; i++)
    if (m->wing_wagner[i]) ADD(y, "wings", m->wing_name[i], i, "wagner_x1", "rad", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->nwing; i++)
    if (m->wing_wagner[i]) ADD(y, "wings", m->wing_name[i], i, "wagner_x2", "rad", 1, 0, AWE_VF_LOG);
  /* bodies: centre of mass, Q_b_to_w, body-frame rates, total force and moment (world, about
   * the centre of mass; tubes, gravity, external inputs) */
  static const struct {
    const char *var, *unit;
    int dim;
    unsigned flags;
  } bv[] = {
      {"pos", "m", 3, AWE_VF_LOG},          {"vel", "m/s", 3, AWE_VF_LOG},
      {"quat", "-", 4, AWE_VF_LOG | AWE_VF_QUAT}, {"omega_b", "rad/s", 3, AWE_VF_LOG},
      {"force", "N", 3, AWE_VF_LOG},        {"moment", "N m", 3, AWE_VF_LOG},
  };
  for (int k = 0; k < (int)(sizeof(bv) / sizeof(bv[0])); k++)
    for (int i = 0; i < m->nbody; i++)
      ADD(y, "bodies", m->body_name[i], i, bv[k].var, bv[k].unit, bv[k].dim, 0, bv[k].flags);
  for (int g = 0; g < m->ngroup; g++)
    ADD(y, "groups", m->group_name[g], g, "twist", "rad", 1, 0, AWE_VF_LOG | AWE_VF_ANGLE);
  if (m->has_kcu) {
    static const char *const kv[] = {"depower_set", "depower_actual", "steering_set",
                                     "steering_actual"};
    for (int k = 0; k < 4; k++)
      if (m->kcu_seg[k < 2 ? 0 : 1] >= 0) ADD(y, "kcu", "", 0, kv[k], "%", 1, 0, AWE_VF_LOG);
    static const char *const kt[] = {"depower_tape", "steering_tape_left", "steering_tape_right"};
    for (int k = 0; k < 3; k++)
      if (m->kcu_seg[k] >= 0) ADD(y, "kcu", "", 0, kt[k], "m", 1, 0, AWE_VF_LOG);
  }
  return AWE_OK;
}


awe_status awe_model_layout_inputs(awe_model *m, awe_err *err) {
  const awe_varlist *u = &m->reg.input;
  awe_varlist *y = &m->reg.output;
  for (int i = 0; i < m->nsignal; i++) {
    int ui = m->signals[i].u_index, dup = 0;
    for (int k = 0; k < i; k++) dup |= m->signals[k].u_index == ui;
    if (dup) continue;
    for (int v = 0; v < u->n; v++) {
      const awe_var *a = &u->v[v];
      if (ui < a->offset || ui >= a->offset + a->dim) continue;
      char name[256];
      awe_var_scalar_name(a, ui - a->offset, name, sizeof(name));
      const char *pooled = awe_pool_strdup(m->pool, name);
      if (!pooled) return awe_err_set(err, AWE_ENOMEM, "out of memory");
      ADD(y, "inputs", "", ui, pooled, a->unit, 1, 0, AWE_VF_LOG);
      break;
    }
  }
  return AWE_OK;
}
