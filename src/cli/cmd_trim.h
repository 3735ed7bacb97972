/* cmd_trim.h: the operating point of linearize and step-response on a kite (the free trim). */
#ifndef AWE_CMD_TRIM_H
#define AWE_CMD_TRIM_H

#include "cli/cli.h"

/* awe_cli_operating_point, but after the steady state (at NAN) a model with a wing is
 * continued to its free trim (solve/trim.h) unless steady_only; the wings' aerodynamics are
 * those of the operating point. */
awe_status awe_cli_trim_op(awe_sim *sim, double at, int keep_torque, int steady_only, int quiet,
                           awe_op *op, awe_err *err);

#endif
