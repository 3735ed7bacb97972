/* vsm_settings.c: defaults of the Vortex Step Method settings.
 *
 * Values: VortexStepMethod.jl VSMSettings, 2026 struct (condition, wings[0], solver_settings),
 * as listed in awesim(1), SETTINGS DEFAULTS:
 *   condition:  wind_speed 10 m/s, alpha 5 deg, beta 0 deg, yaw_rate 0 deg/s
 *   wings[0]:   n_panels 40, LINEAR, spanwise_direction [0,1,0], remove_nan true
 *   solver:     VSM, LOOP, density 1.225 kg/m^3, mu 1.81e-5 N s/m^2, max_iterations 1500,
 *               rtol 1e-5, tol_reference_error 1e-3, relaxation_factor 0.03,
 *               artificial_damping false (k2 0.1, k4 0.0), core_radius_fraction 0.05,
 *               type_initial_gamma_distribution ZEROS, use_gamma_prev true, correct_aoa true
 *               (VortexStepMethod.jl's default since 2026; the Python VSM's is false),
 *               is_with_artificial_viscosity false, artificial_viscosity_factor 0.035.
 */
#include "aero/vsm_settings.h"

#include <string.h>

void awe_vsm_settings_default(awe_vsm_settings *s) {
  if (!s) return;
  memset(s, 0, sizeof(*s));
  // condition
  s->wind_speed = 10.0;
  s->alpha_deg = 5.0;
  s->beta_deg = 0.0;
  s->yaw_rate_deg = 0.0;
  // wings[0]
  s->n_panels = 40;
  s->distribution = AWE_DIST_LINEAR;
  s->spanwise_direction[0] = 0.0;
  s->spanwise_direction[1] = 1.0;
  s->spanwise_direction[2] = 0.0;
  s->remove_nan = 1;
  // solver_settings
  s->model = AWE_VSM_MODEL_VSM;
  s->solver = AWE_VSM_SOLVER_LOOP;
  s->density = 1.225;
  s->mu = 1.81e-5;
  s->max_iterations = 1500;
  s->rtol = 1e-5;
  s->tol_reference_error = 0.001;
  s->relaxation_factor = 0.03;
  s->artificial_damping = 0;
  s->k2 = 0.1;
  s->k4 = 0.0;
  s->core_radius_fraction = 0.05;
  s->gamma0 = AWE_GAMMA0_ZEROS;
  s->use_gamma_prev = 1;
  s->correct_aoa = 1;
  s->is_with_artificial_viscosity = 0;
  s->artificial_viscosity_factor = 0.035;
}
