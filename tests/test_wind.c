/* test_wind.c: the wind at a point (engine/wind.h): profile laws 4-6 against the laws they fit,
 * IEC 61400-1 gust shapes against their closed forms, the inputs wind.direction and wind.w,
 * and the tether's line drag taking each segment's own wind.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/atmosphere.h"
#include "engine/aero_coupling.h"
#include "engine/rhs.h"
#include "aero/vsm.h"
#include "engine/wind.h"
#include "turb/wind_box.h"
#include "io/wind_box_read.h"
#include "test_physics_util.h"

#define PARKED "scenarios/2plate_parked.yaml"


/* FAST_EXP, FAST_LOG, FAST_EXPLOG are fits of EXP, LOG, EXPLOG for h_ref 6 m, alpha 0.08163,
 * z0 0.0002 m: they agree with them to 2e-5 over 6 ... 1000 m (AtmosphericModels.jl's fit) */
static void test_fast_laws(void) {
  awe_env e = {0};
  e.h_ref = 6.0;
  e.alpha = 0.08163;
  e.z0 = 0.0002;
  const double z[] = {6.5, 10, 20, 50, 100, 200, 300, 500, 1000};
  for (int law = 1; law <= 3; law++)
    for (size_t i = 0; i < sizeof(z) / sizeof(z[0]); i++) {
      e.profile_law = law;
      double exact = awe_wind_factor(&e, z[i]);
      e.profile_law = law + 3;
      double fast = awe_wind_factor(&e, z[i]);
      ENSURE_REL(fast, exact, 3e-5);
      /* the derivative against central differences of the factor itself */
      double h = 1e-4 * z[i];
      double fd = (awe_wind_factor(&e, z[i] + h) - awe_wind_factor(&e, z[i] - h)) / (2 * h);
      ENSURE_REL(awe_wind_dfactor(&e, z[i]), fd, 1e-6);
    }
  /* the values of AtmosphericModels.jl's calc_wind_factor4..6 at 100 m */
  e.profile_law = 4;
  ENSURE_NEAR(awe_wind_factor(&e, 100), 1.2581695296782007, 1e-13);
  e.profile_law = 5;
  ENSURE_NEAR(awe_wind_factor(&e, 100), 1.2729075439668194, 1e-13);
  e.profile_law = 6;
  ENSURE_NEAR(awe_wind_factor(&e, 100), 1.2876455140340406, 1e-13);
  /* 1 below 6 m, as there */
  ENSURE(awe_wind_factor(&e, 5.9) == 1.0 && awe_wind_dfactor(&e, 5.9) == 0.0);
}


static awe_gust_spec gust(awe_gust_type t) {
  awe_gust_spec g;
  memset(&g, 0, sizeof(g));
  g.type = t;
  g.start = 10.0;
  g.period = g.height = g.sigma1 = g.lambda1 = g.diameter = g.v_e1 = NAN;
  g.v_gust = g.theta_e = g.v_cg = g.theta_cg = g.shear = NAN;
  g.sign = 1;
  return g;
}


/* the sum of one gust's outputs at t */
static void geval(const awe_gust_spec *g, double t, double vh, double zh, double out[3]) {
  out[0] = out[1] = out[2] = 0.0;
  awe_gust_eval(g, t, vh, zh, &out[0], &out[1], &out[2]);
}


