/* test_signal.c: scheduled input signals (input_signal.c): values and breakpoints, with numbers. */
#include "harness.h"
#include "model/input_signal.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static awe_input_spec sig(awe_signal_type type) {
  awe_input_spec s;
  memset(&s, 0, sizeof(s));
  s.type = type;
  s.channel = "winches.main.torque";
  return s;
}


static void test_constant(void) {
  awe_input_spec s = sig(AWE_SIG_CONSTANT);
  s.value = -12.5;
  ENSURE(awe_signal_eval(&s, -3.0) == -12.5);
  ENSURE(awe_signal_eval(&s, 0.0) == -12.5);
  ENSURE(awe_signal_eval(&s, 1e6) == -12.5);
  double tn = 42.0;
  ENSURE(awe_signal_breakpoints(&s, 0.0, &tn) == 0);
  ENSURE(tn == 42.0);  /* untouched when there is none */
}


static void test_step(void) {
  awe_input_spec s = sig(AWE_SIG_STEP);
  s.t0 = 2.0;
  s.before = 1.0;
  s.after = 7.0;
  ENSURE(awe_signal_eval(&s, 0.0) == 1.0);
  ENSURE(awe_signal_eval(&s, nextafter(2.0, 0.0)) == 1.0);
  ENSURE(awe_signal_eval(&s, 2.0) == 7.0);  /* right-continuous */
  ENSURE(awe_signal_eval(&s, 10.0) == 7.0);
  double tn = 0;
  ENSURE(awe_signal_breakpoints(&s, 0.0, &tn) == 1);
  ENSURE(tn == 2.0);
  ENSURE(awe_signal_breakpoints(&s, 1.999, &tn) == 1);
  ENSURE(tn == 2.0);
  /* strictly after: once the integrator stopped at t0, there is nothing left */
  ENSURE(awe_signal_breakpoints(&s, 2.0, &tn) == 0);
  ENSURE(awe_signal_breakpoints(&s, 5.0, &tn) == 0);
}


static void test_ramp(void) {
  awe_input_spec s = sig(AWE_SIG_RAMP);
  s.t_start = 1.0;
  s.t_end = 3.0;
  s.from = 10.0;
  s.to = 20.0;
  ENSURE(awe_signal_eval(&s, -1.0) == 10.0);
  ENSURE(awe_signal_eval(&s, 1.0) == 10.0);
  ENSURE_NEAR(awe_signal_eval(&s, 1.5), 12.5, 1e-14);
  ENSURE_NEAR(awe_signal_eval(&s, 2.0), 15.0, 1e-14);
  ENSURE_NEAR(awe_signal_eval(&s, 2.9), 19.5, 1e-13);
  ENSURE(awe_signal_eval(&s, 3.0) == 20.0);
  ENSURE(awe_signal_eval(&s, 100.0) == 20.0);
  double tn = 0;
  ENSURE(awe_signal_breakpoints(&s, 0.0, &tn) == 1);
  ENSURE(tn == 1.0);
  ENSURE(awe_signal_breakpoints(&s, 1.0, &tn) == 1);
  ENSURE(tn == 3.0);
  ENSURE(awe_signal_breakpoints(&s, 2.5, &tn) == 1);
  ENSURE(tn == 3.0);
  ENSURE(awe_signal_breakpoints(&s, 3.0, &tn) == 0);

  /* decreasing ramp */
  s.from = 5.0;
  s.to = -5.0;
  ENSURE_NEAR(awe_signal_eval(&s, 2.5), -2.5, 1e-14);

  /* degenerate: t_end == t_start is a step at t_start, no division by zero */
  s.t_start = s.t_end = 4.0;
  ENSURE(awe_signal_eval(&s, 3.999) == 5.0);
  ENSURE(awe_signal_eval(&s, 4.0) == -5.0);
  ENSURE(awe_signal_breakpoints(&s, 0.0, &tn) == 1);
  ENSURE(tn == 4.0);
}


static void test_sine(void) {
  awe_input_spec s = sig(AWE_SIG_SINE);
  s.offset = 2.0;
  s.amplitude = 3.0;
  s.frequency = 0.5;  /* Hz: period 2 s */
  s.phase = 0.0;
  ENSURE_NEAR(awe_signal_eval(&s, 0.0), 2.0, 1e-15);
  ENSURE_NEAR(awe_signal_eval(&s, 0.5), 5.0, 1e-14);   /* quarter period: +A */
  ENSURE_NEAR(awe_signal_eval(&s, 1.0), 2.0, 1e-14);
  ENSURE_NEAR(awe_signal_eval(&s, 1.5), -1.0, 1e-14);  /* three quarters: -A */
  ENSURE_NEAR(awe_signal_eval(&s, 0.25), 2.0 + 3.0 * sin(M_PI / 4), 1e-14);
  s.phase = M_PI / 2;  /* cosine */
  ENSURE_NEAR(awe_signal_eval(&s, 0.0), 5.0, 1e-14);
  ENSURE_NEAR(awe_signal_eval(&s, 2.0 / 3.0), 2.0 + 3.0 * cos(2 * M_PI / 3), 1e-14);
  double tn = 0;
  ENSURE(awe_signal_breakpoints(&s, 0.0, &tn) == 0);
}


