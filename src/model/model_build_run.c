/* model_build_run.c: the wings' aerodynamics, the environment and the run options (every run
 * default resolved here, io/spec.h), and the scenario's input signals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/wind_box_read.h"
#include "turb/mann.h"
#include "model/model_build_internal.h"
#include "util/pool.h"
#include "util/vec3.h"
#include "model/solver_default.h"


/* ---- aero, environment, options ----------------------------------------------------------- */

awe_status awe_mb_aero(awe_mb_builder *b, awe_err *err) {
  const awe_spec *s = b->s;
  awe_model *m = b->m;
  m->vsm = s->vsm;
  if (!s->has_aero) return AWE_OK;
  const awe_aero_spec *a = &s->aero;
  m->nsection = a->nsection;
  m->nairfoil = a->nairfoil;
  AWE_MB_ALLOC(m->section_le, 3 * a->nsection);
  AWE_MB_ALLOC(m->section_te, 3 * a->nsection);
  AWE_MB_ALLOC(m->section_airfoil, a->nsection);
  AWE_MB_ALLOC(m->airfoils, a->nairfoil);
  for (int i = 0; i < a->nairfoil; i++) {
    m->airfoils[i] = a->airfoils[i];
    int n = a->airfoils[i].n;
    if (a->airfoils[i].type == AWE_AIRFOIL_POLARS) {
      double **dst[4] = {&m->airfoils[i].alpha, &m->airfoils[i].cl, &m->airfoils[i].cd,
                         &m->airfoils[i].cm};
      const double *src[4] = {a->airfoils[i].alpha, a->airfoils[i].cl, a->airfoils[i].cd,
                              a->airfoils[i].cm};
      for (int k = 0; k < 4; k++) {
        AWE_MB_ALLOC(*dst[k], n);
        memcpy(*dst[k], src[k], sizeof(double) * (size_t)n);
      }
    }
  }
  for (int i = 0; i < a->nsection; i++) {
    memcpy(&m->section_le[3 * i], a->sections[i].le, sizeof(double) * 3);
    memcpy(&m->section_te[3 * i], a->sections[i].te, sizeof(double) * 3);
    for (int j = 0; j < a->nairfoil; j++)
      if (a->airfoils[j].id == a->sections[i].airfoil_id) m->section_airfoil[i] = j;
  }
  return AWE_OK;
}


