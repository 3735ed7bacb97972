/* model.h: the immutable model, built once from a spec (see model_build.c).
 *
 * Layout after MuJoCo's mjModel: sizes, then one array per component field named
 * <component>_<field>, indexed 0..n-1 in YAML order (auto-generated tether points and
 * segments are appended after the declared ones). Lists per component (a tether's segments,
 * a winch's tethers, a group's points) are stored CSR-style: <c>_<list>_adr[i] is the first
 * entry in <c>_<list>[] and <c>_<list>_num[i] the count.
 *
 * Nothing here changes after awe_model_build returns: integrated quantities live in the state
 * vector y (layout in m->reg.state), scratch in the workspace.
 */
#ifndef AWE_MODEL_H
#define AWE_MODEL_H

#include "aero/airfoil.h"
#include "model/registry.h"
#include "io/settings.h"
#include "io/spec.h"
#include "util/status.h"
#include "aero/vsm_settings.h"
#include "model/winch_machine.h"

/* Atmosphere, wind and gravity (physics.md §1). */
typedef struct {
  double g;               /* gravitational acceleration [m/s^2] */
  double rho_0;           /* air density at sea level [kg/m^3] */
  double temp_ref;        /* [degC] */
  double height_gnd;      /* [m] */
  double h_ref;           /* reference height of v_wind [m] */
  double alpha;           /* power-law exponent [-] */
  double z0;              /* roughness length [m] */
  int profile_law;        /* 0 uniform, 1 EXP, 2 LOG, 3 EXPLOG, 4-6 FAST_EXP|LOG|EXPLOG */
  double v_wind;          /* wind speed at h_ref [m/s] */
  double wind_dir[3];     /* unit vector the wind blows toward (ENU) */
  double upwind_dir;      /* where wind_dir comes from, clockwise from north (+y) [deg]: the
                           * default of input wind.direction */
  int ngust;              /* the scenario's IEC gusts (engine/wind.h) */
  const awe_gust_spec *gusts;
  struct awe_wind_box_s *box; /* the scenario's turbulent wind box, NULL = none (owned) */
  const char *box_path;   /* its file (model pool) */
  double box_scale;       /* its fluctuations times this */
  double box_gen_seconds; /* wall time drawing it (wind.field.generate) [s]; NAN when read */
  double box_advection;   /* Taylor's frozen-turbulence speed [m/s]; NAN = the settings' mean
                           * wind at the box's middle height */
  double cd_tether;       /* tether drag coefficient [-] */
} awe_env;

/* The ground: z = height, with a penalty contact on every moving point below it (scenario
 * `ground:`, engine/ground.h, physics.md §3). Per unit mass, so every point has the same
 * contact frequency whatever its mass. */
typedef struct {
  int on;                 /* contact and crash detection */
  double height;          /* [m] */
  double omega;           /* 2 pi frequency [rad/s]: stiffness k_i = m_i omega^2 */
  double zeta;            /* damping ratio: c_i = 2 zeta omega m_i */
  double mu;              /* Coulomb friction coefficient [-] */
  double v_slip;          /* friction regularisation speed [m/s] */
} awe_ground;

/* Run options: the scenario's `run:` with every default resolved (io/spec.h: AWE_RUN_*; the
 * stepper a scenario does not name is awe_default_solver(m), solver_default.h). */
typedef struct {
  double duration;        /* [s] */
  double dt;              /* log interval [s] */
  char solver[16];        /* GSL stepper name */
  int jacobian_fd;        /* run.jacobian = fd: finite differences only (jacobian.h) */
  double abs_tol, rel_tol;
  double max_step;        /* [s] */
  int vsm_interval;       /* log steps between aero refreshes, 0 = only at init */
  double vsm_dt;          /* [s] aero refresh period (refreshes at k vsm_dt), 0 = vsm_interval */
  double vsm_jacobian_tol; /* [rad] a linearized wing keeps its VSM Jacobian within it, 0 = never */
  int steady_state;
  double steady_state_time; /* [s] */
  double min_step;        /* step-size floor [s]; 0 = 1e-12 max(1, |t|) (guard.h) */
  double max_wall_time;   /* [s] of wall time; 0 = no limit */
  double max_steps;       /* integrator steps, accepted + rejected (guard.h) */
  int on_crash_continue;  /* run.on_crash: continue (1) or stop (0) when a wing hits the ground */
  double crash_clearance; /* [m] a wing point or origin below ground + this is a crash */
} awe_opt;

