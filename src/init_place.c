/* init_place.c: initial placement of the system (physics.md §10).
 *
 * First version: world position = CAD position, zero velocity, tether lengths from the
 * geometry. Tether init lengths and transforms are applied by the simulate work.
 */
#include <math.h>
#include <string.h>

#include "model.h"


awe_status awe_model_place(awe_model *m, const awe_spec *s, awe_diag *warn, awe_err *err) {
  (void)s;
  (void)warn;
  (void)err;
  memcpy(m->point_pos0, m->point_pos_cad, sizeof(double) * 3 * (size_t)m->npoint);
  memset(m->point_vel0, 0, sizeof(double) * 3 * (size_t)m->npoint);
  return AWE_OK;
}
