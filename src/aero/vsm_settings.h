/* vsm_settings.h: numerical settings of the Vortex Step Method solver.
 *
 * Mirrors VortexStepMethod.jl's vsm_settings.yaml (condition, wings[0], solver_settings).
 * Filled by the YAML layer (spec_yaml.c) or by awe_vsm_settings_default(); read-only afterwards.
 */
#ifndef AWE_VSM_SETTINGS_H
#define AWE_VSM_SETTINGS_H

typedef enum { AWE_VSM_MODEL_VSM = 0, AWE_VSM_MODEL_LLT } awe_vsm_model;
typedef enum { AWE_VSM_SOLVER_LOOP = 0, AWE_VSM_SOLVER_NEWTON } awe_vsm_solver;
typedef enum {
  AWE_DIST_LINEAR = 0,
  AWE_DIST_COSINE,
  AWE_DIST_COSINE_VAN_GARREL,
  AWE_DIST_SPLIT_PROVIDED,
  AWE_DIST_UNCHANGED,
  AWE_DIST_BILLOWING        /* SPLIT_PROVIDED with the TE billowed between the input sections */
} awe_vsm_distribution;
typedef enum { AWE_GAMMA0_ELLIPTIC = 0, AWE_GAMMA0_ZEROS } awe_vsm_gamma0;

typedef struct {
  /* condition (standalone polar runs) */
  double wind_speed;        /* [m/s] */
  double alpha_deg;         /* [deg] */
  double beta_deg;          /* [deg] */
  double yaw_rate_deg;      /* [deg/s] */
  /* wings[0] */
  int n_panels;
  awe_vsm_distribution distribution;
  double spanwise_direction[3];
  int remove_nan;
  double billowing_percentage; /* [%] TE arc-length gain between input sections (BILLOWING) */
  /* solver_settings */
  awe_vsm_model model;
  awe_vsm_solver solver;
  int solver_given;         /* 1: a settings file chose solver_type (`awesim polar` defaults to
                               Newton when none did) */
  double density;           /* [kg/m^3] */
  double mu;                /* [N s/m^2] */
  int max_iterations;
  double rtol;
  double tol_reference_error;
  double relaxation_factor;
  int artificial_damping;
  double k2, k4;
  double core_radius_fraction;
  awe_vsm_gamma0 gamma0;
  int use_gamma_prev;
  int correct_aoa;          /* force directions from alpha at the 1/4 chord (VSM; default 1),
                               else from the 3/4-chord alpha of the solve (Python VSM) */
  int is_with_artificial_viscosity;
  double artificial_viscosity_factor;
} awe_vsm_settings;

/* Defaults of VortexStepMethod.jl's VSMSettings (2026 struct), see man page awesim(1). */
void awe_vsm_settings_default(awe_vsm_settings *s);

#endif
