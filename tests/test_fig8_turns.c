/* test_fig8_turns.c: the figure-eight controller's turn direction (controller_fig8.c, `turns`).
 *
 * The kite has just passed the turn azimuth (0.2 rad) on the + side flying toward +azimuth
 * (course -pi/2: moving along -y_t), so the target switches to (-0.6, 0.6) rad, whose bearing
 * is course +pi/2, half a turn away. Course 0 is straight down, +-pi straight up. The turn
 * that climbs (up) lowers the course through -pi, the one that descends (down) raises it
 * through 0. With only kp the output is kp times the error taken:
 *   up (default)  negative whether the kite is flying a little down or a little up when the
 *                 target switches (then the shorter way would be the down-turn: the error is
 *                 taken the long way, bounded at -0.99 pi)
 *   down          positive in both cases (the mirror image)
 * and the mirror on the - side (flying toward -azimuth past -0.2 rad): up positive, down
 * negative. The 2019 V3 flight flew every turn downward (docs/validation.md).
 */
#include <math.h>
#include <string.h>

#include "control/controller_internal.h"
#include "harness.h"


static void cfg(awe_ctrl *c, int meas[5], int down) {
  memset(c, 0, sizeof(*c));
  awe_controller_spec *p = &c->cfg;
  p->kp = 1.0;
  p->limits[0] = -INFINITY;
  p->limits[1] = INFINITY;
  p->rate_limit = NAN;
  p->d_filter = NAN;
  p->f8_azimuth = 0.6;
  p->f8_elevation = 0.6;
  p->f8_turn_azimuth = 0.2;
  p->f8_down_turns = down;
  c->period = 0.05;
  for (int i = 0; i < 5; i++) meas[i] = i;
  c->meas_y = meas;
}


/* one sample with the kite at azimuth phi (elevation 0.6) flying at course chi, target side
 * `side` before the sample; returns the output */
static double sample(int down, int side, double phi, double chi, int *side_after) {
  awe_ctrl c;
  int meas[5];
  cfg(&c, meas, down);
  awe_ctrl_state s;
  memset(&s, 0, sizeof(s));
  s.side = side;
  double y[5] = {phi, 0.6, 0.0, awe_wrap_pi(chi - M_PI), 0.0};   /* heading = nose - pi */
  double u = awe_fig8_step(&c, &s, y);
  *side_after = s.side;
  return u;
}


static void test_turns(void) {
  int side;
  for (int k = -1; k <= 1; k += 2) {   /* flying a little down (-1) or a little up (+1) */
    double chi = -M_PI / 2 - k * 0.3;
    double up = sample(0, 1, 0.3, chi, &side), down = sample(1, 1, 0.3, chi, &side);
    ENSURE(side == -1);
    ENSURE(up < -2.5 && up >= -0.99 * M_PI - 1e-12);
    ENSURE(down > 2.5 && down <= 0.99 * M_PI + 1e-12);
    /* the mirror: past -0.2 rad flying toward -azimuth (course +pi/2) */
    chi = M_PI / 2 + k * 0.3;
    up = sample(0, -1, -0.3, chi, &side);
    down = sample(1, -1, -0.3, chi, &side);
    ENSURE(side == 1);
    ENSURE(up > 2.5);
    ENSURE(down < -2.5);
  }
  /* before the switch, on the way to the target, the turn direction does not matter */
  double a = sample(0, 1, 0.0, -M_PI / 2, &side), b = sample(1, 1, 0.0, -M_PI / 2, &side);
  ENSURE(side == 1);
  ENSURE_NEAR(a, b, 1e-12);
}


int main(void) {
  RUN(test_turns);
  return harness_report();
}
