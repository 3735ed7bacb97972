/* test_bodies_tubes.c: rigid bodies and tubes (SymbolicAWEModels 0.17 `bodies:`, `tubes:`;
 * engine/body.h) against closed forms.
 *
 *  (c) torque-free body, I1 = I2 = 1, I3 = 2 kg m^2, omega_b(0) = (0.3, 0, 1) rad/s: the
 *      transverse rate turns in the body frame at Omega = (I3 - I1)/I1 omega3 = 1 rad/s;
 *      angular momentum R I omega and the kinetic energy conserved to 1e-8 relative over 60 s
 *      (about 10 turns of the precession and of the spin);
 *  (a) one-element cantilever under its tip weight P = m g (massless tube, STATIC root; the
 *      static equilibrium by the steady-state solver, and by simulating where SAM's is used):
 *      Timoshenko tip deflection P L^3/(3 EI) + P L/(k GA), Euler-Bernoulli (GA = inf)
 *      P L^3/(3 EI), tip rotation P L^2/(2 EI) both, within 1e-3 relative (one element is exact
 *      for an end load; the load kept small so that the corotational geometry is linear);
 *      SymbolicAWEModels' own settled tip of the same rows (test/test_yaml_bodies.jl
 *      SETTLED_TIP, v0.19.0) for the Timoshenko and the elastic tube, to 1e-6 m;
 *      the lumped elastic tube against its own closed form;
 *  (b) first bending frequency of a clamped beam of N = 10 Euler-Bernoulli tubes (lumped masses
 *      at 11 bodies) against 1.875104^2 sqrt(EI/(mu L^4)): within 1 %; of the free-free beam
 *      against 4.730041^2 sqrt(EI/(mu L^4)): within 1 % at N = 20 (eigenvalues of the central-difference
 *      Jacobian of the right-hand side, analysis/modal.h);
 *  riding point: a body hung from a point riding it off its centre of mass settles with the
 *      centre of mass below the hook, rotated by atan2(-0.3, 0.5) (tests/data/bodies/
 *      hanging_body.yaml);
 *  (d) the YAML models load (rigidities from the Breukels law) and simulate, also through the
 *      CLI (`awesim check`, `awesim simulate` on tests/data/bodies/inflated_beam_scenario.yaml);
 *  (e) the awesIO document of the inflated beam (awesio_write.h): its connectivity_sha with the
 *      bodies and tubes as the schema defines it, and read back, the same bodies, tubes and
 *      riders bit for bit (masses, inertias, rigidities, rest geometry).
 */
#include "test_physics_util.h"
#include "analysis/modal.h"
#include "engine/body.h"
#include "engine/rhs.h"
#include "output/awesio_write.h"
#include "util/kite_frames.h"
#include "util/sha256.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const double *body_y(const awe_sim *sim, const char *name) {
  for (int j = 0; j < sim->m->nbody; j++)
    if (!strcmp(sim->m->body_name[j], name) && sim->w->body_x[j] >= 0)
      return sim->y + sim->w->body_x[j];
  HARNESS_FAIL("no dynamic body %s", name);
  return NULL;
}


/* world angular momentum R I omega and rotational energy of a body state */
static void momentum(const awe_model *m, int j, const double *y, double L[3], double *T) {
  double R[9], Iw[3];
  awe_quat_to_R(y + 6, R);
  const double *om = y + 10, *I = m->body_I + 9 * j;
  for (int i = 0; i < 3; i++) Iw[i] = I[3 * i] * om[0] + I[3 * i + 1] * om[1] + I[3 * i + 2] * om[2];
  for (int i = 0; i < 3; i++) L[i] = R[3 * i] * Iw[0] + R[3 * i + 1] * Iw[1] + R[3 * i + 2] * Iw[2];
  *T = 0.5 * (om[0] * Iw[0] + om[1] * Iw[1] + om[2] * Iw[2]);
}


static void test_torque_free_precession(void) {
  const char *sets[] = {"run.duration=60", "run.dt=0.5", NULL};
  awe_spec *s = sp_load("tests/data/bodies/spinning_body_scenario.yaml", sets);
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  const double *y = body_y(sim, "top");
  double L0[3], T0;
  momentum(sim->m, 0, y, L0, &T0);
  double Ln0 = awe_v3_norm(L0), worstL = 0.0, worstT = 0.0, worstph = 0.0;
  long n = awe_sim_log_steps(sim->m);
  for (long k = 1; k <= n; k++) {
    if (sp_step(sim, k)) break;
    y = body_y(sim, "top");
    double L[3], T, d[3];
    momentum(sim->m, 0, y, L, &T);
    awe_v3_sub(d, L, L0);
    if (awe_v3_norm(d) / Ln0 > worstL) worstL = awe_v3_norm(d) / Ln0;
    if (fabs(T - T0) / T0 > worstT) worstT = fabs(T - T0) / T0;
    /* omega_1 = 0.3 cos(Omega t), omega_2 = 0.3 sin(Omega t), omega_3 = 1, Omega = 1 rad/s */
    double t = sim->t;
    double e = fabs(y[10] - 0.3 * cos(t)) + fabs(y[11] - 0.3 * sin(t)) + fabs(y[12] - 1.0);
    if (e > worstph) worstph = e;
  }
  printf("  torque-free body, 60 s: |dL|/|L| %.2e, dT/T %.2e, omega_b off the closed form "
         "%.2e rad/s\n", worstL, worstT, worstph);
  ENSURE(worstL < 1e-8);
  ENSURE(worstT < 1e-8);
  ENSURE(worstph < 1e-7);
  ENSURE_NEAR(sim->t, 60.0, 1e-9);
  sp_free(sim, s);
}


