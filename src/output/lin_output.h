/* lin_output.h: files of a linear model: HDF5, OpenFAST-style text (.lin) with its reader, CSV;
 * and the step-response additions to an HDF5 log.
 *
 * HDF5 (schema "awesim-linear-1"):
 *   /                 attrs awesim_version, schema, command_line, t_op [s], steady (0/1),
 *                     residual, nx, nu, ny
 *   /scenario         string: the scenario YAML as run (when given)
 *   /A /B /C /D       float64 [nx,nx] [nx,nu] [ny,nx] [ny,nu] (row = equation, column =
 *                     variable; a zero dimension is stored as such)
 *   /x_op /u_op /y_op float64 operating point (rotation vectors for orientations);
 *   /dx_op            float64 dx/dt at the operating point (the residual's vector)
 *   /x_names /u_names /y_names, /x_units /u_units /y_units
 *                     fixed-length UTF-8 string vectors (registry scalar names, units)
 *   /x_perturb /u_perturb  float64 perturbation sizes used
 *   /modes            float64 [nmodes, 5]: re, im [1/s], frequency [Hz], damping ratio [-],
 *                     time constant [s] (attr columns); /mode_states int32 [nmodes, 3]
 *                     (indices into x_names, -1 = none) and /mode_shares float64 [nmodes, 3];
 *                     /mode_class strings [nmodes]: zero, stable, unstable, undamped (modal.h;
 *                     a zero mode has frequency 0, damping ratio and time constant NaN), attrs
 *                     zero_rel, zero_abs [1/s] of /modes: the zero tolerance. Without modes
 *                     (--no-modes, interrupted) the root attr "modes" says why.
 * Python:  f = h5py.File("lin.h5"); A = f["A"][()]; names = f["x_names"].asstr()[()]
 *
 * Text (after OpenFAST's .lin files, every number "%.17g" so it reads back bit-exactly):
 *   header, "Simulation information:" with "Simulation time:", "Number of continuous states:",
 *   "Number of inputs:", "Number of outputs:", then "Order of continuous states:",
 *   "Order of continuous state derivatives:", "Order of inputs:" (Row/Column, Operating Point,
 *   Rotating Frame?, Derivative Order?, Description = "NAME, UNIT"), "Order of outputs:"
 *   (without Derivative Order), then "A: nx x nx" and its rows, B, C, D alike.
 *
 * CSV: PREFIX_A.csv ... PREFIX_D.csv, header ",COLUMN[unit],..." and rows "ROW[unit],v,...".
 * Every writer formats numbers under the "C" locale.
 */
#ifndef AWE_LIN_OUTPUT_H
#define AWE_LIN_OUTPUT_H

#include "analysis/linearize.h"
#include "analysis/modal.h"
#include "analysis/step_metrics.h"

typedef struct {
  const char *command_line;  /* NULL = "" */
  const char *scenario;      /* YAML text, NULL = none */
  double t_op;               /* [s] */
  int steady;                /* operating point after the steady state */
  const char *modes_note;    /* why there are no modes (attr "modes"), NULL: computed */
  double zero_rel;           /* the zero-mode tolerance used (attr of /modes), 0: default */
  const char *log_path;      /* along a log: its path (attr "log"), NULL: none */
  const double *log_diff;    /* along a log: [K] the outputs' difference from it, or NULL */
} awe_lin_info;

awe_status awe_lin_write_h5(const char *path, const awe_linsys *L, const awe_mode *modes,
                            int nmodes, const awe_lin_info *info, awe_err *err);

awe_status awe_lin_write_text(const char *path, const awe_linsys *L, const awe_lin_info *info,
                              awe_err *err);

/* Linear models along a trajectory (schema "awesim-linear-tv-1"), K points, all of one layout
 * (L[0]'s names and units, as in the single-point file):
 *   /                 attrs awesim_version, schema, command_line, status ("complete" or why
 *                     it ended early: the points before it are all there), K, nx, nu, ny
 *   /scenario         string: the scenario YAML as run
 *   /time             float64 [K] [s]
 *   /A /B /C /D       float64 [K,nx,nx] [K,nx,nu] [K,ny,nx] [K,ny,nu]
 *   /x0 /u0 /y0       float64 [K,nx] [K,nu] [K,ny]: the points (rotation vectors Log(q))
 *   /f0               float64 [K,nx]: dx/dt = f(x0, u0) there (not 0 off an equilibrium: the
 *                     local model is d(dx)/dt = f0 + A dx + B du)
 *   /residual         float64 [K]: ||f0||_2 over the non-integrating states
 *   /log_diff         float64 [K] (along a log, attr "log" its path): max over the outputs of
 *                     |y0 - y_log| / max(the output's largest |y_log| in the log, 1)
 *   /x_names ... /y_units, /x_perturb /u_perturb: as in the single-point file */
awe_status awe_lin_write_along_h5(const char *path, const awe_linsys *L, const double *t, int K,
                                  const awe_lin_info *info, const char *status, awe_err *err);

/* Read a file written by awe_lin_write_text into *L (names, units, operating point,
 * matrices; free with awe_linsys_free; the units live in the name allocations). *t_op may be
 * NULL. AWE_ENOFILE, AWE_EPARSE (message with the line number). */
awe_status awe_lin_read_text(const char *path, awe_linsys *L, double *t_op, awe_err *err);

awe_status awe_lin_write_csv(const char *prefix, const awe_linsys *L, awe_err *err);

/* Step-response results added to an existing HDF5 log as group /step_response:
 *   attrs input, amplitude, band [%], t_op [s]
 *   names, units (strings [ny]); metrics float64 [ny, 9] (attr columns: initial, final,
 *   gain, rise_time, peak, peak_time, overshoot, settling_time, delta)
 *   with a linear comparison: linear float64 [nt, ny] (the linear model's outputs at /time),
 *   linear_error float64 [ny, 3] (max, rms, scale = max |y - y(0)| of the nonlinear output) */
typedef struct {
  const char *input;
  double amplitude, band, t_op;
  int ny;
  char *const *names;
  const char *const *units;
  const awe_step_metrics *metrics;  /* [ny] */
  const double *Ylin;               /* [nt * ny] or NULL */
  long nt;
  const double *err_max, *err_rms, *err_scale; /* [ny] when Ylin */
} awe_step_h5;

awe_status awe_lin_h5_add_step(const char *path, const awe_step_h5 *sr, awe_err *err);

#endif
