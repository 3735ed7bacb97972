/* outputs.h: post-calculate: the output vector of the registry from the workspace.
 *
 * Call after a right-hand-side evaluation at the logged state (awe_outputs_eval does both).
 * Quantities (registry names, layout.c):
 *   points.NAME.pos/vel [m, m/s]     world frame (static and quasi-static points included)
 *   points.NAME.force [N]            total force F_i (segments, drag, gravity, external)
 *   segments.NAME.len [m], .force [N]   length and spring-damper force, tension positive
 *   tethers.NAME.len [m]             unstretched length;  .stretched_len [m] sum of lengths
 *   winches.NAME.force [N]           |F_w|;  .vel [m/s] reel-out speed;  .torque [N m] set torque
 *   pulleys.NAME.len [m]             rest length of leg 1
 */
#ifndef AWE_OUTPUTS_H
#define AWE_OUTPUTS_H

#include "rhs.h"

/* Fill yout [w->ny] from the workspace. Unknown output variables give NAN. */
void awe_outputs_fill(const awe_model *m, const awe_work *w, double *yout);

/* Evaluate the right-hand side at (t, y) with ctx (dydt scratch [nx] provided by the caller)
 * and fill yout. Returns the awe_rhs status. */
int awe_outputs_eval(awe_ctx *ctx, double t, const double *y, double *dydt, double *yout);

#endif
