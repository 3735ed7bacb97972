/* test_turbsim_file.c: a real TurbSim output (tests/data/turbsim/TurbSim_FAST.bts, written by
 * TurbSim v2.00.07a-bjj; Apache-2.0, PROVENANCE.md there) read by awesim's .bts reader gives
 * the numbers of an independent reader, openfast_toolbox's TurbSimFile, recorded in
 * PROVENANCE.md: the grid, the header's hub height and speed, and stated samples. awesim keeps
 * the fluctuations (each point's time mean removed), so a sample is the peer's value minus the
 * peer's time mean at that point; time step it lies at box x = -it u_hub dt.
 */
#include <math.h>
#include <stdio.h>

#include "harness.h"
#include "io/wind_box_read.h"

#define FILE_BTS "tests/data/turbsim/TurbSim_FAST.bts"

/* the peer's fluctuations u, v, w at (it, iy, iz); float32 data: 2e-6 m/s */
static const struct {
  int it, iy, iz;
  double u[3];
} peer[] = {
    {0, 1, 1, {-0.0451375, -1.3093869, -0.3332909}},
    {1, 1, 0, {-3.3182404, 0.9800057, 0.9906329}},
    {50, 2, 2, {0.4027416, -2.2426707, -0.7663737}},
    {99, 0, 0, {-1.4286518, -0.9006765, -0.8530970}},
    {37, 2, 1, {-0.5976223, -0.0619383, -0.1142719}},
};

static void test_grid(void) {
  awe_wind_box b;
  awe_err err = {0};
  ENSURE(awe_wind_box_read(FILE_BTS, &b, &err) == AWE_OK);
  if (err.code) {
    fprintf(stderr, "    %s\n", err.msg);
    return;
  }
  /* peer: 100 time steps of 0.05 s, y -75 0 75, z 15 90 165, zRef 90, uRef 8, ID 8 */
  ENSURE(b.n[0] == 100 && b.n[1] == 3 && b.n[2] == 3);
  ENSURE_NEAR(b.d[0], 8.0 * 0.05, 1e-6);
  ENSURE_NEAR(b.d[1], 75.0, 1e-9);
  ENSURE_NEAR(b.d[2], 75.0, 1e-9);
  ENSURE_NEAR(b.x0[0], -99 * 0.4, 1e-4);
  ENSURE_NEAR(b.x0[1], -75.0, 1e-9);
  ENSURE_NEAR(b.x0[2], 15.0, 1e-9);
  ENSURE_NEAR(b.v_ref, 8.0, 1e-9);
  ENSURE_NEAR(b.h_ref, 90.0, 1e-9);
  ENSURE(b.periodic_x); /* ID 8: TurbSim's periodic box */
  awe_wind_box_free(&b);
}

static void test_samples(void) {
  awe_wind_box b;
  awe_err err = {0};
  ENSURE(awe_wind_box_read(FILE_BTS, &b, &err) == AWE_OK);
  if (err.code) return;
  double o[3];
  for (size_t i = 0; i < sizeof(peer) / sizeof(peer[0]); i++) {
    double x = -peer[i].it * b.d[0], y = -75.0 + 75.0 * peer[i].iy, z = 15.0 + 75.0 * peer[i].iz;
    ENSURE(awe_wind_box_at(&b, x, y, z, o) == 0);
    for (int k = 0; k < 3; k++) ENSURE_NEAR(o[k], peer[i].u[k], 2e-6);
  }
  /* at hub height (y 0, z 90): time mean 0 after the removal, standard deviation of u the
   * peer's 1.62400401 m/s (its time mean there 8.00000765 m/s, the header's u_hub 8) */
  double s[3] = {0, 0, 0}, q = 0.0;
  for (int it = 0; it < 100; it++) {
    ENSURE(awe_wind_box_at(&b, -it * b.d[0], 0.0, 90.0, o) == 0);
    for (int k = 0; k < 3; k++) s[k] += o[k];
    q += o[0] * o[0];
  }
  for (int k = 0; k < 3; k++) ENSURE_NEAR(s[k] / 100, 0.0, 1e-6);
  ENSURE_NEAR(sqrt(q / 100), 1.62400401, 2e-6);
  /* periodic: one box length upstream is the same wind */
  double p[3];
  ENSURE(awe_wind_box_at(&b, -37 * b.d[0], 75.0, 90.0, o) == 0);
  ENSURE(awe_wind_box_at(&b, -137 * b.d[0], 75.0, 90.0, p) == 0);
  for (int k = 0; k < 3; k++) ENSURE_NEAR(o[k], p[k], 1e-5);
  awe_wind_box_free(&b);
}

int main(void) {
  RUN(test_grid);
  RUN(test_samples);
  return harness_report();
}
