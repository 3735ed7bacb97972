/* bench_lu.c: the hand-written sparse LU (src/solve/sparse_lu.h) against SuiteSparse's KLU on
 * the iteration matrices M = I - c J that trbdf2 factorises.
 *
 * Cases: the V3 kite's figure eight (scenarios/v3_figure_eight.yaml, 272 states) and the
 * hanging tether of 10 and 1000 segments (bench_speed's tether-N models, written to /tmp). Each
 * is flown with trbdf2 to a few states; at each, J comes from the analytic Jacobian
 * (awe_jacobian_sparse, the stepper's own pattern) and c = d h with h the mean step so far.
 * Per state and LU: factorisation and solve times (the fastest of 7 batches: the machine is
 * shared), nonzeros of L + U, and the scaled residual |M x - b| / (|M| |x| + |b|) (max norms)
 * of a solve with a random b. KLU (default options: BTF, AMD, partial pivoting with
 * tol 1e-3) runs klu_analyze once per case, klu_factor once (it chooses the pivots) and
 * klu_refactor for each new matrix (the pivots kept, as a stepper with a fixed pattern would);
 * "KLU refactor+fill" adds writing M's values into KLU's column form from J, which our
 * awe_slu_factor does inside. Entries |c J_ij| < AWE_SLU_DROP are zero in both; "KLUz" is
 * KLU's best case, analysed and factorised on the pattern of this state's nonzeros only (our
 * LU skips the zeros numerically; a stepper could not re-analyse at every step).
 * Built only where SuiteSparse's headers are installed (the Makefile's HAVE_KLU; Debian
 * libsuitesparse-dev); the program does not depend on KLU. Run from the repository root:
 * build/bench/bench_lu [v3|tether10|tether1000].
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <suitesparse/klu.h>

#include "control/controller.h"
#include "io/load.h"
#include "solve/integrate.h"
#include "solve/sim.h"
#include "solve/sparse_lu.h"

#define NBATCH 7

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* a tether of n segments as bench_speed's tether-N: /tmp/bench_lu_tetherN.yaml */
static int write_tether(int n, char *scen, size_t len) {
  char path[256], cwd[200];
  snprintf(path, sizeof(path), "/tmp/bench_lu_tether%d_structure.yaml", n);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "materials:\n  headers: [name, youngs_modulus, density, damping_per_stiffness]\n"
             "  data:\n    - [dyneema, 55000000000.0, 724.0, 0.00077]\n"
             "points:\n  headers: [name, pos_cad, type, extra_mass, area, drag_coeff]\n"
             "  data:\n    - [winch, [0.0, 0.0, 0.0], STATIC, 0.0, 0.0, 0.0]\n"
             "    - [end_mass, [20.0, 0.0, -98.0], DYNAMIC, 5.0, 0.0, 0.0]\n"
             "tethers:\n  headers: [name, start_point, end_point, n_segments, material, "
             "diameter_mm]\n  data:\n    - [main_tether, end_mass, winch, %d, dyneema, 4.0]\n"
             "winches:\n  headers: [name, tether_idxs, winch_point]\n"
             "  data:\n    - [main_winch, [main_tether], winch]\n", n);
  if (fclose(f)) return -1;
  snprintf(scen, len, "/tmp/bench_lu_tether%d.yaml", n);
  f = fopen(scen, "w");
  if (!f) return -1;
  fprintf(f, "awesim: 1\nmodel: {structure: bench_lu_tether%d_structure.yaml, settings: "
             "%s/models/hanging_tether/settings.yaml}\n"
             "settings: {environment: {v_wind: 10.0}}\n"
             "run: {duration: 2.0, dt: 0.05, abs_tol: 1.0e-6, rel_tol: 1.0e-6}\n"
             "inputs:\n  - {input: winches.main_winch.brake, type: constant, value: 1.0}\n",
          n, getcwd(cwd, sizeof(cwd)) ? cwd : ".");
  return fclose(f);
}


typedef struct {
  int n, nnz;         /* M's CSC pattern: J's pattern and the diagonal, rows sorted */
  int *Ap, *Ai;
  double *Ax;
  int *src;           /* Ax[k] = delta - c jval[src[k]], src -1: the diagonal outside J */
  int *isdiag;
} csc;


