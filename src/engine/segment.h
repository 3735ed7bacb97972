/* segment.h: spring-damper segments and line drag (physics.md §2).
 *
 * Source: SymbolicAWEModels src/generate_system/segment_eqs.jl @e9cd5fd,
 * src/tether_properties.jl update_segment_forces! @33cb132.
 *
 * Segment s from p1 to p2:
 *   len = |pos2 - pos1|,  u = (pos2 - pos1)/len,  ldot_neg = (vel1 - vel2).u   (= -d len/dt)
 *   k   = unit_stiffness/len            (len > l0)
 *       = compression_frac unit_stiffness/len   (len <= l0, slack)
 *   c   = unit_damping/len            (len > l0)
 *       = compression_damping_frac unit_damping/len   (len <= l0; default 1: not softened,
 *         SymbolicAWEModels 0.14 Segment(...; compression_damping_frac))
 *   F_s = k (len - l0) - c (ldot_neg + dl0/dt)   [N], tension positive; +F_s u on p1, -F_s u
 *         on p2
 * The damper acts on the strain rate d(len - l0)/dt (SymbolicAWEModels 0.14, "a segment's
 * damper resists the rate of change of its extension len - l0"; components/components.jl
 * segment_load_terms' rest_len_rate): dl0/dt = +-pulley_vel on a pulley leg (the rope sliding
 * over the pulley is damped by the line, which turns the otherwise almost undamped rope-mass
 * mode, a 1 g rope on a 40 kN line ringing at ~800 Hz with zeta ~0.01, into an overdamped
 * one), winch speed / n on a segment of a winched tether with a length state (0 while the
 * winch is braked), so a tether reeling at constant extension carries no damper force; a winch
 * with endpoint_damping (an awesim extension for models calibrated before) keeps 0 there. 0 on
 * every other segment: a KCU tape's l0 follows its motor and an input segments.NAME.l0 is a
 * change without a rate, both in the endpoint form.
 * Rest length l0: tether segment tether_len/n, pulley leg pulley_len resp. sum_len - pulley_len,
 * otherwise the model's l0; plus the input segments.NAME.l0 (a change, 0 = as modelled).
 * Line drag (all segments except those inside one wing):
 *   p_mid, v_mid = means of the ends, va = f(z_mid) wind_gnd - v_mid,
 *   va_perp = va - (va.u) u,  F_drag = 0.5 rho(z_mid) cd_tether |va| (len d) va_perp,
 * split half to each end. Segments with both ends on one rigid wing carry no force (their load
 * is internal to the body; SymbolicAWEModels sets k = c = 0) and no drag; their length is still
 * computed for the output.
 */
#ifndef AWE_SEGMENT_H
#define AWE_SEGMENT_H

#include "engine/work.h"

/* Rest length of segment s from w->tether_len, w->pulley_len and the input w->u. */
double awe_segment_rest_length(const awe_model *m, const awe_work *w, int s);

/* All rest lengths into w->seg_l0. */
void awe_segment_rest_lengths(const awe_model *m, awe_work *w);

/* Length, direction, force and drag of segment s from w->pos, w->vel, w->seg_l0. */
void awe_segment_eval(const awe_model *m, awe_work *w, int s);

/* All segments. */
void awe_segment_forces(const awe_model *m, awe_work *w);

/* d F_s / d len of the spring part at the current state (for Newton Jacobians) [N/m]. */
double awe_segment_dforce_dlen(const awe_model *m, const awe_work *w, int s);

/* Spring stiffness factor: compression_frac when slack, else 1. */
double awe_segment_kappa(const awe_model *m, const awe_work *w, int s);

/* Damper factor: compression_damping_frac when slack, else 1. */
double awe_segment_damping_factor(const awe_model *m, const awe_work *w, int s);

/* Is segment s part of a winched tether with a length state whose winch is not held (the
 * brake input, AWE_CTX_BRAKE_ALL in w->flags)? */
int awe_segment_reeling(const awe_model *m, const awe_work *w, int s);

/* d l0/dt of segment s from the reeling (w->winch_vel, the brakes, w->flags): winch speed / n
 * for a segment of a winched tether with a length state, else 0 [m/s]. */
double awe_segment_l0_rate(const awe_model *m, const awe_work *w, int s);

#endif