static void test_eog(void) {
  /* V_hub 10 m/s at 100 m: Lambda1 = 42 m; sigma1 1.8 m/s, D 10 m */
  awe_gust_spec g = gust(AWE_GUST_EOG);
  g.sigma1 = 1.8;
  g.diameter = 10.0;
  double vg = 3.3 * 1.8 / (1 + 0.1 * 10 / 42.0), o[3];
  const double T = 10.5;
  for (double tau = -1.0; tau <= 12.0; tau += 0.25) {
    geval(&g, 10.0 + tau, 10.0, 100.0, o);
    double want = tau >= 0 && tau <= T
                      ? -0.37 * vg * sin(3 * M_PI * tau / T) * (1 - cos(2 * M_PI * tau / T))
                      : 0.0;
    ENSURE_NEAR(o[0], want, 1e-12);
    ENSURE(o[1] == 0.0 && o[2] == 0.0);
  }
  /* its extremes: the dip before the rise, the rise to 0.37 * 2 * ... at T/2 */
  geval(&g, 10.0 + T / 2, 10.0, 100.0, o);
  ENSURE_NEAR(o[0], 0.74 * vg, 1e-12); /* sin(3 pi / 2) (1 - cos pi) = -2 */
  /* V_e1 caps it: 1.35 (V_e1 - V_hub) */
  g.v_e1 = 12.0;
  geval(&g, 10.0 + T / 2, 10.0, 100.0, o);
  ENSURE_NEAR(o[0], 0.74 * 1.35 * 2.0, 1e-12);
  /* Lambda1 = 0.7 z_hub at 50 m */
  double amp, per, L;
  g.v_e1 = NAN;
  awe_gust_params(&g, 10.0, 50.0, &amp, &per, &L);
  ENSURE_NEAR(L, 35.0, 1e-12);
  ENSURE_NEAR(amp, 3.3 * 1.8 / (1 + 0.1 * 10 / 35.0), 1e-12);
  ENSURE_NEAR(per, 10.5, 0);
}


static void test_edc(void) {
  awe_gust_spec g = gust(AWE_GUST_EDC);
  g.sigma1 = 1.8;
  g.diameter = 10.0;
  g.sign = -1;
  double te = 4 * atan(1.8 / (12.0 * (1 + 0.1 * 10 / 42.0))) * 180 / M_PI, o[3];
  for (double tau = -1.0; tau <= 8.0; tau += 0.25) {
    geval(&g, 10.0 + tau, 12.0, 100.0, o);
    double want = tau < 0 ? 0.0 : tau <= 6.0 ? 0.5 * te * (1 - cos(M_PI * tau / 6.0)) : te;
    ENSURE_NEAR(o[1], -want, 1e-12);
    ENSURE(o[0] == 0.0 && o[2] == 0.0);
  }
  g.theta_e = 30.0; /* given: used as it is */
  geval(&g, 13.0, 12.0, 100.0, o);
  ENSURE_NEAR(o[1], -15.0, 1e-12);
}


static void test_ecd(void) {
  awe_gust_spec g = gust(AWE_GUST_ECD);
  double o[3];
  for (double tau = -1.0; tau <= 12.0; tau += 0.25) {
    geval(&g, 10.0 + tau, 8.0, 100.0, o);
    double c = tau < 0 ? 0.0 : tau <= 10.0 ? 0.5 * (1 - cos(M_PI * tau / 10.0)) : 1.0;
    ENSURE_NEAR(o[0], 15.0 * c, 1e-12);
    ENSURE_NEAR(o[1], 720.0 / 8.0 * c, 1e-12);
  }
  geval(&g, 30.0, 3.0, 100.0, o); /* below 4 m/s: 180 deg */
  ENSURE_NEAR(o[1], 180.0, 1e-12);
}


static void test_ews(void) {
  awe_gust_spec g = gust(AWE_GUST_EWS);
  g.sigma1 = 1.8;
  g.diameter = 10.0;
  double A = 2.5 + 0.2 * 6.4 * 1.8 * pow(10 / 42.0, 0.25), o[3];
  for (double tau = -1.0; tau <= 13.0; tau += 0.25) {
    geval(&g, 10.0 + tau, 10.0, 100.0, o);
    double want = tau >= 0 && tau <= 12.0 ? A / 10.0 * (1 - cos(2 * M_PI * tau / 12.0)) : 0.0;
    ENSURE_NEAR(o[2], want, 1e-12);
    ENSURE(o[0] == 0.0 && o[1] == 0.0);
  }
}


/* wind.direction turns the wind, wind.w adds an updraft, a gust acts at every point with its
 * own height; the wing's wind output is the wind at its origin */
