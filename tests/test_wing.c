/* test_wing.c: rigid wing bodies (wing.h, physics.md §4, §9).
 *
 * Model: tests/models/rigid_bodies.yaml through scenarios/tests/rigid_bodies.yaml (no gravity,
 * no wind, no lines; rk8pd at 1e-13): an asymmetric "plate" and an axisymmetric "top"
 * (I_x = I_y = 2.5, I_z = 4 kg m^2).
 *   torque-free   plate spinning with omega_p = (0.3, -0.2, 1.1) rad/s: the world angular
 *                 momentum L = R_pw I omega_p and the kinetic energy stay constant to 1e-8
 *                 (relative) over 100 s; |Q| stays 1 within 1e-12 (renormalised every step)
 *   precession    top with omega = (w_perp, 0, W): the body components turn at
 *                 lambda = W (I_3 - I_perp)/I_perp (Euler), omega_1 = w_perp cos(lambda t),
 *                 omega_2 = w_perp sin(lambda t), within 1e-8 rad/s over 20 s; the symmetry
 *                 axis cones about L at |L|/I_perp
 *   msbdf         the same spin with the default stepper: |Q| - 1 within 1e-6 (Baumgarte)
 *   torque        wings.plate.moment = M along each principal axis, from rest:
 *                 domega_k/dt = M/I_k (exact at t = 0) and omega_k(1 s) = M/I_k
 *   inertia       principal moments of the top (2.5, 2.5, 4) and its origin, COM
 *   angles        the top placed at r = [70, 70, 70] from the base: heading 0 with the body
 *                 x axis along x_t, pi/2 along y_t, and the round trip for h in
 *                 {0, +-pi/6, +-pi/4, pi/3, pi/2, 2pi/3, pi}, elevation, azimuth (1e-10)
 *   slaves        point velocities are the time derivatives of the point positions
 *   damping       the plate (span moment the smallest of the three) with y_damping 2 and
 *                 angular_damping 0.5 1/s: principal axis 2 lies along the span (body y, as
 *                 SymbolicAWEModels' rotation about y) and a spin about it decays as
 *                 exp(-(c_y + c_a) t), spins about axes 1 and 3 as exp(-c_a t) (1e-9 over 2 s)
 */
#include <math.h>
#include <string.h>

#include "util/kite_frames.h"
#include "engine/outputs.h"
#include "test_physics_util.h"
#include "engine/wing.h"

#define SCEN "scenarios/tests/rigid_bodies.yaml"

static int wing_index(const awe_model *m, const char *name) {
  for (int j = 0; j < m->nwing; j++)
    if (!strcmp(m->wing_name[j], name)) return j;
  return -1;
}


/* world angular momentum about the COM and rotational energy of wing j at y */
static void momentum(const awe_sim *s, int j, double L[3], double *E) {
  int o = s->w->wing_x[j];
  double R[9];
  awe_quat_to_R(s->y + o + 6, R);
  const double *wp = s->y + o + 10, *I = s->w->wg[j].I_p;
  double h[3] = {I[0] * wp[0], I[1] * wp[1], I[2] * wp[2]};
  for (int i = 0; i < 3; i++) L[i] = R[3 * i] * h[0] + R[3 * i + 1] * h[1] + R[3 * i + 2] * h[2];
  *E = 0.5 * (I[0] * wp[0] * wp[0] + I[1] * wp[1] * wp[1] + I[2] * wp[2] * wp[2]);
}


static double qnorm(const double *q) {
  return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}


static void set_omega(awe_sim *s, int j, double w0, double w1, double w2) {
  int o = s->w->wing_x[j];
  s->y[o + 10] = w0;
  s->y[o + 11] = w1;
  s->y[o + 12] = w2;
  awe_integrator_reset(s->it);
}


static void test_torque_free(void) {
  awe_spec *s = sp_load(SCEN, NULL);
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  int j = wing_index(sim->m, "plate");
  ENSURE(j >= 0);
  set_omega(sim, j, 0.3, -0.2, 1.1);
  double L0[3], E0, L[3], E, lerr = 0.0, eerr = 0.0, qerr = 0.0;
  momentum(sim, j, L0, &E0);
  long n = awe_sim_log_steps(sim->m);
  for (long k = 1; k <= n; k++) {
    if (sp_step(sim, k)) break;
    momentum(sim, j, L, &E);
    double d[3];
    awe_v3_sub(d, L, L0);
    lerr = fmax(lerr, awe_v3_norm(d) / awe_v3_norm(L0));
    eerr = fmax(eerr, fabs(E - E0) / E0);
    qerr = fmax(qerr, fabs(qnorm(sim->y + sim->w->wing_x[j] + 6) - 1.0));
  }
  ENSURE_NEAR(sim->t, 100.0, 1e-9);
  printf("    torque-free 100 s: |dL|/|L| %.2e, |dE|/E %.2e, ||Q| - 1| %.2e\n", lerr, eerr, qerr);
  ENSURE(lerr < 1e-8);
  ENSURE(eerr < 1e-8);
  ENSURE(qerr < 1e-12);
  /* the COM does not move (no force) */
  ENSURE_NEAR(awe_v3_norm(sim->y + sim->w->wing_x[j] + 3), 0.0, 1e-14);
  sp_free(sim, s);
}