static int cmp_pair(const void *a, const void *b) {
  const int *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}


static int csc_build(csc *M, int n, const int *adr, const int *num, const int *rows) {
  int nz = 0;
  for (int j = 0; j < n; j++) nz += num[j] + 1;
  M->n = n;
  M->Ap = calloc((size_t)n + 1, sizeof(int));
  M->Ai = malloc(sizeof(int) * (size_t)nz);
  M->Ax = malloc(sizeof(double) * (size_t)nz);
  M->src = malloc(sizeof(int) * (size_t)nz);
  M->isdiag = malloc(sizeof(int) * (size_t)nz);
  int *pair = malloc(sizeof(int) * 2 * ((size_t)n + 1));
  if (!M->Ap || !M->Ai || !M->Ax || !M->src || !M->isdiag || !pair) return -1;
  int k = 0;
  for (int j = 0; j < n; j++) {
    int m = 0, diag = 0;
    for (int q = 0; q < num[j]; q++) {
      pair[2 * m] = rows[adr[j] + q];
      pair[2 * m + 1] = adr[j] + q;
      diag |= rows[adr[j] + q] == j;
      m++;
    }
    if (!diag) {
      pair[2 * m] = j;
      pair[2 * m + 1] = -1;
      m++;
    }
    qsort(pair, (size_t)m, 2 * sizeof(int), cmp_pair);
    M->Ap[j] = k;
    for (int q = 0; q < m; q++, k++) {
      M->Ai[k] = pair[2 * q];
      M->src[k] = pair[2 * q + 1];
      M->isdiag[k] = pair[2 * q] == j;
    }
  }
  M->Ap[n] = k;
  M->nnz = k;
  free(pair);
  return 0;
}


static void csc_fill(csc *M, double c, const double *jval) {
  for (int k = 0; k < M->nnz; k++) {
    double v = M->src[k] >= 0 ? -c * jval[M->src[k]] : 0.0;
    if (fabs(v) < AWE_SLU_DROP) v = 0.0;
    M->Ax[k] = v + (M->isdiag[k] ? 1.0 : 0.0);
  }
}


static void csc_free(csc *M) {
  free(M->Ap);
  free(M->Ai);
  free(M->Ax);
  free(M->src);
  free(M->isdiag);
}


/* |M x - b|_inf / (|M|_inf |x|_inf + |b|_inf) */
static double residual(const csc *M, const double *x, const double *b) {
  int n = M->n;
  double *r = calloc((size_t)n, sizeof(double)), *rs = calloc((size_t)n, sizeof(double));
  double rn = 0, xn = 0, bn = 0, mn = 0;
  if (!r || !rs) return NAN;
  for (int j = 0; j < n; j++)
    for (int k = M->Ap[j]; k < M->Ap[j + 1]; k++) {
      r[M->Ai[k]] += M->Ax[k] * x[j];
      rs[M->Ai[k]] += fabs(M->Ax[k]);
    }
  for (int i = 0; i < n; i++) {
    rn = fmax(rn, fabs(r[i] - b[i]));
    xn = fmax(xn, fabs(x[i]));
    bn = fmax(bn, fabs(b[i]));
    mn = fmax(mn, rs[i]);
  }
  free(r);
  free(rs);
  return rn / (mn * xn + bn);
}


/* the fastest of NBATCH batches of reps calls, per call [us] */
#define BEST(out, reps, body)                                             \
  do {                                                                    \
    double best_ = INFINITY;                                              \
    for (int b_ = 0; b_ < NBATCH; b_++) {                                 \
      double t0_ = now();                                                 \
      for (int r_ = 0; r_ < (reps); r_++) { body; }                       \
      double dt_ = (now() - t0_) / (reps);                                \
      if (dt_ < best_) best_ = dt_;                                       \
    }                                                                     \
    (out) = 1e6 * best_;                                                  \
  } while (0)


