/* test_cycle_stats.c: the pumping-cycle statistics (analysis/cycle_stats) on synthetic signals
 * with known cycles: every field of every cycle, the hysteresis, the cycles not counted, the
 * medians.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/cycle_stats.h"
#include "harness.h"

#define DT 0.1
#define PI 3.14159265358979323846

/* one synthetic cycle: reel-out then reel-in, constant values per phase, one force peak */
typedef struct {
  int n_out, n_in;           /* samples */
  double f_out, f_in, f_peak, v_out, v_in, elev, va, vk, period, p_el;
} spec;

typedef struct {
  awe_cycle_stats s;
  long k;                    /* next sample index: t = k DT */
} feed;


static void put(feed *f, double force, double speed, double elev, double va, double vk,
                double az, double p_el) {
  awe_cycle_sample x = {(double)f->k * DT, force, speed, elev, va, vk, az, p_el};
  ENSURE(awe_cycle_stats_add(&f->s, &x) == AWE_OK);
  f->k++;
}


static void put_cycle(feed *f, const spec *c) {
  long k0 = f->k;
  for (int i = 0; i < c->n_out; i++) {
    double t = (double)(f->k - k0) * DT;
    put(f, i == c->n_out / 2 ? c->f_peak : c->f_out, c->v_out, c->elev, c->va, c->vk,
        0.3 * sin(2 * PI * t / c->period), c->p_el);
  }
  for (int i = 0; i < c->n_in; i++) put(f, c->f_in, -c->v_in, 1.2, 10.0, 12.0, 0.0, c->p_el);
}


static const spec cyc[3] = {
    {800, 200, 3000, 950, 4800, 1.1, 3.5, 0.62, 19.0, 18.5, 21.3, 1500},
    {900, 230, 2600, 1000, 5200, 1.2, 3.0, 0.60, 18.0, 17.5, 20.1, 1200},
    {700, 180, 3300, 900, 4500, 1.0, 4.0, 0.64, 20.0, 19.5, 22.7, 1800},
};


static void check_cycle(const awe_cycle *g, const spec *c, double t0) {
  double no = c->n_out, ni = c->n_in;
  ENSURE_NEAR(g->t_start, t0, 1e-9);
  ENSURE_NEAR(g->duration, (no + ni) * DT, 1e-9);
  ENSURE_NEAR(g->reel_out_duration, no * DT, 1e-9);
  ENSURE_NEAR(g->reel_in_duration, ni * DT, 1e-9);
  ENSURE_NEAR(g->force_reel_out_mean, (c->f_out * (no - 1) + c->f_peak) / no, 1e-9);
  ENSURE_NEAR(g->force_max, c->f_peak, 1e-12);
  ENSURE_NEAR(g->force_reel_in_mean, c->f_in, 1e-9);
  ENSURE_NEAR(g->speed_reel_out_mean, c->v_out, 1e-12);
  ENSURE_NEAR(g->speed_reel_in_mean, -c->v_in, 1e-12);
  ENSURE_NEAR(g->elevation_reel_out_mean, c->elev * 180.0 / PI, 1e-9);
  ENSURE_NEAR(g->apparent_wind_reel_out_mean, c->va, 1e-12);
  ENSURE_NEAR(g->kite_speed_reel_out_mean, c->vk, 1e-12);
  ENSURE_NEAR(g->figure_period, c->period, 1e-5);
  double e = (c->f_out * (no - 1) + c->f_peak) * c->v_out - c->f_in * c->v_in * ni;
  ENSURE_NEAR(g->power_mean, e / (no + ni), 1e-7);
  ENSURE_NEAR(g->power_electrical_mean, c->p_el, 1e-9);
  /* the phase-mean powers: the phase's energy over its time (here every interval is DT) */
  ENSURE_NEAR(g->power_reel_out_mean, (c->f_out * (no - 1) + c->f_peak) * c->v_out / no, 1e-7);
  ENSURE_NEAR(g->power_reel_in_mean, -c->f_in * c->v_in, 1e-7);
  ENSURE_NEAR((g->power_reel_out_mean * g->reel_out_duration +
               g->power_reel_in_mean * g->reel_in_duration) / g->duration,
              g->power_mean, 1e-7);
}