static void test_wind_inputs(void) {
  awe_spec *s = sp_load(PARKED, (const char *const[]){"run.duration=0", NULL});
  if (!s) return;
  awe_gust_spec g[1] = {gust(AWE_GUST_EWS)};
  g[0].start = 0.0;
  g[0].diameter = 20.0;
  g[0].shear = 4.0;
  g[0].height = 50.0;
  s->scenario.wind.ngust = 1;
  s->scenario.wind.gusts = g;
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  const awe_model *m = sim->m;
  awe_work *w = sim->w;
  ENSURE(w->u_wind_dir >= 0 && w->u_wind_w >= 0);
  double v = m->env.v_wind;
  /* the default direction is the settings' one: the wind as before */
  ENSURE_NEAR(w->u[w->u_wind_dir], m->env.upwind_dir, 0);
  w->u[w->u_wind_dir] = 0.0; /* from north: blowing toward -y */
  w->u[w->u_wind_w] = 2.5;
  double t = 3.0, k = 4.0 / 20.0 * (1 - cos(2 * M_PI * t / 12.0));
  awe_wind_update(m, w, t);
  const double p[3] = {5.0, 7.0, 80.0};
  double out[3];
  awe_wind_point(m, w, p, out);
  double s_want = v + k * (80.0 - 50.0); /* profile law 0: f = 1 */
  ENSURE_NEAR(out[0], 0.0, 1e-12);
  ENSURE_NEAR(out[1], -s_want, 1e-12);
  ENSURE_NEAR(out[2], 2.5, 1e-12);
  double dz[3];
  awe_wind_dz(m, w, p, dz);
  ENSURE_NEAR(dz[1], -k, 1e-12);
  /* from west (-90): toward +x; y does not enter a vertical shear */
  w->u[w->u_wind_dir] = -90.0;
  awe_wind_update(m, w, t);
  awe_wind_point(m, w, p, out);
  ENSURE_NEAR(out[0], s_want, 1e-12);
  ENSURE_NEAR(out[1], 0.0, 1e-12);
  sp_free(sim, s);
}


/* every tether segment's line drag takes the wind at its own midpoint: under a vertical shear
 * the drag of each matches the closed form with that segment's wind */
static void test_segment_drag_per_point(void) {
  awe_spec *s = sp_load(PARKED, (const char *const[]){"run.duration=0", NULL});
  if (!s) return;
  awe_gust_spec g[1] = {gust(AWE_GUST_EWS)};
  g[0].start = 0.0;
  g[0].diameter = 10.0;
  g[0].shear = 30.0; /* a strong shear: 3 m/s per metre at the peak */
  g[0].height = 30.0;
  s->scenario.wind.ngust = 1;
  s->scenario.wind.gusts = g;
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  const awe_model *m = sim->m;
  awe_work *w = sim->w;
  double *dydt = malloc(sizeof(double) * (size_t)w->nx);
  awe_ctx c = sim->ctx;
  double t = 6.0; /* the peak: k = 2 A / D */
  awe_rhs(t, sim->y, dydt, &c);
  double k = 2 * 30.0 / 10.0;
  int nchecked = 0;
  double smin = INFINITY, smax = -INFINITY;
  for (int i = 0; i < m->nsegment; i++) {
    const awe_seg_hot *h = &w->seg_hot[i];
    if (h->drag == 0.0) continue;
    const double *pa = w->pos + 3 * h->a, *pb = w->pos + 3 * h->b;
    const double *va = w->vel + 3 * h->a, *vb = w->vel + 3 * h->b;
    double z = 0.5 * (pa[2] + pb[2]), sp = m->env.v_wind + k * (z - 30.0);
    double d[3], len, app[3], u[3];
    for (int j = 0; j < 3; j++) d[j] = pb[j] - pa[j];
    len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int j = 0; j < 3; j++) {
      u[j] = d[j] / len;
      app[j] = sp * m->env.wind_dir[j] - 0.5 * (va[j] + vb[j]);
    }
    double vpar = app[0] * u[0] + app[1] * u[1] + app[2] * u[2];
    double vabs = sqrt(app[0] * app[0] + app[1] * app[1] + app[2] * app[2]);
    double q = awe_density(&m->env, z) * h->drag * vabs * len;
    for (int j = 0; j < 3; j++)
      ENSURE_REL(w->seg_drag[3 * i + j] + 1e-30, q * (app[j] - vpar * u[j]) + 1e-30, 1e-9);
    if (sp < smin) smin = sp;
    if (sp > smax) smax = sp;
    nchecked++;
  }
  ENSURE(nchecked >= 5);
  ENSURE(smax - smin > 20.0); /* the segments do meet different winds */
  free(dydt);
  sp_free(sim, s);
}


