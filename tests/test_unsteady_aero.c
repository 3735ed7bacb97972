/* test_unsteady_aero.c: opt-in unsteady aerodynamics (engine/unsteady.h; SymbolicAWEModels
 * 0.17 docs/src/unsteady_aero.md): the Wagner lift lag and the apparent mass.
 *
 *   indicial     the lag's two states alone (awe_wagner_rhs, integrated by GSL's rk8pd at 1e-13)
 *                after a step of alpha from rest: alpha - d = alpha phi(s) with Jones' closed
 *                form phi(s) = 1 - 0.165 e^(-0.0455 s) - 0.335 e^(-0.3 s), s = 2 V t/c, at
 *                s = 0, 1, 2, 5, 10, 20, 50, 100, 300 to 1e-6 (measured ~1e-13); also at a second
 *                speed and chord (the reduced time is what counts), and with other gains and
 *                rates (wagner_gains [0.2, 0.3], wagner_rates halved: 1 - sum A_i e^(-b_i s))
 *   harmonic     alpha = a0 sin(omega t), reduced frequency k = omega c/(2 V) = 0.05, 0.1, 0.2,
 *                0.5: the periodic response of alpha - d (after the transient, e^(-0.0455 s) <
 *                1e-15; projected on sin and cos over whole periods) is H(k) a0 with H Jones'
 *                transfer function 1 - sum_i A_i i k/(i k + b_i) to 1e-6 (the states realise it),
 *                and against Theodorsen's C(k) = H1(k)/(H1(k) + i H0(k)) (Hankel functions of the
 *                second kind H_n = J_n - i Y_n, GSL's J0, J1, Y0, Y1; C(0.5) = 0.5979 - 0.1507 i
 *                as in the usual tables of F and G) the amplitude ratio within 2 % and the phase
 *                within 1.5 deg. The tolerance is the error of Jones' fit itself, computed here
 *                over 0.01 <= k <= 2 (k = 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2): at most
 *                2.1 % of |C| (k = 1) and 1.3 deg (k = 0.5); at the four k tested 0.80, 0.47,
 *                1.66, 0.74 % and 0.44, 0.61, 0.11, 1.27 deg (the brief's "~1-2 % and ~1 deg";
 *                1 deg alone would fail at k = 0.5, where the fit is 1.27 deg off)
 *   added mass   the 2plate particle wing of tests/data/2plate_unsteady (unsteady.apparent_mass
 *                1): at build the panels' masses rho pi c_i^2 w_i/4 (the VSM mesh) sum to
 *                awe_aero_apparent_mass and, spread with the force weights, to the points'
 *                point_ma (1e-12; LE/TE points only, all positive); at a state where the wing
 *                accelerates, each WING point's equation is (m + m_a) (a + damping) = F with F
 *                (gravity m g included) the same as without the added mass (1e-12 relative):
 *                the extra force m_a a, and no weight
 *   lag in loads the same wing, settled (d = 0): with the lag states moved so that d = 0.002 rad
 *                the linearized loads between refreshes (the slope over d) match a fresh VSM
 *                solve at that d within 2 % of the change (measured 0.06 % at 0.0025 rad), and
 *                the lift (aerodynamic force along body z) drops: a positive deficiency is a
 *                smaller effective angle of attack. (The 2plate's flat-plate polar is a table in
 *                1 deg steps, linearly interpolated: a d that crosses a knot leaves the linear
 *                model by the change of slope there, 7 % of the change at 0.02 rad.)
 *   jacobian     the integrator's Jacobian of that model (analytic columns with the inertia
 *                m + m_a, coloured finite differences on the pattern, which gains the lag's
 *                rows and columns) against central differences of the whole right-hand side,
 *                column by column (h = 1e-6 max(|y_j|, 1)), in flight at 0.2 s: every entry
 *                within 1e-3 of its column's largest (at least 1) (a dependency missing from
 *                the pattern would be an entry of the column's size), for the particle wing
 *                and the rigid 2plate with wagner
 *   default off  scenarios/2plate_refine.yaml: no lag states, no apparent mass, zero deficiency
 *   rigid        unsteady.apparent_mass on a RIGID_DYNAMICS wing is refused naming the key;
 *                wagner on a rigid wing registers the two states and starts settled (d = 0)
 */