/* a full (non-diagonal) inertia tensor: Euler's equations with I omega coupled; the angular
 * momentum R I omega and the energy stay constant to 1e-8 over 60 s */
static void test_full_tensor(void) {
  const char *sets[] = {"run.duration=60", "run.dt=1", NULL};
  awe_spec *s = sp_load("tests/data/bodies/spinning_body_scenario.yaml", sets);
  if (!s) return;
  awe_body_spec *b = &s->structure.bodies[0];
  const double I[9] = {1.2, 0.1, -0.05, 0.1, 1.0, 0.2, -0.05, 0.2, 2.0};
  memcpy(b->inertia, I, sizeof(I));
  b->omega_b[0] = 0.5;
  b->omega_b[1] = -0.2;
  b->omega_b[2] = 1.0;
  b->q[0] = cos(0.2);
  b->q[1] = sin(0.2);
  b->q[2] = b->q[3] = 0.0;
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return;
  double L0[3], T0, worstL = 0.0, worstT = 0.0;
  momentum(sim->m, 0, body_y(sim, "top"), L0, &T0);
  long n = awe_sim_log_steps(sim->m);
  for (long k = 1; k <= n; k++) {
    if (sp_step(sim, k)) break;
    double L[3], T, d[3];
    momentum(sim->m, 0, body_y(sim, "top"), L, &T);
    awe_v3_sub(d, L, L0);
    if (awe_v3_norm(d) / awe_v3_norm(L0) > worstL) worstL = awe_v3_norm(d) / awe_v3_norm(L0);
    if (fabs(T - T0) / T0 > worstT) worstT = fabs(T - T0) / T0;
  }
  printf("  full inertia tensor, 60 s: |dL|/|L| %.2e, dT/T %.2e\n", worstL, worstT);
  ENSURE(worstL < 1e-8);
  ENSURE(worstT < 1e-8);
  sp_free(sim, s);
}


/* the tube's damping acts on deformation rates only: two bodies joined by a damped tube spin
 * rigidly (about z across the tube, or about the tube's own axis), keep their kinetic energy
 * and stay unbent. The tube is axially stiff (EA = 1e6 N) so that the centrifugal stretch
 * (5e-7 m) changes the moment of inertia by 2e-6 only. Without the element frame's spin taken
 * out of the node rates, the damping's bending moment (6 EI/L beta omega = 30 N m here) would
 * bend the spinning pair by about 0.05 rad. */
static void test_rigid_motion_undamped(void) {
  for (int axis = 0; axis < 2; axis++) {
    const char *sets[] = {"run.duration=1", "run.dt=0.5", "settings.system.g_earth=0", NULL};
    awe_spec *s = sp_load("tests/data/bodies/cantilever_scenario.yaml", sets);
    if (!s) return;
    s->structure.npoint = 1;
    s->structure.tubes[0].damping = 0.05;
    s->structure.tubes[0].EA = 1e6;
    const double om = 1.0;
    for (int k = 0; k < 2; k++) {
      awe_body_spec *b = &s->structure.bodies[k];
      b->is_static = 0;
      b->pos[0] = k ? 0.5 : -0.5;
      memset(b->vel, 0, sizeof(b->vel));
      memset(b->omega_b, 0, sizeof(b->omega_b));
      if (axis == 0) {
        b->vel[1] = om * b->pos[0]; /* omega e_z x r */
        b->omega_b[2] = om;
      } else {
        b->omega_b[0] = om;
      }
    }
    awe_sim *sim = sp_sim(s, "rk8pd");
    if (!sim) return;
    double T0 = 0.0, T = 0.0;
    for (int pass = 0; pass < 2; pass++) {
      if (pass) sp_run(sim, 1.0);
      double e = 0.0;
      for (int j = 0; j < 2; j++) {
        const double *y = sim->y + sim->w->body_x[j];
        double L[3], Tr;
        momentum(sim->m, j, y, L, &Tr);
        e += Tr + 0.5 * sim->m->body_mass[j] * awe_v3_dot(y + 3, y + 3);
      }
      if (pass) T = e; else T0 = e;
    }
    /* the bend: body a's x axis against the chord */
    const double *ya = sim->y + sim->w->body_x[0], *yb = sim->y + sim->w->body_x[1];
    double Ra[9], d[3], xa[3], c[3];
    awe_quat_to_R(ya + 6, Ra);
    awe_v3_sub(d, yb, ya);
    awe_v3_normalize(d);
    xa[0] = Ra[0];
    xa[1] = Ra[3];
    xa[2] = Ra[6];
    awe_v3_cross(c, xa, d);
    printf("  rigid %s spin of a damped tube: kinetic energy %.12f J -> %.12f J, bend %.2e rad\n",
           axis ? "axial" : "transverse", T0, T, awe_v3_norm(c));
    ENSURE(fabs(T - T0) < 1e-5 * T0);
    ENSURE(awe_v3_norm(c) < 1e-4);
    sp_free(sim, s);
  }
}


