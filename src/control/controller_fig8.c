/* controller_fig8.c: flight-path controller for crosswind figure eights.
 *
 * After the flight path controller of Fechner, Schmehl et al. (R. Fechner, Dynamic Modelling
 * of Tethered Wings for Airborne Wind Energy, PhD thesis, TU Delft 2016, ch. 6; its Julia
 * implementation KiteControllers.jl, FlightPathController/FlightPathPlanner): the kite is
 * steered toward one of two attractor points in the wind window, (+azimuth, elevation) and
 * (-azimuth, elevation); when it crosses the turn azimuth on its way toward the current
 * attractor the target switches to the other side, so the path is a figure eight whose turns
 * lie beyond +-turn_azimuth. Simplified here: the desired course is the bearing of the target
 * on the tangential sphere, and an inner discrete PID on the error of the nose direction
 * (heading + pi, wrapped; Fechner steers the heading too at low speed, where the course is
 * undefined) drives the steering inputs; no turn-rate feed-forward.
 *
 * Course (kite_frames.h): chi = atan2(v . y_t, v . x_t), where moving along x_t lowers the
 * elevation beta and moving along y_t lowers the azimuth phi, so the bearing of a target
 * (phi_t, beta_t) from (phi, beta) is
 *   chi_d = atan2(-(phi_t - phi) cos(beta), -(beta_t - beta)).
 * The output is positive for a turn toward larger course (the scenario's gains give the sign
 * of each steering input).
 * Pumping cycles: with `phase` (a channel, e.g. controllers.pump.phase) >= 0.5 the kite is
 * steered to one point (reel_in_azimuth, reel_in_elevation) instead, high in the wind window
 * where it pulls little while the winch reels it in (Fechner 2016 ch. 6 flies the reel-in
 * parked near the zenith); logged phase 2. Back in reel-out it resumes the figure eights.
 */
#include <math.h>

#include "control/controller_internal.h"


double awe_fig8_step(const awe_ctrl *c, awe_ctrl_state *s, const double *yout) {
  const awe_controller_spec *p = &c->cfg;
  double phi = yout[c->meas_y[0]], beta = yout[c->meas_y[1]];
  /* the direction of the nose on the sphere: the body x axis points from the leading to the
   * trailing edge (the models' CAD frame), so the nose is at heading + pi; the kite flies
   * where its nose points, also when it is slow (the course of a kite at rest is noise) */
  double chi = awe_wrap_pi(yout[c->meas_y[3]] + M_PI);
  /* a pumping cycle's reel-in: one target out of the crosswind zone, reached the short way */
  if (p->f8_phase && yout[c->meas_y[4]] >= 0.5) {
    double chi_d = atan2(-(p->f8_in_azimuth - phi) * cos(beta), -(p->f8_in_elevation - beta));
    s->sp = chi_d;
    s->meas = chi;
    s->phase = 2.0;
    awe_controller_spec q = *p;
    q.wrap = 1;
    return awe_pid_step(&q, c->period, &s->pid, chi + awe_wrap_pi(chi_d - chi), chi, &s->err);
  }
  /* switch sides past the turn azimuth */
  if (s->side > 0 && phi > p->f8_turn_azimuth) s->side = -1;
  else if (s->side < 0 && phi < -p->f8_turn_azimuth) s->side = 1;
  double phi_t = s->side * p->f8_azimuth, beta_t = p->f8_elevation;
  double chi_d = atan2(-(phi_t - phi) * cos(beta), -(beta_t - beta));
  s->sp = chi_d;
  s->meas = chi;
  s->phase = s->side > 0 ? 0.0 : 1.0;
  /* turns are flown upward, away from the ground, by default (Fechner's planner flies its
   * turns as up-loops): heading for -azimuth the up-turn lowers the course (through +-pi),
   * heading for +azimuth it raises it; when the shorter way to the target's bearing would be
   * the other turn (|error| > pi/2 with the other sign), the error is taken the long way round
   * (bounded). `turns: down` flies the mirror image: each turn descends (through course 0) */
  double e = awe_wrap_pi(chi_d - chi);
  double up = p->f8_down_turns ? -1.0 : 1.0;   /* the mirror image for down-turns */
  if (s->side * up < 0 && e > M_PI / 2) e = fmax(e - 2.0 * M_PI, -0.99 * M_PI);
  else if (s->side * up > 0 && e < -M_PI / 2) e = fmin(e + 2.0 * M_PI, 0.99 * M_PI);
  awe_controller_spec q = *p;
  q.wrap = 1;
  return awe_pid_step(&q, c->period, &s->pid, chi + e, chi, &s->err);
}
