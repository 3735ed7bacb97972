/* solver_default.h: the default stepper for a model (the scenario's run.solver wins). */
#ifndef AWE_SOLVER_DEFAULT_H
#define AWE_SOLVER_DEFAULT_H

#include "model/model.h"

/* "trbdf2" for models with damped lines, wings or pulleys; "rk8pd" when every line is
 * undamped (solver_default.c has the measurements). */
const char *awe_default_solver(const awe_model *m);

#endif
