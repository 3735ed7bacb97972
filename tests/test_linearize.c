/* test_linearize.c: linearization of the shipped non-wing models against analytic results,
 * modal analysis, channel selection, and the HDF5 / OpenFAST-style text / CSV files.
 *
 * Spring-mass (models/spring_mass, settled at its rest length): with the model's own
 *   m = w->mass, k = EA l0/len^2 (spring slope), c = unit_damping/len,
 *   lambda = -c/(2m) +- i sqrt(k/m - (c/2m)^2) = -zeta w_n +- i w_n sqrt(1 - zeta^2)
 * within 1e-4 relative; B = [0; I/m] for the force inputs, C = [I 0] for the position outputs.
 * Pendulum (models/pendulum, hanging): the swing pair has |Im lambda| = sqrt(g/L), 1e-4.
 */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "control/controller.h"
#include "output/lin_output.h"
#include "analysis/linearize.h"
#include "io/load.h"
#include "analysis/modal.h"
#include "model/model.h"

typedef struct {
  awe_spec *spec;
  awe_model *m;
  awe_sim *sim;
  awe_op op;
  awe_lin_model lm;
  awe_lin_problem p;
  awe_lin_chan *uc, *yc;
  awe_linsys L;
  int ok;
} fixture;


/* load, settle, default channels, linearize */
static void setup(fixture *f, const char *scenario) {
  memset(f, 0, sizeof(*f));
  awe_err err = {0};
  awe_diag warn = {0};
  f->spec = awe_spec_load(scenario, 0, NULL, &warn, &err);
  awe_diag_free(&warn);
  if (!f->spec) {
    HARNESS_FAIL("load %s: %s", scenario, err.msg);
    return;
  }
  f->m = awe_model_build_controlled(f->spec, &f->spec->warnings, &err);
  if (!f->m) {
    HARNESS_FAIL("build: %s", err.msg);
    return;
  }
  f->sim = awe_sim_alloc(f->m, NULL, &err);
  if (!f->sim || awe_op_find(f->sim, NAN, AWE_OP_HOLD_TORQUE, &f->op, &err)) {
    HARNESS_FAIL("operating point: %s", err.msg);
    return;
  }
  int nu = 0, ny = 0, fb = 0;
  if (awe_lin_default_inputs(f->m, &f->uc, &nu, &fb, &err) ||
      awe_lin_default_outputs(f->m, &f->yc, &ny, &fb, &err)) {
    HARNESS_FAIL("channels: %s", err.msg);
    return;
  }
  awe_lin_model_init(&f->lm, f->m, f->sim->w, 0);
  awe_lin_problem p = {.xl = &f->m->reg.state, .ul = &f->m->reg.input, .yl = &f->m->reg.output,
                       .eval = awe_lin_model_eval, .ctx = &f->lm, .uc = f->uc, .nu = nu,
                       .yc = f->yc, .ny = ny, .integrating = awe_lin_model_integrating};
  f->p = p;
  if (awe_linearize(&f->p, f->op.x, f->op.u, &f->L, &err)) {
    HARNESS_FAIL("linearize: %s", err.msg);
    return;
  }
  f->ok = 1;
}


static void teardown(fixture *f) {
  awe_linsys_free(&f->L);
  free(f->uc);
  free(f->yc);
  awe_op_free(&f->op);
  awe_sim_free(f->sim);
  awe_model_free(f->m);
  awe_spec_free(f->spec);
}


static int find_name(char *const *names, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(names[i], name)) return i;
  return -1;
}


static double crel(double re, double im, double re0, double im0) {
  return hypot(re - re0, im - im0) / hypot(re0, im0);
}


