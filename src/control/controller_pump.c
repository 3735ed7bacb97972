/* controller_pump.c: winch controller for pumping cycles (reel-out / reel-in).
 *
 * Phases (logged as controllers.NAME.phase): 0 reel-out, 1 reel-in. T = period, r = drum
 * radius / gear ratio (physics.md §5), F the measured winch force, v the reel-out speed.
 *   reel-out  tether force held at F_set by a PI on the force error e = F - F_set acting on the
 *             braking force the motor applies:
 *               F_cmd = F_set - force_kp e - I,   I_k = I_{k-1} + w_i T e_k   (w_i =
 *               force_bandwidth),   tau = -r F_cmd
 *             The integral takes up what an open-loop torque -r F_set leaves as a bias: the
 *             drum's friction (F settles at F_set + F_friction without it) and the torque that
 *             accelerates the drum. With the drum and kite as J/r^2 dv/dt = F - F_cmd -
 *             F_friction and F = F_0 - D v near the operating point (D = -dF/dv > 0, the
 *             kite's pull falls as it flies away faster), the loop is s^2 + a (1 + force_kp) s
 *             + a w_i = 0 with a = D r^2 / J: for w_i well below a (V3: J = 1 kg m^2, r = 0.11 m,
 *             D ~ 500 N s/m: a ~ 6 /s; default w_i = 1 rad/s) the force error decays at w_i
 *             / (1 + force_kp) whatever D is. Where the friction exceeds F_set (2plate: 148 N
 *             at 1.3 m/s) the motor drives the drum (tau > 0) to hold F_set. Limits: when the
 *             kite pulls less than F_set, the drum is
 *             braked towards v = 0 instead of reeling in, tau >= -F r - kp v (Fechner 2016
 *             ch. 6: his winch controller switches to speed control at its lower force limit
 *             in the same way); AsyncMachine: |tau| <= 0.95 of its breakdown torque. Anti-windup
 *             by conditional integration: I keeps its value when a limit acts and the new I
 *             would push the wanted torque further past it.
 *   law       with kv > 0, the reel-out follows the square-root law of WinchControllers.jl
 *             (calc_vro, Fechner 2016: v_ro = kv sqrt(F), kv = 0.06 m/s per sqrt(N) there):
 *             the speed loop of the reel-in (PID on v_set - v, force feed-forward) tracks it,
 *             and F_set becomes its upper force limit: the larger (less braking) of the two
 *             loops' torques acts; while the law acts the force integral tracks it, so the
 *             force loop takes over without a bump once F exceeds F_set, and while the limit
 *             acts the speed loop's integral is held.
 *   reel-in   reel-in speed v_set = -reel_in_speed by a PI on the speed error with the
 *             measured force as feed-forward: tau = -F r + PID(v_set - v) (the drum
 *             accelerates with tau + F r, winch.c), anti-windup as in controller.h.
 *             With reel_in_force > 0 the reel-in holds that force instead (Kitepower's ground
 *             station in the 2019 flight: 0.93-1.03 kN in every reel-in while the speed ran
 *             from -1.8 to -5.5 m/s, docs/validation.md): the force PI of the reel-out (without
 *             its brake towards v = 0, which would forbid reeling in) with -reel_in_speed as
 *             the speed limit: the larger (less pulling) of the force loop's torque and the
 *             speed loop's acts, the other's integral tracks or is held as in the law.
 *   AsyncMachine winch: the controller drives the speed set-point winches.NAME.speed instead
 *             of the torque: the set-point at which the machine gives the wanted torque at the
 *             measured speed, v_set = v + r delta(tau) (the stable branch of its torque-slip
 *             curve, winch_machine.h); reel-in: v_set = -reel_in_speed + r delta(-F r) (the
 *             slip the tether force needs).
 *   ramps     at a phase switch (and at the start) F_set, v_set and the depower move linearly
 *             over ramp_time from the measured force / speed / the previous depower to their
 *             targets (ramp_time 0: steps).
 *   depower   the depower command `depower` (times each output's gain) is added to the inputs
 *             named in `output` (e.g. segments.power_tape.l0) during reel-in.
 * Switching: reel-out -> reel-in when the tether length reaches max_length, back when it
 * falls to min_length.
 * Energy: E += F v T at every sample (F winch force, v reel-out speed: the mechanical power,
 * positive when reeling out); a cycle runs from one start of reel-out to the next.
 */
