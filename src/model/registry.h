/* registry.h: the variable registry (after OpenFAST's ModVar).
 *
 * Every component declares its states x, inputs u and outputs y once, here, with a name, a
 * unit, a dimension, its place in the flat vector and a finite-difference perturbation size.
 * Logging (HDF5 datasets), CSV columns, --inputs/--outputs selection and the labels of the
 * linearized A, B, C, D are all generated from this table: adding a variable is one call.
 *
 * Naming: GROUP.COMPONENT.VAR[.x|.y|.z|.w] where GROUP is the HDF5 group ("points",
 * "segments", "tethers", "winches", "pulleys", "wings", "groups", "wind"), COMPONENT the
 * name from the model file and VAR the quantity ("pos", "force", "len", ...).
 */
#ifndef AWE_REGISTRY_H
#define AWE_REGISTRY_H

#include <stddef.h>

typedef enum { AWE_VAR_STATE = 0, AWE_VAR_INPUT, AWE_VAR_OUTPUT } awe_var_kind;

enum {
  AWE_VF_LOG = 1u << 0,        /* written to the HDF5 log / available as CSV column */
  AWE_VF_LINEARIZE = 1u << 1,  /* default member of linearization x/u/y */
  AWE_VF_QUAT = 1u << 2,       /* 4-vector unit quaternion (w,x,y,z): perturbed as rotation */
  AWE_VF_ANGLE = 1u << 3,      /* angle [rad]: wrapped when differenced */
  AWE_VF_VECTOR = 1u << 4      /* dim-3 vector with x,y,z components */
};

typedef struct {
  const char *group;     /* HDF5 group, e.g. "points" */
  const char *comp;      /* component name, e.g. "kcu"; "" for group-level (wind.v_wind) */
  int comp_index;        /* 0-based index of the component within its group */
  const char *var;       /* quantity, e.g. "pos" */
  const char *unit;      /* SI unit string, e.g. "m", "N", "rad", "-" */
  int dim;               /* 1, 3 or 4 */
  int offset;            /* first element in y (states), u (inputs) or the output vector */
  double perturb;        /* finite-difference perturbation size, in unit */
  unsigned flags;
} awe_var;

typedef struct {
  int n, cap;
  int size;              /* total scalar length: sum of dim */
  awe_var *v;
} awe_varlist;

typedef struct {
  awe_varlist state, input, output;
} awe_registry;

/* Append a variable; offset is assigned as the list's current size. Returns its index, or -1
 * when out of memory. Strings are borrowed and must outlive the registry (model pool). */
int awe_varlist_add(awe_varlist *l, const char *group, const char *comp, int comp_index,
                    const char *var, const char *unit, int dim, double perturb, unsigned flags);
void awe_varlist_free(awe_varlist *l);
void awe_registry_free(awe_registry *r);

/* Find "group.comp.var" (exact); returns the index or -1. */
int awe_varlist_find(const awe_varlist *l, const char *name);

/* Name of scalar element k (0 <= k < dim) of v: "points.kcu.pos.x"; dim 1 has no suffix. */
void awe_var_scalar_name(const awe_var *v, int k, char *buf, size_t n);

/* Name of the variable itself: "points.kcu.pos". */
void awe_var_name(const awe_var *v, char *buf, size_t n);

/* Shell-style glob match supporting '*' and '?' (names contain no '/'). */
int awe_glob_match(const char *pattern, const char *name);

/* Does name match any of the comma-separated glob patterns? */
int awe_glob_match_list(const char *patterns, const char *name);

#endif
