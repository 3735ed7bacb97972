/* controller_pump.c: winch controller for pumping cycles (reel-out / reel-in).
 *
 * Phases (logged as controllers.NAME.phase): 0 reel-out, 1 reel-in.
 *   reel-out  constant tether force: the motor torque holds F_set at the drum,
 *             tau = -F_set r/g (r drum radius, g gear ratio; physics.md §5), so the drum
 *             reels out at the speed where the kite's pull equals F_set (quasi-steady force
 *             control, Fechner 2016 ch. 6: the reel-out speed follows the force); when the
 *             kite pulls less than F_set the drum is braked instead of reeling in:
 *             tau = max(-F_set r/g, -F r/g - kp v)
 *   reel-in   reel-in speed v_set = -reel_in_speed by a PI on the speed error with the
 *             measured force as feed-forward: tau = -F r/g + PID(v_set - v) (the drum
 *             accelerates with tau + F r/g, winch.c), anti-windup as in controller.h;
 *             the depower command `depower` (times each output's gain) is added to the
 *             inputs named in `output` (e.g. segments.power_tape.l0)
 * Switching: reel-out -> reel-in when the tether length reaches max_length, back when it
 * falls to min_length.
 * Energy: E += F v T at every sample (F winch force, v reel-out speed: the mechanical power,
 * positive when reeling out); a cycle runs from one start of reel-out to the next.
 */
#include <math.h>

#include "control/controller_internal.h"


void awe_pump_step(const awe_ctrl *c, awe_ctrl_state *s, double t, const double *yout,
                   double *winch_cmd, double *depower) {
  const awe_controller_spec *p = &c->cfg;
  double F = yout[c->meas_y[0]], v = yout[c->meas_y[1]], L = yout[c->meas_y[2]];
  (void)t;
  double T = c->period;
  if (F > s->peak) s->peak = F;
  s->e_cycle += F * v * T;
  if (s->pphase == 0 && L >= p->max_length) {
    s->pphase = 1;
    s->pid.I = 0.0;
    s->pid.started = 0;
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
  }
  s->t_cycle0 += T;
  s->phase = s->pphase;
  *depower = s->pphase == 1 ? p->depower : 0.0;
  if (s->pphase == 0) {
    s->sp = NAN;
    s->meas = v;
    s->err = NAN;
    /* a torque that holds F_set pulls the tether in whenever the kite pulls less (a turn, a
     * lull): nothing then stops the drum, the kite is hauled down and the loop runs away.
     * Never reel in during reel-out: below F_set the drum is braked towards v = 0 by the
     * proportional speed term (Fechner's winch controller switches to speed control at its
     * lower force limit in the same way) */
    double hold = -F * c->winch_ratio - p->kp * v;
    *winch_cmd = fmax(-p->reel_out_force * c->winch_ratio, hold);
  } else {
    s->sp = -p->reel_in_speed;
    s->meas = v;
    double u = awe_pid_step(p, T, &s->pid, s->sp, v, &s->err);
    /* reeling in too slowly (v > v_set: e < 0) makes the torque more negative (pulls in) */
    *winch_cmd = -F * c->winch_ratio + u;
  }
  s->out = *winch_cmd;
}
