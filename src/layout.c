/* layout.c: the state vector, inputs and outputs of a model, declared in the registry.
 *
 * State choice (relative where it conditions better, seed 001):
 *   DYNAMIC points          pos [m], vel [m/s]  (world frame)
 *   tethers on a winch      len [m] (unstretched length; segments get l0 = len/n)
 *   winches                 vel [m/s] (reel-out speed at the drum)
 *   DYNAMIC pulleys         len [m] (rest length of leg 1), vel [m/s]
 * QUASI_STATIC points and pulleys are algebraic and have no state.
 */
#include "model.h"

#define ADD(list, ...)                                          \
  do {                                                          \
    if (awe_varlist_add(list, __VA_ARGS__) < 0)                 \
      return awe_err_set(err, AWE_ENOMEM, "out of memory");     \
  } while (0)


static int point_has_state(const awe_model *m, int i) {
  if (m->point_type[i] == AWE_PT_DYNAMIC) return 1;
  if (m->point_type[i] == AWE_PT_WING && m->point_wing[i] >= 0 &&
      m->wing_type[m->point_wing[i]] == AWE_WING_PARTICLE)
    return 1;
  return 0;
}


awe_status awe_model_layout(awe_model *m, awe_err *err) {
  awe_varlist *x = &m->reg.state, *u = &m->reg.input, *y = &m->reg.output;
  const unsigned LL = AWE_VF_LOG | AWE_VF_LINEARIZE;
  for (int i = 0; i < m->npoint; i++) {
    if (!point_has_state(m, i)) continue;
    ADD(x, "points", m->point_name[i], i, "pos", "m", 3, 1e-6, LL);
    ADD(x, "points", m->point_name[i], i, "vel", "m/s", 3, 1e-6, LL);
  }
  for (int i = 0; i < m->ntether; i++)
    if (m->tether_winch[i] >= 0) ADD(x, "tethers", m->tether_name[i], i, "len", "m", 1, 1e-6, LL);
  for (int i = 0; i < m->nwinch; i++)
    ADD(x, "winches", m->winch_name[i], i, "vel", "m/s", 1, 1e-6, LL);
  for (int i = 0; i < m->npulley; i++) {
    if (m->pulley_type[i] != AWE_DYN_DYNAMIC) continue;
    ADD(x, "pulleys", m->pulley_name[i], i, "len", "m", 1, 1e-6, LL);
    ADD(x, "pulleys", m->pulley_name[i], i, "vel", "m/s", 1, 1e-6, LL);
  }
  for (int i = 0; i < m->nwinch; i++) {
    ADD(u, "winches", m->winch_name[i], i, "torque", "N*m", 1, 1e-3, LL);
    ADD(u, "winches", m->winch_name[i], i, "brake", "-", 1, 0.0, AWE_VF_LOG);
  }
  for (int i = 0; i < m->nsegment; i++)
    ADD(u, "segments", m->segment_name[i], i, "l0", "m", 1, 1e-6, AWE_VF_LOG);
  for (int i = 0; i < m->npoint; i++)
    ADD(u, "points", m->point_name[i], i, "force", "N", 3, 1e-3, 0);
  ADD(u, "wind", "", 0, "v_wind", "m/s", 1, 1e-3, AWE_VF_LOG);
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
    ADD(y, "winches", m->winch_name[i], i, "torque", "N*m", 1, 0, AWE_VF_LOG);
  for (int i = 0; i < m->npulley; i++)
    ADD(y, "pulleys", m->pulley_name[i], i, "len", "m", 1, 0, AWE_VF_LOG);
  return AWE_OK;
}
