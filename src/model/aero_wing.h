/* aero_wing.h: build a VSM wing from loaded aero geometry (spec or model arrays). */
#ifndef AWE_AERO_WING_H
#define AWE_AERO_WING_H

#include "model/model.h"
#include "io/spec.h"
#include "aero/vsm.h"

/* Wing from an aero spec (sections in CAD coordinates, airfoils by id). */
awe_vsm_wing *awe_aero_wing_from_spec(const awe_aero_spec *a, const awe_vsm_settings *s,
                                      awe_err *err);

/* Wing from a model's aero arrays, sections offset by -origin (body frame = CAD - origin);
 * origin may be NULL. */
awe_vsm_wing *awe_aero_wing_from_model(const awe_model *m, const double origin[3],
                                       const awe_vsm_settings *s, awe_err *err);

#endif
