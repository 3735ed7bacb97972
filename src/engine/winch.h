/* winch.h: torque-controlled winch with smooth Coulomb and viscous friction (physics.md §5).
 *
 * Sources: SymbolicAWEModels src/generate_system/winch_eqs.jl @8796905, winch_models/torque.jl
 * @0ea279d, symbolic_awe_model.jl (calc_steady_torque), WinchModels.jl TorqueControlledMachine.
 *
 *   F_w     = sum over the winch's tether segments at the winch point of the force on that
 *             point (spring + damper, no drag);  |F_w| = sqrt(|F_w|^2 + 1e-24)       [N]
 *   ratio   = drum_radius / gear_ratio                                               [m]
 *   w_m     = v / ratio  (motor speed, v = reel-out speed, > 0 lengthens the tether) [rad/s]
 *   tau_f   = smooth_sign(w_m, eps) f_coulomb ratio + c_vf w_m ratio^2,
 *             smooth_sign(x, eps) = x / sqrt(x^2 + eps^2)                            [N m]
 *   tau     = set_torque + ratio |F_w| - tau_f   (set torque > 0 drives reel-out)
 *   dv/dt   = ratio tau / inertia_total,   d tether_len/dt = v   (each of its tethers)
 * Brake (input brake > 0.5): d tether_len/dt = dv/dt = 0; awesim also stops the drum when the
 *   brake engages (v := 0, a discrete update in the step's pre-calculate stage), where SAM
 *   would keep the frozen speed for the moment the brake opens again.
 * AsyncMachine (settings winch.winch_model, WinchModels.jl AsyncMachine): the motor torque is
 *   tau_set + tau_m(w_s, w_m) (winch_machine.h), w_s = v_set / ratio from the input
 *   winches.NAME.speed (the speed set-point); the dynamics are those above.
 * Electrical power: awe_winch_power_electrical below (efficiency eta, settings winch.efficiency).
 * Speed-controlled winch: no dynamics, v = input winches.NAME.speed (SAM: winch_acc = 0 with a
 *   prescribed speed).
 * Steady torque: the set torque that makes dv/dt = 0 at the current state,
 *   tau_steady = -ratio |F_w| + tau_f   (calc_steady_torque).
 */
#ifndef AWE_WINCH_H
#define AWE_WINCH_H

#include "engine/work.h"

/* Is winch i braked by the input? */
int awe_winch_braked(const awe_work *w, int i);

/* Friction torque at reel-out speed v [m/s] [N m]. */
double awe_winch_friction(const awe_model *m, int i, double v);

/* |F_w| of every winch into w->winch_force (segments evaluated). */
void awe_winch_forces(const awe_model *m, awe_work *w);

/* Set torque, acceleration of every winch into w->winch_torque, w->winch_acc (brake_all: every
 * winch braked, used by the steady-state march). */
void awe_winch_dynamics(const awe_model *m, awe_work *w, int brake_all);

/* Mechanical power of winch i [W]: |F_w| times the tether's reel-out rate (the speed, 0 while
 * braked); positive reeling out (the kite does work on the drum), negative reeling in. */
double awe_winch_power(const awe_work *w, int i);

/* Motor torque of winch i [N m]: the torque input, plus for an AsyncMachine winch the
 * machine's torque at its speed set-point (winch_machine.h); *dtau_dv (may be NULL) = its
 * derivative by the reel-out speed [N m s/m]. */
double awe_winch_motor_torque(const awe_model *m, const awe_work *w, int i, double *dtau_dv);

/* Electrical power of winch i [W], positive when produced (generating): with the power the
 * drive puts into the shaft P_d = tau_set w (torque input) + tau_m w_s (AsyncMachine: the air-gap
 * power), P_el = -eta P_d when P_d <= 0 (generating), -P_d / eta when motoring; 0 while braked
 * or for a speed-controlled winch (no machine). */
double awe_winch_power_electrical(const awe_model *m, const awe_work *w, int i);

/* Steady torque of winch i at the current workspace state [N m]. */
double awe_winch_steady_torque(const awe_model *m, const awe_work *w, int i);

#endif
