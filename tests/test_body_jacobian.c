/* test_body_jacobian.c: the analytic Jacobian blocks of rigid bodies, their riding points and
 * tubes (engine/body_jac.h, engine/jacobian.h) against central differences of the right-hand
 * side, and runs with analytic and with finite-difference body columns agree.
 *
 * Models: two spinning bodies with riding points (with point drag), a free point and springs
 * to a fixed hook in wind (tests/data/bodies/body_jac_scenario.yaml); a body on a reeling
 * 4-segment tether from a free winch (body_tether_scenario.yaml: the tether length and winch
 * speed columns of the body's rows), on a tether of one segment (body_winch_scenario.yaml: the
 * winch's row reads the riding point) and on a pulley's leg (body_pulley_scenario.yaml); the
 * one-tube Timoshenko cantilever under its tip weight (cantilever_scenario.yaml), also as a
 * free-free spinning pair; the same with the lumped elastic tube; the clamped inflated beam
 * (four Timoshenko tubes and an elastic hinge, inflated_beam_scenario.yaml). Also under the
 * steady state's context flags and with the bodies held (AWE_CTX_FIX_WING).
 *
 * Checks, at a state after a short flight, per analytic column, relative to the column's
 * largest entry (at least 1): the analytic entry within 1e-6 of central differences of the
 * right-hand side (the closest of h = 1e-7, 1e-5, 1e-3 times max(|y_j|, 1)); every body
 * column analytic; every nonzero analytic entry inside the integrator's pattern (the sparse
 * steppers see only those). The largest error per block is printed: body rows in their own
 * body's columns, in another body's columns (tubes, segments between riding points), in a
 * point's (tether's, winch's) columns; a point's (winch's) rows in a body's columns.
 * Runs: the cantilever, the inflated beam, the elastic free pair and the bodies with riding
 * points with run.jacobian = analytic and = fd (trbdf2, tolerances 1e-9) end within
 * 1e-7 max(|y|, 1) of each other.
 */
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "control/controller.h"
#include "engine/rhs.h"
#include "io/load.h"
#include "solve/integrate.h"
#include "solve/sim.h"

typedef struct {
  awe_spec *s;
  awe_model *m;
  awe_sim *sim;
} run;

typedef void (*spec_edit)(awe_spec *s);


static int open_run(run *r, const char *scenario, const char *jac, spec_edit edit,
                    const char *const *more) {
  char setj[64];
  snprintf(setj, sizeof(setj), "run.jacobian=%s", jac);
  const char *sets[8] = {setj, "run.steady_state=false"};
  int n = 2;
  while (more && more[n - 2] && n < 8) {
    sets[n] = more[n - 2];
    n++;
  }
  awe_err err = {0};
  awe_diag warn = {0};
  memset(r, 0, sizeof(*r));
  r->s = awe_spec_load(scenario, n, sets, &warn, &err);
  awe_diag_free(&warn);
  if (r->s && edit) edit(r->s);
  r->m = r->s ? awe_model_build_controlled(r->s, &r->s->warnings, &err) : NULL;
  r->sim = r->m ? awe_sim_alloc(r->m, "trbdf2", &err) : NULL;
  if (!r->sim || awe_sim_start(r->sim, &err)) {
    fprintf(stderr, "  %s: %s\n", scenario, err.msg);
    return -1;
  }
  return 0;
}


static void close_run(run *r) {
  awe_sim_free(r->sim);
  awe_model_free(r->m);
  awe_spec_free(r->s);
}


/* the DYNAMIC body whose states hold x, or -1 */
static int body_of(const awe_model *m, const awe_work *w, int x) {
  for (int j = 0; j < m->nbody; j++)
    if (w->body_x[j] >= 0 && x >= w->body_x[j] && x < w->body_x[j] + 13) return j;
  return -1;
}


/* the context flags the Jacobians are compared under (the steady state's, held bodies) */
static unsigned ctx_flags;

enum { OWN, BODY_BODY, BODY_POINT, POINT_BODY, OTHER, NBLK };
static const char *blk_name[NBLK] = {"body/own", "body/other body", "body/point",
                                     "point/body", "other"};


/* analytic vs central differences after t_fly; deform: the last DYNAMIC body turned by 0.3
 * rad about a skew axis, shifted by 6 cm, its quaternion 1 % off the unit sphere (large
 * deformations of its tube, the normalisation in R(Q)) */
