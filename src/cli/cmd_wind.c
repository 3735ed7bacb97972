/* cmd_wind.c: `awesim wind generate SPEC.yaml -o BOX.h5` and `awesim wind info BOX.h5`:
 * turbulent wind boxes (turb/mann.h) and what they hold (turb/field_stats.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/out_paths.h"
#include "io/spec_mann_yaml.h"
#include "io/wind_box_read.h"
#include "output/wind_box_write.h"
#include "turb/field_stats.h"
#include "turb/mann.h"

static const char gen_usage[] =
    "usage: awesim wind generate [OPTIONS] SPEC.yaml -o BOX.h5\n"
    "\n"
    "Draw a frozen-turbulence box (u, v, w on a regular grid) from Mann's uniform-shear spectral\n"
    "tensor by an inverse 3-D FFT of complex white noise; seeded, reproducible bit for bit.\n"
    "SPEC.yaml keys (all optional): seed, n [nx, ny, nz], d (spacing, m), gamma, length (m),\n"
    "ae (alpha eps^(2/3)) or ti (turbulence intensity at h_ref), v_ref (m/s), h_ref (m),\n"
    "z_bottom (m); see awesim(1), WIND BOXES.\n"
    "\n"
    "  -o, --output FILE     the HDF5 file to write (required)\n"
    "  --seed N              override the spec's seed\n"
    "  -q, --quiet           no summary\n"
    "  -h, --help            show this help\n"
    "Exit status: 0 written, 2 usage, 65 invalid spec, 66 missing spec, 74 output error.\n";

static const char info_usage[] =
    "usage: awesim wind info BOX.h5|BOX.bts|BOX.npz\n"
    "\n"
    "Print a wind box's extent, spacing, the standard deviations of u, v, w, the turbulence\n"
    "intensity at its reference height and the integral length scales measured along x.\n"
    "A .npz (AtmosphericModels.jl) is read on its default grid (2 m, z from 0).\n"
    "\n"
    "  -h, --help            show this help\n"
    "Exit status: 0, 2 usage, 65 invalid box (one-cell grid, NaN, truncated), 66 missing.\n";


static int generate(int argc, char **argv) {
  const char *spec_path = NULL, *out = NULL;
  double seed = NAN;
  int seed_set = 0, quiet = 0;
  const awe_cli_opt opts[] = {
      {"--output", "-o", AWE_CLI_STR, &out, NULL},
      {"--seed", NULL, AWE_CLI_NUM, &seed, &seed_set},
      {"--quiet", "-q", AWE_CLI_FLAG, &quiet, NULL},
  };
  int rc = awe_cli_parse("wind generate", argc, argv, opts, (int)AWE_ARRLEN(opts), "SPEC",
                         &spec_path, gen_usage);
  if (rc) return rc < 0 ? 0 : rc;
  if (!out) {
    fprintf(stderr, "awesim wind generate: -o BOX.h5 is required\n");
    return 2;
  }
  if (seed_set && !(seed >= 0 && seed == floor(seed) && seed < 9007199254740992.0)) {
    fprintf(stderr, "awesim wind generate: --seed %g: expected an integer >= 0\n", seed);
    return 2;
  }
  awe_err err = {0};
  awe_mann_spec s;
  if (awe_cli_outputs_distinct("the spec", spec_path, "-o", out, &err))
    return awe_cli_fail(&err);
  if (awe_mann_spec_read(spec_path, &s, &err)) return awe_cli_fail(&err);
  if (seed_set) s.seed = (uint64_t)seed;
  awe_wind_box b;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  awe_status st = awe_mann_box(&s, &b, &err);
  if (st == AWE_OK) {
    char *cl = awe_cli_command_line(argc, argv);
    st = awe_wind_box_write(out, &b, cl, &err);
    free(cl);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  awe_wind_box_free(&b);
  if (st) return awe_cli_fail(&err);
  if (!quiet)
    fprintf(stderr, "awesim: wind box %s: %d x %d x %d points of %g x %g x %g m, gamma %g, "
            "L %g m, alpha eps^(2/3) %.6g, seed %llu; %.1f s\n", out, s.n[0], s.n[1], s.n[2],
            s.d[0], s.d[1], s.d[2], s.gamma, s.length, b.ae, (unsigned long long)s.seed,
            (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  return 0;
}


static int info(int argc, char **argv) {
  const char *path = NULL;
  int rc = awe_cli_parse("wind info", argc, argv, NULL, 0, "BOX", &path, info_usage);
  if (rc) return rc < 0 ? 0 : rc;
  awe_err err = {0};
  awe_wind_box b;
  if (awe_wind_box_read(path, &b, &err)) return awe_cli_fail(&err);
  awe_field_stats st;
  if (awe_field_stats_compute(&b, &st, &err)) {
    awe_wind_box_free(&b);
    return awe_cli_fail(&err);
  }
  printf("file: %s\n", path);
  printf("points: %d x %d x %d\n", b.n[0], b.n[1], b.n[2]);
  printf("spacing: %g %g %g m\n", b.d[0], b.d[1], b.d[2]);
  for (int a = 0; a < 3; a++)
    printf("%c: %g ... %g m%s\n", "xyz"[a], b.x0[a], b.x0[a] + (b.n[a] - 1) * b.d[a],
           a == 0 && b.periodic_x ? " (periodic)" : "");
  size_t pl = strlen(path);
  if (isnan(b.gamma) && pl > 4 && !strcmp(path + pl - 4, ".npz"))
    printf("model: not recorded (an AtmosphericModels.jl field for v_wind_gnd %g m/s; axes from "
           "the default grid: 2 m steps, z from 0 m; a scenario sets wind.grid_step, "
           "wind.height_step, wind.z_min)\n", b.v_ref);
  else if (isnan(b.gamma))
    printf("model: not recorded (a TurbSim file: its time mean removed, u_hub %g m/s at %g m)\n",
           b.v_ref, b.h_ref);
  else
    printf("model: mann, gamma %g, length %g m, alpha_eps %.6g, seed %llu\n", b.gamma, b.length,
           b.ae, (unsigned long long)b.seed);
  printf("mean u v w: %.4g %.4g %.4g m/s\n", st.mean[0], st.mean[1], st.mean[2]);
  printf("sigma u v w: %.4f %.4f %.4f m/s\n", st.sigma[0], st.sigma[1], st.sigma[2]);
  printf("cov uw: %.4f m^2/s^2\n", st.cov_uw);
  if (isfinite(st.sigma_u_ref) && b.v_ref > 0)
    printf("turbulence intensity at %g m: %.4f (sigma_u %.4f m/s, v_ref %g m/s)\n", st.z_ref,
           st.sigma_u_ref / b.v_ref, st.sigma_u_ref, b.v_ref);
  printf("integral length scales along x (u v w): %.2f %.2f %.2f m\n", st.length[0],
         st.length[1], st.length[2]);
  awe_wind_box_free(&b);
  return 0;
}


int awe_cmd_wind(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "generate")) return generate(argc - 1, argv + 1);
  if (argc >= 2 && !strcmp(argv[1], "info")) return info(argc - 1, argv + 1);
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    printf("usage: awesim wind generate SPEC.yaml -o BOX.h5 | awesim wind info BOX.h5\n\n%s\n%s",
           gen_usage, info_usage);
    return 0;
  }
  fprintf(stderr, "awesim wind: expected 'generate' or 'info'%s%s%s\n",
          argc >= 2 ? " (got '" : "", argc >= 2 ? argv[1] : "", argc >= 2 ? "')" : "");
  return 2;
}