#include <complex.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_sf_bessel.h>
#include <math.h>
#include <string.h>

#include "aero/vsm.h"
#include "engine/aero_coupling.h"
#include "engine/atmosphere.h"
#include "engine/unsteady.h"
#include "engine/work_alloc.h"
#include "solve/integrate.h"
#include "test_physics_util.h"

static const char *UNSTEADY = "tests/data/2plate_unsteady/scenario.yaml";

/* ---- the lag alone ---- */

typedef struct {
  double V, c;      /* speed [m/s], chord [m] */
  double a0, om;    /* alpha = a0 (step: om = 0) or a0 sin(om t) */
  int harmonic;
  double A[2], b[2];/* gains and rates */
} lag_par;

#define JONES {AWE_WAGNER_A1, AWE_WAGNER_A2}, {AWE_WAGNER_B1, AWE_WAGNER_B2}


static double lag_alpha(const lag_par *p, double t) {
  return p->harmonic ? p->a0 * sin(p->om * t) : p->a0;
}


static int lag_f(double t, const double y[], double f[], void *params) {
  const lag_par *p = params;
  double d;
  awe_wagner_rhs(p->V, p->c, lag_alpha(p, t), p->A, p->b, y, f, &d);
  return GSL_SUCCESS;
}


static double lag_d(const lag_par *p, double t, const double y[2]) {
  double dx[2], d;
  awe_wagner_rhs(p->V, p->c, lag_alpha(p, t), p->A, p->b, y, dx, &d);
  return d;
}


static double phi(const lag_par *p, double s) {
  return 1.0 - p->A[0] * exp(-p->b[0] * s) - p->A[1] * exp(-p->b[1] * s);
}


static double phi_jones(double s) {
  return 1.0 - AWE_WAGNER_A1 * exp(-AWE_WAGNER_B1 * s) - AWE_WAGNER_A2 * exp(-AWE_WAGNER_B2 * s);
}


static void indicial_at(double V, double c, int own) {
  lag_par p = {V, c, 0.1, 0.0, 0, JONES};
  if (own) { /* SymbolicAWEModels' example: twice as slow, and other gains */
    p.A[0] = 0.2;
    p.A[1] = 0.3;
    p.b[0] = 0.0455 * 0.5;
    p.b[1] = 0.3 * 0.5;
  }
  gsl_odeiv2_system sys = {lag_f, NULL, 2, &p};
  gsl_odeiv2_driver *dr = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-6,
                                                         1e-13, 1e-13);
  double y[2] = {0.0, 0.0}, t = 0.0;
  const double s_at[] = {0.0, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 300.0};
  for (size_t k = 0; k < sizeof(s_at) / sizeof(s_at[0]); k++) {
    double tk = s_at[k] * c / (2.0 * V);
    if (tk > t) ENSURE(gsl_odeiv2_driver_apply(dr, &t, tk, y) == GSL_SUCCESS);
    double ae = p.a0 - lag_d(&p, t, y);
    ENSURE_NEAR(ae / p.a0, own ? phi(&p, s_at[k]) : phi_jones(s_at[k]), 1e-6);
  }
  ENSURE_NEAR(phi_jones(0.0), 0.5, 1e-15); /* half the steady lift at once */
  gsl_odeiv2_driver_free(dr);
}


static void test_indicial(void) {
  indicial_at(20.0, 1.0, 0);
  indicial_at(7.5, 2.7, 0);
  indicial_at(20.0, 1.0, 1);
}


/* Theodorsen's function C(k) = H1(k)/(H1(k) + i H0(k)), H_n = J_n - i Y_n */
static double complex theodorsen(double k) {
  double complex h1 = gsl_sf_bessel_J1(k) - I * gsl_sf_bessel_Y1(k);
  double complex h0 = gsl_sf_bessel_J0(k) - I * gsl_sf_bessel_Y0(k);
  return h1 / (h1 + I * h0);
}