/* trilinear look-up: exact for a field linear in y and z and, within a period, in x; periodic
 * in x; refused outside y, z */
static void test_box_lookup(void) {
  awe_wind_box b;
  memset(&b, 0, sizeof(b));
  int n[3] = {8, 5, 4};
  double d[3] = {2.0, 3.0, 4.0}, x0[3] = {0.0, -6.0, 10.0};
  memcpy(b.n, n, sizeof(n));
  memcpy(b.d, d, sizeof(d));
  memcpy(b.x0, x0, sizeof(x0));
  b.periodic_x = 1;
  float u[160], v[160], w[160];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 5; j++)
      for (int l = 0; l < 4; l++) {
        int k = (i * 5 + j) * 4 + l;
        double x = x0[0] + i * d[0], y = x0[1] + j * d[1], z = x0[2] + l * d[2];
        u[k] = (float)(0.5 * y - 0.25 * z);
        v[k] = (float)(i < 4 ? 0.125 * x : 0.0); /* a bump in x */
        w[k] = (float)(1.0 + 0.0625 * y * z);
      }
  b.u = u;
  b.v = v;
  b.w = w;
  double o[3];
  ENSURE(awe_wind_box_at(&b, 3.0, 1.5, 15.0, o) == 0);
  ENSURE_NEAR(o[0], 0.5 * 1.5 - 0.25 * 15.0, 1e-6);
  ENSURE_NEAR(o[1], 0.125 * 3.0, 1e-6);
  ENSURE_NEAR(o[2], 1.0 + 0.0625 * 1.5 * 15.0, 2e-2); /* bilinear in (y, z): exact at nodes */
  ENSURE(awe_wind_box_at(&b, 4.0, 0.0, 14.0, o) == 0);
  ENSURE_NEAR(o[2], 1.0 + 0.0625 * 0.0 * 14.0, 1e-6);
  /* periodic: x + 16 m is x; between the last plane and the first (x = 15 m: v 0 -> 0) */
  double o2[3];
  ENSURE(awe_wind_box_at(&b, 3.0 + 16.0, 1.5, 15.0, o2) == 0 && o2[1] == o[1] * 0 + o2[1]);
  ENSURE(awe_wind_box_at(&b, 3.0 - 32.0, 1.5, 15.0, o2) == 0);
  ENSURE_NEAR(o2[1], 0.125 * 3.0, 1e-6);
  ENSURE(awe_wind_box_at(&b, 15.0, 1.5, 15.0, o2) == 0);
  ENSURE_NEAR(o2[1], 0.0, 1e-6);
  ENSURE(awe_wind_box_at(&b, 7.0, 1.5, 15.0, o2) == 0);
  ENSURE_NEAR(o2[1], 0.5 * 0.125 * 6.0, 1e-6); /* halfway from 0.75 to 0 */
  /* the last planes are inside, beyond them not (no clamping) */
  ENSURE(awe_wind_box_at(&b, 3.0, 6.0, 22.0, o2) == 0);
  ENSURE_NEAR(o2[0], 0.5 * 6.0 - 0.25 * 22.0, 1e-6);
  ENSURE(awe_wind_box_at(&b, 3.0, 6.01, 15.0, o2) == -1);
  ENSURE(awe_wind_box_at(&b, 3.0, 0.0, 9.99, o2) == -1);
  ENSURE(awe_wind_box_at(&b, NAN, 0.0, 12.0, o2) == -1);
  /* periodic far away: a whole number of periods (16 m) beyond any integer's range lands on
   * the same value (was a conversion to long long out of its range, UBSan, found by
   * fuzz_h5_inputs); 2^80 m is a multiple of 16 m */
  ENSURE(awe_wind_box_at(&b, 3.0 + ldexp(1.0, 80), 1.5, 15.0, o2) == 0);
  ENSURE(isfinite(o2[1]) && o2[1] >= 0.0 && o2[1] <= 0.125 * 6.0);
  ENSURE(awe_wind_box_at(&b, -1e200, 1.5, 15.0, o2) == 0 && isfinite(o2[0]));
}