/* A scheduled input, resolved to an input-vector element. */
typedef struct {
  int u_index;            /* scalar index into u */
  awe_input_spec sig;     /* the signal (table arrays live in the model pool) */
} awe_signal;

/* A controller, resolved to output-vector (measured) and input-vector (driven) elements
 * (controller.h). */
typedef struct {
  awe_controller_spec cfg;  /* the scenario's settings (strings and arrays in the model pool) */
  double period;            /* [s] */
  int *meas_y;              /* [cfg.nmeasure] measured elements of the output vector */
  int *out_u;               /* [cfg.noutput] driven elements of the input vector */
  int y_setpoint, y_measure, y_error, y_output, y_phase; /* logged channels, -1 = none */
  int *y_ext;               /* external: [cfg.noutput] logged outputs */
  int wing, winch;          /* figure_eight wing, pumping winch; -1 */
  int winch_u;              /* pumping: the winch's torque (or speed) input element */
  double winch_ratio;       /* pumping: drum radius / gear ratio [m] */
  const awe_async_machine *machine; /* pumping: the winch's machine when it is an AsyncMachine
                                     * (it then drives the speed set-point), else NULL */
  double winch_v0;          /* pumping: the speed input's own value (init_vel) [m/s] */
  const char *cwd;          /* external: the scenario's folder */
} awe_ctrl;

