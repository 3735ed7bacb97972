/* spec_wind_yaml.c: the scenario's `wind:` section (awesim-scenario(5)).
 *
 *   wind:
 *     gusts:
 *       - {type: eog, start: 20, sigma1: 1.8, diameter: 10}
 *       - {type: edc, start: 40, theta_e: 30, sign: -1}
 *
 * Each gust is one of IEC 61400-1's deterministic extreme events (eog, edc, ecd, ews); its
 * formula's parameters are given by name, a turbine class is not used (engine/wind_gust.c).
 * The numbers are checked here, where their lines are known; which ones a gust needs too.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/spec_load.h"
#include "io/spec_mann_yaml.h"


static const char *const GUST_KEYS[] = {"type",     "start",    "period",  "height",
                                        "sigma1",   "lambda1",  "diameter", "v_e1",
                                        "v_gust",   "theta_e",  "v_cg",    "theta_cg",
                                        "shear",    "direction", "sign"};


/* key into *out (NAN when absent), within [lo, hi] (open at lo when lo_open) */
static awe_status gnum(const awe_ynode *g, int i, const char *key, double lo, double hi,
                       int lo_open, const char *unit, double *out, awe_err *err) {
  *out = NAN;
  const awe_ynode *v = awe_ymap_get(g, key);
  if (!v || v->kind == AWE_Y_NULL) return AWE_OK;
  char w[64];
  if (i < 0) snprintf(w, sizeof(w), "wind.%s", key);
  else snprintf(w, sizeof(w), "wind.gusts[%d].%s", i + 1, key);
  AWE_TRY(awe_ynode_double(v, w, out, err));
  double x = *out;
  if (isfinite(x) && (lo_open ? x > lo : x >= lo) && x <= hi) return AWE_OK;
  return awe_err_at(err, AWE_EINVAL, &v->loc, "%s = %g %s is out of range %s%g, %g]", w, x, unit,
                    lo_open ? "(" : "[", lo, hi);
}


/* which parameters each type needs; absent ones that a formula needs are an error here */
static awe_status gust_needs(const awe_ynode *g, int i, const awe_gust_spec *q, awe_err *err) {
  static const char *const names[] = {"eog", "edc", "ecd", "ews"};
  const char *need = NULL;
  switch (q->type) {
    case AWE_GUST_EOG:
      if (isnan(q->v_gust) && (isnan(q->sigma1) || isnan(q->diameter)))
        need = "v_gust, or sigma1 and diameter (with lambda1 and v_e1 optional)";
      break;
    case AWE_GUST_EDC:
      if (isnan(q->theta_e) && (isnan(q->sigma1) || isnan(q->diameter)))
        need = "theta_e, or sigma1 and diameter (with lambda1 optional)";
      break;
    case AWE_GUST_ECD:
      break;
    case AWE_GUST_EWS:
      if (isnan(q->diameter) || (isnan(q->shear) && isnan(q->sigma1)))
        need = "diameter and either shear or sigma1 (with lambda1 optional)";
      break;
  }
  if (need)
    return awe_err_at(err, AWE_EINVAL, &g->loc, "wind.gusts[%d] (%s) needs %s", i + 1,
                      names[q->type], need);
  return AWE_OK;
}