static void compare(const char *label, const char *scenario, spec_edit edit, double t_fly,
                    int deform) {
  run a;
  if (open_run(&a, scenario, "analytic", edit, NULL)) {
    ENSURE(!"scenario loads");
    return;
  }
  awe_err err = {0};
  if (t_fly > 0.0) ENSURE(awe_sim_step(a.sim, t_fly, &err) == AWE_OK);
  a.sim->ctx.flags |= ctx_flags;
  const awe_model *m = a.m;
  const awe_work *w = a.sim->w;
  for (int j = m->nbody - 1; j >= 0 && deform; j--) {
    if (w->body_x[j] < 0) continue;
    double *yb = a.sim->y + w->body_x[j], q[4], r[4] = {cos(0.15), 0.0, 0.0, 0.0};
    const double ax[3] = {0.48, -0.6, 0.64};
    for (int e = 0; e < 3; e++) r[1 + e] = sin(0.15) * ax[e];
    memcpy(q, yb + 6, sizeof(q));
    yb[6] = 1.01 * (r[0] * q[0] - r[1] * q[1] - r[2] * q[2] - r[3] * q[3]);
    yb[7] = 1.01 * (r[0] * q[1] + r[1] * q[0] + r[2] * q[3] - r[3] * q[2]);
    yb[8] = 1.01 * (r[0] * q[2] - r[1] * q[3] + r[2] * q[0] + r[3] * q[1]);
    yb[9] = 1.01 * (r[0] * q[3] + r[1] * q[2] - r[2] * q[1] + r[3] * q[0]);
    yb[0] += 0.02;
    yb[1] -= 0.03;
    yb[2] += 0.05;
    break;
  }
  int n = w->nx;
  size_t nn = (size_t)n * (size_t)n + 1;
  double *Ja = calloc(nn, sizeof(double)), *dt = calloc((size_t)n + 1, sizeof(double));
  double *y = calloc((size_t)n + 1, sizeof(double)), *f1 = calloc((size_t)n + 1, sizeof(double));
  double *f2 = calloc((size_t)n + 1, sizeof(double));
  double *fbest = calloc((size_t)n + 1, sizeof(double));
  unsigned char *inpat = calloc(nn, 1);
  ENSURE(awe_jacobian_fd(a.sim->t, a.sim->y, Ja, dt, a.sim->it) == GSL_SUCCESS);
  const unsigned char *mask = awe_integrator_analytic_mask(a.sim->it);
  ENSURE(mask != NULL);
  const int *adr, *num, *rows;
  awe_integrator_pattern(a.sim->it, &adr, &num, &rows);
  for (int j = 0; j < n; j++)
    for (int e = 0; e < num[j]; e++) inpat[(size_t)rows[adr[j] + e] * n + j] = 1;
  double worst[NBLK] = {0.0}, outside = 0.0;
  int nbcol = 0, nbcol_an = 0;
  for (int j = 0; j < n && mask; j++) {
    int bj = body_of(m, w, j);
    if (bj >= 0) {
      nbcol++;
      nbcol_an += mask[j] != 0;
    }
    if (!mask[j]) continue;
    static const double steps[3] = {1e-7, 1e-5, 1e-3};
    for (int i = 0; i < n; i++) fbest[i] = INFINITY;
    double cmax = 1.0;
    for (int i = 0; i < n; i++) cmax = fmax(cmax, fabs(Ja[(size_t)i * n + j]));
    for (int st = 0; st < 3; st++) {
      memcpy(y, a.sim->y, sizeof(double) * (size_t)n);
      double h = steps[st] * fmax(fabs(y[j]), 1.0);
      y[j] = a.sim->y[j] + h;
      ENSURE(awe_rhs(a.sim->t, y, f1, &a.sim->ctx) == GSL_SUCCESS);
      y[j] = a.sim->y[j] - h;
      ENSURE(awe_rhs(a.sim->t, y, f2, &a.sim->ctx) == GSL_SUCCESS);
      for (int i = 0; i < n; i++)
        fbest[i] = fmin(fbest[i], fabs(Ja[(size_t)i * n + j] - (f1[i] - f2[i]) / (2.0 * h)));
    }
    for (int i = 0; i < n; i++) {
      int bi = body_of(m, w, i);
      int blk = bi >= 0 ? (bj == bi ? OWN : bj >= 0 ? BODY_BODY : BODY_POINT)
                        : (bj >= 0 ? POINT_BODY : OTHER);
      double e = fbest[i] / cmax;
      if (e > worst[blk]) worst[blk] = e;
      if (!inpat[(size_t)i * n + j]) outside = fmax(outside, fabs(Ja[(size_t)i * n + j]) / cmax);
    }
  }
  printf("  %s: %d states, %d of %d body columns analytic (%d analytic in all); largest error "
         "/ column norm:", label, n, nbcol_an, nbcol, awe_integrator_analytic_columns(a.sim->it));
  for (int b = 0; b < NBLK; b++) printf(" %s %.1e", blk_name[b], worst[b]);
  printf("; outside the pattern %.1e\n", outside);
  ENSURE(nbcol > 0 && nbcol_an == nbcol);
  for (int b = 0; b < NBLK; b++)
    if (worst[b] > 1e-6) HARNESS_FAIL("%s: block %s: error %.3g of the column norm", label,
                                      blk_name[b], worst[b]);
  ENSURE(outside < 1e-14);
  free(Ja);
  free(dt);
  free(y);
  free(f1);
  free(f2);
  free(fbest);
  free(inpat);
  close_run(&a);
}


