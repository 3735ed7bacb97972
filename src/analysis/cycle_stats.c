/* cycle_stats.c: pumping cycles of a sampled run (definitions in cycle_stats.h).
 */
#include "analysis/cycle_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RAD2DEG 57.295779513082320876798

#define F(name, unit) {#name, unit, offsetof(awe_cycle, name)}
const awe_cycle_field awe_cycle_fields[] = {
    F(t_start, "s"),
    F(duration, "s"),
    F(reel_out_duration, "s"),
    F(reel_in_duration, "s"),
    F(force_reel_out_mean, "N"),
    F(force_max, "N"),
    F(force_reel_in_mean, "N"),
    F(speed_reel_out_mean, "m/s"),
    F(speed_reel_in_mean, "m/s"),
    F(elevation_reel_out_mean, "deg"),
    F(apparent_wind_reel_out_mean, "m/s"),
    F(kite_speed_reel_out_mean, "m/s"),
    F(figure_period, "s"),
    F(power_mean, "W"),
    F(power_electrical_mean, "W"),
    F(power_reel_out_mean, "W"),
    F(power_reel_in_mean, "W"),
};
#undef F
const int awe_cycle_nfields = (int)(sizeof(awe_cycle_fields) / sizeof(awe_cycle_fields[0]));


void awe_cycle_stats_init(awe_cycle_stats *s) {
  memset(s, 0, sizeof(*s));
  s->speed_band = AWE_CYCLE_SPEED_BAND;
  s->azimuth_band = AWE_CYCLE_AZIMUTH_BAND;
  s->min_reel_in = AWE_CYCLE_MIN_REEL_IN;
  s->min_reel_out = AWE_CYCLE_MIN_REEL_OUT;
  s->starts_in_cycle = 1;
  s->phase = -1;
}


void awe_cycle_stats_free(awe_cycle_stats *s) {
  free(s->cycles);
  s->cycles = NULL;
  s->n = s->cap = 0;
}


static double ratio(double a, double n) { return n > 0 ? a / n : NAN; }


/* the open cycle, ended at t_end, appended to the list */
static awe_status close_cycle(awe_cycle_stats *s, double t_end) {
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 8;
    awe_cycle *c = realloc(s->cycles, (size_t)cap * sizeof(*c));
    if (!c) return AWE_ENOMEM;
    s->cycles = c;
    s->cap = cap;
  }
  const awe_cycle_acc *a = &s->acc;
  awe_cycle *c = &s->cycles[s->n++];
  c->t_start = a->t_start;
  c->duration = t_end - a->t_start;
  c->reel_out_duration = a->dur[0];
  c->reel_in_duration = a->dur[1];
  c->force_reel_out_mean = ratio(a->force[0], a->n[0]);
  c->force_max = a->force_max;
  c->force_reel_in_mean = ratio(a->force[1], a->n[1]);
  c->speed_reel_out_mean = ratio(a->speed[0], a->n[0]);
  c->speed_reel_in_mean = ratio(a->speed[1], a->n[1]);
  c->elevation_reel_out_mean = ratio(a->elev_out, a->n[0]) * RAD2DEG;
  c->apparent_wind_reel_out_mean = ratio(a->va_out, a->n[0]);
  c->kite_speed_reel_out_mean = ratio(a->vk_out, a->n[0]);
  c->figure_period = a->fig_n >= 3 ? (a->fig_last - a->fig_t1) / (a->fig_n - 2) : NAN;
  c->power_mean = ratio(a->power, a->n_all);
  c->power_electrical_mean = ratio(a->power_el, a->n_all);
  c->power_reel_out_mean = ratio(a->energy[0], a->dur[0]);
  c->power_reel_in_mean = ratio(a->energy[1], a->dur[1]);
  return AWE_OK;
}


/* upward zero crossings of the azimuth during reel-out, armed below -band, into a */
static void figure_sample(awe_cycle_stats *s, awe_cycle_acc *a, const awe_cycle_sample *x) {
  if (s->phase != 0 || !isfinite(x->azimuth)) {
    s->az_have = s->az_armed = 0;
    return;
  }
  if (s->az_have && s->az_armed && s->az_prev < 0.0 && x->azimuth >= 0.0) {
    double tc = s->t_prev_out +
                (x->t - s->t_prev_out) * (-s->az_prev) / (x->azimuth - s->az_prev);
    if (a->fig_n == 0) a->fig_t0 = tc;
    if (a->fig_n == 1) a->fig_t1 = tc;
    a->fig_last = tc;
    a->fig_n++;
    s->az_armed = 0;
  }
  if (x->azimuth < -s->azimuth_band) s->az_armed = 1;
  s->az_prev = x->azimuth;
  s->t_prev_out = x->t;
  s->az_have = 1;
}


