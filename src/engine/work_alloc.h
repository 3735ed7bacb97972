/* work_alloc.h: create, initialise and free a workspace (work.h).
 *
 * Separate from work.h because allocation needs every component (wing, group, quasi-static,
 * aerodynamic coupling) while the components need the workspace type: the type stays at the
 * bottom of the engine, its life cycle sits above the components.
 */
#ifndef AWE_WORK_ALLOC_H
#define AWE_WORK_ALLOC_H

#include "engine/work.h"

/* Allocate a workspace for m (which must outlive it): every array, the wing and group geometry
 * and the aerodynamic coupling (VSM wings). NULL with err set on failure. */
awe_work *awe_work_alloc(const awe_model *m, awe_err *err);
void awe_work_free(awe_work *w);

/* Initial state y0 [w->nx] from the placed model (point_pos0/vel0, tether_len0, init_vel,
 * pulley_len0, rigid wings from their placed points, zero twist). Also resets the quasi-static
 * warm start and the frozen aerodynamics. */
void awe_state_init(const awe_model *m, awe_work *w, double *y);

#endif