/* settle the one-tube cantilever by simulating to T, or (T < 0) by the steady-state solver
 * (solve/steady.h); tip z [m] and rotation about y [rad] */
static int cantilever(awe_spec *s, double T, double *dz, double *rot, double *qy) {
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) return -1;
  if (T >= 0) {
    sp_run(sim, T);
  } else {
    awe_err err = {0};
    if (awe_sim_steady_state(sim, 1.0, &err)) HARNESS_FAIL("steady state: %s", err.msg);
  }
  const double *y = body_y(sim, "nodeB");
  *dz = y ? y[2] : NAN;
  *qy = y ? y[8] : NAN;
  *rot = y ? 2.0 * atan2(y[8], y[6]) : NAN;
  sp_free(sim, s);
  return 0;
}


static awe_spec *cantilever_spec(double EI, double GA, awe_tube_model model) {
  const char *sets[] = {"run.duration=6", "run.dt=0.05", NULL};
  awe_spec *s = sp_load("tests/data/bodies/cantilever_scenario.yaml", sets);
  if (!s) return NULL;
  awe_tube_spec *t = &s->structure.tubes[0];
  t->EIy = t->EIz = EI;
  t->GA = GA;
  t->model = model;
  return s;
}


static void test_cantilever_closed_form(void) {
  const double P = 9.81, L = 1.0, ks = 0.8333;
  /* stiff: tip rotation ~5e-4 rad, so the corotational element stays linear */
  const double EI = 1e4, GA = 1.5e5;
  double dz, rot, qy;
  awe_spec *s = cantilever_spec(EI, GA, AWE_TUBE_TIMOSHENKO);
  if (!s || cantilever(s, -1.0, &dz, &rot, &qy)) return;
  double d_t = P * L * L * L / (3 * EI) + P * L / (ks * GA), r = P * L * L / (2 * EI);
  printf("  Timoshenko cantilever: tip %.6e m (closed form %.6e), rotation %.6e rad (%.6e)\n",
         -dz, d_t, rot, r);
  ENSURE_REL(-dz, d_t, 1e-3);
  ENSURE_REL(rot, r, 1e-3);
  s = cantilever_spec(EI, INFINITY, AWE_TUBE_TIMOSHENKO);
  if (!s || cantilever(s, -1.0, &dz, &rot, &qy)) return;
  double d_e = P * L * L * L / (3 * EI);
  printf("  Euler-Bernoulli cantilever: tip %.6e m (closed form %.6e), rotation %.6e rad "
         "(%.6e)\n", -dz, d_e, rot, r);
  ENSURE_REL(-dz, d_e, 1e-3);
  ENSURE_REL(rot, r, 1e-3);
}


/* tip loads through the inputs bodies.nodeB.force and .moment, no gravity, the static
 * equilibrium from the steady-state solver: bending in the x-z
 * plane takes EIy, in x-y EIz, twist GJ (Euler-Bernoulli, GA = inf); then the same beam laid
 * along the bodies' y axis (where the element frame falls back from SAM's y-axis projection) */
