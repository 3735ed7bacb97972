/* plausible.c: unit slips and a start below the ground, after the placement (init_place.c).
 *
 * A value in the wrong unit is legal input and runs in silence to a nonsense result (an
 * elevation of 1.047 read in degrees starts the kite on the ground; a 4 mm line given as
 * 0.004 "mm" weighs a millionth of its mass). So:
 *   warnings  an angle read in degrees (a transform's elevation, azimuth, heading) that is a
 *             plausible radian value (not a whole number, 0.1 <= |x| <= 2 pi): likely radians;
 *             a line diameter read in mm (settings tether.d_tether, a material, a tether or a
 *             segment) above 0 and below 0.5 mm: likely metres; a tether longer than 5 km:
 *             likely mm or a typo
 *   error     with the ground on (model.h awe_ground), a point that moves (not STATIC)
 *             placed below the ground: the message names the point, its height and the key
 *             that placed it (the transform's elevation, or the point's row), with the unit
 *             hint when that elevation looks like radians.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model_build_internal.h"

#define DIAMETER_MIN_MM 0.5   /* thinner "mm" is likely metres */
#define TETHER_MAX_LEN 5000.0 /* [m] longer is likely a slip */


/* a degree value that looks like radians (|x| in [0.1, 2 pi], not a whole number) */
static int looks_radian(double deg) {
  double a = fabs(deg);
  return a >= 0.1 && a <= 2.0 * M_PI + 1e-9 && fabs(a - round(a)) > 1e-6;
}


static void angle_warnings(const awe_spec *s, awe_diag *warn) {
  static const char *const key[3] = {"elevation", "azimuth", "heading"};
  for (int i = 0; i < s->structure.ntransform; i++) {
    const awe_transform_spec *T = &s->structure.transforms[i];
    const double v[3] = {T->elevation, T->azimuth, T->heading};
    for (int k = 0; k < 3; k++) {
      double deg = v[k] * 180.0 / M_PI;
      if (!looks_radian(deg)) continue;
      awe_warn(warn, T->angle_loc[k].file ? &T->angle_loc[k] : &T->loc,
               "transform '%s': %s %.6g is read in degrees; if radians were meant, that is "
               "%.4g deg", T->name ? T->name : "?", key[k], deg, deg * 180.0 / M_PI);
    }
  }
}


static void diameter_warning(awe_diag *warn, const awe_loc *loc, const char *what, double mm) {
  if (!(mm > 0.0 && mm < DIAMETER_MIN_MM)) return;
  awe_warn(warn, loc, "%s: diameter %.6g mm is implausibly thin (it is read in mm); if metres "
           "were meant, that is %.4g mm", what, mm, mm * 1000.0);
}


static void line_warnings(const awe_model *m, const awe_spec *s, awe_diag *warn) {
  int k = awe_settings_find("d_tether");
  if (k >= 0 && k < (int)sizeof(s->settings.given) && s->settings.given[k])
    diameter_warning(warn, &s->settings.loc[k], "tether.d_tether", s->settings.d_tether);
  const awe_struct_spec *ss = &s->structure;
  char what[300];
  for (int i = 0; i < ss->nmaterial; i++) {
    snprintf(what, sizeof(what), "material '%s'", ss->materials[i].name);
    diameter_warning(warn, &ss->materials[i].loc, what, ss->materials[i].diameter_mm);
  }
  for (int i = 0; i < ss->ntether; i++) {
    snprintf(what, sizeof(what), "tether '%s'", ss->tethers[i].name);
    diameter_warning(warn, &ss->tethers[i].loc, what, ss->tethers[i].props.diameter_mm);
  }
  for (int i = 0; i < ss->nsegment; i++) {
    snprintf(what, sizeof(what), "segment '%s'", ss->segments[i].name);
    diameter_warning(warn, &ss->segments[i].loc, what, ss->segments[i].props.diameter_mm);
  }
  for (int t = 0; t < m->ntether && t < ss->ntether; t++)
    if (m->tether_len0[t] > TETHER_MAX_LEN)
      awe_warn(warn, &ss->tethers[t].loc, "tether '%s': %.6g m long (more than %g km): a length "
               "in another unit?", m->tether_name[t], m->tether_len0[t], TETHER_MAX_LEN / 1e3);
}


/* the start below the ground: the first moving point below it */
static awe_status below_ground(const awe_model *m, const awe_spec *s, awe_err *err) {
  const awe_ground *g = &m->ground;
  if (!g->on) return AWE_OK;
  int worst = -1;
  for (int i = 0; i < m->npoint; i++) {
    if (m->point_type[i] == AWE_PT_STATIC) continue;
    double z = m->point_pos0[3 * i + 2];
    if (z < g->height - 1e-9 && (worst < 0 || z < m->point_pos0[3 * worst + 2])) worst = i;
  }
  if (worst < 0) return AWE_OK;
  double z = m->point_pos0[3 * worst + 2];
  int tr = m->point_transform[worst];
  if (tr < 0 && m->point_wing[worst] >= 0) tr = m->wing_transform[m->point_wing[worst]];
  if (tr >= 0 && tr < s->structure.ntransform) {
    const awe_transform_spec *T = &s->structure.transforms[tr];
    double deg = T->elevation * 180.0 / M_PI;
    char hint[200] = "";
    if (looks_radian(deg))
      snprintf(hint, sizeof(hint), " (elevation is read in degrees: %.6g rad would be %.4g "
               "deg)", deg, deg * 180.0 / M_PI);
    return awe_err_at(err, AWE_EINVAL, T->angle_loc[0].file ? &T->angle_loc[0] : &T->loc,
                      "point '%s' starts at z = %.6g m, below the ground (ground.height = %g m): "
                      "placed by transforms.%s.elevation = %.6g deg%s", m->point_name[worst], z,
                      g->height, T->name ? T->name : "?", deg, hint);
  }
  const awe_loc *loc = worst < s->structure.npoint ? &s->structure.points[worst].loc : NULL;
  return awe_err_at(err, AWE_EINVAL, loc,
                    "point '%s' starts at z = %.6g m, below the ground (ground.height = %g m): "
                    "raise it, lower ground.height, or switch the ground off (ground.enabled: "
                    "false)", m->point_name[worst], z, g->height);
}


awe_status awe_model_plausible(const awe_model *m, const awe_spec *s, awe_diag *warn,
                               awe_err *err) {
  angle_warnings(s, warn);
  line_warnings(m, s, warn);
  return below_ground(m, s, err);
}