static void test_spring_mass(void) {
  fixture f;
  setup(&f, "scenarios/tests/lin_spring_mass.yaml");
  if (!f.ok) {
    teardown(&f);
    return;
  }
  const awe_model *m = f.m;
  awe_work *w = f.sim->w;
  awe_linsys *L = &f.L;
  ENSURE(L->nx == 6 && L->nu == 3 && L->ny == 3);
  ENSURE(L->residual < 1e-9);
  /* the model's own numbers at the operating point */
  awe_ctx c = awe_ctx_make(m, w, f.op.u);
  double dydt[6];
  ENSURE(awe_rhs(0.0, f.op.x, dydt, &c) == 0);
  int pm = awe_model_find_point(m, "mass");
  double mass = w->mass[pm], len = w->seg_len[0], l0 = w->seg_l0[0];
  double k = m->segment_unit_k[0] * l0 / (len * len), cd = m->segment_unit_c[0] / len;
  ENSURE_NEAR(len, 1.0, 1e-8);
  ENSURE_NEAR(mass, 1.0, 1e-12);
  double wn = sqrt(k / mass), zeta = cd / (2.0 * sqrt(k * mass));
  double re0 = -zeta * wn, im0 = wn * sqrt(1.0 - zeta * zeta);
  printf("  spring-mass: k %.9g N/m, c %.9g N s/m, m %.9g kg: lambda = %.9g +- %.9g i\n", k, cd,
         mass, re0, im0);

  awe_mode *md = NULL;
  int nm = 0;
  awe_err err = {0};
  ENSURE(awe_modal(L->A, L->nx, &md, &nm, &err) == AWE_OK);
  int found = 0;
  for (int i = 0; i < nm; i++) {
    if (md[i].im < 1.0) continue;
    found++;
    double e = crel(md[i].re, md[i].im, re0, im0);
    printf("  axial mode: %.12g + %.12g i (rel err %.2e), f %.9g Hz, zeta %.9g\n", md[i].re,
           md[i].im, e, md[i].freq, md[i].zeta);
    ENSURE(e < 1e-4);
    ENSURE_REL(md[i].freq, wn / (2 * AWE_PI), 1e-4);
    ENSURE_REL(md[i].zeta, zeta, 1e-4);
    ENSURE_REL(md[i].tau, 1.0 / (zeta * wn), 1e-4);
    /* participation: position and velocity along z share the mode */
    int iz = find_name(L->x_name, L->nx, "points.mass.pos.z");
    int ivz = find_name(L->x_name, L->nx, "points.mass.vel.z");
    ENSURE((md[i].top[0] == iz && md[i].top[1] == ivz) ||
           (md[i].top[0] == ivz && md[i].top[1] == iz));
    ENSURE_NEAR(md[i].share[0] + md[i].share[1], 1.0, 1e-6);
  }
  ENSURE(found == 1);
  /* the other eigenvalues: free transverse motion (no tension at l0) */
  for (int i = 0; i < nm; i++)
    if (md[i].im < 1.0) ENSURE(hypot(md[i].re, md[i].im) < 1e-3);
  free(md);

  /* A, B, C, D analytic */
  int x[3], v[3], uf[3], yp[3];
  const char *ax = "xyz";
  for (int d = 0; d < 3; d++) {
    char nm_[64];
    snprintf(nm_, sizeof(nm_), "points.mass.pos.%c", ax[d]);
    x[d] = find_name(L->x_name, L->nx, nm_);
    yp[d] = find_name(L->y_name, L->ny, nm_);
    snprintf(nm_, sizeof(nm_), "points.mass.vel.%c", ax[d]);
    v[d] = find_name(L->x_name, L->nx, nm_);
    snprintf(nm_, sizeof(nm_), "points.mass.force.%c", ax[d]);
    uf[d] = find_name(L->u_name, L->nu, nm_);
    ENSURE(x[d] >= 0 && v[d] >= 0 && uf[d] >= 0 && yp[d] >= 0);
  }
  if (x[2] < 0 || v[2] < 0) {
    teardown(&f);
    return;
  }
  int nx = L->nx, nu = L->nu;
  ENSURE_REL(L->A[v[2] * nx + x[2]], -k / mass, 1e-6);
  ENSURE_REL(L->A[v[2] * nx + v[2]], -cd / mass, 1e-6);
  for (int d = 0; d < 3; d++) ENSURE_NEAR(L->A[x[d] * nx + v[d]], 1.0, 1e-9);
  double bmax = 0.0, cmax = 0.0, dmax = 0.0;
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < nu; j++) {
      double want = 0.0;
      for (int d = 0; d < 3; d++)
        if (i == v[d] && j == uf[d]) want = 1.0 / mass;
      bmax = fmax(bmax, fabs(L->B[i * nu + j] - want));
    }
  for (int i = 0; i < L->ny; i++) {
    for (int j = 0; j < nx; j++) {
      double want = 0.0;
      for (int d = 0; d < 3; d++)
        if (i == yp[d] && j == x[d]) want = 1.0;
      cmax = fmax(cmax, fabs(L->C[i * nx + j] - want));
    }
    for (int j = 0; j < nu; j++) dmax = fmax(dmax, fabs(L->D[i * nu + j]));
  }
  printf("  |B - [0; I/m]|max %.2e, |C - [I 0]|max %.2e, |D|max %.2e\n", bmax, cmax, dmax);
  ENSURE(bmax < 1e-8);
  ENSURE(cmax < 1e-8);
  ENSURE(dmax < 1e-8);
  teardown(&f);
}


