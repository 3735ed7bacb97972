/* spec_mann_yaml.h: the specification of a turbulent wind box (`awesim wind generate`,
 * awesim(1) WIND BOXES) into an awe_mann_spec (turb/mann.h).
 *
 *   seed: 7                    # any integer >= 0
 *   n: [4096, 64, 64]          # points along x (mean wind), y (lateral), z (up); even, >= 2
 *   d: 2.0                     # spacing [m], or [dx, dy, dz]
 *   gamma: 3.9                 # Mann's shear distortion [-]
 *   length: 33.6               # Mann's length scale L [m]
 *   ae: 0.1                    # alpha eps^(2/3) [m^(4/3)/s^2] ...
 *   ti: 0.1                    # ... or a turbulence intensity: sigma_u = ti v_ref
 *   v_ref: 10.0                # mean wind speed [m/s] at
 *   h_ref: 200.0               # the reference height [m]
 *   z_bottom: 137.0            # height of the lowest plane [m]; default h_ref - half the box
 */
#ifndef AWE_SPEC_MANN_YAML_H
#define AWE_SPEC_MANN_YAML_H

#include "io/yaml_doc.h"
#include "turb/mann.h"
#include "util/status.h"

/* Defaults (awe_mann_defaults) overridden by the file's keys; errors name file:line:col. */
awe_status awe_mann_spec_read(const char *path, awe_mann_spec *s, awe_err *err);

/* The same keys from a mapping node (a scenario's wind.field.generate); where names it. */
awe_status awe_mann_spec_node(const awe_ynode *root, const char *where,
                              awe_mann_spec *s, awe_err *err);

#endif
