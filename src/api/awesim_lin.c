/* awesim_lin.c: trim and linearization of include/awesim.h (solve/trim.h, analysis/linearize.h),
 * as `awesim trim` without trim variables and `awesim linearize` over its default channels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "engine/aero_coupling.h"
#include "engine/outputs.h"
#include "model/input_signal.h"
#include "solve/trim.h"


static awesim_status trim_(awesim_sim *s, double residual[3]) {
  awe_sim *sim = s->sim;
  s->err = (awe_err){0};
  awe_trim_result r;
  if (awe_trim_solve(sim, NULL, &r, &s->err)) return (awesim_status)s->err.code;
  awe_sim_aero_refresh(sim);
  awe_ctx c = sim->ctx;
  c.flags = AWE_CTX_BRAKE_ALL;
  awe_outputs_eval(&c, 0.0, sim->y, sim->dydt, sim->yout);
  awe_trim_residual(sim, &r);
  if (residual) {
    residual[0] = r.force;
    residual[1] = r.moment;
    residual[2] = r.rel;
  }
  s->dirty = 0;
  return AWESIM_OK;
}


static awesim_status linearize_(awesim_sim *s, const char *inputs, const char *outputs, int *nx,
                                int *nu, int *ny) {
  awe_sim *sim = s->sim;
  const awe_model *m = s->m;
  s->err = (awe_err){0};
  awe_linsys_free(&s->lin);
  memset(&s->lin, 0, sizeof(s->lin));
  s->have_lin = 0;
  awe_lin_chan *uc = NULL, *yc = NULL;
  int nuc = 0, nyc = 0, fb = 0;
  double *u = malloc(sizeof(double) * ((size_t)sim->w->nu + 1));
  awe_status st = AWE_ENOMEM;
  if (!u) {
    awe_err_set(&s->err, st, "out of memory");
    goto out;
  }
  /* the inputs that hold now: the scheduled ones at t, the controllers' outputs added */
  memcpy(u, sim->u, sizeof(double) * (size_t)sim->w->nu);
  awe_signals_apply(m->signals, m->nsignal, sim->t, u);
  for (int j = 0; j < sim->ctx.nadd; j++) u[sim->ctx.add_idx[j]] += awe_ctx_add(&sim->ctx, j, sim->t);
  /* as `awesim linearize --inputs/--outputs`: globs, or the defaults when NULL */
  st = inputs ? awe_lin_select(&m->reg.input, inputs, 0, &uc, &nuc, &s->err)
              : awe_lin_default_inputs(m, &uc, &nuc, &fb, &s->err);
  if (st) goto out;
  st = outputs ? awe_lin_select(&m->reg.output, outputs, 0, &yc, &nyc, &s->err)
               : awe_lin_default_outputs(m, &yc, &nyc, &fb, &s->err);
  if (st) goto out;
  awe_lin_model lm;
  awe_lin_model_init(&lm, m, sim->w, 0);
  awe_lin_problem p = {.xl = &m->reg.state, .ul = &m->reg.input, .yl = &m->reg.output,
                       .eval = awe_lin_model_eval, .ctx = &lm, .uc = uc, .nu = nuc, .yc = yc,
                       .ny = nyc, .integrating = awe_lin_model_integrating, .stop = NULL};
  if ((st = awe_linearize(&p, sim->y, u, &s->lin, &s->err))) goto out;
  s->have_lin = 1;
  if (nx) *nx = s->lin.nx;
  if (nu) *nu = s->lin.nu;
  if (ny) *ny = s->lin.ny;
  /* the evaluations left the workspace elsewhere: the outputs at the state again */
  s->dirty = 1;
  st = (awe_status)awe_api_refresh(s);
out:
  free(u);
  free(uc);
  free(yc);
  return (awesim_status)st;
}


static awesim_status lin_matrices_(awesim_sim *s, double *A, double *B, double *C, double *D) {
  if (!s->have_lin) return awe_api_fail(s, AWE_EUSAGE, "awesim_lin_matrices: no linearization "
                                        "yet (awesim_linearize first)");
  const awe_linsys *L = &s->lin;
  size_t nx = (size_t)L->nx, nu = (size_t)L->nu, ny = (size_t)L->ny;
  if (A) memcpy(A, L->A, sizeof(double) * nx * nx);
  if (B) memcpy(B, L->B, sizeof(double) * nx * nu);
  if (C) memcpy(C, L->C, sizeof(double) * ny * nx);
  if (D) memcpy(D, L->D, sizeof(double) * ny * nu);
  return AWESIM_OK;
}


static int lin_n(const awe_linsys *L, char kind) {
  return kind == 'x' ? L->nx : kind == 'u' ? L->nu : kind == 'y' ? L->ny : 0;
}


const char *awesim_lin_name(const awesim_sim *s, char kind, int i) {
  if (!s) return NULL;
  const awe_linsys *L = &s->lin;
  if (!s->have_lin || i < 0 || i >= lin_n(L, kind)) return NULL;
  return kind == 'x' ? L->x_name[i] : kind == 'u' ? L->u_name[i] : L->y_name[i];
}


const char *awesim_lin_unit(const awesim_sim *s, char kind, int i) {
  if (!s) return NULL;
  const awe_linsys *L = &s->lin;
  if (!s->have_lin || i < 0 || i >= lin_n(L, kind)) return NULL;
  return kind == 'x' ? L->x_unit[i] : kind == 'u' ? L->u_unit[i] : L->y_unit[i];
}


/* the public entry points (API_CALL, api_internal.h) */
awesim_status awesim_trim(awesim_sim *s, double residual[3]) { API_CALL(s, trim_(s, residual)); }
awesim_status awesim_linearize(awesim_sim *s, int *nx, int *nu, int *ny) {
  API_CALL(s, linearize_(s, NULL, NULL, nx, nu, ny));
}
awesim_status awesim_linearize_select(awesim_sim *s, const char *inputs, const char *outputs,
                                      int *nx, int *nu, int *ny) {
  API_CALL(s, linearize_(s, inputs, outputs, nx, nu, ny));
}
awesim_status awesim_lin_matrices(awesim_sim *s, double *A, double *B, double *C, double *D) {
  API_CALL(s, lin_matrices_(s, A, B, C, D));
}