static void test_pendulum(void) {
  fixture f;
  setup(&f, "scenarios/tests/lin_pendulum.yaml");
  if (!f.ok) {
    teardown(&f);
    return;
  }
  double g = f.m->env.g, L0 = 1.0;
  double w0 = sqrt(g / L0);
  awe_mode *md = NULL;
  int nm = 0;
  awe_err err = {0};
  ENSURE(awe_modal(f.L.A, f.L.nx, &md, &nm, &err) == AWE_OK);
  int found = 0;
  for (int i = 0; i < nm; i++) {
    if (!(md[i].im > 0.5 * w0 && md[i].im < 2.0 * w0)) continue;
    found++;
    printf("  pendulum swing: lambda = %.3g + %.12g i, sqrt(g/L) = %.12g (rel %.2e)\n",
           md[i].re, md[i].im, w0, fabs(md[i].im - w0) / w0);
    ENSURE_REL(md[i].im, w0, 1e-4);
    ENSURE(fabs(md[i].re) < 1e-6);
  }
  ENSURE(found == 2); /* swing in x and in y */
  free(md);
  teardown(&f);
}


static void test_hanging_tether(void) {
  fixture f;
  setup(&f, "scenarios/tests/lin_hanging_tether.yaml");
  if (!f.ok) {
    teardown(&f);
    return;
  }
  awe_linsys *L = &f.L;
  printf("  hanging tether: nx %d, nu %d, ny %d, residual %.3g, %ld evaluations\n", L->nx, L->nu,
         L->ny, L->residual, L->nevals);
  ENSURE(L->nu == 1 && !strcmp(L->u_name[0], "winches.main_winch.torque"));
  ENSURE(find_name(L->y_name, L->ny, "tethers.main_tether.len") >= 0);
  ENSURE(find_name(L->y_name, L->ny, "winches.main_winch.force") >= 0);
  int il = find_name(L->x_name, L->nx, "tethers.main_tether.len");
  int iv = find_name(L->x_name, L->nx, "winches.main_winch.vel");
  ENSURE(il >= 0 && iv >= 0 && L->x_integrating[il] && !L->x_integrating[iv]);
  ENSURE(L->residual < 1e-6);
  if (iv >= 0) {
    /* d(winch vel)/d torque = ratio / inertia */
    double ratio = f.m->winch_drum_radius[0] / f.m->winch_gear_ratio[0];
    ENSURE_REL(L->B[iv * L->nu], ratio / f.m->winch_inertia[0], 1e-6);
    /* the tether length integrates the reel-out speed */
    ENSURE_NEAR(L->A[il * L->nx + iv], 1.0, 1e-9);
  }
  /* holding torque: -ratio |F_w| */
  int iy = find_name(L->y_name, L->ny, "winches.main_winch.force");
  if (iy >= 0)
    ENSURE_REL(L->u_op[0], -f.m->winch_drum_radius[0] * L->y_op[iy], 1e-9);
  ENSURE(f.op.nheld == 1);
  teardown(&f);
}


static void test_select(void) {
  fixture f;
  setup(&f, "scenarios/tests/lin_hanging_tether.yaml");
  if (!f.ok) {
    teardown(&f);
    return;
  }
  awe_err err = {0};
  awe_lin_chan *c = NULL;
  int n = 0;
  ENSURE(awe_lin_select(&f.m->reg.output, "points.end_mass.pos, winches.*.force", 0, &c, &n,
                        &err) == AWE_OK);
  ENSURE(n == 4);
  char nm[256];
  if (n == 4) {
    awe_lin_chan_name(&f.m->reg.output, &c[0], nm, sizeof(nm));
    ENSURE_STR(nm, "points.end_mass.pos.x");
    awe_lin_chan_name(&f.m->reg.output, &c[3], nm, sizeof(nm));
    ENSURE_STR(nm, "winches.main_winch.force");
  }
  free(c);
  ENSURE(awe_lin_select(&f.m->reg.input, "winches.main_winch.torqe", 0, &c, &n, &err) ==
         AWE_EUSAGE);
  ENSURE_CONTAINS(err.msg, "did you mean 'winches.main_winch.torque'");
  /* a discrete input cannot be linearized */
  ENSURE(awe_lin_select(&f.m->reg.input, "winches.main_winch.brake", 0, &c, &n, &err) ==
         AWE_OK);
  awe_lin_problem p = f.p;
  p.uc = c;
  p.nu = n;
  awe_linsys L2;
  ENSURE(awe_linearize(&p, f.op.x, f.op.u, &L2, &err) == AWE_EUSAGE);
  ENSURE_CONTAINS(err.msg, "discrete");
  free(c);
  teardown(&f);
}