/* a box zero but at one node: only the line-drag midpoints within one spacing of that node
 * (its interpolation support) see a different wind; every other segment's drag keeps its bits */
static void test_box_one_node(void) {
  awe_spec *s = sp_load(PARKED, (const char *const[]){"run.duration=0", NULL});
  awe_sim *sim = s ? sp_sim(s, NULL) : NULL;
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  awe_model *m = (awe_model *)sim->m;
  awe_work *w = sim->w;
  double *dydt = malloc(sizeof(double) * (size_t)w->nx);
  double *d0 = malloc(sizeof(double) * 3 * (size_t)m->nsegment);
  awe_ctx c = sim->ctx;
  awe_rhs(0.0, sim->y, dydt, &c);
  memcpy(d0, w->seg_drag, sizeof(double) * 3 * (size_t)m->nsegment);
  /* a 1 m box over the flight: 60 x 60 x 40 points from (-10, -30, -1) */
  awe_wind_box b;
  memset(&b, 0, sizeof(b));
  b.n[0] = 60;
  b.n[1] = 60;
  b.n[2] = 40;
  b.d[0] = b.d[1] = b.d[2] = 1.0;
  b.x0[0] = -10.0;
  b.x0[1] = -30.0;
  b.x0[2] = -1.0;
  b.periodic_x = 1;
  size_t n = 60 * 60 * 40;
  b.uvw = calloc(3 * n, sizeof(float));
  /* the node nearest the middle of the tether's third segment with drag */
  int target = -1, seen = 0;
  for (int i = 0; i < m->nsegment && target < 0; i++)
    if (w->seg_hot[i].drag != 0.0 && ++seen == 3) target = i;
  ENSURE(target >= 0);
  if (target < 0) goto out;
  double pm[3], bc[3];
  const awe_seg_hot *h = &w->seg_hot[target];
  for (int k = 0; k < 3; k++) pm[k] = 0.5 * (w->pos[3 * h->a + k] + w->pos[3 * h->b + k]);
  ENSURE(awe_wind_box_coords(m, w, pm, bc) == -1); /* no box yet */
  m->env.box = &b;
  m->env.box_scale = 1.0;
  m->env.box_advection = 0.0;
  awe_wind_update(m, w, 0.0);
  ENSURE(awe_wind_box_coords(m, w, pm, bc) == 0);
  int node[3];
  for (int a = 0; a < 3; a++) node[a] = (int)lround((bc[a] - b.x0[a]) / b.d[a]);
  b.uvw[3 * (((size_t)node[0] * 60 + (size_t)node[1]) * 40 + (size_t)node[2])] = 5.0f;
  awe_rhs(0.0, sim->y, dydt, &c);
  int changed = 0, kept = 0;
  for (int i = 0; i < m->nsegment; i++) {
    h = &w->seg_hot[i];
    if (h->drag == 0.0) continue;
    for (int k = 0; k < 3; k++) pm[k] = 0.5 * (w->pos[3 * h->a + k] + w->pos[3 * h->b + k]);
    awe_wind_box_coords(m, w, pm, bc);
    int near = 1;
    for (int a = 0; a < 3; a++)
      near &= fabs((bc[a] - b.x0[a]) / b.d[a] - node[a]) < 1.0;
    int diff = memcmp(d0 + 3 * i, w->seg_drag + 3 * i, 3 * sizeof(double)) != 0;
    ENSURE(diff == near);
    changed += diff;
    kept += !diff;
  }
  ENSURE(changed >= 1 && kept >= 3);
  printf("    one node of a box: %d line-drag midpoint(s) changed, %d unchanged\n", changed, kept);
out:
  m->env.box = NULL;
  free(b.uvw);
  free(d0);
  free(dydt);
  sp_free(sim, s);
}