/* a full inertia tensor and a tilted start on the box */
static void edit_bodies(awe_spec *s) {
  awe_body_spec *b = &s->structure.bodies[0];
  const double I[9] = {0.12, 0.01, -0.005, 0.01, 0.2, 0.02, -0.005, 0.02, 0.15};
  memcpy(b->inertia, I, sizeof(I));
  b->q[0] = cos(0.2);
  b->q[1] = sin(0.2) * 0.6;
  b->q[2] = 0.0;
  b->q[3] = sin(0.2) * 0.8;
}


/* a reeling tether to a riding point: its length and the winch speed in the body's rows, the
 * riding point in the winch's row; a pulley's leg to a riding point */
static void test_body_tether(void) {
  compare("body on a reeling tether", "tests/data/bodies/body_tether_scenario.yaml", NULL, 0.2,
          0);
  compare("body on the winch's segment", "tests/data/bodies/body_winch_scenario.yaml", NULL, 0.2,
          0);
  compare("body on a pulley's leg", "tests/data/bodies/body_pulley_scenario.yaml", NULL, 0.2, 0);
}


static void test_bodies_points(void) {
  compare("bodies, riding points", "tests/data/bodies/body_jac_scenario.yaml", edit_bodies, 0.2,
          0);
  compare("bodies, riding points, deformed", "tests/data/bodies/body_jac_scenario.yaml",
          edit_bodies, 0.2, 1);
}


/* the lumped elastic joint, with anchors off the centres of mass */
static void edit_elastic(awe_spec *s) {
  awe_tube_spec *t = &s->structure.tubes[0];
  t->model = AWE_TUBE_ELASTIC;
  t->k_axial = 1.0e4;
  t->k_shear = 2.0e3;
  t->k_torsion = 50.0;
  t->k_bending = 100.0;
  t->damping = 0.02;
  t->anchor[0][0] = 0.05;
  t->anchor[0][1] = 0.02;
  t->anchor[1][0] = -0.05;
  t->anchor[1][2] = 0.01;
}


/* both ends dynamic, spinning and moving, no gravity: every tube column of both bodies */
static void free_pair(awe_spec *s) {
  s->structure.npoint = 1;
  for (int k = 0; k < 2; k++) {
    awe_body_spec *b = &s->structure.bodies[k];
    b->is_static = 0;
    b->vel[0] = 0.1 * k;
    b->vel[1] = 0.5 * (k ? 1.0 : -1.0);
    b->vel[2] = -0.2;
    b->omega_b[0] = 0.4 - 0.3 * k;
    b->omega_b[1] = -0.7;
    b->omega_b[2] = 1.0 + 0.5 * k;
  }
}


static void free_pair_elastic(awe_spec *s) {
  free_pair(s);
  edit_elastic(s);
}


