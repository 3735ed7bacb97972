/* input_signal.c: scheduled input signals (constant, step, ramp, sine, table), breakpoints.
 *
 *   step   u(t) = before (t < t0), after (t >= t0)
 *   ramp   u(t) = from + (to - from) (t - t_start) / (t_end - t_start), clamped to [t_start, t_end]
 *   sine   u(t) = offset + amplitude sin(2 pi frequency t + phase)
 *   table  linear interpolation between knots, held outside [table_t[0], table_t[n-1]]
 *
 * All pure functions of (spec, t); see input_signal.h for the breakpoint contract.
 */
#include "model/input_signal.h"

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* number of knots with table_t[k] <= t (binary search; table_t non-decreasing) */
static int knots_le(const double *tt, int n, double t) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (tt[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}


static double table_eval(const awe_input_spec *s, double t) {
  int n = s->ntable;
  if (n <= 0 || !s->table_t || !s->table_v) return NAN;
  int k = knots_le(s->table_t, n, t);  /* knots 0..k-1 are <= t */
  if (k == 0) return s->table_v[0];
  if (k == n) return s->table_v[n - 1];
  int i = k - 1;  /* table_t[i] <= t < table_t[i+1] */
  double t0 = s->table_t[i], t1 = s->table_t[i + 1];
  double v0 = s->table_v[i], v1 = s->table_v[i + 1];
  return v0 + (v1 - v0) * ((t - t0) / (t1 - t0));
}


double awe_signal_eval(const awe_input_spec *s, double t) {
  switch (s->type) {
    case AWE_SIG_CONSTANT:
      return s->value;
    case AWE_SIG_STEP:
      return t < s->t0 ? s->before : s->after;
    case AWE_SIG_RAMP:
      if (t < s->t_start) return s->from;
      if (t >= s->t_end) return s->to;
      /* t_start <= t < t_end, so the interval is non-empty */
      return s->from + (s->to - s->from) * ((t - s->t_start) / (s->t_end - s->t_start));
    case AWE_SIG_SINE:
      return s->offset + s->amplitude * sin(2.0 * M_PI * s->frequency * t + s->phase);
    case AWE_SIG_TABLE:
      return table_eval(s, t);
  }
  return NAN;
}


/* keep the smallest candidate c > t_from in *best */
static void consider(double c, double t_from, int *found, double *best) {
  if (!(c > t_from)) return;  /* also rejects NAN */
  if (!*found || c < *best) *best = c;
  *found = 1;
}


int awe_signal_breakpoints(const awe_input_spec *s, double t_from, double *t_next) {
  int found = 0;
  double best = 0.0;
  switch (s->type) {
    case AWE_SIG_CONSTANT:
    case AWE_SIG_SINE:
      break;
    case AWE_SIG_STEP:
      consider(s->t0, t_from, &found, &best);
      break;
    case AWE_SIG_RAMP:
      consider(s->t_start, t_from, &found, &best);
      consider(s->t_end, t_from, &found, &best);
      break;
    case AWE_SIG_TABLE:
      if (s->ntable > 0 && s->table_t) {
        int k = knots_le(s->table_t, s->ntable, t_from);
        if (k < s->ntable) consider(s->table_t[k], t_from, &found, &best);
      }
      break;
  }
  if (found && t_next) *t_next = best;
  return found;
}


void awe_signals_apply(const awe_signal *sig, int n, double t, double *u) {
  for (int i = 0; i < n; i++) u[sig[i].u_index] = awe_signal_eval(&sig[i].sig, t);
}


int awe_signals_next_breakpoint(const awe_signal *sig, int n, double t_from, double *t_next) {
  int found = 0;
  double best = 0.0;
  for (int i = 0; i < n; i++) {
    double c;
    if (awe_signal_breakpoints(&sig[i].sig, t_from, &c)) consider(c, t_from, &found, &best);
  }
  if (found && t_next) *t_next = best;
  return found;
}