/* reel-in, three cycles, the start of a fourth reel-out: three full cycles */
static void test_three_cycles(void) {
  feed f = {.k = 0};
  awe_cycle_stats_init(&f.s);
  for (int i = 0; i < 50; i++) put(&f, 900, -3.0, 1.0, 10, 12, 0, 1000);
  double t0[3];
  for (int c = 0; c < 3; c++) {
    t0[c] = (double)f.k * DT;
    put_cycle(&f, &cyc[c]);
  }
  ENSURE(f.s.n == 0 || f.s.n == 2);
  /* the fourth reel-out confirms the third cycle after 5 s */
  for (int i = 0; i < 49; i++) put(&f, 3000, 1.0, 0.6, 19, 18, 0, 1000);
  ENSURE(f.s.n == 2);
  put(&f, 3000, 1.0, 0.6, 19, 18, 0, 1000);
  ENSURE(f.s.n == 2);
  put(&f, 3000, 1.0, 0.6, 19, 18, 0, 1000);
  ENSURE(f.s.n == 3);
  for (int c = 0; c < 3 && c < f.s.n; c++) check_cycle(&f.s.cycles[c], &cyc[c], t0[c]);
  awe_cycle med;
  ENSURE(awe_cycle_median(f.s.cycles, f.s.n, &med) == AWE_OK);
  ENSURE_NEAR(med.duration, 100.0, 1e-9);             /* 100, 113, 88 s */
  ENSURE_NEAR(med.force_max, 4800, 1e-12);
  ENSURE_NEAR(med.figure_period, 21.3, 1e-5);
  ENSURE_NEAR(med.speed_reel_in_mean, -3.5, 1e-12);
  awe_cycle_stats_free(&f.s);
}


/* a run that starts in reel-out, a speed dip inside the band, an unfinished last cycle, no
 * electrical power */
static void test_not_counted(void) {
  feed f = {.k = 0};
  awe_cycle_stats_init(&f.s);
  spec c = cyc[0];
  c.p_el = NAN;
  for (int i = 0; i < 30; i++) put(&f, 0, 0.0, 1.0, 0, 0, 0, NAN);  /* braked: unknown */
  put_cycle(&f, &c);                                                  /* not counted */
  ENSURE(f.s.n == 0);
  double t0 = (double)f.k * DT;
  /* reel-out with a dip to -0.15 m/s (inside the band) in the middle */
  for (int i = 0; i < 405; i++)
    put(&f, 3000, i >= 200 && i < 205 ? -0.15 : 1.1, 0.6, 18, 18, 0, NAN);
  for (int i = 0; i < 200; i++) put(&f, 950, -3.5, 1.2, 10, 12, 0, NAN);
  put_cycle(&f, &c);
  ENSURE(f.s.n == 1);
  if (f.s.n == 1) {
    const awe_cycle *g = &f.s.cycles[0];
    ENSURE_NEAR(g->t_start, t0, 1e-9);
    ENSURE_NEAR(g->duration, (405 + 200) * DT, 1e-9);
    ENSURE_NEAR(g->reel_out_duration, 405 * DT, 1e-9);   /* the dip stays reel-out */
    ENSURE_NEAR(g->speed_reel_out_mean, (400 * 1.1 - 5 * 0.15) / 405, 1e-12);
    ENSURE(isnan(g->power_electrical_mean));
  }
  /* the last cycle never sees the next reel-out: still one */
  ENSURE(f.s.n == 1);
  awe_cycle med;
  ENSURE(awe_cycle_median(f.s.cycles, f.s.n, &med) == AWE_OK);
  ENSURE(isnan(med.power_electrical_mean));
  ENSURE_NEAR(med.duration, 60.5, 1e-9);
  awe_cycle_stats_free(&f.s);
}


