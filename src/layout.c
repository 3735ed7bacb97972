/* layout.c: the state vector, inputs and outputs of a model, declared in the registry.
 *
 * State choice (seed 001: the variable that conditions best where there is a choice):
 *   DYNAMIC points          pos [m], vel [m/s]  (world frame)
 *   WING points             pos, vel as DYNAMIC points (both wing kinds until the wing issue
 *                           adds rigid-body states; rigid-wing points then become slaves)
 *   tethers on a winch      len [m] (unstretched length, not the drum angle; l0 = len/n)
 *   torque-driven winches   vel [m/s] (reel-out speed at the drum)
 *   DYNAMIC pulleys         len [m] (rest length of leg 1), vel [m/s]; a pulley whose rope has
 *                           no mass cannot be DYNAMIC (m_p = 0) and is solved quasi-statically
 * QUASI_STATIC points and pulleys are algebraic (solved inside the right-hand side by Newton's
 * method, quasi_static.c) and have no state; a speed-controlled winch has no state either: its
 * reel-out speed is the input winches.NAME.speed.
 * Absolute positions were kept over positions relative to a base point: at the tether lengths
 * of these models (<= 1 km) double precision leaves 1e-13 m resolution, far below the
 * tolerances used. Perturbation sizes follow OpenFAST (~1e-6 of the typical scale).
 *
 * Inputs: winches.NAME.torque [N m], winches.NAME.brake [-] (> 0.5 braked),
 * winches.NAME.speed [m/s] (speed-controlled winches only), segments.NAME.l0 [m] (change of the
 * rest length), points.NAME.force [N] (external force), wind.v_wind [m/s].
 */
#include <math.h>

#include "model.h"
#include "work.h"

#define ADD(list, ...)                                          \
  do {                                                          \
    if (awe_varlist_add(list, __VA_ARGS__) < 0)                 \
      return awe_err_set(err, AWE_ENOMEM, "out of memory");     \
  } while (0)


int awe_point_has_state(const awe_model *m, int i) {
  /* particle-wing points move freely; rigid-wing points will be slaves of the wing body once
   * wing dynamics exist, until then they are free points held by the wing's segments */
  return m->point_type[i] == AWE_PT_DYNAMIC || m->point_type[i] == AWE_PT_WING;
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

  /* inputs */
  for (int i = 0; i < m->nwinch; i++) {
    ADD(u, "winches", m->winch_name[i], i, "torque", "N m", 1, 1e-3, LL);
    ADD(u, "winches", m->winch_name[i], i, "brake", "-", 1, 0.0, AWE_VF_LOG);
    if (m->winch_speed_controlled[i])
      ADD(u, "winches", m->winch_name[i], i, "speed", "m/s", 1, 1e-6, LL);
  }
  for (int i = 0; i < m->nsegment; i++)
    ADD(u, "segments", m->segment_name[i], i, "l0", "m", 1, 1e-6, AWE_VF_LOG);
  for (int i = 0; i < m->npoint; i++)
    ADD(u, "points", m->point_name[i], i, "force", "N", 3, 1e-3, 0);
  ADD(u, "wind", "", 0, "v_wind", "m/s", 1, 1e-3, AWE_VF_LOG);

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
  for (int i = 0; i < m->npulley; i++)
    ADD(y, "pulleys", m->pulley_name[i], i, "len", "m", 1, 0, AWE_VF_LOG);
  return AWE_OK;
}