static double complex jones(double k) {
  return 1.0 - AWE_WAGNER_A1 * I * k / (I * k + AWE_WAGNER_B1) -
         AWE_WAGNER_A2 * I * k / (I * k + AWE_WAGNER_B2);
}


static void test_harmonic(void) {
  /* C(0.5) = F + i G from the tables of Theodorsen's function: F = 0.5979, G = -0.1507 */
  double complex c5 = theodorsen(0.5);
  ENSURE_NEAR(creal(c5), 0.5979, 1e-4);
  ENSURE_NEAR(cimag(c5), -0.1507, 1e-4);
  const double ks[] = {0.05, 0.1, 0.2, 0.5};
  for (size_t q = 0; q < sizeof(ks) / sizeof(ks[0]); q++) {
    double k = ks[q];
    lag_par p = {20.0, 1.0, 0.05, 0.0, 1, JONES};
    double rate = 2.0 * p.V / p.c; /* ds/dt */
    p.om = k * rate;
    gsl_odeiv2_system sys = {lag_f, NULL, 2, &p};
    gsl_odeiv2_driver *dr = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-6,
                                                           1e-13, 1e-13);
    double y[2] = {0.0, 0.0}, t = 0.0;
    /* the transient decays as e^(-0.0455 s): s = 800 leaves 2e-16 */
    double period = 2.0 * AWE_PI / p.om, t0 = ceil(800.0 / rate / period) * period;
    ENSURE(gsl_odeiv2_driver_apply(dr, &t, t0, y) == GSL_SUCCESS);
    const int nper = 3, nsamp = 4000; /* per period; the trapezoid rule is exact here */
    double ps = 0.0, pc = 0.0;
    for (int i = 0; i < nper * nsamp; i++) {
      double ti = t0 + period * (double)i / nsamp;
      if (ti > t) ENSURE(gsl_odeiv2_driver_apply(dr, &t, ti, y) == GSL_SUCCESS);
      double ae = lag_alpha(&p, t) - lag_d(&p, t, y), ph = p.om * (t - t0);
      ps += ae * sin(ph);
      pc += ae * cos(ph);
    }
    ps *= 2.0 / (nper * nsamp);
    pc *= 2.0 / (nper * nsamp);
    double complex H = (ps + I * pc) / p.a0; /* alpha_E = |H| a0 sin(om t + arg H) */
    double complex J = jones(k), C = theodorsen(k);
    ENSURE_NEAR(cabs(H - J), 0.0, 1e-6);
    double amp_err = cabs(H) / cabs(C) - 1.0;
    double ph_err = (carg(H) - carg(C)) * 180.0 / AWE_PI;
    ENSURE_NEAR(amp_err, 0.0, 0.02);
    ENSURE_NEAR(ph_err, 0.0, 1.5);
    /* the lag is a lag: the effective angle trails alpha and is smaller */
    ENSURE(carg(H) < 0.0 && cabs(H) < 1.0);
    printf("  k %.2f: |H| %.5f (Theodorsen %.5f, %+.2f %%), phase %.3f deg (%.3f, %+.2f deg)\n",
           k, cabs(H), cabs(C), 100.0 * amp_err, carg(H) * 180.0 / AWE_PI,
           carg(C) * 180.0 / AWE_PI, ph_err);
    gsl_odeiv2_driver_free(dr);
  }
}


/* ---- in the model ---- */

static int wing_point(const awe_model *m, int i) { return m->point_type[i] == AWE_PT_WING; }