static awe_status read_gust(const awe_ynode *g, int i, awe_gust_spec *q, awe_err *err) {
  char w[64];
  snprintf(w, sizeof(w), "wind.gusts[%d]", i + 1);
  if (g->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &g->loc, "%s: expected a mapping {type: eog|edc|ecd|ews, "
                      "start: SECONDS, ...}", w);
  AWE_TRY(awe_ymap_check_keys(g, w, GUST_KEYS, AWE_ARRLEN(GUST_KEYS), err));
  q->loc = g->loc;
  const awe_ynode *t = awe_ymap_get(g, "type");
  if (!t || t->kind == AWE_Y_NULL)
    return awe_err_at(err, AWE_EINVAL, &g->loc, "%s: 'type' is required (eog, edc, ecd, ews)", w);
  const char *ts;
  snprintf(w, sizeof(w), "wind.gusts[%d].type", i + 1);
  AWE_TRY(awe_ynode_string(t, w, &ts, err));
  if (!strcmp(ts, "eog")) q->type = AWE_GUST_EOG;
  else if (!strcmp(ts, "edc")) q->type = AWE_GUST_EDC;
  else if (!strcmp(ts, "ecd")) q->type = AWE_GUST_ECD;
  else if (!strcmp(ts, "ews")) q->type = AWE_GUST_EWS;
  else
    return awe_err_at(err, AWE_EINVAL, &t->loc,
                      "%s: unknown gust '%s' (allowed: eog, edc, ecd, ews)", w, ts);
  const double big = 1e6;
  AWE_TRY(gnum(g, i, "start", -big, big, 0, "s", &q->start, err));
  if (isnan(q->start))
    return awe_err_at(err, AWE_EINVAL, &g->loc, "wind.gusts[%d]: 'start' [s] is required", i + 1);
  /* lengths and times below these are no gust the integrator can resolve (a diameter of
     1e-300 m failed as "step size underflow" in the run): refused here with the range */
  AWE_TRY(gnum(g, i, "period", 0.01, big, 0, "s", &q->period, err));
  AWE_TRY(gnum(g, i, "height", 0, big, 1, "m", &q->height, err));
  AWE_TRY(gnum(g, i, "sigma1", 0, 1000, 0, "m/s", &q->sigma1, err));
  AWE_TRY(gnum(g, i, "lambda1", 0.1, big, 0, "m", &q->lambda1, err));
  AWE_TRY(gnum(g, i, "diameter", 0.1, big, 0, "m", &q->diameter, err));
  AWE_TRY(gnum(g, i, "v_e1", 0, 1000, 0, "m/s", &q->v_e1, err));
  AWE_TRY(gnum(g, i, "v_gust", -1000, 1000, 0, "m/s", &q->v_gust, err));
  AWE_TRY(gnum(g, i, "theta_e", -3600, 3600, 0, "deg", &q->theta_e, err));
  AWE_TRY(gnum(g, i, "v_cg", -1000, 1000, 0, "m/s", &q->v_cg, err));
  AWE_TRY(gnum(g, i, "theta_cg", -3600, 3600, 0, "deg", &q->theta_cg, err));
  AWE_TRY(gnum(g, i, "shear", -1000, 1000, 0, "m/s", &q->shear, err));
  double sg;
  AWE_TRY(gnum(g, i, "sign", -1, 1, 0, "", &sg, err));
  if (!isnan(sg) && sg != 1.0 && sg != -1.0)
    return awe_err_at(err, AWE_EINVAL, &awe_ymap_get(g, "sign")->loc,
                      "wind.gusts[%d].sign = %g: allowed 1 or -1", i + 1, sg);
  q->sign = isnan(sg) ? 1 : (int)sg;
  q->horizontal = 0;
  const awe_ynode *d = awe_ymap_get(g, "direction");
  if (d && d->kind != AWE_Y_NULL) {
    const char *ds;
    snprintf(w, sizeof(w), "wind.gusts[%d].direction", i + 1);
    AWE_TRY(awe_ynode_string(d, w, &ds, err));
    if (q->type != AWE_GUST_EWS)
      return awe_err_at(err, AWE_EINVAL, &d->loc, "%s: only an ews gust has a direction", w);
    if (!strcmp(ds, "horizontal")) q->horizontal = 1;
    else if (strcmp(ds, "vertical"))
      return awe_err_at(err, AWE_EINVAL, &d->loc,
                        "%s: unknown shear direction '%s' (allowed: vertical, horizontal)", w, ds);
  }
  return gust_needs(g, i, q, err);
}