/* the VSM of a wing in a horizontal shear at its peak (1 m/s per metre across the wind): the
 * coupling's loads right after a refresh equal a fresh VSM solve whose panels each see the wind
 * at their control point (computed here from the shear's closed form), and differ from the
 * solve with one wind for the whole wing */
static void spanwise_case(const char *scen) {
  awe_spec *s = sp_load(scen, (const char *const[]){"run.duration=0", NULL});
  if (!s) return;
  awe_gust_spec g[1] = {gust(AWE_GUST_EWS)};
  g[0].start = 100.0; /* inactive during the steady state */
  g[0].diameter = 10.0;
  g[0].shear = 5.0;
  g[0].horizontal = 1;
  s->scenario.wind.ngust = 1;
  s->scenario.wind.gusts = g;
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  const awe_model *m = sim->m;
  awe_work *w = sim->w;
  awe_ctx c = sim->ctx;
  double t = 106.0, k = 2 * 5.0 / 10.0; /* the peak: 1 (m/s)/m */
  ENSURE(awe_rhs_aero_refresh(&c, t, sim->y) == 0);
  double *dydt = malloc(sizeof(double) * (size_t)w->nx);
  awe_rhs(t, sim->y, dydt, &c);
  const double *Fc = w->wing_aero_force_b;
  /* the fresh solve */
  awe_vsm_wing *v = awe_aero_vsm(w, 0);
  awe_vsm_geometry geo;
  awe_vsm_wing_geometry(v, &geo);
  const double *R = w->wing_R, *o = w->wing_pos, *dir = m->env.wind_dir;
  double h = hypot(dir[0], dir[1]), lat[3] = {-dir[1] / h, dir[0] / h, 0.0};
  double *dva = malloc(sizeof(double) * 3 * (size_t)geo.n_panels), spread = 0.0;
  for (int i = 0; i < geo.n_panels; i++) {
    double p[3], dw[3];
    awe_mat3_vec(R, geo.control_point + 3 * i, p);
    double dy = p[0] * lat[0] + p[1] * lat[1]; /* (o + p - o) . lat */
    for (int q = 0; q < 3; q++) dw[q] = k * dy * dir[q];
    awe_mat3_tvec(R, dw, dva + 3 * i);
    spread = fmax(spread, fabs(k * dy));
  }
  double om[3];
  for (int q = 0; q < 3; q++)
    om[q] = R[q] * w->wing_omega_w[0] + R[3 + q] * w->wing_omega_w[1] +
            R[6 + q] * w->wing_omega_w[2];
  awe_vsm_result r;
  awe_vsm_wing_set_panel_wind(v, dva);
  ENSURE(awe_vsm_solve(v, w->wing_va_b, om, NULL, &r) == AWE_VSM_OK);
  double f = awe_density(&m->env, o[2]) / awe_vsm_wing_settings(v)->density, Fs[3], Fu[3];
  for (int q = 0; q < 3; q++) Fs[q] = f * r.force[q];
  awe_vsm_wing_set_panel_wind(v, NULL);
  ENSURE(awe_vsm_solve(v, w->wing_va_b, om, NULL, &r) == AWE_VSM_OK);
  for (int q = 0; q < 3; q++) Fu[q] = f * r.force[q];
  double d1[3], d2[3];
  for (int q = 0; q < 3; q++) {
    d1[q] = Fc[q] - Fs[q];
    d2[q] = Fu[q] - Fs[q];
  }
  double e = awe_v3_norm(d1) / awe_v3_norm(Fs), u = awe_v3_norm(d2) / awe_v3_norm(Fs);
  printf("    %s: wind +-%.2f m/s along the span: coupling vs fresh per-panel solve %.2e, "
         "uniform inflow %.2e off\n", scen, spread, e, u);
  ENSURE(spread > 0.5);
  ENSURE(e < 1e-4);
  ENSURE(u > 10 * e && u > 1e-3);
  free(dva);
  free(dydt);
  sp_free(sim, s);
}


