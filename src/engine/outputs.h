/* outputs.h: post-calculate: the output vector of the registry from the workspace.
 *
 * Call after a right-hand-side evaluation at the logged state (awe_outputs_eval does both).
 * Quantities (registry names, layout.c):
 *   points.NAME.pos/vel [m, m/s]     world frame (static and quasi-static points included)
 *   points.NAME.force [N]            total force F_i (segments, drag, gravity, external)
 *   segments.NAME.len [m], .force [N]   length and spring-damper force, tension positive
 *   tethers.NAME.len [m]             unstretched length;  .stretched_len [m] sum of lengths
 *   winches.NAME.force [N]           |F_w|;  .vel [m/s] reel-out speed;  .torque [N m] set torque
 *   winches.NAME.power [W]           |F_w| times the tether's reel-out rate (0 while braked):
 *                                    positive reeling out, negative reeling in (winch.h)
 *   winches.NAME.energy [J]          integral of power since t = 0: the trapezoid rule over the
 *                                    log steps (awe_outputs_log; error -dt^2/12 P'' per unit
 *                                    time, exact while the power is linear in time)
 *   pulleys.NAME.len [m]             rest length of leg 1
 *   wings.NAME.pos/vel [m, m/s]      wing origin (world)
 *   wings.NAME.quat [-]              body -> world quaternion (w, x, y, z), w >= 0
 *   wings.NAME.omega_b [rad/s]       body rates (0 for particle wings)
 *   wings.NAME.va, va_b [m/s]        apparent wind at the origin, world and body frame
 *   wings.NAME.aero_force_b, aero_moment_b [N, N m]  aerodynamic loads, body frame, moment
 *                                    about the origin
 *   wings.NAME.elevation, azimuth, heading, course [rad]  (physics.md §9, kite_frames.h) of
 *                                    r = origin - ground station (wing.h)
 *   wings.NAME.aoa [rad]             atan2(va_b,z, va_b,x) + twist of the mid-span group (the
 *                                    mean of the two middle groups for an even count)
 *   wings.NAME.sideslip [rad]        atan2(va_b,y, hypot(va_b,x, va_b,z))
 *   wings.NAME.distance [m]          |r|
 *   wings.NAME.turn_rate [rad/s]     R_vw^T omega_w, view frame z = r/|r|, y = n(z x e_x),
 *                                    x = y x z (component z: turning about the tether)
 *   wings.NAME.power [W]             sum of winches.NAME.power over the winches at the wing's
 *                                    ground station (over all winches if none is there)
 *   groups.NAME.twist [rad]          twist (clamped to +-90 deg)
 */
#ifndef AWE_OUTPUTS_H
#define AWE_OUTPUTS_H

#include "engine/rhs.h"

/* The filler's code of the output variable group.var (registry names above), computed once per
 * output by the workspace (w->out_code), so filling dispatches on integers, not names; 0 for
 * a variable it does not know (filled with NAN). */
int awe_output_code(const char *group, const char *var);

/* Fill yout [w->ny] from the workspace. Unknown output variables give NAN. */
void awe_outputs_fill(const awe_model *m, const awe_work *w, double *yout);

/* Evaluate the right-hand side at (t, y) with ctx (dydt scratch [nx] provided by the caller)
 * and fill yout. Returns the awe_rhs status. */
int awe_outputs_eval(awe_ctx *ctx, double t, const double *y, double *dydt, double *yout);

/* awe_outputs_eval at a log step of a run: also integrates each winch's energy from the previous
 * log step (first: the run's first row, energy 0). The simulation's post-calculate stage. */
int awe_outputs_log(awe_ctx *ctx, double t, const double *y, double *dydt, double *yout,
                    int first);

#endif