static void test_cantilever_3d(void) {
  const double EIy = 1e4, EIz = 4e4, GJ = 2e3, L = 1.0;
  const double Fy = 20.0, Fz = -10.0, Mx = 5.0;
  for (int along_y = 0; along_y < 2; along_y++) {
    const char *sets[] = {"run.duration=8", "run.dt=0.1", "settings.system.g_earth=0", NULL};
    awe_spec *s = sp_load("tests/data/bodies/cantilever_scenario.yaml", sets);
    if (!s) return;
    awe_tube_spec *t = &s->structure.tubes[0];
    t->EIy = EIy;
    t->EIz = along_y ? EIy : EIz;
    t->GJ = GJ;
    t->GA = INFINITY;
    s->structure.npoint = 1;
    if (along_y) {
      s->structure.bodies[1].pos[0] = 0.0;
      s->structure.bodies[1].pos[1] = L;
    }
    awe_sim *sim = sp_sim(s, NULL);
    if (!sim) return;
    const awe_work *w = sim->w;
    int b = 1;
    double *uf = sim->u + w->body_u_force[b], *um = sim->u + w->body_u_moment[b];
    if (along_y) {
      uf[0] = Fy; /* transverse in x */
      uf[2] = Fz;
      um[1] = Mx; /* twist about the beam (y) */
    } else {
      uf[1] = Fy;
      uf[2] = Fz;
      um[0] = Mx;
    }
    awe_err err = {0};
    if (awe_sim_steady_state(sim, 1.0, &err)) HARNESS_FAIL("steady state: %s", err.msg);
    const double *y = body_y(sim, "nodeB");
    double phi[3];
    awe_quat_to_rotvec(y + 6, phi);
    double EIt = along_y ? EIy : EIz;
    double dt = (along_y ? y[0] : y[1]), dz = y[2], tw = along_y ? phi[1] : phi[0];
    printf("  %s: transverse %.6e m (%.6e), z %.6e m (%.6e), twist %.6e rad (%.6e)\n",
           along_y ? "cantilever along y" : "cantilever along x, EIy != EIz", dt,
           Fy * L * L * L / (3 * EIt), dz, Fz * L * L * L / (3 * EIy), tw, Mx * L / GJ);
    ENSURE_REL(dt, Fy * L * L * L / (3 * EIt), 2e-3);
    ENSURE_REL(dz, Fz * L * L * L / (3 * EIy), 2e-3);
    ENSURE_REL(tw, Mx * L / GJ, 2e-3);
    sp_free(sim, s);
  }
}


/* SymbolicAWEModels' test/test_yaml_bodies.jl: where nodeB came to rest after 2 s (400 steps
 * of 5 ms, v0.19.0) with the rows of cantilever.yaml, and with the elastic row */
static void test_cantilever_sam(void) {
  double dz, rot, qy;
  awe_spec *s = cantilever_spec(100.0, 1500.0, AWE_TUBE_TIMOSHENKO);
  if (!s || cantilever(s, 2.0, &dz, &rot, &qy)) return;
  printf("  Timoshenko tube (SAM rows): tip z %.10f m (SAM -0.0405169194), Q_y %.10f "
         "(SAM 0.0245081824)\n", dz, qy);
  ENSURE_NEAR(dz, -0.04051691939002452, 1e-6);
  ENSURE_NEAR(qy, 0.0245081823846388, 1e-6);
  /* elastic: anchors at mid-span, stiffness_axial/shear/torsion/bending 1e4, 1500, 50, 100 */
  s = cantilever_spec(100.0, 1500.0, AWE_TUBE_ELASTIC);
  if (!s) return;
  awe_tube_spec *t = &s->structure.tubes[0];
  t->k_axial = 1e4;
  t->k_shear = 1500.0;
  t->k_torsion = 50.0;
  t->k_bending = 100.0;
  t->anchor[0][0] = 0.5;
  t->anchor[1][0] = -0.5;
  if (cantilever(s, 2.0, &dz, &rot, &qy)) return;
  printf("  elastic tube (SAM rows): tip z %.10f m (SAM -0.0310355441), Q_y %.10f "
         "(SAM 0.0245029022)\n", dz, qy);
  ENSURE_NEAR(dz, -0.031035544080983943, 1e-6);
  ENSURE_NEAR(qy, 0.024502902231676792, 1e-6);
  /* its closed form: the joint takes the shear P/k_sh at the anchors and the moment P a_b
   * (a_b = 0.5 m), rotation th = P a_b/k_b; the tip is a_b sin th further down */
  double th = 9.81 * 0.5 / 100.0, d = 9.81 / 1500.0 + 0.5 * sin(th);
  ENSURE_REL(rot, th, 2e-3);
  ENSURE_REL(-dz, d, 2e-3);
}


/* the steady state (run.steady_state, solve/steady.c: kinetic-energy march, then Newton in
 * positions and body-frame rotation vectors) puts the cantilever's tip where the simulation
 * settles */
static void test_steady_state(void) {
  const char *sets[] = {"run.steady_state=true", NULL};
  awe_spec *s = sp_load("tests/data/bodies/cantilever_scenario.yaml", sets);
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) return;
  const double *y = body_y(sim, "nodeB");
  printf("  steady state: tip z %.10f m, Q_y %.10f, residual %.2e N\n", y[2], y[8],
         sim->steady_residual);
  ENSURE_NEAR(y[2], -0.04051691939002452, 1e-6);
  ENSURE_NEAR(y[8], 0.0245081823846388, 1e-6);
  ENSURE_NEAR(sim->t, 0.0, 0.0);
  sp_free(sim, s);
}