void awe_mb_env_opt(awe_mb_builder *b) {
  const awe_spec *s = b->s;
  const awe_settings *st = &s->settings;
  awe_model *m = b->m;
  awe_env *e = &m->env;
  e->g = st->g_earth;
  e->rho_0 = st->rho_0;
  e->temp_ref = st->temp_ref;
  e->height_gnd = st->height_gnd;
  e->h_ref = st->h_ref;
  e->alpha = st->alpha;
  e->z0 = st->z0;
  e->profile_law = st->profile_law;
  e->cd_tether = st->cd_tether;
  if (st->use_wind_vec) {
    double v = sqrt(st->wind_vec[0] * st->wind_vec[0] + st->wind_vec[1] * st->wind_vec[1] +
                    st->wind_vec[2] * st->wind_vec[2]);
    e->v_wind = v;
    for (int k = 0; k < 3; k++) e->wind_dir[k] = v > 0 ? st->wind_vec[k] / v : (k == 0);
  } else {
    /* Rz(-upwind_dir) Rx(upwind_elevation) [0,-1,0]: upwind_dir = -90 deg -> +x */
    double psi = -st->upwind_dir * M_PI / 180, el = st->upwind_elevation * M_PI / 180;
    double v0[3] = {0, -cos(el), -sin(el)};
    e->wind_dir[0] = cos(psi) * v0[0] - sin(psi) * v0[1];
    e->wind_dir[1] = sin(psi) * v0[0] + cos(psi) * v0[1];
    e->wind_dir[2] = v0[2];
    e->v_wind = st->v_wind;
  }
  /* upwind_dir of wind_dir: its horizontal part is (sin psi, -cos psi) cos(el), psi = -dir */
  e->upwind_dir = -atan2(e->wind_dir[0], -e->wind_dir[1]) * 180 / M_PI;
  if (!st->use_wind_vec) e->upwind_dir = st->upwind_dir;
  const awe_run_spec *r = &s->scenario.run;
  awe_opt *o = &m->opt;
  o->duration = r->duration;
  o->dt = !isnan(r->dt) ? r->dt : st->sample_freq > 0 ? 1.0 / st->sample_freq : AWE_RUN_DT;
  if (isnan(r->dt) && !(st->sample_freq > 0))
    awe_warn(b->warn, NULL, "neither run.dt nor system.sample_freq is set: logging every %g s",
             AWE_RUN_DT);
  snprintf(o->solver, sizeof(o->solver), "%s", r->solver ? r->solver : awe_default_solver(m));
  o->jacobian_fd = r->jacobian_fd;
  o->abs_tol = !isnan(r->abs_tol) ? r->abs_tol : AWE_RUN_TOL;
  o->rel_tol = !isnan(r->rel_tol) ? r->rel_tol : AWE_RUN_TOL;
  o->max_step = !isnan(r->max_step) ? r->max_step : o->dt;
  o->vsm_interval = r->vsm_interval;
  o->vsm_dt = !isnan(r->vsm_dt) ? r->vsm_dt : 0.0;
  o->vsm_jacobian_tol = !isnan(r->vsm_jacobian_tol) ? r->vsm_jacobian_tol : AWE_RUN_VSM_JAC_TOL;
  o->steady_state = r->steady_state;
  o->steady_state_time = r->steady_state_time;
  o->min_step = !isnan(r->min_step) ? r->min_step : 0.0;
  o->max_wall_time = !isnan(r->max_wall_time) ? r->max_wall_time : 0.0;
  o->max_steps = !isnan(r->max_steps) ? r->max_steps : 1e9; /* AWE_GUARD_MAX_STEPS */
  o->on_crash_continue = r->on_crash_continue;
  o->crash_clearance = !isnan(r->crash_clearance) ? r->crash_clearance : AWE_CRASH_CLEARANCE;
  /* the ground: on unless switched off, or, not given, when the model has a wing (a kite
   * needs one; the lab models hang below their pivot at z = 0) */
  const awe_ground_spec *gs = &s->scenario.ground;
  awe_ground *g = &m->ground;
  g->on = gs->enabled > 0 || (gs->enabled < 0 && m->nwing > 0);
  g->height = gs->height;
  g->omega = 2.0 * M_PI * gs->frequency;
  g->zeta = gs->damping_ratio;
  g->mu = gs->friction;
  g->v_slip = gs->friction_speed;
  m->settings = *st;
}



/* Does gust g need z_hub: V_hub from a profile, Lambda1 of a formula, a vertical shear? */
static int gust_needs_height(const awe_model *m, const awe_gust_spec *g) {
  if (m->env.profile_law != 0) return 1;
  if (!isnan(g->lambda1)) return g->type == AWE_GUST_EWS && !g->horizontal;
  switch (g->type) {
    case AWE_GUST_EOG: return isnan(g->v_gust);
    case AWE_GUST_EDC: return isnan(g->theta_e);
    case AWE_GUST_ECD: return 0;
    case AWE_GUST_EWS: return !g->horizontal || isnan(g->shear);
  }
  return 1;
}


