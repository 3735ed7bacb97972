/* cmd_trim.h: the operating point of linearize and step-response on a kite (the free trim). */
#ifndef AWE_CMD_TRIM_H
#define AWE_CMD_TRIM_H

#include "cli/cli.h"

/* awe_cli_operating_point, but after the steady state (at NAN) a model with a wing is
 * continued to its free trim (solve/trim.h) unless steady_only; with from (a file of
 * `awesim trim -o`, output/trim_file.h) the operating point is that file's. The wings'
 * aerodynamics are those of the operating point. From a trim the controllers' outputs are part
 * of op->u, and sim's context no longer adds them. */
awe_status awe_cli_trim_op(awe_sim *sim, double at, int keep_torque, int steady_only,
                           const char *from, int quiet, awe_op *op, awe_err *err);

#endif
