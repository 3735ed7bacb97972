/* test_winch_energy.c: winches.NAME.power and .energy (outputs.c, winch.h).
 *
 * Scenario: scenarios/tests/winch_pull.yaml, a 10 kg load pulled away from a speed-controlled
 * winch by a constant F = 1000 N (no gravity, wind or drag), on a critically damped line of
 * EA = 1e5 N, settled with the winch braked, then reeled at a constant v from t = 0.
 *   power      once the line's transient has died out (after 2 s; time constant 0.07 s) the
 *              tension at the drum is F and power = F v: +2000 W reeling out at 2 m/s, -2000 W
 *              reeling in at -2 m/s (1e-6 relative)
 *   energy     momentum balance of the load, which ends at v_load = v/(1 - F/EA) (the line
 *              stretched by F): the impulse of F - tension is m v_load, so energy(T) =
 *              v (F T - m v_load) exactly: 5959.596 J out, -6040.404 J in at T = 3 s (the
 *              trapezoid over the 1 ms log steps: 1e-2 J); and over the steady part
 *              energy(3) - energy(2) = F v (1 s) (1e-6 relative)
 *   braked     a braked winch: power 0 and energy 0 although its tether is loaded
 */
#include <math.h>

#include "test_physics_util.h"

#define PULL "scenarios/tests/winch_pull.yaml"
#define F 1000.0
#define EA 1e5
#define MASS 10.0


static void pull(double v) {
  char set[64];
  snprintf(set, sizeof(set), "inputs[0].value=%g", v);
  awe_spec *s = sp_load(PULL, (const char *[]){set, NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  ENSURE(sp_out(sim, "winches.drum.energy") == 0.0);
  sp_run(sim, 2.0);
  double e2 = sp_out(sim, "winches.drum.energy");
  sp_run(sim, 3.0);
  double P = sp_out(sim, "winches.drum.power"), E = sp_out(sim, "winches.drum.energy");
  double vload = v / (1.0 - F / EA), E_exact = v * (F * 3.0 - MASS * vload);
  printf("    v = %+g m/s: power %.9g W (F v = %g), energy %.9g J (exact %.9g), "
         "energy(3 s) - energy(2 s) %.9g J\n", v, P, F * v, E, E_exact, E - e2);
  ENSURE_NEAR(sim->t, 3.0, 1e-12);
  ENSURE_REL(P, F * v, 1e-6);
  ENSURE_NEAR(E, E_exact, 1e-2);
  ENSURE_REL(E - e2, F * v * 1.0, 1e-6);
  ENSURE_REL(sp_out(sim, "winches.drum.force"), F, 1e-6);
  sp_free(sim, s);
}


static void test_reel_out(void) { pull(2.0); }
static void test_reel_in(void) { pull(-2.0); }


static void test_braked(void) {
  awe_spec *s = sp_load(PULL, (const char *[]){"run.duration=0.5", "run.steady_state=false",
      "inputs=[{input: winches.drum.speed, type: constant, value: 2.0}, "
      "{input: winches.drum.brake, type: constant, value: 1.0}, "
      "{input: points.load.force.z, type: constant, value: -1000.0}]", NULL});
  awe_sim *sim = sp_sim(s, NULL);
  if (!sim) {
    sp_free(sim, s);
    return;
  }
  sp_run(sim, 0.5);
  printf("    braked: force %.6g N, power %g W, energy %g J\n", sp_out(sim, "winches.drum.force"),
         sp_out(sim, "winches.drum.power"), sp_out(sim, "winches.drum.energy"));
  ENSURE(sp_out(sim, "winches.drum.force") > 100.0);
  ENSURE(sp_out(sim, "winches.drum.power") == 0.0);
  ENSURE(sp_out(sim, "winches.drum.energy") == 0.0);
  sp_free(sim, s);
}


int main(void) {
  RUN(test_reel_out);
  RUN(test_reel_in);
  RUN(test_braked);
  return harness_report();
}