/* The scenario's wind box: read and checked (io/wind_box_read.h), its advection speed. */
static awe_status wind_box(awe_model *m, const awe_wind_spec *ws, awe_err *err) {
  m->env.box = NULL;
  m->env.box_gen_seconds = NAN;
  if (!ws->field && !ws->generate) return AWE_OK;
  awe_wind_box *b = calloc(1, sizeof(*b));
  if (!b) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  awe_status st;
  char name[96] = "";
  if (ws->generate) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    st = awe_mann_box(ws->generate, b, err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    m->env.box_gen_seconds =
        (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    snprintf(name, sizeof(name), "the generated wind box (seed %llu)",
             (unsigned long long)ws->generate->seed);
  } else {
    awe_npz_grid g = {ws->npz_grid[0], ws->npz_grid[1], ws->npz_grid[2]};
    st = awe_wind_box_read_grid(ws->field, &g, b, err);
  }
  if (st == AWE_OK && awe_wind_box_interleave(b)) {
    awe_wind_box_free(b);
    st = awe_err_set(err, AWE_ENOMEM, "%s: out of memory", ws->field ? ws->field : name);
  }
  if (st) {
    free(b);
    if (ws->field_loc.line > 0) {
      /* say where the scenario named it */
      awe_err e2 = *err;
      awe_err_at(err, st, &ws->field_loc, "wind.field: %s", e2.msg);
    }
    return st;
  }
  m->env.box = b;
  m->env.box_path = awe_pool_strdup(m->pool, ws->field ? ws->field : name);
  m->env.box_scale = ws->field_scale;
  m->env.box_advection = ws->advection; /* NAN: engine/wind.c takes the profile's */
  return AWE_OK;
}


/* Scenario inputs -> input vector elements. */
awe_status awe_mb_signals(awe_mb_builder *b, awe_err *err) {
  const awe_scenario_spec *sc = &b->s->scenario;
  awe_model *m = b->m;
  m->nsignal = sc->ninput;
  AWE_MB_ALLOC(m->signals, sc->ninput);
  const awe_varlist *u = &m->reg.input;
  for (int i = 0; i < sc->ninput; i++) {
    const awe_input_spec *in = &sc->inputs[i];
    int found = -1;
    char name[512];
    for (int v = 0; v < u->n && found < 0; v++)
      for (int k = 0; k < u->v[v].dim && found < 0; k++) {
        awe_var_scalar_name(&u->v[v], k, name, sizeof(name));
        if (!strcmp(name, in->channel)) found = u->v[v].offset + k;
      }
    if (found < 0) {
      /* suggest from the scalar input names */
      int nn = u->size < 4096 ? u->size : 4096;
      char **names = malloc(sizeof(char *) * (size_t)(nn ? nn : 1));
      char *store = malloc((size_t)(nn ? nn : 1) * 160);
      const char *best = NULL;
      if (names && store) {
        int c = 0;
        for (int v = 0; v < u->n && c < nn; v++)
          for (int k = 0; k < u->v[v].dim && c < nn; k++, c++) {
            names[c] = store + (size_t)c * 160;
            awe_var_scalar_name(&u->v[v], k, names[c], 160);
          }
        best = awe_closest(in->channel, (const char *const *)names, c);
      }
      char bestbuf[160] = "";
      if (best) snprintf(bestbuf, sizeof(bestbuf), "%s", best);
      free(names);
      free(store);
      if (bestbuf[0])
        return awe_err_at(err, AWE_EINVAL, &in->loc,
                          "inputs: unknown input channel '%s' (did you mean '%s'?)", in->channel,
                          bestbuf);
      return awe_err_at(err, AWE_EINVAL, &in->loc,
                        "inputs: unknown input channel '%s' (inputs are winches.NAME.torque, "
                        "winches.NAME.brake, segments.NAME.l0, points.NAME.force.x|y|z, "
                        "wind.v_wind)", in->channel);
    }
    m->signals[i].u_index = found;
    m->signals[i].sig = *in;
    if (in->type == AWE_SIG_TABLE) {
      AWE_MB_ALLOC(m->signals[i].sig.table_t, in->ntable);
      AWE_MB_ALLOC(m->signals[i].sig.table_v, in->ntable);
      memcpy(m->signals[i].sig.table_t, in->table_t, sizeof(double) * (size_t)in->ntable);
      memcpy(m->signals[i].sig.table_v, in->table_v, sizeof(double) * (size_t)in->ntable);
    }
    m->signals[i].sig.channel = awe_pool_strdup(m->pool, in->channel);
  }
  /* the scenario's gusts act on the wind as inputs do (engine/wind.h) */
  const awe_wind_spec *ws = &sc->wind;
  for (int i = 0; i < ws->ngust; i++)
    if (isnan(ws->gusts[i].height) && !(m->env.h_ref > 0) && gust_needs_height(m, &ws->gusts[i]))
      return awe_err_at(err, AWE_EINVAL, &ws->gusts[i].loc,
                        "wind.gusts[%d]: give its height [m] (where V_hub is taken): "
                        "environment.h_ref = %g m is not a height", i + 1, m->env.h_ref);
  awe_gust_spec *g;
  AWE_MB_ALLOC(g, ws->ngust);
  if (ws->ngust > 0) memcpy(g, ws->gusts, sizeof(*g) * (size_t)ws->ngust);
  m->env.gusts = g;
  m->env.ngust = ws->ngust;
  return wind_box(m, ws, err);
}