#include <math.h>

#include "control/controller_internal.h"

/* share of a second's command steps reversing the one before above which it rings */
#define AWE_PUMP_RING_SHARE 0.4


/* reel-out: the wanted motor torque [N m] (the force PI with its limits; the brake towards
 * v = 0 only without the law, whose speed loop decides the speed below the force limit) */
static double reel_out_torque(const awe_ctrl *c, awe_ctrl_state *s, double F, double v,
                              double F_set) {
  const awe_controller_spec *p = &c->cfg;
  double r = c->winch_ratio, T = c->period, e = F - F_set;
  double I_new = s->fI + p->force_bandwidth * T * e;
  double tau_old = -r * (F_set - p->force_kp * e - s->fI);
  double tau_pi = -r * (F_set - p->force_kp * e - I_new);
  double tau = p->kv > 0.0 ? tau_pi : fmax(tau_pi, -F * r - p->kp * v);
  if (c->machine) {
    double tm = 0.95 * awe_async_tau_max(c->machine, v / r);
    tau = fmax(fmin(tau, tm), -tm);
  }
  /* conditional integration: keep I when a limit acts and the step pushes past it */
  if (tau != tau_pi && fabs(tau_pi - tau) > fabs(tau_old - tau)) I_new = s->fI;
  s->fI = I_new;
  return tau;
}


/* reel-out on the square-root law: the speed loop's torque towards v_set = kv sqrt(F), the
 * force loop's tau_f as the upper force limit; the
 * larger (less braking) torque acts and the other loop's integral tracks it */
static double law_torque(const awe_ctrl *c, awe_ctrl_state *s, double F, double v, double tau_f,
                         double F_set, double q) {
  const awe_controller_spec *p = &c->cfg;
  double r = c->winch_ratio;
  /* ramped from the speed at the switch: after a reel-in the winch keeps reeling in while
   * it slows down, so the kite keeps its airspeed while it powers up */
  s->sp = s->ramp_speed + (p->kv * sqrt(fmax(F, 0.0)) - s->ramp_speed) * q;
  awe_pid_state keep = s->pid;
  double tau_v = -F * r + awe_pid_step(p, c->period, &s->pid, s->sp, v, &s->err);
  if (tau_v >= tau_f) {
    /* the law acts: the force integral tracks it (the force loop would give tau_v), so the
     * loop takes over without a bump as soon as F exceeds F_set */
    s->fI = F_set - p->force_kp * (F - F_set) + tau_v / r;
    return tau_v;
  }
  s->pid.I = keep.I; /* the force limit acts: the speed loop's integral is held */
  return tau_f;
}


/* reel-in on a force set-point with the speed set-point v_set (< 0) as its limit */
static double reel_in_force_torque(const awe_ctrl *c, awe_ctrl_state *s, double F, double v,
                                   double F_set) {
  const awe_controller_spec *p = &c->cfg;
  double r = c->winch_ratio, e = F - F_set;
  double I_new = s->fI + p->force_bandwidth * c->period * e;
  double tau_f = -r * (F_set - p->force_kp * e - I_new);
  awe_pid_state keep = s->pid;
  double tau_v = -F * r + awe_pid_step(p, c->period, &s->pid, s->sp, v, &s->err);
  if (tau_v > tau_f) {
    /* the speed limit acts: the force integral tracks its torque */
    s->fI = F_set - p->force_kp * e + tau_v / r;
    return tau_v;
  }
  s->pid.I = keep.I; /* the force loop acts: the speed loop's integral is held */
  s->fI = I_new;
  return tau_f;
}