/* fixed-length string dataset -> array of strings (malloc'ed block) */
static char **read_strings(hid_t file, const char *name, int *n) {
  hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
  if (d < 0) return NULL;
  hid_t t = H5Dget_type(d), s = H5Dget_space(d);
  hsize_t dim = 0;
  H5Sget_simple_extent_dims(s, &dim, NULL);
  size_t w = H5Tget_size(t);
  char *buf = calloc(dim * w + 1, 1);
  char **out = calloc(dim + 1, sizeof(char *));
  if (dim) H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
  for (hsize_t i = 0; i < dim; i++) {
    out[i] = calloc(w + 1, 1);
    memcpy(out[i], buf + i * w, w);
  }
  free(buf);
  H5Tclose(t);
  H5Sclose(s);
  H5Dclose(d);
  *n = (int)dim;
  return out;
}


static void free_strings(char **s, int n) {
  for (int i = 0; s && i < n; i++) free(s[i]);
  free(s);
}


static void test_files(void) {
  fixture f;
  setup(&f, "scenarios/tests/lin_hanging_tether.yaml");
  if (!f.ok) {
    teardown(&f);
    return;
  }
  awe_linsys *L = &f.L;
  awe_err err = {0};
  char h5[256], txt[256], csv[256], path[300];
  snprintf(h5, sizeof(h5), "/tmp/awe_test_lin_%d.h5", (int)getpid());
  snprintf(txt, sizeof(txt), "/tmp/awe_test_lin_%d.lin", (int)getpid());
  snprintf(csv, sizeof(csv), "/tmp/awe_test_lin_%d", (int)getpid());
  awe_mode *md = NULL;
  int nm = 0;
  ENSURE(awe_modal(L->A, L->nx, &md, &nm, &err) == AWE_OK);
  awe_lin_info info = {.command_line = "test", .scenario = "awesim: 1\n", .t_op = 0.0,
                       .steady = 1};
  ENSURE(awe_lin_write_h5(h5, L, md, nm, &info, &err) == AWE_OK);
  ENSURE(awe_lin_write_text(txt, L, &info, &err) == AWE_OK);
  ENSURE(awe_lin_write_csv(csv, L, &err) == AWE_OK);
  free(md);

  /* HDF5: names and units are the registry's */
  hid_t file = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
  ENSURE(file >= 0);
  if (file >= 0) {
    int n = 0, nun = 0;
    char **xn = read_strings(file, "x_names", &n), **xu = read_strings(file, "x_units", &nun);
    ENSURE(n == f.m->reg.state.size && nun == n);
    int bad = 0;
    const awe_varlist *xl = &f.m->reg.state;
    for (int i = 0; i < xl->n; i++)
      for (int k = 0; k < xl->v[i].dim; k++) {
        char want[256];
        awe_var_scalar_name(&xl->v[i], k, want, sizeof(want));
        int j = xl->v[i].offset + k;
        if (j >= n || strcmp(xn[j], want) || strcmp(xu[j], xl->v[i].unit)) bad++;
      }
    ENSURE(bad == 0);
    free_strings(xn, n);
    free_strings(xu, nun);
    char **un = read_strings(file, "u_names", &n), **uu = read_strings(file, "u_units", &nun);
    ENSURE(n == 1 && !strcmp(un[0], "winches.main_winch.torque") && !strcmp(uu[0], "N m"));
    free_strings(un, n);
    free_strings(uu, nun);
    char **yn = read_strings(file, "y_names", &n), **yu = read_strings(file, "y_units", &nun);
    for (int j = 0; j < n; j++) {
      int vi = awe_varlist_find(&f.m->reg.output, yn[j]);
      ENSURE(vi >= 0 && !strcmp(yu[j], f.m->reg.output.v[vi].unit));
    }
    free_strings(yn, n);
    free_strings(yu, nun);
    /* A reads back bit-exactly */
    double *A = malloc(sizeof(double) * (size_t)(L->nx * L->nx));
    hid_t d = H5Dopen2(file, "A", H5P_DEFAULT);
    ENSURE(d >= 0 && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, A) >= 0);
    ENSURE(memcmp(A, L->A, sizeof(double) * (size_t)(L->nx * L->nx)) == 0);
    H5Dclose(d);
    free(A);
    H5Fclose(file);
  }

  /* OpenFAST-style text reads back to the same matrices */
  awe_linsys R;
  double t_op = -1.0;
  ENSURE(awe_lin_read_text(txt, &R, &t_op, &err) == AWE_OK);
  if (!err.code) {
    ENSURE(R.nx == L->nx && R.nu == L->nu && R.ny == L->ny);
    ENSURE(t_op == 0.0);
    size_t nx = (size_t)L->nx, nu = (size_t)L->nu, ny = (size_t)L->ny;
    ENSURE(memcmp(R.A, L->A, sizeof(double) * nx * nx) == 0);
    ENSURE(memcmp(R.B, L->B, sizeof(double) * nx * nu) == 0);
    ENSURE(memcmp(R.C, L->C, sizeof(double) * ny * nx) == 0);
    ENSURE(memcmp(R.D, L->D, sizeof(double) * ny * nu) == 0);
    ENSURE(memcmp(R.x_op, L->x_op, sizeof(double) * nx) == 0);
    ENSURE(memcmp(R.u_op, L->u_op, sizeof(double) * nu) == 0);
    ENSURE(memcmp(R.y_op, L->y_op, sizeof(double) * ny) == 0);
    int bad = 0;
    for (int i = 0; i < L->nx; i++)
      bad += strcmp(R.x_name[i], L->x_name[i]) || strcmp(R.x_unit[i], L->x_unit[i]);
    for (int i = 0; i < L->nu; i++)
      bad += strcmp(R.u_name[i], L->u_name[i]) || strcmp(R.u_unit[i], L->u_unit[i]);
    for (int i = 0; i < L->ny; i++)
      bad += strcmp(R.y_name[i], L->y_name[i]) || strcmp(R.y_unit[i], L->y_unit[i]);
    ENSURE(bad == 0);
    awe_linsys_free(&R);
  }
  /* a damaged file is a parse error with a line number: the last number's last digit made an
   * 'x' (a fixed offset from the end could land between numbers, where the damage depends on
   * the model's values) */
  FILE *fp = fopen(txt, "r+");
  if (fp) {
    fseek(fp, 0, SEEK_END);
    long at = ftell(fp);
    int ch = 0;
    while (at > 0) {
      fseek(fp, --at, SEEK_SET);
      ch = fgetc(fp);
      if (ch >= '0' && ch <= '9') break;
    }
    fseek(fp, at, SEEK_SET);
    fputc('x', fp);
    fclose(fp);
    ENSURE(ch >= '0' && ch <= '9');
    ENSURE(awe_lin_read_text(txt, &R, NULL, &err) == AWE_EPARSE);
  }
  ENSURE(awe_lin_read_text("/nonexistent/x.lin", &R, NULL, &err) == AWE_ENOFILE);

  /* CSV header carries names and units */
  snprintf(path, sizeof(path), "%s_B.csv", csv);
  fp = fopen(path, "r");
  ENSURE(fp != NULL);
  if (fp) {
    char line[256];
    ENSURE(fgets(line, sizeof(line), fp) != NULL);
    ENSURE_STR(line, "B,winches.main_winch.torque[N m]\n");
    fclose(fp);
  }
  remove(h5);
  remove(txt);
  const char *mats[] = {"A", "B", "C", "D"};
  for (int i = 0; i < 4; i++) {
    snprintf(path, sizeof(path), "%s_%s.csv", csv, mats[i]);
    remove(path);
  }
  teardown(&f);
}


int main(void) {
  RUN(test_spring_mass);
  RUN(test_pendulum);
  RUN(test_hanging_tether);
  RUN(test_select);
  RUN(test_files);
  return harness_report();
}
