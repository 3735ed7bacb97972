/* solver_names.c: the stepper names of AWE_SOLVERS as strings (see solver_names.h). */
#include "io/solver_names.h"

#include <string.h>

#define AWE_SOLVER_STR(name, implicit, origin) #name,
static const char *const NAMES[] = {AWE_SOLVERS(AWE_SOLVER_STR)};
#undef AWE_SOLVER_STR

/* ", rkf45, rkck, ...": each name after a separator, joined by the preprocessor; the list
   proper starts after the first separator */
#define AWE_SOLVER_JOIN(name, implicit, origin) ", " #name
static const char JOINED[] = AWE_SOLVERS(AWE_SOLVER_JOIN);
#undef AWE_SOLVER_JOIN

enum { NSOLVER = (int)(sizeof(NAMES) / sizeof(NAMES[0])) };


const char *awe_solver_names(void) { return JOINED + 2; }


int awe_solver_index(const char *name) {
  for (int i = 0; name && i < NSOLVER; i++)
    if (!strcmp(NAMES[i], name)) return i;
  return -1;
}


const char *const *awe_solver_list(int *n) {
  if (n) *n = NSOLVER;
  return NAMES;
}