typedef struct awe_model {
  int npoint, nsegment, ntether, nwinch, npulley, ngroup, nwing, nsection, nairfoil;

  /* names, YAML order */
  const char **point_name, **segment_name, **tether_name, **winch_name, **pulley_name,
      **group_name, **wing_name;

  /* points */
  awe_point_type *point_type;
  int *point_wing;            /* wing index or -1 */
  int *point_transform;       /* transform index (into spec->structure.transforms) or -1 */
  double *point_pos_cad;      /* [3n] CAD position [m] */
  double *point_pos0;         /* [3n] initial world position (tether lengths, transforms) */
  double *point_vel0;         /* [3n] initial world velocity [m/s] */
  double *point_extra_mass;   /* [kg] */
  double *point_mass0;        /* extra mass + half of each attached segment, at init [kg] */
  double *point_bfd, *point_wfd; /* [3n] body/world frame damping [1/s] */
  double *point_area;         /* drag area [m^2] */
  double *point_cd;           /* drag coefficient [-] */

  /* segments */
  int *segment_p;             /* [2n] end points i, j */
  double *segment_l0;         /* rest length at init [m] */
  double *segment_diameter;   /* [m] */
  double *segment_unit_k;     /* E*A [N] */
  double *segment_unit_c;     /* damping * length [N s] */
  double *segment_compression_frac; /* stiffness factor when slack [-] */
  double *segment_compression_damping_frac; /* damping factor when slack [-] (SAM 0.14) */
  double *segment_density;    /* [kg/m^3] */
  int *segment_tether;        /* tether index or -1 */
  int *segment_pulley;        /* pulley index or -1 */
  int *segment_pulley_leg;    /* 0 or 1 */
  unsigned char *segment_wing_internal; /* both ends WING points of one wing: no drag */

  /* tethers: segments in chain order from the start point */
  int *tether_seg_adr, *tether_seg_num, *tether_segs;
  int *tether_start, *tether_end; /* end points */
  double *tether_len0;        /* unstretched length at init [m] */
  double *tether_stretched0;  /* stretched (placed) length at init [m] */
  int *tether_winch;          /* winch index or -1 */
  double *tether_init;        /* [3n] the spec's init_stretched_length, init_tether_force,
                               * init_stretch_frac (NAN: not given), for the awesIO writer */

  /* winches */
  int *winch_tether_adr, *winch_tether_num, *winch_tethers;
  int *winch_point;
  double *winch_drum_radius;  /* [m] */
  double *winch_gear_ratio;   /* [-] */
  double *winch_inertia;      /* inertia seen from the motor [kg m^2] */
  double *winch_f_coulomb;    /* [N] */
  double *winch_c_vf;         /* [N s/m] */
  double *winch_friction_eps; /* smooth sign epsilon [rad/s] */
  double *winch_init_vel;     /* [m/s] */
  int *winch_brake0;          /* braked at start */
  int *winch_speed_controlled;
  int *winch_endpoint_damping; /* its tethers' dampers read the endpoints alone (segment.h) */
  int *winch_async;           /* 1: AsyncMachine (speed set-point), 0: TorqueControlledMachine */
  awe_async_machine *winch_machine; /* asynchronous machine constants (winch_machine.h) */
  double *winch_eta;          /* drive efficiency (settings winch.efficiency) [-] */

  /* pulleys */
  int *pulley_seg;            /* [2n] */
  awe_dyn_type *pulley_type;
  double *pulley_sum_len;     /* l0_1 + l0_2 [m] */
  double *pulley_len0;        /* initial rest length of leg 1 [m] */
  double *pulley_efficiency;  /* fraction of the line tension passed on [-] (pulley.h) */
  double *pulley_friction_eps;/* speed smoothing the friction's sign [m/s] */
  double *pulley_damping;     /* [N s/m] */
  double *pulley_damping_rate;/* per unit rope mass [1/s] (awesim extension) */
  int *pulley_brake;          /* holds its split (SAM 0.14 brake): rope speed 0 */

  /* transforms: the spec's, as placed (names in the pool, locations cleared), for the awesIO
   * writer; point_transform and wing_transform index them */
  int ntransform;
  awe_transform_spec *transforms;

  /* groups (twist surfaces) */
  int *group_point_adr, *group_point_num, *group_points;
  awe_dyn_type *group_type;
  double *group_moment_frac, *group_damping;
  int *group_wing;            /* -1 if no wing lists it */

  /* wings */
  awe_wing_type *wing_type;
  awe_aero_mode *wing_aero_mode;
  int *wing_group_adr, *wing_group_num, *wing_groups;
  int *wing_point_adr, *wing_point_num, *wing_points;  /* points with wing_idx == this wing */
  int *wing_origin_adr, *wing_origin_num, *wing_origin_pts; /* weighted origin */
  double *wing_origin_w;
  int *wing_ref_adr, *wing_ref_num, *wing_ref_pts;    /* 4 weighted sets: z1, z2, y1, y2 */
  double *wing_ref_w;                                  /* (set k of wing i at adr[4i+k]) */
  double *wing_y_damping, *wing_angular_damping, *wing_aero_scale_chord, *wing_aero_z_offset;
  double *wing_ang_damp;      /* [3 nw] rate damping per principal axis [1/s]: the structure's
                               * angular_damping vector (SAM 0.15), else [a, a + y, a] */
  /* unsteady aerodynamics (engine/unsteady.h; SymbolicAWEModels 0.17 UnsteadyAero) */
  double *wing_apparent_mass; /* scale of the thin-plate added mass, 0: off */
  unsigned char *wing_wagner; /* Wagner lift lag on (states wings.NAME.wagner_x1, _x2) */
  double *wing_wagner_gains, *wing_wagner_rates; /* [2 nw] its A_i and b_i (Jones' defaults) */
  int *wing_transform;        /* transform index or -1 */
  double *wing_pos_cad;       /* [3n] the structure's pos_cad of the wing, NAN when not given
                               * (not used by the build; kept for the awesIO writer) */
  double *wing_mass;          /* sum of its points' masses [kg] */
  int *wing_ground_point;     /* ground station point, -1 for a given position (ground_station.c) */
  double *wing_ground;        /* [3n] ground station, world [m]: the base of the wing's angles */

  /* rigid bodies (model_build_body.c; engine/body.h): origin = centre of mass */
  int nbody;
  const char **body_name;
  double *body_mass;          /* [kg] its own and its riding points' */
  double *body_mass0;         /* [kg] its own (gravity; the points' weights act on them) */
  double *body_I;             /* [9n] body-frame inertia tensor [kg m^2] */
  double *body_Iinv;          /* [9n] its inverse */
  double *body_pos0, *body_vel0; /* [3n] initial world position, velocity */
  double *body_q0;            /* [4n] initial Q_b_to_w */
  double *body_pos_cad, *body_q_cad; /* [3n], [4n] the pose as given, before the transforms
                                      * place it (what the awesIO writer keeps) */
  double *body_I_own;         /* [9n] its own inertia as given, without its riding points */
  double *body_omega0;        /* [3n] initial body-frame angular velocity [rad/s] */
  double *body_damp;          /* [3n] angular damping [1/s] */
  double *body_wfd;           /* [3n] world-frame damping of the velocity [1/s] */
  unsigned char *body_static; /* clamped to the initial pose */
  int *body_transform;        /* transform placing it with its points (pos, Q were CAD), -1 */
  double *body_bfd;           /* [3n] damping of the velocity relative to the origin of wing
                                 body_wing, its axes [1/s] (SAM's body_frame_damping) */
  int *body_wing;             /* that wing (given, or the wing of its riders), -1 */
  int *point_body;            /* [npoint] the body a point rides (STATIC type, no state), -1 */
  double *point_anchor_b;     /* [3 npoint] its offset from the body's origin, body frame [m] */
  int *body_point_adr, *body_point_num, *body_points; /* riding points of each body (CSR) */

  /* tubes between bodies (model_build_body.c; engine/body.h) */
  int ntube;
  const char **tube_name;
  int *tube_body;             /* [2n] bodies a, b */
  awe_tube_model *tube_model;
  double *tube_k;             /* [6n] Timoshenko: EA, GA, GJ, EIy, EIz, shear_coeff;
                               * elastic: axial, shear, torsion, bending, -, - */
  double *tube_damping;       /* Rayleigh beta [s] */
  double *tube_diameter, *tube_pressure; /* as given [m], [Pa]; NAN when not */
  int *tube_law;              /* 0 none, 1 breukels2011 (awe_tube_spec.law) */
  double *tube_anchor;        /* [6n] body-frame end offsets on a, b [m] */
  double *tube_L0;            /* rest length [m] */
  double *tube_ref_b;         /* [3n] body-a-frame vector fixing the element's e2 (Timoshenko) */
  double *tube_Ra0, *tube_Rb0; /* [9n] rest element->body rotations (E^T R at rest) */
  double *tube_off0;          /* [3n] elastic: rest anchor offset in body a's frame */
  double *tube_Rrel0;         /* [9n] elastic: rest R_a^T R_b */

  /* aero geometry (shared by all wings in this version) */
  double *section_le, *section_te; /* [3 nsection] CAD [m] */
  int *section_airfoil;       /* index into airfoils */
  awe_airfoil *airfoils;      /* polar arrays live in the model pool */
  awe_vsm_settings vsm;

  awe_env env;
  awe_ground ground;
  awe_opt opt;
  awe_settings settings;      /* the merged settings, for reference */

  /* kite control unit (model_build_kcu.c; equations engine/kcu.h): depower and steering in
   * %, mapped to the rest lengths of its tapes, moved by rate-limited motors */
  int has_kcu;
  int kcu_seg[3];             /* depower tape, left and right steering tape; -1 = none */
  double kcu_depower0, kcu_steering0;   /* initial setting [%] */
  double kcu_dp_zero, kcu_dp_range;     /* depower tape at 0 % [m], change 0..100 % [m] */
  double kcu_st_neutral, kcu_st_range;  /* steering tapes at 0 % [m], change at 100 % [m] */
  double kcu_dp_rate, kcu_st_rate;      /* motor speed limits [%/s] */
  double kcu_gain[2];                   /* motor speed per % of error [1/s]: depower, steering */

  /* scheduled inputs */
  int nsignal;
  awe_signal *signals;

  /* closed-loop controllers, in the order they run */
  int nctrl;
  awe_ctrl *ctrl;

  /* variable registry: state layout, inputs, outputs */
  awe_registry reg;

  const char *name;           /* scenario name */
  struct awe_pool *pool;      /* owns every array above */
} awe_model;