/* a body hung by a line from a point riding it 0.3 m off its centre of mass swings until the
 * centre of mass is below the hook: rotation about y by atan2(-0.3, 0.5), the line carries
 * the weight, and the riding point sits where the body's pose puts it */
static void test_riding_point(void) {
  awe_spec *s = sp_load("tests/data/bodies/hanging_body_scenario.yaml", NULL);
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) return;
  sp_run(sim, 20.0);
  const double *y = body_y(sim, "box");
  double th = 2.0 * atan2(y[8], y[6]), th_exact = atan2(-0.3, 0.5);
  double ex = sp_out(sim, "points.eye.pos.x"), ez = sp_out(sim, "points.eye.pos.z");
  double F = sp_out(sim, "segments.rope.force");
  printf("  riding point: body rotation %.9f rad (closed form %.9f), anchor x - com x %.2e m, "
         "line %.9f N (m g %.9f N)\n", th, th_exact, ex - y[0], F, 2.0 * 9.81);
  ENSURE_NEAR(th, th_exact, 1e-6);
  ENSURE_NEAR(ex - y[0], 0.0, 1e-5);
  ENSURE_NEAR(ez - y[2], sqrt(0.3 * 0.3 + 0.5 * 0.5), 1e-6);
  ENSURE_REL(F, 2.0 * 9.81, 1e-6);
  /* the riding point's position is the body's pose applied to its anchor */
  double R[9];
  awe_quat_to_R(y + 6, R);
  ENSURE_NEAR(ex, y[0] + R[0] * 0.3 + R[2] * 0.5, 1e-12);
  sp_free(sim, s);
}


/* first bending frequency of a clamped beam of n tubes (Euler-Bernoulli), lumped masses */
static double beam_w1(int n, double L, double mu, double EI, int free_free, double w_min) {
  const char *sets[] = {"run.duration=0.1", "run.dt=0.1", "settings.system.g_earth=0", NULL};
  awe_spec *s = sp_load("tests/data/bodies/cantilever_scenario.yaml", sets);
  if (!s) return NAN;
  awe_struct_spec *ss = &s->structure;
  double h = L / n;
  ss->npoint = 1; /* the ground point only (tip_anchor rides nodeB) */
  ss->nbody = n + 1;
  ss->ntube = n;
  ss->bodies = awe_spec_alloc(s, sizeof(awe_body_spec) * (size_t)(n + 1));
  ss->tubes = awe_spec_alloc(s, sizeof(awe_tube_spec) * (size_t)n);
  static char names[64][16];
  for (int k = 0; k <= n; k++) {
    awe_body_spec *b = &ss->bodies[k];
    memset(b, 0, sizeof(*b));
    snprintf(names[k], sizeof(names[k]), "n%d", k);
    b->name = names[k];
    b->mass = k == n || (free_free && k == 0) ? 0.5 * mu * h : mu * h;
    double J = b->mass * h * h * 1e-4; /* rotary inertia kept negligible (Euler-Bernoulli) */
    b->inertia[0] = b->inertia[4] = b->inertia[8] = J;
    b->pos[0] = k * h;
    b->q[0] = 1.0;
    b->is_static = k == 0 && !free_free;
  }
  for (int k = 0; k < n; k++) {
    awe_tube_spec *t = &ss->tubes[k];
    memset(t, 0, sizeof(*t));
    snprintf(names[32 + k], sizeof(names[32 + k]), "t%d", k);
    t->name = names[32 + k];
    t->body[0].name = names[k];
    t->body[1].name = names[k + 1];
    t->model = AWE_TUBE_TIMOSHENKO;
    t->diameter = t->pressure = NAN;
    t->EA = 1e3 * EI / (h * h);
    t->GA = INFINITY;
    t->GJ = EI;
    t->EIy = t->EIz = EI;
    t->shear_coeff = 1.0;
  }
  awe_sim *sim = sp_sim(s, "rk8pd");
  if (!sim) return NAN;
  int nx = sim->w->nx;
  double *A = calloc((size_t)nx * (size_t)nx, sizeof(double));
  double *fp = calloc((size_t)nx, sizeof(double)), *fm = calloc((size_t)nx, sizeof(double));
  double *y = calloc((size_t)nx, sizeof(double));
  memcpy(y, sim->y, sizeof(double) * (size_t)nx);
  for (int j = 0; j < nx; j++) {
    double e = 1e-7, y0 = y[j];
    y[j] = y0 + e;
    awe_rhs(0.0, y, fp, &sim->ctx);
    y[j] = y0 - e;
    awe_rhs(0.0, y, fm, &sim->ctx);
    y[j] = y0;
    for (int i = 0; i < nx; i++) A[(size_t)i * (size_t)nx + (size_t)j] = (fp[i] - fm[i]) / (2 * e);
  }
  awe_mode *md = NULL;
  int nm = 0;
  awe_err err = {0};
  double w1 = NAN;
  if (awe_modal(A, nx, &md, &nm, &err)) {
    HARNESS_FAIL("modal: %s", err.msg);
  } else {
    for (int k = 0; k < nm; k++)
      if (md[k].pair && md[k].im > w_min && (isnan(w1) || md[k].im < w1)) w1 = md[k].im;
  }
  free(md);
  free(A);
  free(fp);
  free(fm);
  free(y);
  sp_free(sim, s);
  return w1;
}