static void test_timoshenko(void) {
  compare("Timoshenko cantilever", "tests/data/bodies/cantilever_scenario.yaml", NULL, 0.05, 0);
  compare("Timoshenko free pair", "tests/data/bodies/cantilever_scenario.yaml", free_pair, 0.2, 0);
  compare("Timoshenko free pair, deformed", "tests/data/bodies/cantilever_scenario.yaml",
          free_pair, 0.2, 1);
}


static void test_elastic(void) {
  compare("elastic cantilever", "tests/data/bodies/cantilever_scenario.yaml", edit_elastic, 0.05,
          0);
  compare("elastic free pair", "tests/data/bodies/cantilever_scenario.yaml", free_pair_elastic,
          0.2, 0);
  compare("elastic free pair, deformed", "tests/data/bodies/cantilever_scenario.yaml",
          free_pair_elastic, 0.2, 1);
}


static void test_inflated_beam(void) {
  compare("inflated beam", "tests/data/bodies/inflated_beam_scenario.yaml", NULL, 0.1, 0);
  compare("inflated beam, deformed", "tests/data/bodies/inflated_beam_scenario.yaml", NULL, 0.1,
          1);
}


/* analytic and finite-difference body columns: the same trajectory to the tolerance */
static void runs_agree(const char *label, const char *scenario, spec_edit edit, double T) {
  const char *tol[] = {"run.abs_tol=1e-9", "run.rel_tol=1e-9", NULL};
  run a, f;
  if (open_run(&a, scenario, "analytic", edit, tol) || open_run(&f, scenario, "fd", edit, tol)) {
    ENSURE(!"scenario loads");
    return;
  }
  awe_err err = {0};
  ENSURE(awe_sim_step(a.sim, T, &err) == AWE_OK);
  ENSURE(awe_sim_step(f.sim, T, &err) == AWE_OK);
  double d = 0.0, sc = 0.0;
  for (int i = 0; i < a.sim->w->nx; i++) {
    d = fmax(d, fabs(a.sim->y[i] - f.sim->y[i]));
    sc = fmax(sc, fabs(f.sim->y[i]));
  }
  printf("  %s, %g s: analytic vs fd body columns: largest state difference %.2e (of %.2e); "
         "jacobians %lu vs %lu, rhs %lu vs %lu\n", label, T, d, sc, a.sim->w->stats.jac,
         f.sim->w->stats.jac, a.sim->w->stats.rhs, f.sim->w->stats.rhs);
  ENSURE(d < 1e-7 * fmax(sc, 1.0));
  close_run(&a);
  close_run(&f);
}


static void test_runs_agree(void) {
  runs_agree("Timoshenko cantilever", "tests/data/bodies/cantilever_scenario.yaml", NULL, 0.5);
  runs_agree("inflated beam", "tests/data/bodies/inflated_beam_scenario.yaml", NULL, 0.5);
  runs_agree("elastic free pair", "tests/data/bodies/cantilever_scenario.yaml", free_pair_elastic,
             0.5);
  runs_agree("bodies, riding points", "tests/data/bodies/body_jac_scenario.yaml", edit_bodies,
             0.3);
}


/* under the steady state's flags (winches held, FIX_SPHERE, no lag) and with the bodies held
 * (AWE_CTX_FIX_WING: their rows are 0) */
static void test_flags(void) {
  ctx_flags = AWE_CTX_BRAKE_ALL | AWE_CTX_FIX_SPHERE | AWE_CTX_NO_LAG;
  compare("steady-state flags, riding points", "tests/data/bodies/body_jac_scenario.yaml",
          edit_bodies, 0.2, 1);
  compare("steady-state flags, tether", "tests/data/bodies/body_tether_scenario.yaml", NULL, 0.2,
          0);
  ctx_flags = AWE_CTX_FIX_WING;
  compare("bodies held, riding points", "tests/data/bodies/body_jac_scenario.yaml", edit_bodies,
          0.2, 1);
  compare("bodies held, beam", "tests/data/bodies/inflated_beam_scenario.yaml", NULL, 0.1, 1);
  ctx_flags = 0;
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_bodies_points);
  RUN(test_body_tether);
  RUN(test_timoshenko);
  RUN(test_elastic);
  RUN(test_inflated_beam);
  RUN(test_flags);
  RUN(test_runs_agree);
  return harness_report();
}
