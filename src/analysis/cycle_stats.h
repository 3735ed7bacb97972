/* cycle_stats.h: pumping cycles found in a sampled run, and their statistics.
 *
 * One definition for the simulator and for measured flights (tools/flight-stats implements
 * the same lines in Python; docs/validation.md states it for readers):
 *   phase      reel-out once the reel speed v (positive paying out) exceeds +band, reel-in once
 *              it falls below -band; in between the phase is kept (hysteresis, band 0.2 m/s).
 *              Before |v| first exceeds the band the phase is unknown.
 *   cycle      from a sample where the phase turns reel-in -> reel-out to the next such sample
 *              (excluded), where that reel-in lasted at least min_reel_in (5 s) or began with
 *              the record (in a flight log; a simulation starts parked: starts_in_cycle), and
 *              the reel-out then lasts at least min_reel_out (5 s): a short
 *              excursion of the reel speed (the winch pausing in a transition, a gust during
 *              reel-out, a brief pay-out during reel-in) counts in the phases but starts no
 *              cycle. (Streamed: the samples after a candidate start are summed apart and
 *              added back to the running cycle when the candidate fails.)
 *              A run that starts in reel-out has its first reel-out uncounted; a cycle is
 *              counted only once the next reel-out has begun.
 *   durations  each sample stands for the interval to the next sample: duration =
 *              t(next start) - t(start), reel-out/reel-in duration = sum of the intervals of
 *              their samples (the two add up to the duration).
 *   means      plain means over the samples of the cycle (power) or of the phase (the rest);
 *              force_max over the cycle's samples; elevation in degrees.
 *   power      power_mean = mean of force * v (the winch's mechanical power);
 *              power_electrical_mean = mean of the electrical power channel (NaN when absent);
 *              power_reel_out_mean, power_reel_in_mean = the phase's mean mechanical power,
 *              time-weighted: sum over the phase's samples of force * v * (its interval) /
 *              the phase's duration (the phase's energy over its time; awesIO's
 *              average_reel_out_power and average_reel_in_power). Not the product of the phase
 *              means of force and speed. With a constant sample interval the cycle's power_mean
 *              = (power_reel_out_mean * reel_out_duration + power_reel_in_mean *
 *              reel_in_duration) / duration.
 *   figure     the period of the azimuth during reel-out: the times where it crosses zero
 *              upwards (linear interpolation between two reel-out samples), each counted only
 *              after the azimuth was below -azimuth_band (0.035 rad = 2 deg) since the last
 *              one. The first crossing of a reel-out is the kite's entry into the pattern (in
 *              the flight it falls in the transition, before the `pattern` counter starts):
 *              period = (last - second) / (count - 2), NaN with fewer than three crossings.
 *              One figure eight takes the kite once left and once right of the wind, so this is
 *              the figure-eight period (twice the flight's half-eight `pattern` counter).
 * Memory: the cycle list grows (doubling); nothing else is allocated per sample.
 */
#ifndef AWE_CYCLE_STATS_H
#define AWE_CYCLE_STATS_H

#include <stddef.h>

#include "util/status.h"

#define AWE_CYCLE_SPEED_BAND 0.2     /* m/s */
#define AWE_CYCLE_AZIMUTH_BAND 0.035 /* rad */
#define AWE_CYCLE_MIN_REEL_IN 5.0    /* s */
#define AWE_CYCLE_MIN_REEL_OUT 5.0   /* s */

/* one sample: SI units, angles in rad; NAN where a channel is absent */
typedef struct {
  double t, force, speed, elevation, apparent_wind, kite_speed, azimuth, power_electrical;
} awe_cycle_sample;

/* one full cycle (elevation in deg, the rest SI) */
typedef struct {
  double t_start, duration, reel_out_duration, reel_in_duration, force_reel_out_mean, force_max,
      force_reel_in_mean, speed_reel_out_mean, speed_reel_in_mean, elevation_reel_out_mean,
      apparent_wind_reel_out_mean, kite_speed_reel_out_mean, figure_period, power_mean,
      power_electrical_mean, power_reel_out_mean, power_reel_in_mean;
} awe_cycle;

/* the fields of awe_cycle in order, for writers: name, unit, offset */
typedef struct {
  const char *name, *unit;
  size_t offset;
} awe_cycle_field;
extern const awe_cycle_field awe_cycle_fields[];
extern const int awe_cycle_nfields;

/* sums of the open cycle */
typedef struct {
  double t_start, dur[2], n[2], force[2], speed[2], elev_out, va_out, vk_out, force_max;
  double n_all, power, power_el;
  double energy[2];  /* force * v * interval per phase (J) */
  double fig_t0, fig_t1, fig_last;  /* first, second and last crossing */
  int fig_n;
} awe_cycle_acc;

typedef struct {
  double speed_band, azimuth_band, min_reel_in, min_reel_out;
  /* 1 (default): the record starts inside a pumping cycle (a flight log cut into cycle files),
   * so a reel-in it starts with counts whatever its length; 0: it starts outside one (a
   * simulation from a parked kite), so that reel-in, too, must last min_reel_in */
  int starts_in_cycle;
  int phase;      /* -1 unknown, 0 reel-out, 1 reel-in */
  double t_in;    /* start of the current reel-in (-inf when it began with the record) */
  int open;       /* a cycle is being summed (acc) */
  int pending;    /* a start at t_cand awaits its min_reel_out (pend) */
  int have_prev, prev_to;  /* prev_to: where the previous sample went: 0 none, 1 acc, 2 pend */
  double t_prev, t_cand;
  double p_prev;  /* force * v of the previous sample */
  double az_prev, t_prev_out;  /* the azimuth's last reel-out sample */
  int az_have, az_armed;
  awe_cycle_acc acc, pend;
  awe_cycle *cycles;
  int n, cap;
} awe_cycle_stats;

/* default bands, no cycles */
void awe_cycle_stats_init(awe_cycle_stats *s);
void awe_cycle_stats_free(awe_cycle_stats *s);

/* feed the next sample (t increasing); AWE_ENOMEM when the cycle list cannot grow */
awe_status awe_cycle_stats_add(awe_cycle_stats *s, const awe_cycle_sample *x);

/* per field the median over n cycles, NaN values left out (NaN when all are) */
awe_status awe_cycle_median(const awe_cycle *c, int n, awe_cycle *med);

#endif