void awe_pump_step(const awe_ctrl *c, awe_ctrl_state *s, double t, const double *yout,
                   double *winch_cmd, double *depower) {
  const awe_controller_spec *p = &c->cfg;
  double F = yout[c->meas_y[0]], v = yout[c->meas_y[1]], L = yout[c->meas_y[2]];
  double T = c->period, r = c->winch_ratio;
  if (F > s->peak) s->peak = F;
  s->e_cycle += F * v * T;
  int sw = !s->pstarted;
  s->pstarted = 1;
  if (s->pphase == 0 && L >= p->max_length) {
    s->pphase = 1;
    s->pid.I = 0.0;
    s->pid.started = 0;
    sw = 1;
  } else if (s->pphase == 1 && L <= p->min_length) {
    s->pphase = 0;
    if (s->cycle_started) {
      s->cycles++;
      s->e_done += s->e_cycle;
      s->t_done += s->t_cycle0;
    }
    s->cycle_started = 1;
    s->e_cycle = 0.0;
    s->t_cycle0 = 0.0;
    sw = 1;
  }
  if (sw) {
    s->t_sw = t;
    s->ramp_force = F;
    s->ramp_speed = v;
    s->dep_from = s->dep;
    s->fI = 0.0;
  }
  s->t_cycle0 += T;
  s->phase = s->pphase;
  double q = p->ramp_time > 0.0 ? fmin(1.0, (t - s->t_sw) / p->ramp_time) : 1.0;
  s->dep = s->dep_from + ((s->pphase == 1 ? p->depower : 0.0) - s->dep_from) * q;
  *depower = s->dep;
  if (s->pphase == 0) {
    double F_set = s->ramp_force + (p->reel_out_force - s->ramp_force) * q;
    s->sp = NAN;
    s->meas = v;
    s->err = NAN;
    double tau = reel_out_torque(c, s, F, v, F_set);
    if (p->kv > 0.0) tau = law_torque(c, s, F, v, tau, F_set, q);
    *winch_cmd = c->machine ? v + r * awe_async_slip(c->machine, v / r, tau, 0.95) - c->winch_v0
                            : tau;
  } else {
    s->sp = s->ramp_speed + (-p->reel_in_speed - s->ramp_speed) * q;
    s->meas = v;
    if (p->reel_in_force > 0.0) {
      double F_set = s->ramp_force + (p->reel_in_force - s->ramp_force) * q;
      double tau = reel_in_force_torque(c, s, F, v, F_set);
      if (c->machine) {
        double tm = 0.95 * awe_async_tau_max(c->machine, v / r);
        tau = fmax(fmin(tau, tm), -tm);
      }
      *winch_cmd = c->machine ? v + r * awe_async_slip(c->machine, v / r, tau, 0.95) - c->winch_v0
                              : tau;
    } else if (c->machine) {
      s->err = s->sp - v;
      *winch_cmd = s->sp + r * awe_async_slip(c->machine, s->sp / r, -F * r, 0.95) -
                   c->winch_v0;
    } else {
      double u = awe_pid_step(p, T, &s->pid, s->sp, v, &s->err);
      /* reeling in too slowly (v > v_set: e < 0) makes the torque more negative (pulls in) */
      *winch_cmd = -F * r + u;
    }
  }
  /* a loop beyond its sampled stability bound rings at a few samples' period: the command's
   * step changes sign at most samples, where a smooth command does so only at its extremes.
   * Counted per second of samples: a second with more than AWE_PUMP_RING_SHARE of its steps
   * reversing (above rounding) is ringing. */
  double step = *winch_cmd - s->out;
  if (s->samples >= 2 && step * s->step1 < 0.0 && fabs(step) > 1e-3 * (fabs(*winch_cmd) + 1.0))
    s->ring_run++;
  long win = lround(1.0 / T);
  if (win < 4) win = 4;
  if (s->samples > 0 && s->samples % win == 0) {
    s->windows++;
    if (s->ring_run > AWE_PUMP_RING_SHARE * (double)win) s->alternating[s->pphase]++;
    s->ring_run = 0;
  }
  s->step1 = step;
  s->samples++;
  s->out = *winch_cmd;
}
