/* aero_wing.c: aero geometry -> awe_vsm_wing (sections in order, airfoils by index). */
#include "model/aero_wing.h"

#include <stdlib.h>
#include <string.h>


static awe_vsm_wing *make(int nsec, const double *le, const double *te, const int *af_index,
                          const awe_airfoil *af, int naf, const double origin[3],
                          const awe_vsm_settings *s, awe_err *err) {
  awe_vsm_section *sec = calloc((size_t)nsec, sizeof(*sec));
  if (!sec) {
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  for (int i = 0; i < nsec; i++) {
    for (int k = 0; k < 3; k++) {
      double o = origin ? origin[k] : 0.0;
      sec[i].le[k] = le[3 * i + k] - o;
      sec[i].te[k] = te[3 * i + k] - o;
    }
    sec[i].airfoil = af_index[i];
  }
  char msg[512] = "";
  awe_vsm_wing *w = awe_vsm_wing_alloc(sec, nsec, af, naf, s, msg, sizeof(msg));
  free(sec);
  /* out of memory or over the memory budget is no fault of the file */
  if (!w) awe_err_set(err, strstr(msg, "memory") ? AWE_ENOMEM : AWE_EINVAL, "aero geometry: %s",
                      msg[0] ? msg : "cannot build the wing");
  return w;
}


awe_vsm_wing *awe_aero_wing_from_spec(const awe_aero_spec *a, const awe_vsm_settings *s,
                                      awe_err *err) {
  int n = a->nsection;
  double *le = malloc(sizeof(double) * 3 * (size_t)n), *te = malloc(sizeof(double) * 3 * (size_t)n);
  int *idx = malloc(sizeof(int) * (size_t)n);
  awe_vsm_wing *w = NULL;
  if (!le || !te || !idx) {
    awe_err_set(err, AWE_ENOMEM, "out of memory");
  } else {
    for (int i = 0; i < n; i++) {
      memcpy(&le[3 * i], a->sections[i].le, sizeof(double) * 3);
      memcpy(&te[3 * i], a->sections[i].te, sizeof(double) * 3);
      idx[i] = 0;
      for (int j = 0; j < a->nairfoil; j++)
        if (a->airfoils[j].id == a->sections[i].airfoil_id) idx[i] = j;
    }
    w = make(n, le, te, idx, a->airfoils, a->nairfoil, NULL, s, err);
  }
  free(le);
  free(te);
  free(idx);
  return w;
}


awe_vsm_wing *awe_aero_wing_from_model(const awe_model *m, const double origin[3],
                                       const awe_vsm_settings *s, awe_err *err) {
  if (m->nsection < 2) {
    awe_err_set(err, AWE_EINVAL, "the model has no aero geometry");
    return NULL;
  }
  return make(m->nsection, m->section_le, m->section_te, m->section_airfoil, m->airfoils,
              m->nairfoil, origin, s, err);
}