static void test_clamped_beam_frequency(void) {
  const double L = 2.0, mu = 0.5, EI = 20.0;
  double w_exact = 1.875104 * 1.875104 * sqrt(EI / (mu * L * L * L * L));
  int ns[2] = {5, 10};
  for (int k = 0; k < 2; k++) {
    double w1 = beam_w1(ns[k], L, mu, EI, 0, 1e-3);
    printf("  clamped beam, N = %d: omega_1 %.6f rad/s, closed form %.6f rad/s (%+.3f %%)\n",
           ns[k], w1, w_exact, 100 * (w1 / w_exact - 1));
    if (ns[k] == 10) ENSURE_REL(w1, w_exact, 0.01);
  }
  /* free-free: 4.730041^2 sqrt(EI/(mu L^4)); the six rigid-body modes have (numerically) zero
   * frequency, so the search starts at a tenth of the closed form */
  double wf = 4.730041 * 4.730041 * sqrt(EI / (mu * L * L * L * L));
  const int nf[3] = {5, 10, 20};
  double errs[3];
  for (int k = 0; k < 3; k++) {
    double w1 = beam_w1(nf[k], L, mu, EI, 1, 0.1 * wf);
    errs[k] = w1 / wf - 1;
    printf("  free-free beam, N = %d: omega_1 %.6f rad/s, closed form %.6f rad/s (%+.3f %%)\n",
           nf[k], w1, wf, 100 * errs[k]);
  }
  /* the lumped mass converges as 1/N^2: -10.7 %, -3.0 %, then within 1 % at N = 20 */
  ENSURE(fabs(errs[2]) < 0.01);
  ENSURE(fabs(errs[1]) < 0.35 * fabs(errs[0]) && fabs(errs[2]) < 0.35 * fabs(errs[1]));
}


static void test_yaml_loads(void) {
  /* the rigidities of a row without them come from the Breukels (2011) law (SAM
   * tube_linear_rigidities(0.05 m, 0.3 bar)); the state carries bodies.NAME.pos/vel/Q/omega */
  awe_spec *s = sp_load("tests/data/bodies/cantilever_scenario.yaml", NULL);
  if (!s) return;
  awe_tube_spec *t = &s->structure.tubes[0];
  t->EA = t->GA = t->GJ = t->EIy = t->EIz = t->shear_coeff = NAN;
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) return;
  const awe_model *m = sim->m;
  const double *k = m->tube_k;
  printf("  Breukels tube r = 0.05 m, 0.3 bar: EA %.6g N, GA %.6g N, GJ %.6g N m^2, EI %.6g N m^2\n",
         k[0], k[1], k[2], k[3]);
  /* by hand from the correlations: c1 = (1467 r + 40.908) p + (-191.8 r + 47.406) */
  double r = 0.05, p = 0.3;
  double c1 = (1467.0 * r + 40.908) * p + (-191.8 * r + 47.406);
  double c2 = -17703.0 * pow(r, 4) * log(p) + 358.05 * pow(r, 3) + 0.0918;
  ENSURE_REL(k[2], c1 * c2, 1e-12);
  ENSURE_REL(k[1], c1 * c2 / (AWE_PI * pow(r, 4) / 2) * AWE_PI * r * r, 1e-12);
  ENSURE_REL(k[5], 8.0 / 9.0, 1e-12);
  ENSURE(k[3] > 0 && k[0] > 0);
  char name[128];
  int found = 0;
  for (int i = 0; i < m->reg.state.n; i++) {
    awe_var_scalar_name(&m->reg.state.v[i], 0, name, sizeof(name));
    found += !strncmp(name, "bodies.nodeB.", 13);
  }
  ENSURE(found == 4);
  sp_run(sim, 0.5);
  ENSURE(isfinite(body_y(sim, "nodeB")[2]));
  sp_free(sim, s);
}


