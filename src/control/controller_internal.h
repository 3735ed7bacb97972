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
   * force and speed there, depower there) for the ramps, whether the first sample was taken */
  double fI, t_sw, ramp_force, ramp_speed, dep_from, dep;
  int pstarted;
  /* pumping: samples taken; seconds of samples (windows) and those in which most command
   * steps reversed the one before (a sampled loop ringing: alternating, per phase: reel-out,
   * reel-in), the reversals in the current second (ring_run), the last step */
  long samples, windows, alternating[2];
  int ring_run;
  double step1;
} awe_ctrl_state;

/* figure_eight (controller_fig8.c): outputs u [-] from the outputs at t */
double awe_fig8_step(const awe_ctrl *c, awe_ctrl_state *s, const double *yout);

/* pumping (controller_pump.c): winch torque [N m] (or speed) and the depower command */
void awe_pump_step(const awe_ctrl *c, awe_ctrl_state *s, double t, const double *yout,
                   double *winch_cmd, double *depower);

/* external controllers over a pipe (controller_external.c). Every wait for the controller is
 * cut short (polled at least every 100 ms) by the run's stop flag (AWE_EINTR), its wall-time
 * deadline and the controller's own timeout (AWE_EINTEG). */
typedef struct {
  const awe_stop_flag *stop; /* the run's signal flag (NULL: none) */
  double deadline;   /* CLOCK_MONOTONIC time [s] at which run.max_wall_time ends the run */
  double max_wall;   /* run.max_wall_time [s], for the message */
} awe_ext_limits;

awe_status awe_ext_start(awe_ext **e, const awe_model *m, const awe_ctrl *c,
                         const awe_ext_limits *lim, awe_err *err);
awe_status awe_ext_exchange(awe_ext *e, const awe_ctrl *c, double t, const double *yout,
                            double *out, const awe_ext_limits *lim, awe_err *err);
/* close its input, wait for it to exit; e is freed */
awe_status awe_ext_finish(awe_ext *e, const awe_ctrl *c, double t, const awe_ext_limits *lim,
                          awe_err *err);
/* end its process group (SIGTERM, then SIGKILL), reap it, free e */
void awe_ext_free(awe_ext *e);

#endif