static void test_spanwise_inflow(void) {
  spanwise_case(PARKED);                         /* rigid, linearized loads */
  spanwise_case("scenarios/2plate_refine.yaml"); /* particle wing */
}


/* Taylor's frozen turbulence: the box moves with the wind at U, its x axis along the wind's
 * horizontal direction (turned by wind.direction), y to its left; scaled fluctuations in the
 * world frame; the default U is the settings' mean wind at the box's middle height */
static void test_box_advection(void) {
  awe_spec *s = sp_load(PARKED, (const char *const[]){"run.duration=0", NULL});
  awe_sim *sim = s ? sp_sim(s, NULL) : NULL;
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  awe_model *m = (awe_model *)sim->m;
  awe_work *w = sim->w;
  awe_wind_box b;
  memset(&b, 0, sizeof(b));
  b.n[0] = 16;
  b.n[1] = 8;
  b.n[2] = 8;
  b.d[0] = 5.0;
  b.d[1] = b.d[2] = 4.0;
  b.x0[0] = 0.0;
  b.x0[1] = -14.0;
  b.x0[2] = 0.0;
  b.periodic_x = 1;
  float uvw[3 * 16 * 8 * 8];
  for (int i = 0; i < 3 * 16 * 8 * 8; i++) uvw[i] = (float)(0.01 * ((i * 7919) % 211) - 1.0);
  b.uvw = uvw;
  m->env.box = &b;
  m->env.box_scale = 2.0;
  m->env.box_advection = 7.0;
  w->u[w->u_wind_dir] = -60.0; /* from WNW: blowing toward +x and -y */
  double t = 3.0, p[3] = {12.0, -3.0, 9.0}, out[3], mean[3], f[3];
  awe_wind_update(m, w, t);
  awe_wind_point(m, w, p, out);
  double dir = -60.0 * M_PI / 180, dh[2] = {-sin(dir), -cos(dir)}, lat[2] = {-dh[1], dh[0]};
  double bx = p[0] * dh[0] + p[1] * dh[1] - 7.0 * t, by = p[0] * lat[0] + p[1] * lat[1];
  ENSURE(awe_wind_box_at(&b, bx, by, p[2], f) == 0);
  double v = m->env.v_wind;
  mean[0] = v * dh[0];
  mean[1] = v * dh[1];
  mean[2] = 0.0;
  ENSURE_NEAR(out[0], mean[0] + 2.0 * (f[0] * dh[0] + f[1] * lat[0]), 1e-9);
  ENSURE_NEAR(out[1], mean[1] + 2.0 * (f[0] * dh[1] + f[1] * lat[1]), 1e-9);
  ENSURE_NEAR(out[2], mean[2] + 2.0 * f[2], 1e-9);
  /* one box length later (80 m at 7 m/s) the same: periodic in x */
  double out2[3];
  awe_wind_update(m, w, t + 80.0 / 7.0);
  awe_wind_point(m, w, p, out2);
  for (int k = 0; k < 3; k++) ENSURE_NEAR(out2[k], out[k], 1e-9);
  /* default advection: the settings' wind at the box's middle height (profile law 0: v) */
  m->env.box_advection = NAN;
  awe_wind_update(m, w, 2.0);
  ENSURE_NEAR(w->wind.box_shift, 2.0 * v, 1e-12);
  /* above the box: NaN (the run then stops and names the place) */
  double far[3] = {0.0, 0.0, 40.0}, o3[3];
  awe_wind_point(m, w, far, o3);
  ENSURE(isnan(o3[0]) && isnan(o3[1]) && isnan(o3[2]));
  m->env.box = NULL;
  sp_free(sim, s);
}