/* a 1.5 s dip to reel-in during reel-out and a 1.5 s pay-out during reel-in start no cycle */
static void test_excursions(void) {
  feed f = {.k = 0};
  awe_cycle_stats_init(&f.s);
  for (int i = 0; i < 50; i++) put(&f, 900, -3.0, 1.0, 10, 12, 0, 0);
  for (int c = 0; c < 2; c++) {
    for (int i = 0; i < 400; i++)
      put(&f, 3000, i >= 100 && i < 115 ? -1.0 : 1.1, 0.6, 19, 18, 0, 0);
    for (int i = 0; i < 200; i++) put(&f, 900, i >= 60 && i < 75 ? 1.0 : -3.5, 1.0, 10, 12, 0, 0);
  }
  for (int i = 0; i < 60; i++) put(&f, 3000, 1.1, 0.6, 19, 18, 0, 0);
  ENSURE(f.s.n == 2);
  for (int c = 0; c < f.s.n && c < 2; c++) {
    const awe_cycle *g = &f.s.cycles[c];
    ENSURE_NEAR(g->t_start, (50 + 600 * c) * DT, 1e-9);
    ENSURE_NEAR(g->duration, 60.0, 1e-9);
    ENSURE_NEAR(g->reel_out_duration, 40.0, 1e-9);  /* 385 reel-out + the 15 pay-out samples */
    ENSURE_NEAR(g->reel_in_duration, 20.0, 1e-9);
    ENSURE_NEAR(g->speed_reel_in_mean, (15 * -1.0 + 185 * -3.5) / 200, 1e-12);
    ENSURE_NEAR(g->speed_reel_out_mean, (385 * 1.1 + 15 * 1.0) / 400, 1e-12);
  }
  awe_cycle_stats_free(&f.s);
}


/* reel-out only: no cycle, and a median over none is NaN */
static void test_none(void) {
  feed f = {.k = 0};
  awe_cycle_stats_init(&f.s);
  for (int i = 0; i < 1000; i++) put(&f, 3000, 1.0, 0.6, 19, 18, 0.3 * sin(i * 0.03), 0);
  ENSURE(f.s.n == 0);
  awe_cycle med;
  ENSURE(awe_cycle_median(f.s.cycles, 0, &med) == AWE_OK);
  ENSURE(isnan(med.duration));
  awe_cycle_stats_free(&f.s);
}


/* the field table names every member of awe_cycle once, in order */
static void test_fields(void) {
  ENSURE(awe_cycle_nfields * sizeof(double) == sizeof(awe_cycle));
  for (int i = 0; i < awe_cycle_nfields; i++)
    ENSURE(awe_cycle_fields[i].offset == (size_t)i * sizeof(double));
  ENSURE(strcmp(awe_cycle_fields[13].name, "power_mean") == 0);
}


/* a record that begins with a 1 s reel-in: a flight log (starts_in_cycle, the default) counts
 * the first reel-out as a cycle's start; a simulation from a parked kite (0) does not */
static void test_start(void) {
  for (int in_cycle = 1; in_cycle >= 0; in_cycle--) {
    feed f = {.k = 0};
    awe_cycle_stats_init(&f.s);
    f.s.starts_in_cycle = in_cycle;
    for (int i = 0; i < 10; i++) put(&f, 900, -3.0, 1.0, 10, 12, 0, 1000);
    double t1 = 0.0;
    for (int c = 0; c < 3; c++) {
      if (c == 1) t1 = (double)f.k * DT;
      put_cycle(&f, &cyc[c]);
    }
    for (int i = 0; i < 60; i++) put(&f, 3000, 1.0, 0.6, 19, 18, 0, 1000);
    ENSURE(f.s.n == (in_cycle ? 3 : 2));
    if (f.s.n >= 1) ENSURE_NEAR(f.s.cycles[0].t_start, in_cycle ? 1.0 : t1, 1e-9);
    awe_cycle_stats_free(&f.s);
  }
}


int main(void) {
  RUN(test_three_cycles);
  RUN(test_start);
  RUN(test_not_counted);
  RUN(test_excursions);
  RUN(test_none);
  RUN(test_fields);
  return harness_report();
}