static int run(const char *label, const char *scen, const double *times, int ntime, int reps) {
  awe_err err = {0};
  awe_diag warn = {0};
  awe_spec *s = awe_spec_load(scen, 0, NULL, &warn, &err);
  awe_diag_free(&warn);
  awe_model *m = s ? awe_model_build_controlled(s, &s->warnings, &err) : NULL;
  awe_sim *sim = m ? awe_sim_alloc(m, "trbdf2", &err) : NULL;
  if (!sim || awe_sim_start(sim, &err)) {
    printf("%-10s error: %s\n", label, err.msg);
    return 1;
  }
  const int *adr, *num, *rows;
  awe_integrator_pattern(sim->it, &adr, &num, &rows);
  int n = sim->w->nx, nzj = 0;
  for (int j = 0; j < n; j++) nzj += num[j];
  csc M = {0};
  double *jval = calloc((size_t)nzj + 1, sizeof(double));
  double *b = malloc(sizeof(double) * (size_t)n), *x = malloc(sizeof(double) * (size_t)n);
  awe_slu *lu = awe_slu_alloc(n, adr, num, rows);
  if (!jval || !b || !x || !lu || csc_build(&M, n, adr, num, rows)) return 1;
  klu_common com;
  klu_defaults(&com);
  double ta = now();
  klu_symbolic *sym = klu_analyze(n, M.Ap, M.Ai, &com);
  ta = 1e6 * (now() - ta);
  klu_numeric *num_k = NULL;
  printf("%-10s n %d, nnz(M) %d; ours: symbolic L+U %ld; KLU: analyze %.0f us, %d blocks "
         "(largest %d), nzoff %d\n", label, n, M.nnz, awe_slu_nnz(lu), ta,
         sym ? sym->nblocks : -1, sym ? sym->maxblock : -1, sym ? sym->nzoff : -1);
  printf("%-10s %7s %9s | %9s %8s %6s %8s | %9s %9s %9s %8s %6s %8s | %8s %7s %6s\n", "",
         "t [s]", "c", "our fact", "solve", "L+U", "resid", "KLU fact", "refact", "+fill",
         "solve", "L+U", "resid", "KLUz ref", "solve", "L+U");
  unsigned seed = 12345;
  for (int q = 0; q < ntime && sym; q++) {
    if (awe_sim_step(sim, times[q], &err)) {
      printf("%-10s step to %g: %s\n", label, times[q], err.msg);
      break;
    }
    double h = sim->w->stats.steps > 0 ? sim->t / (double)sim->w->stats.steps : 1e-3;
    double c = (2.0 - M_SQRT2) / 2.0 * h;
    if (awe_jacobian_sparse(sim->it, sim->t, sim->y, jval)) return 1;
    for (int i = 0; i < n; i++) b[i] = 2.0 * rand_r(&seed) / RAND_MAX - 1.0;
    /* ours */
    double tf;
    BEST(tf, reps, awe_slu_factor(lu, c, jval));
    if (awe_slu_factor(lu, c, jval)) {
      printf("%-10s t %g: our LU failed\n", label, sim->t);
      continue;
    }
    double tsv;
    BEST(tsv, reps, memcpy(x, b, sizeof(double) * (size_t)n); awe_slu_solve(lu, x));
    memcpy(x, b, sizeof(double) * (size_t)n);
    awe_slu_solve(lu, x);
    csc_fill(&M, c, jval);
    double res_ours = residual(&M, x, b);
    long nnz_ours = awe_slu_factor_nnz(lu);
    /* KLU: factor once (pivots chosen at the first state), refactor per new matrix */
    double tkf = NAN;
    if (!num_k) {
      double t0 = now();
      num_k = klu_factor(M.Ap, M.Ai, M.Ax, sym, &com);
      tkf = 1e6 * (now() - t0);
      if (!num_k) return 1;
    } else {
      klu_numeric *tmp = NULL;
      BEST(tkf, 1, klu_free_numeric(&tmp, &com); tmp = klu_factor(M.Ap, M.Ai, M.Ax, sym, &com));
      klu_free_numeric(&tmp, &com);
    }
    double tkr;
    BEST(tkr, reps, klu_refactor(M.Ap, M.Ai, M.Ax, sym, num_k, &com));
    double tkrf;
    BEST(tkrf, reps, csc_fill(&M, c, jval);
                       klu_refactor(M.Ap, M.Ai, M.Ax, sym, num_k, &com));
    double tks;
    BEST(tks, reps, memcpy(x, b, sizeof(double) * (size_t)n);
                      klu_solve(sym, num_k, n, 1, x, &com));
    memcpy(x, b, sizeof(double) * (size_t)n);
    klu_solve(sym, num_k, n, 1, x, &com);
    double res_klu = residual(&M, x, b);
    long nnz_klu = (long)num_k->lnz + num_k->unz - n + num_k->nzoff;
    /* KLU's best case: this state's zeros (dropped entries) left out of its pattern */
    double tzr = NAN, tzs = NAN;
    long nnz_z = -1;
    csc Z = {.n = n,
             .Ap = malloc(sizeof(int) * ((size_t)n + 1)),
             .Ai = malloc(sizeof(int) * (size_t)M.nnz),
             .Ax = malloc(sizeof(double) * (size_t)M.nnz)};
    if (Z.Ap && Z.Ai && Z.Ax) {
      int k = 0;
      for (int j = 0; j < n; j++) {
        Z.Ap[j] = k;
        for (int p = M.Ap[j]; p < M.Ap[j + 1]; p++)
          if (M.Ax[p] != 0.0 || M.isdiag[p]) {
            Z.Ai[k] = M.Ai[p];
            Z.Ax[k++] = M.Ax[p];
          }
      }
      Z.Ap[n] = Z.nnz = k;
      klu_symbolic *zs = klu_analyze(n, Z.Ap, Z.Ai, &com);
      klu_numeric *zn = zs ? klu_factor(Z.Ap, Z.Ai, Z.Ax, zs, &com) : NULL;
      if (zn) {
        BEST(tzr, reps, klu_refactor(Z.Ap, Z.Ai, Z.Ax, zs, zn, &com));
        BEST(tzs, reps, memcpy(x, b, sizeof(double) * (size_t)n);
             klu_solve(zs, zn, n, 1, x, &com));
        nnz_z = (long)zn->lnz + zn->unz - n + zn->nzoff;
      }
      klu_free_numeric(&zn, &com);
      klu_free_symbolic(&zs, &com);
    }
    free(Z.Ap);
    free(Z.Ai);
    free(Z.Ax);
    printf("%-10s %7.2f %9.2e | %9.2f %8.2f %6ld %8.1e | %9.2f %9.2f %9.2f %8.2f %6ld %8.1e |"
           " %8.2f %7.2f %6ld\n",
           label, sim->t, c, tf, tsv, nnz_ours, res_ours, tkf, tkr, tkrf, tks, nnz_klu,
           res_klu, tzr, tzs, nnz_z);
  }
  klu_free_numeric(&num_k, &com);
  klu_free_symbolic(&sym, &com);
  awe_slu_free(lu);
  csc_free(&M);
  free(jval);
  free(b);
  free(x);
  awe_sim_free(sim);
  awe_model_free(m);
  awe_spec_free(s);
  fflush(stdout);
  return 0;
}


int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : "";
  int rc = 0;
  char scen[256];
  printf("times in us per call (fastest of %d batches); L+U: nonzeros of the factors "
         "(KLU: lnz + unz - n + off-diagonal blocks); resid: |Mx-b|/(|M||x|+|b|)\n", NBATCH);
  if (!strncmp("v3", only, strlen(only))) {
    const double t[] = {2.0, 4.0, 6.0, 8.0, 10.0};
    rc |= run("v3fig8", "scenarios/v3_figure_eight.yaml", t, 5, 200);
  }
  if (!strncmp("tether10", only, strlen(only)) && strcmp(only, "tether1000")) {
    const double t[] = {0.5, 1.0, 1.5, 2.0};
    rc |= write_tether(10, scen, sizeof(scen)) ? 1 : run("tether10", scen, t, 4, 2000);
  }
  if (!strncmp("tether1000", only, strlen(only)) && strcmp(only, "tether10")) {
    const double t[] = {0.05, 0.1, 0.15};
    rc |= write_tether(1000, scen, sizeof(scen)) ? 1 : run("tether1000", scen, t, 3, 20);
  }
  return rc;
}