/* Build the plant from a spec: resolves names, expands auto tethers, applies materials and
 * settings defaults, derives masses, places the system (tether lengths, transforms), lays out
 * the state vector, then validates (model_validate.c). Warnings go to warn. Controllers are
 * not built here (nctrl = 0): a runnable model comes from awe_model_build_controlled
 * (control/controller.h), which calls this, then builds the controllers into it.
 * Returns NULL on failure with err set. */
awe_model *awe_model_build(const awe_spec *s, awe_diag *warn, awe_err *err);
void awe_model_free(awe_model *m);

/* Validation rules of SymbolicAWEModels' validate_sys_struct plus awesim's own checks. */
awe_status awe_model_validate(const awe_model *m, const awe_spec *s, awe_diag *warn,
                              awe_err *err);

/* Place the system: tether init lengths and transforms (init_place.c). Called by the builder
 * on a model under construction. */
awe_status awe_model_place(awe_model *m, const awe_spec *s, awe_diag *warn, awe_err *err);

/* Unit-slip warnings (an angle in degrees that looks like radians, a line diameter in mm that
 * looks like metres, a tether longer than 5 km) and, with the ground on, the refusal of a
 * moving point placed below it (plausible.c). Called by the builder after placement. */
awe_status awe_model_plausible(const awe_model *m, const awe_spec *s, awe_diag *warn,
                               awe_err *err);