static void acc_start(awe_cycle_acc *a, double t) {
  memset(a, 0, sizeof(*a));
  a->t_start = t;
  a->force_max = -INFINITY;
}


static void acc_sample(awe_cycle_acc *a, int p, const awe_cycle_sample *x) {
  a->n[p] += 1.0;
  a->force[p] += x->force;
  a->speed[p] += x->speed;
  if (p == 0) {
    a->elev_out += x->elevation;
    a->va_out += x->apparent_wind;
    a->vk_out += x->kite_speed;
  }
  if (x->force > a->force_max) a->force_max = x->force;
  a->n_all += 1.0;
  a->power += x->force * x->speed;
  a->power_el += x->power_electrical;
}


/* a failed candidate's samples back into the running cycle (b follows a in time) */
static void acc_merge(awe_cycle_acc *a, const awe_cycle_acc *b) {
  for (int p = 0; p < 2; p++) {
    a->dur[p] += b->dur[p];
    a->n[p] += b->n[p];
    a->force[p] += b->force[p];
    a->speed[p] += b->speed[p];
    a->energy[p] += b->energy[p];
  }
  a->elev_out += b->elev_out;
  a->va_out += b->va_out;
  a->vk_out += b->vk_out;
  if (b->force_max > a->force_max) a->force_max = b->force_max;
  a->n_all += b->n_all;
  a->power += b->power;
  a->power_el += b->power_el;
  if (b->fig_n) {
    if (a->fig_n == 0) a->fig_t0 = b->fig_t0;
    if (a->fig_n == 0) a->fig_t1 = b->fig_t1;
    if (a->fig_n == 1) a->fig_t1 = b->fig_t0;
    a->fig_last = b->fig_last;
    a->fig_n += b->fig_n;
  }
}


awe_status awe_cycle_stats_add(awe_cycle_stats *s, const awe_cycle_sample *x) {
  /* the previous sample's interval (and its power over it) belongs to its phase and to where
   * it was summed */
  if (s->have_prev && s->phase >= 0 && s->prev_to) {
    awe_cycle_acc *b = s->prev_to == 2 ? &s->pend : &s->acc;
    double dt = x->t - s->t_prev;
    b->dur[s->phase] += dt;
    b->energy[s->phase] += s->p_prev * dt;
  }
  s->t_prev = x->t;
  s->p_prev = x->force * x->speed;
  s->have_prev = 1;
  int prev = s->phase;
  if (x->speed > s->speed_band) s->phase = 0;
  else if (x->speed < -s->speed_band) s->phase = 1;
  if (s->phase == 1 && prev != 1) s->t_in = prev < 0 && s->starts_in_cycle ? -INFINITY : x->t;
  if (prev == 1 && s->phase == 0 && x->t - s->t_in >= s->min_reel_in) {
    s->pending = 1;
    s->t_cand = x->t;
    acc_start(&s->pend, x->t);
  }
  if (s->pending && s->phase == 1) {
    /* back to reel-in too soon: no new cycle */
    if (s->open) acc_merge(&s->acc, &s->pend);
    s->pending = 0;
  }
  s->prev_to = s->pending ? 2 : s->open ? 1 : 0;
  if (!s->prev_to) return AWE_OK;
  awe_cycle_acc *a = s->pending ? &s->pend : &s->acc;
  acc_sample(a, s->phase, x);
  figure_sample(s, a, x);
  if (s->pending && x->t - s->t_cand >= s->min_reel_out) {
    if (s->open) AWE_TRY(close_cycle(s, s->t_cand));
    s->acc = s->pend;
    s->open = 1;
    s->pending = 0;
    s->prev_to = 1;
  }
  return AWE_OK;
}


static int dcmp(const void *pa, const void *pb) {
  double x = *(const double *)pa, y = *(const double *)pb;
  return (x > y) - (x < y);
}


awe_status awe_cycle_median(const awe_cycle *c, int n, awe_cycle *med) {
  double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(*v));
  if (!v) return AWE_ENOMEM;
  for (int f = 0; f < awe_cycle_nfields; f++) {
    size_t off = awe_cycle_fields[f].offset;
    int m = 0;
    for (int i = 0; i < n; i++) {
      double x = *(const double *)((const char *)&c[i] + off);
      if (!isnan(x)) v[m++] = x;
    }
    qsort(v, (size_t)m, sizeof(*v), dcmp);
    double r = m == 0 ? NAN : m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
    *(double *)((char *)med + off) = r;
  }
  free(v);
  return AWE_OK;
}