/* the builder's refusals, each naming the body or tube */
static void build_error(void (*edit)(awe_spec *), const char *msg) {
  awe_spec *s = sp_load("tests/data/bodies/cantilever_scenario.yaml", NULL);
  if (!s) return;
  edit(s);
  awe_err err = {0};
  awe_diag warn = {0};
  awe_model *m = awe_model_build(s, &warn, &err);
  ENSURE(m == NULL);
  ENSURE_CONTAINS(err.msg, msg);
  awe_model_free(m);
  awe_diag_free(&warn);
  awe_spec_free(s);
}
static void e_massless(awe_spec *s) {
  s->structure.bodies[1].mass = 0.0;
  s->structure.npoint = 1;
}
static void e_asym(awe_spec *s) { s->structure.bodies[1].inertia[1] = 0.001; }
static void e_self(awe_spec *s) { s->structure.tubes[0].body[1].name = "nodeA"; }
static void e_nolaw(awe_spec *s) {
  s->structure.tubes[0].EIy = NAN;
  s->structure.tubes[0].diameter = NAN;
}
static void e_range(awe_spec *s) {
  awe_tube_spec *t = &s->structure.tubes[0];
  t->EA = t->GA = t->GJ = t->EIy = t->EIz = NAN;
  t->diameter = 0.05; /* r = 25 mm at 0.3 bar: below the bending fit's range */
}
static void test_build_errors(void) {
  build_error(e_massless, "body 'nodeB': a DYNAMIC body needs a positive mass");
  build_error(e_asym, "body 'nodeB': the inertia (with the points riding it, about its origin) "
                      "must be a symmetric positive definite tensor");
  build_error(e_self, "tube 'tube': joins body 'nodeA' to itself");
  build_error(e_nolaw, "tube 'tube': 'EIy' is not given and there is no tube law");
  build_error(e_range, "tube 'tube': Breukels bending correlation outside its fitted range");
}


/* run a command, its stdout into out (last line kept whole); the exit status */
static int run_cmd(const char *cmd, char *out, size_t n) {
  FILE *f = popen(cmd, "r");
  if (!f) return -1;
  char line[4096];
  out[0] = 0;
  size_t used = 0;
  while (fgets(line, sizeof(line), f)) {
    size_t l = strlen(line);
    if (used + l + 1 > n) used = 0; /* keep the tail */
    memcpy(out + used, line, l + 1);
    used += l;
  }
  int st = pclose(f);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}


/* (d) the YAML model with bodies and tubes through the CLI: check, then simulate */
static void test_cli(void) {
  const char *bin = getenv("AWESIM") ? getenv("AWESIM") : "./awesim";
  char cmd[1024], out[16384];
  snprintf(cmd, sizeof(cmd), "%s check tests/data/bodies/inflated_beam_scenario.yaml", bin);
  ENSURE(run_cmd(cmd, out, sizeof(out)) == 0);
  ENSURE_CONTAINS(out, "bodies:   6 (STATIC 1, DYNAMIC 5; 0.55 kg moving with the 0 points");
  ENSURE_CONTAINS(out, "tubes:    5 (timoshenko 4, elastic 1)");
  snprintf(cmd, sizeof(cmd), "%s simulate -q --no-hdf5 --csv='time,bodies.tip.pos.z,"
           "bodies.b4.quat.y' tests/data/bodies/inflated_beam_scenario.yaml", bin);
  ENSURE(run_cmd(cmd, out, sizeof(out)) == 0);
  /* last line: t = 1 s, the tip below the root, the end of the tube pitched down (+y) */
  char *last = out + strlen(out);
  while (last > out && (last[-1] == '\n')) *--last = 0;
  while (last > out && last[-1] != '\n') last--;
  double t = NAN, z = NAN, qy = NAN;
  ENSURE(sscanf(last, "%lf,%lf,%lf", &t, &z, &qy) == 3);
  printf("  CLI: inflated beam at t = %g s: tip z %.6f m, b4 Q_y %.6f\n", t, z, qy);
  ENSURE_NEAR(t, 1.0, 1e-12);
  ENSURE(z < -0.01 && z > -0.05);
  ENSURE(qy > 0.0 && qy < 0.05);
  /* the awesIO writer keeps them: blocks bodies and tubes, the body-frame anchor of the
   * elastic hinge, and the Breukels law of the four beam elements (tests/awesio_roundtrip.sh
   * reads the document back and flies it) */
  char doc[128];
  snprintf(doc, sizeof(doc), "/tmp/awesim-bodies-convert-%d.yml", (int)getpid());
  snprintf(cmd, sizeof(cmd), "%s convert --to awesio -o %s "
           "tests/data/bodies/inflated_beam_scenario.yaml 2>&1 && cat %s", bin, doc, doc);
  ENSURE(run_cmd(cmd, out, sizeof(out)) == 0);
  remove(doc);
  ENSURE_CONTAINS(out, "\nbodies:\n  headers: [name, type, pos_ENU, Q_KA_to_ENU, extra_mass, "
                  "extra_inertia_KA,");
  ENSURE_CONTAINS(out, "    - [\"root\", STATIC, [0, 0, 0], [1, 0, 0, 0], 0, [[0.001, 0, 0], "
                  "[0, 0.001, 0], [0, 0, 0.001]],");
  ENSURE_CONTAINS(out, "    - [\"le_1\", [\"root\", \"b1\"], 0.10000000000000001, 30000, "
                  "breukels2011, timoshenko,");
  ENSURE_CONTAINS(out, "    - [\"hinge\", [\"b4\", \"tip\"], 0, 0, none, elastic, null, null, "
                  "null, null, null, null, 10000, 2000, 5, 20, 0.02, [0.050000000000000003, 0, "
                  "0], [-0.050000000000000003, 0, 0]]");
}


