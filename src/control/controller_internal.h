/* controller_internal.h: state of the running controllers, shared by controller*.c only. */
#ifndef AWE_CONTROLLER_INTERNAL_H
#define AWE_CONTROLLER_INTERNAL_H

#include <signal.h>

#include "control/controller.h"

/* discrete PID (controller.h) */
typedef struct {
  double I, D, y_prev, u_prev;
  int started;
} awe_pid_state;

/* One PID sample: set-point r, measurement y; returns u_k. wrap: angle error and
 * difference wrapped to (-pi, pi]. *e_out = the error used. */
double awe_pid_step(const awe_controller_spec *p, double T, awe_pid_state *st, double r,
                    double y, double *e_out);

/* x wrapped to (-pi, pi] */
double awe_wrap_pi(double x);

typedef struct awe_ext awe_ext;

typedef struct {
  long k;                 /* next sample index: t_k = k period */
  awe_pid_state pid;
  double sp, meas, err, out, phase; /* logged values of the latest sample */
  double *ext_out;        /* external: [noutput] latest reply */
  awe_ext *ext;
  /* figure_eight: target side (+1: +azimuth, -1) */
  int side;
  /* pumping: phase (0 reel-out, 1 reel-in), cycle bookkeeping */
  int pphase, cycle_started;
  double e_cycle, t_cycle0, e_done, t_done, peak;
  int cycles;
  /* pumping: the reel-out force integral [N], the last phase switch (time, measured force or
   * speed there, depower there) for the ramps, whether the first sample was taken */
  double fI, t_sw, ramp_from, dep_from, dep;
  int pstarted;
} awe_ctrl_state;

/* figure_eight (controller_fig8.c): outputs u [-] from the outputs at t */
double awe_fig8_step(const awe_ctrl *c, awe_ctrl_state *s, const double *yout);

/* pumping (controller_pump.c): winch torque [N m] (or speed) and the depower command */
void awe_pump_step(const awe_ctrl *c, awe_ctrl_state *s, double t, const double *yout,
                   double *winch_cmd, double *depower);

/* external controllers over a pipe (controller_external.c) */
awe_status awe_ext_start(awe_ext **e, const awe_model *m, const awe_ctrl *c, awe_err *err);
/* stop: the run's signal flag (NULL: none); a wait for the controller is cut short when it is
 * raised (AWE_EINTR), polled at least every 100 ms */
awe_status awe_ext_exchange(awe_ext *e, const awe_ctrl *c, double t, const double *yout,
                            double *out, const volatile sig_atomic_t *stop, awe_err *err);
awe_status awe_ext_finish(awe_ext *e, const awe_ctrl *c, double t,
                          const volatile sig_atomic_t *stop, awe_err *err);
void awe_ext_free(awe_ext *e);

#endif
