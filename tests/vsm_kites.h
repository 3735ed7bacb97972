/* vsm_kites.h: the test wings test_vsm.c and test_vsm_probe.c share. */
#ifndef VSM_KITES_H
#define VSM_KITES_H

#include <math.h>

#include "aero/vsm.h"

/* Breukels V3-like kite section (t = 0.1, kappa = 0.095). */
static const awe_airfoil LEI = {AWE_AIRFOIL_BREUKELS, 1, 0, NULL, NULL, NULL, NULL, 0.1, 0.095};

/* A curved (anhedral) rectangular-planform kite of 5 sections (radius 4 m, chord 1.2 m). */
static inline void arc_kite(awe_vsm_section *sec) {
  const double r = 4.0, c = 1.2;
  const double th[5] = {1.0, 0.5, 0.0, -0.5, -1.0};
  for (int k = 0; k < 5; k++) {
    const double y = r*sin(th[k]), z = r*cos(th[k]) - r;
    sec[k] = (awe_vsm_section){{0.0, y, z}, {c, y, z}, 0};
  }
}

#endif