static void test_added_mass(void) {
  awe_spec *s = sp_load(UNSTEADY, (const char *[]){"run.duration=0.1", NULL});
  if (!s) return;
  awe_err err = {0};
  awe_model *m = awe_model_build_controlled(s, &s->warnings, &err);
  if (!m) {
    HARNESS_FAIL("cannot build: %s", err.msg);
    awe_spec_free(s);
    return;
  }
  ENSURE_NEAR(m->wing_apparent_mass[0], 1.0, 0.0);
  /* at build: the VSM mesh's panels, spread at the VSM's density */
  awe_work *w = awe_work_alloc(m, &err);
  ENSURE(w && w->point_ma);
  if (w && w->point_ma) {
    awe_vsm_geometry g;
    awe_vsm_wing_geometry(awe_aero_vsm(w, 0), &g);
    double sum = 0.0, pts = 0.0;
    for (int i = 0; i < g.n_panels; i++)
      sum += AWE_PI * g.chord[i] * g.chord[i] * g.width[i] / 4.0;
    double rho = m->vsm.density;
    ENSURE(g.n_panels >= 2);
    ENSURE_REL(awe_aero_apparent_mass(w, 0, 1.0), sum, 1e-12);
    for (int i = 0; i < m->npoint; i++) {
      if (wing_point(m, i)) ENSURE(w->point_ma[i] > 0.0);
      else ENSURE(w->point_ma[i] == 0.0);
      pts += w->point_ma[i];
    }
    ENSURE_REL(pts, rho * sum, 1e-12);
    ENSURE_REL(w->wing_ma[0], rho * sum, 1e-12);
    /* the 2plate: chord sqrt(1 + 0.3^2) m, span 2 x sqrt(1 + 0.5^2) m: pi c^2 b/4 */
    ENSURE_REL(sum, AWE_PI * 1.09 * 2.0 * sqrt(1.25) / 4.0, 1e-9);
  }
  awe_work_free(w);
  awe_model_free(m);

  /* in flight: (m + m_a)(a + damping) = F, F unchanged */
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  sp_run(sim, 0.05);
  awe_sim_aero_refresh(sim); /* the added mass at this state's density */
  awe_work *wk = sim->w;
  const awe_model *mm = sim->m;
  awe_ctx c = sim->ctx;
  int np = mm->npoint;
  double *acc1 = malloc(sizeof(double) * 3 * (size_t)np), *f1 = malloc(sizeof(double) * 3 * (size_t)np);
  double *ma = malloc(sizeof(double) * (size_t)np);
  ENSURE(awe_rhs(sim->t, sim->y, sim->dydt, &c) == GSL_SUCCESS);
  memcpy(acc1, wk->acc, sizeof(double) * 3 * (size_t)np);
  memcpy(f1, wk->force, sizeof(double) * 3 * (size_t)np);
  memcpy(ma, wk->point_ma, sizeof(double) * (size_t)np);
  double *keep = wk->point_ma;
  wk->point_ma = NULL; /* the same state without the added mass */
  ENSURE(awe_rhs(sim->t, sim->y, sim->dydt, &c) == GSL_SUCCESS);
  wk->point_ma = keep;
  double amax = 0.0, mtot = 0.0;
  for (int i = 0; i < np; i++) {
    if (!wing_point(mm, i)) continue;
    mtot += ma[i];
    for (int k = 0; k < 3; k++) {
      double F = wk->force[3 * i + k], m0 = wk->mass[i];
      ENSURE_NEAR(f1[3 * i + k], F, 1e-12 * fabs(F) + 1e-12); /* no weight in the added mass */
      double damp = F / m0 - wk->acc[3 * i + k];             /* the damping per unit mass */
      double a = acc1[3 * i + k] + damp;                      /* F/(m + m_a) */
      ENSURE_NEAR((m0 + ma[i]) * a, F, 1e-10 * fabs(F) + 1e-12);
      ENSURE_NEAR(F - m0 * a, ma[i] * a, 1e-10 * fabs(F) + 1e-12); /* the extra force m_a a */
      amax = fmax(amax, fabs(a));
    }
  }
  ENSURE(amax > 1.0); /* the released wing does accelerate */
  /* redistributed at the refresh at the density at the wing origin */
  double rho = awe_density(&mm->env, wk->wing_pos[2]);
  ENSURE_REL(mtot, awe_aero_apparent_mass(wk, 0, rho), 1e-12);
  free(acc1);
  free(f1);
  free(ma);
  sp_free(sim, s);
}