static void put16(FILE *f, int v) {
  unsigned char c[2] = {(unsigned char)(v & 0xff), (unsigned char)((v >> 8) & 0xff)};
  fwrite(c, 1, 2, f);
}
static void put32(FILE *f, long v) {
  unsigned char c[4] = {(unsigned char)(v & 0xff), (unsigned char)((v >> 8) & 0xff),
                        (unsigned char)((v >> 16) & 0xff), (unsigned char)((v >> 24) & 0xff)};
  fwrite(c, 1, 4, f);
}
static void putf(FILE *f, float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  put32(f, (long)u);
}


/* a TurbSim .bts file: its time steps become x (time step 0 at x = 0, the later ones upstream at
 * -i u_hub dt), y centred, z from z_bottom; the time mean removed; repeated along x (any ID) */
static void test_bts(void) {
  const char *path = "build/tests/test_wind_box.bts";
  FILE *f = fopen(path, "wb");
  ENSURE(f != NULL);
  if (!f) return;
  const int ny = 4, nz = 3, nt = 6;
  put16(f, 7);
  put32(f, nz);
  put32(f, ny);
  put32(f, 0);
  put32(f, nt);
  const float hdr[6] = {2.0f, 3.0f, 0.5f, 10.0f, 12.0f, 10.0f}; /* dz dy dt u_hub z_hub z_bot */
  for (int k = 0; k < 6; k++) putf(f, hdr[k]);
  const float sl[3] = {100, 200, 400}, of[3] = {-1000, 0, 5};
  for (int k = 0; k < 3; k++) {
    putf(f, sl[k]);
    putf(f, of[k]);
  }
  put32(f, 4);
  fwrite("test", 1, 4, f);
  for (int it = 0; it < nt; it++)
    for (int iz = 0; iz < nz; iz++)
      for (int iy = 0; iy < ny; iy++) {
        double x[3] = {10.0 + 0.1 * iy, 0.5 * (it - 2.5), it < 3 ? 0.25 : -0.25};
        for (int k = 0; k < 3; k++) put16(f, (int)lround(x[k] * sl[k] + of[k]));
      }
  fclose(f);
  awe_wind_box b;
  awe_err err = {0};
  ENSURE(awe_wind_box_read(path, &b, &err) == AWE_OK);
  if (err.code) {
    fprintf(stderr, "    %s\n", err.msg);
    return;
  }
  ENSURE(b.n[0] == 6 && b.n[1] == 4 && b.n[2] == 3 && b.periodic_x);
  ENSURE_NEAR(b.d[0], 5.0, 1e-12);
  ENSURE_NEAR(b.x0[0], -25.0, 1e-12);
  ENSURE_NEAR(b.x0[1], -4.5, 1e-12);
  ENSURE_NEAR(b.x0[2], 10.0, 1e-12);
  double o[3];
  ENSURE(awe_wind_box_at(&b, 0.0, 0.0, 12.0, o) == 0); /* time step 0 */
  ENSURE_NEAR(o[0], 0.0, 1e-6);                        /* u: its mean at the point removed */
  ENSURE_NEAR(o[1], -1.25, 1e-6);
  ENSURE_NEAR(o[2], 0.25, 1e-6);
  ENSURE(awe_wind_box_at(&b, -25.0, 0.0, 12.0, o) == 0); /* time step 5 */
  ENSURE_NEAR(o[1], 1.25, 1e-6);
  ENSURE_NEAR(o[2], -0.25, 1e-6);
  awe_wind_box_free(&b);
  /* cut in its data: refused */
  f = fopen(path, "r+b");
  if (f) {
    ENSURE(ftruncate(fileno(f), 200) == 0);
    fclose(f);
  }
  ENSURE(awe_wind_box_read(path, &b, &err) == AWE_EINVAL);
  ENSURE(strstr(err.msg, "truncated") != NULL);
  remove(path);
}


int main(void) {
  RUN(test_bts);
  RUN(test_box_advection);
  RUN(test_spanwise_inflow);
  RUN(test_box_one_node);
  RUN(test_box_lookup);
  RUN(test_fast_laws);
  RUN(test_eog);
  RUN(test_edc);
  RUN(test_ecd);
  RUN(test_ews);
  RUN(test_wind_inputs);
  RUN(test_segment_drag_per_point);
  return harness_report();
}