awe_status awe_spec_read_wind(awe_spec *s, const awe_ynode *n, awe_err *err) {
  awe_wind_spec *ws = &s->scenario.wind;
  ws->ngust = 0;
  ws->gusts = NULL;
  ws->field = NULL;
  ws->generate = NULL;
  ws->field_scale = 1.0;
  ws->advection = NAN;
  ws->npz_grid[0] = ws->npz_grid[1] = ws->npz_grid[2] = NAN;
  if (!n || n->kind == AWE_Y_NULL) return AWE_OK;
  if (n->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &n->loc, "wind: expected a mapping (field, scale, "
                      "advection, gusts)");
  static const char *const keys[] = {"gusts", "field", "scale", "advection", "grid_step",
                                     "height_step", "z_min"};
  AWE_TRY(awe_ymap_check_keys(n, "wind", keys, AWE_ARRLEN(keys), err));
  const awe_ynode *f = awe_ymap_get(n, "field");
  if (f && f->kind == AWE_Y_MAP) {
    /* field: {generate: {...}}: a Mann box drawn at the start (the keys of awesim wind generate) */
    static const char *const fkeys[] = {"generate"};
    AWE_TRY(awe_ymap_check_keys(f, "wind.field", fkeys, AWE_ARRLEN(fkeys), err));
    const awe_ynode *g = awe_ymap_get(f, "generate");
    if (!g) return awe_err_at(err, AWE_EINVAL, &f->loc, "wind.field: expected a file name or "
                              "{generate: {seed, n, d, ti, ...}}");
    ws->generate = awe_spec_alloc(s, sizeof(awe_mann_spec));
    if (!ws->generate) return awe_err_set(err, AWE_ENOMEM, "out of memory");
    AWE_TRY(awe_mann_spec_node(g, "wind.field.generate", ws->generate, err));
    ws->field_loc = g->loc;
  } else if (f && f->kind != AWE_Y_NULL) {
    const char *p;
    AWE_TRY(awe_ynode_string(f, "wind.field", &p, err));
    if (!p[0]) return awe_err_at(err, AWE_EINVAL, &f->loc, "wind.field: empty file name");
    ws->field = awe_spec_path_join(s, s->scenario.path, p);
    ws->field_loc = f->loc;
    if (!ws->field) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  double x;
  AWE_TRY(gnum(n, -1, "scale", 0, 1000, 0, "", &x, err));
  if (!isnan(x)) ws->field_scale = x;
  AWE_TRY(gnum(n, -1, "advection", 0, 1000, 0, "m/s", &ws->advection, err));
  /* an AtmosphericModels.jl .npz holds no axes: its grid as that package's settings give it */
  static const char *const gk[3] = {"grid_step", "height_step", "z_min"};
  for (int k = 0; k < 3; k++) {
    AWE_TRY(gnum(n, -1, gk[k], k < 2 ? 1e-6 : -1e6, 1e6, 0, "m", &ws->npz_grid[k], err));
    size_t fl = ws->field ? strlen(ws->field) : 0;
    if (!isnan(ws->npz_grid[k]) && (fl < 4 || strcmp(ws->field + fl - 4, ".npz")))
      return awe_err_at(err, AWE_EINVAL, &awe_ymap_get(n, gk[k])->loc,
                        "wind.%s: only a .npz field (AtmosphericModels.jl) takes a grid", gk[k]);
  }
  if (!ws->field && !ws->generate && (awe_ymap_get(n, "scale") || awe_ymap_get(n, "advection")))
    return awe_err_at(err, AWE_EINVAL, &n->loc, "wind: scale and advection need a field");
  const awe_ynode *gl = awe_ymap_get(n, "gusts");
  if (!gl || gl->kind == AWE_Y_NULL) return AWE_OK;
  if (gl->kind != AWE_Y_SEQ)
    return awe_err_at(err, AWE_EINVAL, &gl->loc, "wind.gusts: expected a list of gusts");
  ws->gusts = awe_spec_alloc(s, sizeof(awe_gust_spec) * (size_t)(gl->n + 1));
  if (!ws->gusts) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < gl->n; i++) AWE_TRY(read_gust(gl->items[i], i, &ws->gusts[i], err));
  ws->ngust = gl->n;
  return AWE_OK;
}