static void test_lag_in_loads(void) {
  awe_spec *s = sp_load(UNSTEADY, (const char *[]){"run.duration=0.1", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  awe_work *w = sim->w;
  awe_ctx c = sim->ctx;
  int o = w->wing_wag_x[0];
  ENSURE(o >= 0);
  if (o < 0) {
    sp_free(sim, s);
    return;
  }
  ENSURE(awe_rhs(sim->t, sim->y, sim->dydt, &c) == GSL_SUCCESS);
  ENSURE_NEAR(w->wing_wag_d[0], 0.0, 1e-12); /* settled at the start */
  double F0[3];
  memcpy(F0, w->wing_aero_force_b, sizeof(F0));
  /* d = A1 (alpha - b1 x1) + A2 (alpha - b2 x2): move x1 to give d = 0.02 */
  const double dd = 0.002; /* within a 1 deg step of the polar table */
  sim->y[o] -= dd / (AWE_WAGNER_A1 * AWE_WAGNER_B1);
  ENSURE(awe_rhs(sim->t, sim->y, sim->dydt, &c) == GSL_SUCCESS);
  ENSURE_NEAR(w->wing_wag_d[0], dd, 1e-9);
  double Fl[3];
  memcpy(Fl, w->wing_aero_force_b, sizeof(Fl));
  awe_sim_aero_refresh(sim); /* a fresh VSM solve at d (the rhs just ran at this state) */
  ENSURE(awe_rhs(sim->t, sim->y, sim->dydt, &c) == GSL_SUCCESS);
  double Ff[3], dl[3], df[3];
  memcpy(Ff, w->wing_aero_force_b, sizeof(Ff));
  awe_v3_sub(dl, Fl, F0);
  awe_v3_sub(df, Ff, F0);
  double e[3];
  awe_v3_sub(e, Fl, Ff);
  printf("  d = %.3f rad: force change %.4g N (linear), %.4g N (fresh) of %.4g N, differ by "
         "%.3g N\n", dd, awe_v3_norm(dl), awe_v3_norm(df), awe_v3_norm(F0), awe_v3_norm(e));
  ENSURE(awe_v3_norm(df) > dd * awe_v3_norm(F0));   /* the lag matters: > 1 |F| per rad */
  ENSURE(awe_v3_norm(e) <= 0.02 * awe_v3_norm(df));  /* its slope in the linear model */
  ENSURE(Ff[2] < F0[2] && Fl[2] < F0[2]);             /* less lift (body z: up) */
  sp_free(sim, s);
}


/* the integrator's Jacobian (awe_jacobian_fd: analytic and coloured columns) against central
 * differences of the whole right-hand side; returns the worst entry relative to its column */
static double jacobian_error(const char *scenario, const char *const *sets) {
  awe_spec *s = sp_load(scenario, sets);
  awe_sim *sim = sp_sim(s, "msbdf");
  if (!sim) {
    sp_free(sim, s);
    return INFINITY;
  }
  sp_run(sim, 0.2);
  int n = sim->w->nx;
  size_t nn = (size_t)n * (size_t)n;
  double *J = calloc(nn + 1, sizeof(double)), *dt = calloc((size_t)n + 1, sizeof(double));
  double *y = malloc(sizeof(double) * (size_t)n), *f1 = malloc(sizeof(double) * (size_t)n);
  double *f2 = malloc(sizeof(double) * (size_t)n);
  ENSURE(awe_jacobian_fd(sim->t, sim->y, J, dt, sim->it) == GSL_SUCCESS);
  double worst = 0.0;
  int wi = 0, wj = 0;
  for (int j = 0; j < n; j++) {
    memcpy(y, sim->y, sizeof(double) * (size_t)n);
    double h = 1e-6 * fmax(fabs(y[j]), 1.0);
    y[j] = sim->y[j] + h;
    ENSURE(awe_rhs(sim->t, y, f1, &sim->ctx) == GSL_SUCCESS);
    y[j] = sim->y[j] - h;
    ENSURE(awe_rhs(sim->t, y, f2, &sim->ctx) == GSL_SUCCESS);
    double cmax = 1.0;
    for (int i = 0; i < n; i++) cmax = fmax(cmax, fabs((f1[i] - f2[i]) / (2.0 * h)));
    for (int i = 0; i < n; i++) {
      double e = fabs(J[(size_t)i * n + j] - (f1[i] - f2[i]) / (2.0 * h)) / cmax;
      if (e > worst) {
        worst = e;
        wi = i;
        wj = j;
      }
    }
  }
  char rn[128], cn[128];
  awe_state_name(sim->m, wi, rn, sizeof(rn));
  awe_state_name(sim->m, wj, cn, sizeof(cn));
  printf("  %s: %d of %d columns analytic; worst d %s / d %s off by %.3g of its column\n",
         scenario, awe_integrator_analytic_columns(sim->it), n, rn, cn, worst);
  free(J);
  free(dt);
  free(y);
  free(f1);
  free(f2);
  sp_free(sim, s);
  return worst;
}


static void test_jacobian(void) {
  ENSURE(jacobian_error(UNSTEADY, (const char *[]){"run.steady_state=false", NULL}) < 1e-3);
  ENSURE(jacobian_error("scenarios/2plate_parked.yaml",
                        (const char *[]){"wings.main_wing.unsteady.wagner=true",
                                         "run.steady_state=false", NULL}) < 1e-3);
}


static void test_default_off(void) {
  awe_spec *s = sp_load("scenarios/2plate_refine.yaml", (const char *[]){"run.duration=0.1", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  ENSURE(sim->w->point_ma == NULL);
  ENSURE(sim->w->wing_wag_x[0] == -1);
  ENSURE(sim->m->wing_wagner[0] == 0 && sim->m->wing_apparent_mass[0] == 0.0);
  ENSURE(sp_index(sim->m, "wings.main_wing.wagner_deficiency") < 0);
  sp_run(sim, 0.1);
  ENSURE(sim->w->wing_wag_d[0] == 0.0);
  sp_free(sim, s);
}


static void test_rigid(void) {
  awe_err err = {0};
  awe_diag warn = {0};
  const char *bad[] = {"wings.main_wing.unsteady.apparent_mass=1", NULL};
  awe_spec *s = awe_spec_load("scenarios/2plate_parked.yaml", 1, bad, &warn, &err);
  awe_model *m = s ? awe_model_build_controlled(s, &s->warnings, &err) : NULL;
  ENSURE(m == NULL);
  ENSURE_CONTAINS(err.msg, "unsteady.apparent_mass needs a PARTICLE_DYNAMICS wing");
  awe_model_free(m);
  awe_spec_free(s);
  awe_diag_free(&warn);

  awe_spec *s2 = sp_load("scenarios/2plate_parked.yaml",
                         (const char *[]){"wings.main_wing.unsteady.wagner=true",
                                          "run.duration=0.1", NULL});
  awe_sim *sim = sp_sim(s2, NULL);
  if (!sim) {
    sp_free(sim, s2);
    return;
  }
  int o = sim->w->wing_wag_x[0];
  ENSURE(o >= 0);
  if (o >= 0) {
    char n1[128], n2[128];
    awe_state_name(sim->m, o, n1, sizeof(n1));
    awe_state_name(sim->m, o + 1, n2, sizeof(n2));
    ENSURE_STR(n1, "wings.main_wing.wagner_x1");
    ENSURE_STR(n2, "wings.main_wing.wagner_x2");
    double V, al;
    awe_wagner_inflow(sim->m, sim->w, 0, &V, &al);
    ENSURE(V > 1.0);
    ENSURE_NEAR(sim->y[o], al / AWE_WAGNER_B1, 1e-12 * fabs(al / AWE_WAGNER_B1));
    ENSURE_NEAR(sim->y[o + 1], al / AWE_WAGNER_B2, 1e-12 * fabs(al / AWE_WAGNER_B2));
  }
  ENSURE(sp_run(sim, 0.1) == 0);
  ENSURE(fabs(sp_out(sim, "wings.main_wing.wagner_deficiency")) < 0.05);
  sp_free(sim, s2);
}


int main(void) {
  gsl_set_error_handler_off();
  RUN(test_indicial);
  RUN(test_harmonic);
  RUN(test_added_mass);
  RUN(test_lag_in_loads);
  RUN(test_jacobian);
  RUN(test_default_off);
  RUN(test_rigid);
  return harness_report();
}