static void test_table(void) {
  double tt[] = {0.0, 1.0, 1.0, 3.0, 5.0};
  double vv[] = {0.0, 10.0, 20.0, 0.0, 4.0};
  awe_input_spec s = sig(AWE_SIG_TABLE);
  s.ntable = 5;
  s.table_t = tt;
  s.table_v = vv;
  ENSURE(awe_signal_eval(&s, -2.0) == 0.0);           /* held before */
  ENSURE_NEAR(awe_signal_eval(&s, 0.25), 2.5, 1e-14);
  ENSURE_NEAR(awe_signal_eval(&s, 0.999), 9.99, 1e-12);
  ENSURE(awe_signal_eval(&s, 1.0) == 20.0);            /* repeated knot: jump, later value */
  ENSURE_NEAR(awe_signal_eval(&s, 2.0), 10.0, 1e-14);
  ENSURE(awe_signal_eval(&s, 3.0) == 0.0);
  ENSURE_NEAR(awe_signal_eval(&s, 4.5), 3.0, 1e-14);
  ENSURE(awe_signal_eval(&s, 5.0) == 4.0);
  ENSURE(awe_signal_eval(&s, 99.0) == 4.0);            /* held after */

  double tn = 0;
  ENSURE(awe_signal_breakpoints(&s, -1.0, &tn) == 1);
  ENSURE(tn == 0.0);
  ENSURE(awe_signal_breakpoints(&s, 0.0, &tn) == 1);
  ENSURE(tn == 1.0);
  ENSURE(awe_signal_breakpoints(&s, 1.0, &tn) == 1);  /* skips the repeated knot */
  ENSURE(tn == 3.0);
  ENSURE(awe_signal_breakpoints(&s, 4.0, &tn) == 1);
  ENSURE(tn == 5.0);
  ENSURE(awe_signal_breakpoints(&s, 5.0, &tn) == 0);

  /* one row: a constant; no rows: NAN */
  s.ntable = 1;
  ENSURE(awe_signal_eval(&s, -1.0) == 0.0);
  ENSURE(awe_signal_eval(&s, 7.0) == 0.0);
  s.ntable = 0;
  ENSURE(isnan(awe_signal_eval(&s, 1.0)));
  ENSURE(awe_signal_breakpoints(&s, -1.0, &tn) == 0);
}


static void test_apply_and_next(void) {
  double tt[] = {0.5, 2.5};
  double vv[] = {1.0, 3.0};
  awe_signal sigs[3];
  memset(sigs, 0, sizeof(sigs));
  sigs[0].u_index = 2;
  sigs[0].sig = sig(AWE_SIG_STEP);
  sigs[0].sig.t0 = 1.5;
  sigs[0].sig.before = -1.0;
  sigs[0].sig.after = 1.0;
  sigs[1].u_index = 0;
  sigs[1].sig = sig(AWE_SIG_TABLE);
  sigs[1].sig.ntable = 2;
  sigs[1].sig.table_t = tt;
  sigs[1].sig.table_v = vv;
  sigs[2].u_index = 3;
  sigs[2].sig = sig(AWE_SIG_SINE);
  sigs[2].sig.amplitude = 1.0;
  sigs[2].sig.frequency = 1.0;

  double u[4] = {9, 9, 9, 9};
  awe_signals_apply(sigs, 3, 1.5, u);
  ENSURE_NEAR(u[0], 2.0, 1e-14);
  ENSURE(u[1] == 9.0);  /* untouched */
  ENSURE(u[2] == 1.0);
  ENSURE_NEAR(u[3], 0.0, 1e-14);

  double expect[] = {0.5, 1.5, 2.5};
  double t = 0.0, tn = 0.0;
  for (int k = 0; k < 3; k++) {
    ENSURE(awe_signals_next_breakpoint(sigs, 3, t, &tn) == 1);
    ENSURE(tn == expect[k]);
    t = tn;
  }
  ENSURE(awe_signals_next_breakpoint(sigs, 3, t, &tn) == 0);
  ENSURE(awe_signals_next_breakpoint(sigs, 0, 0.0, &tn) == 0);
}


int main(void) {
  RUN(test_constant);
  RUN(test_step);
  RUN(test_ramp);
  RUN(test_sine);
  RUN(test_table);
  RUN(test_apply_and_next);
  return harness_report();
}