static void test_precession(void) {
  awe_spec *s = sp_load(SCEN, (const char *[]){"run.duration=20", "run.dt=0.1", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  int j = wing_index(sim->m, "top");
  const double *I = sim->w->wg[j].I_p;
  ENSURE_NEAR(I[0], 2.5, 1e-12);
  ENSURE_NEAR(I[1], 2.5, 1e-12);
  ENSURE_NEAR(I[2], 4.0, 1e-12);
  double wperp = 0.4, W = 2.0, lam = W * (I[2] - I[0]) / I[0];
  set_omega(sim, j, wperp, 0.0, W);
  double L0[3], E0, ax0[3];
  momentum(sim, j, L0, &E0);
  double Ln = awe_v3_norm(L0), Lh[3] = {L0[0] / Ln, L0[1] / Ln, L0[2] / Ln};
  double R[9];
  awe_quat_to_R(sim->y + sim->w->wing_x[j] + 6, R);
  ax0[0] = R[2];
  ax0[1] = R[5];
  ax0[2] = R[8];
  double cone = acos(awe_v3_dot(ax0, Lh)), werr = 0.0, aerr = 0.0;
  long n = awe_sim_log_steps(sim->m);
  for (long k = 1; k <= n; k++) {
    if (sp_step(sim, k)) break;
    double t = sim->t;
    const double *wp = sim->y + sim->w->wing_x[j] + 10;
    werr = fmax(werr, fabs(wp[0] - wperp * cos(lam * t)));
    werr = fmax(werr, fabs(wp[1] - wperp * sin(lam * t)));
    werr = fmax(werr, fabs(wp[2] - W));
    /* space cone: the symmetry axis precesses about L at |L|/I_perp; compare with the
     * analytic axis = Rodrigues rotation of ax0 about L by Ln/I_perp t */
    awe_quat_to_R(sim->y + sim->w->wing_x[j] + 6, R);
    double ax[3] = {R[2], R[5], R[8]}, ex[3], kx[3];
    double ph = Ln / I[0] * t, c = cos(ph), sn = sin(ph), kd = awe_v3_dot(Lh, ax0);
    awe_v3_cross(kx, Lh, ax0);
    for (int i = 0; i < 3; i++) ex[i] = ax0[i] * c + kx[i] * sn + Lh[i] * kd * (1 - c);
    double d[3];
    awe_v3_sub(d, ax, ex);
    aerr = fmax(aerr, awe_v3_norm(d));
    ENSURE_NEAR(acos(fmin(1.0, awe_v3_dot(ax, Lh))), cone, 1e-9);
  }
  printf("    precession 20 s: lambda %.6f rad/s, max |omega - analytic| %.2e rad/s, "
         "max |axis - analytic| %.2e\n", lam, werr, aerr);
  ENSURE(werr < 1e-8);
  ENSURE(aerr < 1e-8);
  sp_free(sim, s);
}


static void test_msbdf_norm(void) {
  awe_spec *s = sp_load(SCEN, (const char *[]){"run.duration=20", "run.dt=0.1",
                                               "run.abs_tol=1e-8", "run.rel_tol=1e-8", NULL});
  awe_sim *sim = sp_sim(s, "msbdf");
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  int j = wing_index(sim->m, "plate");
  set_omega(sim, j, 0.3, -0.2, 1.1);
  double L0[3], E0, L[3], E, qerr = 0.0, lerr = 0.0;
  momentum(sim, j, L0, &E0);
  long n = awe_sim_log_steps(sim->m);
  for (long k = 1; k <= n; k++) {
    if (sp_step(sim, k)) break;
    qerr = fmax(qerr, fabs(qnorm(sim->y + sim->w->wing_x[j] + 6) - 1.0));
    momentum(sim, j, L, &E);
    double d[3];
    awe_v3_sub(d, L, L0);
    lerr = fmax(lerr, awe_v3_norm(d) / awe_v3_norm(L0));
  }
  printf("    msbdf 1e-8, 20 s: ||Q| - 1| %.2e, |dL|/|L| %.2e\n", qerr, lerr);
  ENSURE(qerr < 1e-6);
  ENSURE(lerr < 1e-5);
  sp_free(sim, s);
}


static void test_constant_torque(void) {
  const double M = 0.05;
  for (int k = 0; k < 3; k++) {
    awe_spec *s = sp_load(SCEN, (const char *[]){"run.duration=1", "run.dt=0.1", NULL});
    awe_sim *sim = sp_sim(s, NULL);
    if (!sim) {
    sp_free(sim, s);
    return;
  }
    int j = wing_index(sim->m, "plate");
    const double *I = sim->w->wg[j].I_p;
    /* the moment along principal axis k, in world coordinates */
    double Rp[9];
    awe_quat_to_R(sim->y + sim->w->wing_x[j] + 6, Rp);
    double *mu = sim->u + sim->w->wing_u_moment[j];
    for (int i = 0; i < 3; i++) mu[i] = M * Rp[3 * i + k];
    awe_ctx c = awe_ctx_make(sim->m, sim->w, sim->u);
    ENSURE(awe_rhs(0.0, sim->y, sim->dydt, &c) == GSL_SUCCESS);
    const double *al = sim->dydt + sim->w->wing_x[j] + 10;
    for (int i = 0; i < 3; i++) ENSURE_NEAR(al[i], i == k ? M / I[k] : 0.0, 1e-12);
    ENSURE_NEAR(awe_v3_norm(sim->dydt + sim->w->wing_x[j] + 3), 0.0, 1e-14);
    sp_run(sim, 1.0);
    const double *wp = sim->y + sim->w->wing_x[j] + 10;
    for (int i = 0; i < 3; i++) ENSURE_NEAR(wp[i], i == k ? M / I[k] * 1.0 : 0.0, 1e-10);
    sp_free(sim, s);
  }
}


/* body -> world frame with body x = a, body z = r (a orthogonal to r) */
static void frame_xz(const double a[3], const double z[3], double R[9]) {
  double y[3];
  awe_v3_cross(y, z, a);
  for (int i = 0; i < 3; i++) {
    R[3 * i] = a[i];
    R[3 * i + 1] = y[i];
    R[3 * i + 2] = z[i];
  }
}


static void test_angles(void) {
  awe_spec *s = sp_load(SCEN, (const char *[]){"run.duration=1", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  int j = wing_index(sim->m, "top");
  awe_work *w = sim->w;
  const awe_wing_geom *g = &w->wg[j];
  ENSURE_NEAR(awe_v3_norm(g->base), 0.0, 0.0); /* no winch, no static point: the origin */
  double r[3] = {70.0, 70.0, 70.0}, rn = awe_v3_norm(r), rh[3] = {r[0] / rn, r[1] / rn, r[2] / rn};
  double Rt[9];
  awe_R_t_to_w(r, Rt);
  double xt[3] = {Rt[0], Rt[3], Rt[6]}, yt[3] = {Rt[1], Rt[4], Rt[7]};
  const double hs[] = {0.0, M_PI / 6, -M_PI / 6, M_PI / 4, -M_PI / 4, M_PI / 3, M_PI / 2,
                       2 * M_PI / 3, M_PI};
  for (int c = 0; c < (int)(sizeof(hs) / sizeof(hs[0])); c++) {
    double h = hs[c], a[3], Rb[9], Rpw[9], q[4];
    for (int i = 0; i < 3; i++) a[i] = cos(h) * xt[i] + sin(h) * yt[i];
    frame_xz(a, rh, Rb);
    /* R_pw = R_bw R_pb; origin at r: com = r + R_bw com_b */
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < 3; k++)
        Rpw[3 * i + k] = Rb[3 * i] * g->R_pb[k] + Rb[3 * i + 1] * g->R_pb[3 + k] +
                         Rb[3 * i + 2] * g->R_pb[6 + k];
    awe_R_to_quat(Rpw, q);
    int o = w->wing_x[j];
    memcpy(sim->y + o + 6, q, sizeof(q));
    for (int i = 0; i < 3; i++)
      sim->y[o + i] = r[i] + Rb[3 * i] * g->com_b[0] + Rb[3 * i + 1] * g->com_b[1] +
                      Rb[3 * i + 2] * g->com_b[2];
    awe_outputs_eval(&sim->ctx, 0.0, sim->y, sim->dydt, sim->yout);
    double hd = sp_out(sim, "wings.top.heading");
    ENSURE_NEAR(atan2(sin(hd - h), cos(hd - h)), 0.0, 1e-10);
    ENSURE_NEAR(sp_out(sim, "wings.top.pos.x"), 70.0, 1e-10);
    ENSURE_NEAR(sp_out(sim, "wings.top.elevation"), atan(70.0 / hypot(70.0, 70.0)), 1e-10);
    ENSURE_NEAR(sp_out(sim, "wings.top.azimuth"), -M_PI / 4, 1e-10);
    ENSURE_NEAR(sp_out(sim, "wings.top.distance"), rn, 1e-10);
    /* quat output is body -> world */
    double qo[4] = {sp_out(sim, "wings.top.quat.w"), sp_out(sim, "wings.top.quat.x"),
                    sp_out(sim, "wings.top.quat.y"), sp_out(sim, "wings.top.quat.z")}, Ro[9];
    awe_quat_to_R(qo, Ro);
    for (int i = 0; i < 9; i++) ENSURE_NEAR(Ro[i], Rb[i], 1e-12);
  }
  sp_free(sim, s);
}


static void test_slave_velocities(void) {
  awe_spec *s = sp_load(SCEN, (const char *[]){"run.duration=1", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  int j = wing_index(sim->m, "plate");
  set_omega(sim, j, 0.7, -0.4, 0.9);
  int o = sim->w->wing_x[j];
  sim->y[o + 3] = 1.0;
  sim->y[o + 5] = -2.0;
  const awe_model *m = sim->m;
  int np = m->npoint;
  double *p0 = malloc(sizeof(double) * 3 * (size_t)np), *v0 = malloc(sizeof(double) * 3 * (size_t)np);
  double *y1 = malloc(sizeof(double) * (size_t)sim->w->nx);
  awe_ctx c = awe_ctx_make(m, sim->w, sim->u);
  awe_rhs(0.0, sim->y, sim->dydt, &c);
  memcpy(p0, sim->w->pos, sizeof(double) * 3 * (size_t)np);
  memcpy(v0, sim->w->vel, sizeof(double) * 3 * (size_t)np);
  const double h = 1e-6;
  for (int i = 0; i < sim->w->nx; i++) y1[i] = sim->y[i] + h * sim->dydt[i];
  awe_rhs(0.0, y1, sim->dydt, &c);
  for (int p = 0; p < np; p++) {
    if (!sim->w->point_slave[p]) continue;
    for (int k = 0; k < 3; k++)
      ENSURE_NEAR((sim->w->pos[3 * p + k] - p0[3 * p + k]) / h, v0[3 * p + k], 1e-5);
  }
  free(p0);
  free(v0);
  free(y1);
  sp_free(sim, s);
}


/* y_damping acts on pitch (the principal axis along the span), angular_damping on all axes */
static void test_damping_axes(void) {
  const double cy = 2.0, ca = 0.5, w0 = 0.4, T = 2.0;
  for (int k = 0; k < 3; k++) {
    awe_spec *s = sp_load(SCEN, (const char *[]){"run.duration=2", "run.dt=0.5",
                                                  "wings.plate.y_damping=2.0",
                                                  "wings.plate.angular_damping=0.5", NULL});
    awe_sim *sim = sp_sim(s, NULL);
    if (!sim) {
      sp_free(sim, s);
      return;
    }
    int j = wing_index(sim->m, "plate");
    const awe_wing_geom *g = &sim->w->wg[j];
    if (k == 0) {
      printf("    plate moments (axis 1, 2 = span, 3): %.4f %.4f %.4f kg m^2, span axis . y_b %.4f\n",
             g->I_p[0], g->I_p[1], g->I_p[2], g->R_pb[4]);
      ENSURE(g->I_p[1] < g->I_p[0] && g->I_p[1] < g->I_p[2]); /* not the middle moment */
      ENSURE(g->R_pb[4] > 0.99);
    }
    set_omega(sim, j, k == 0 ? w0 : 0.0, k == 1 ? w0 : 0.0, k == 2 ? w0 : 0.0);
    sp_run(sim, T);
    const double *wp = sim->y + sim->w->wing_x[j] + 10;
    double rate = k == 1 ? cy + ca : ca;
    for (int i = 0; i < 3; i++) ENSURE_NEAR(wp[i], i == k ? w0 * exp(-rate * T) : 0.0, 1e-9);
    sp_free(sim, s);
  }
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_torque_free);
  RUN(test_precession);
  RUN(test_msbdf_norm);
  RUN(test_constant_torque);
  RUN(test_angles);
  RUN(test_slave_velocities);
  RUN(test_damping_axes);
  return harness_report();
}