/* Ground station of every wing (ground_station.c): its ground_point, or the STATIC end of the
 * line chain that holds it. Called by the builder after placement. */
awe_status awe_model_ground_stations(awe_model *m, const awe_spec *s, awe_err *err);

/* Register states, inputs and outputs (layout.c). Called by the builder. */
awe_status awe_model_layout(awe_model *m, awe_err *err);

/* Output channels inputs.<name> for the scheduled inputs (layout.c). Called after the signals
 * are resolved. */
awe_status awe_model_layout_inputs(awe_model *m, awe_err *err);

/* Which components carry states (layout.c decides; the workspace and the right-hand side
 * follow it). */
/* Does point i carry a state (pos, vel)? DYNAMIC points and WING points of particle wings
 * (see layout.c). */
int awe_point_has_state(const awe_model *m, int i);

/* Is point i a WING point of a rigid wing (a kinematic slave of the wing body)? */
int awe_point_is_slave(const awe_model *m, int i);

/* Does group g carry a state (twist, twist_vel)? DYNAMIC groups of rigid wings. */
int awe_group_has_state(const awe_model *m, int g);

/* Does pulley i carry a state (len, vel)? DYNAMIC pulleys whose rope has mass (layout.c). */
int awe_pulley_has_state(const awe_model *m, int i);

/* Index lookups by name; -1 if absent. */
int awe_model_find_point(const awe_model *m, const char *name);
int awe_model_find_segment(const awe_model *m, const char *name);

/* The rest lengths [m] of the KCU's depower, left and right steering tapes at a depower [%]
 * and steering [%] setting (engine/kcu.h; tapes held at >= 0 m) (model_build_kcu.c). */
void awe_kcu_tapes(const awe_model *m, double depower, double steering, double l[3]);
int awe_model_find_winch(const awe_model *m, const char *name);
int awe_model_find_tether(const awe_model *m, const char *name);

/* Total mass of all non-static points [kg]. */
double awe_model_total_mass(const awe_model *m);

#endif