/* (e) the inflated beam written as an awesIO document and read back: the same model */
#define SAME(f, n) \
  do { \
    if (memcmp(a->f, b->f, sizeof(*a->f) * (size_t)(n))) HARNESS_FAIL("awesIO: " #f " differs"); \
  } while (0)

static void test_awesio_roundtrip(void) {
  awe_spec *s = sp_load("tests/data/bodies/inflated_beam_scenario.yaml", NULL);
  if (!s) return;
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) return;
  const awe_model *a = sim->m;
  /* the schema's preimage: points, segments; bodies, each tube's two bodies (one-based) */
  char hex[65], want[65];
  const char *pre = "1;6;1,2;2,3;3,4;4,5;5,6;";
  awe_sha256_hex((const unsigned char *)pre, strlen(pre), want);
  awe_awesio_connectivity_sha(a, hex);
  ENSURE_STR(hex, want);
  awe_err e = {0};
  char *doc = awe_awesio_string(a, "inflated_beam", "test", &e);
  ENSURE(doc != NULL);
  if (!doc) {
    sp_free(sim, s);
    return;
  }
  char dir[64], path[96], scen[96];
  snprintf(dir, sizeof(dir), "/tmp/awesim-bodies-rt-%d", (int)getpid());
  snprintf(path, sizeof(path), "%s/doc.yml", dir);
  snprintf(scen, sizeof(scen), "%s/scenario.yaml", dir);
  ENSURE(mkdir(dir, 0700) == 0);
  FILE *f = fopen(path, "w"), *g = fopen(scen, "w");
  ENSURE(f && g);
  if (f) fputs(doc, f);
  if (g)
    fputs("awesim: 1\nname: inflated_beam\nmodel: {structure: doc.yml}\nsettings:\n"
          "  system: {g_earth: 9.81}\n  environment: {v_wind: 0.0, rho_0: 1.225}\n"
          "run: {duration: 1.0, dt: 0.01}\n", g);
  if (f) fclose(f);
  if (g) fclose(g);
  free(doc);
  awe_spec *s2 = sp_load(scen, NULL);
  awe_sim *sim2 = s2 ? sp_sim(s2, NULL) : NULL;
  remove(path);
  remove(scen);
  rmdir(dir);
  ENSURE(sim2 != NULL);
  if (sim2) {
    const awe_model *b = sim2->m;
    ENSURE(b->nbody == a->nbody && b->ntube == a->ntube && b->npoint == a->npoint);
    if (b->nbody == a->nbody && b->ntube == a->ntube && b->npoint == a->npoint) {
      int nb = a->nbody, nt = a->ntube;
      SAME(body_mass, nb);
      SAME(body_mass0, nb);
      SAME(body_I, 9 * nb);
      SAME(body_Iinv, 9 * nb);
      SAME(body_pos0, 3 * nb);
      SAME(body_q0, 4 * nb);
      SAME(body_static, nb);
      SAME(tube_body, 2 * nt);
      SAME(tube_model, nt);
      SAME(tube_k, 6 * nt);
      SAME(tube_damping, nt);
      SAME(tube_anchor, 6 * nt);
      SAME(tube_L0, nt);
      SAME(tube_Ra0, 9 * nt);
      SAME(tube_Rb0, 9 * nt);
      SAME(tube_Rrel0, 9 * nt);
      SAME(point_body, a->npoint);
      printf("  awesIO: %d bodies, %d tubes read back bit for bit\n", nb, nt);
    }
    sp_free(sim2, s2);
  } else if (s2) {
    awe_spec_free(s2);
  }
  sp_free(sim, s);
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_torque_free_precession);
  RUN(test_full_tensor);
  RUN(test_rigid_motion_undamped);
  RUN(test_cantilever_closed_form);
  RUN(test_cantilever_sam);
  RUN(test_cantilever_3d);
  RUN(test_steady_state);
  RUN(test_riding_point);
  RUN(test_clamped_beam_frequency);
  RUN(test_yaml_loads);
  RUN(test_build_errors);
  RUN(test_cli);
  RUN(test_awesio_roundtrip);
  return harness_report();
}
