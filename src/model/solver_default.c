/* solver_default.c: the stepper a scenario gets when it names none (run.solver).
 *
 * Chosen per model class from measurements (bench/bench_speed.c, bench/bench_simulate.c,
 * docs/speed.md): lines with damping (tethers, bridles, pulleys; every shipped kite) are
 * stiff with strongly damped fast modes, where the implicit TR-BDF2 with the analytic
 * Jacobian and the sparse LU takes long steps and costs O(n) per step; a model whose lines
 * are all undamped (a stiff rod pendulum, an undamped spring-mass) rings at its fast mode,
 * which a second-order L-stable method damps away or resolves slowly, so the explicit
 * eighth-order rk8pd is faster there and keeps the oscillation's energy. Damped tubes between
 * rigid bodies count as damped lines.
 */
#include "model/solver_default.h"


const char *awe_default_solver(const awe_model *m) {
  if (m->nwing > 0 || m->npulley > 0) return "trbdf2";
  for (int s = 0; s < m->nsegment; s++)
    if (m->segment_unit_c[s] > 0.0) return "trbdf2";
  /* damped tubes between bodies: stiff, strongly damped rotational modes (a 4-element inflated
   * tube: 42469 rk8pd steps against 567 of trbdf2 for 1 s) */
  for (int t = 0; t < m->ntube; t++)
    if (m->tube_damping[t] > 0.0) return "trbdf2";
  return "rk8pd";
}
