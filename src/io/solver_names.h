/* solver_names.h: the one list of the GSL-style steppers awesim offers as run.solver.
 *
 * Everything that names steppers derives from AWE_SOLVERS: the engine's table of step types
 * (integrate.c), the scenario reader's check (spec_scenario_yaml.c), the "allowed:" lists of
 * error messages (awe_solver_names) and, through tests/man_pages.sh, the man pages.
 * X(name, implicit, origin): implicit steppers get a Jacobian; origin says whose step type it
 * is (gsl: gsl_odeiv2_step_NAME, awe: awe_step_NAME). No GSL header is needed to read it.
 */
#ifndef AWE_SOLVER_NAMES_H
#define AWE_SOLVER_NAMES_H

#define AWE_SOLVERS(X)                                                                        \
  X(rkf45, 0, gsl) X(rkck, 0, gsl) X(rk8pd, 0, gsl) X(msbdf, 1, gsl) X(rk4imp, 1, gsl)        \
  X(bsimp, 1, gsl) X(rk2, 0, gsl) X(rk4, 0, gsl) X(msadams, 0, gsl) X(rk1imp, 1, gsl)         \
  X(rk2imp, 1, gsl) X(trbdf2, 1, awe) X(ros34pw2, 1, awe)

/* "rkf45, rkck, ..., ros34pw2": for messages and help texts */
const char *awe_solver_names(void);

/* index of name in AWE_SOLVERS, or -1 */
int awe_solver_index(const char *name);

/* the names as an array (n set to its length), e.g. for did-you-mean suggestions */
const char *const *awe_solver_list(int *n);

#endif
