/* spec.h: plain structs mirroring the input files, before any name is resolved.
 *
 * The YAML layer (spec_yaml.c) fills these; model_build.c turns them into an awe_model.
 * Every row keeps the position it came from so later stages can say where a problem is.
 * Numbers that a file may leave out are NAN here ("not given"); the builder applies the
 * SymbolicAWEModels defaults. All strings and arrays live in the spec's pool.
 */
#ifndef AWE_SPEC_H
#define AWE_SPEC_H

#include "aero/airfoil.h"
#include "io/settings.h"
#include "turb/mann.h"
#include "util/status.h"
#include "aero/vsm_settings.h"

/* A reference to another component: by name, or by 1-based index (as in the YAML files). */
/* Most segments of one generated tether: what is tested (tests/long_tether.sh: `check` and a
 * 0.01 s trbdf2 run of a 50000-segment tether, 65 s and 2.5 GB: the Jacobian's block pattern is
 * dense, blocks^2 bytes, asked of the memory budget first). */
#define AWE_N_SEGMENTS_MAX 50000

typedef struct {
  const char *name;  /* NULL when given as an index or absent */
  int index;         /* 1-based index when given as a number; 0 = none */
  awe_loc loc;
} awe_ref;

#define AWE_REF_GIVEN(r) ((r).name != NULL || (r).index != 0)

/* The 0-based index of reference r among n names (by name, or its 1-based index), else -1. */
int awe_ref_index(const awe_ref *r, const char *const *names, int n);

/* A weighted set of points (wing origin, reference points): [[id, w], ...] or [a, b] or a. */
typedef struct {
  int n;
  awe_ref *pt;
  double *w;
} awe_wref;

typedef enum {
  AWE_PT_STATIC = 0,   /* fixed in space (ground, winch) */
  AWE_PT_DYNAMIC,      /* Newton's law */
  AWE_PT_QUASI_STATIC, /* massless force balance, solved each right-hand side */
  AWE_PT_WING          /* belongs to a wing (rigid slave or particle); also BODY_STATIC */
} awe_point_type;

typedef enum { AWE_DYN_DYNAMIC = 0, AWE_DYN_QUASI_STATIC, AWE_DYN_STATIC } awe_dyn_type;

typedef enum { AWE_WING_RIGID = 0, AWE_WING_PARTICLE } awe_wing_type;

typedef enum {
  AWE_AERO_DEFAULT = -1,  /* RIGID -> LINEARIZED, PARTICLE -> DIRECT */
  AWE_AERO_NONE = 0,
  AWE_AERO_DIRECT,
  AWE_AERO_LINEARIZED
} awe_aero_mode;

typedef struct {
  const char *name;
  double youngs_modulus, density, damping_per_stiffness, diameter_mm; /* NAN if absent */
  double unit_stiffness, unit_damping;
  awe_loc loc;
} awe_material_spec;

typedef struct {
  const char *name;
  double pos_cad[3];
  awe_point_type type;
  awe_ref wing, transform;
  awe_ref body;           /* rides this body (SymbolicAWEModels 0.17 body_idx, BODY_STATIC) */
  double anchor_b[3];     /* its offset from the body's origin, body frame [m] */
  int has_anchor_b;       /* 0: from pos_cad and the body's initial pose */
  double extra_mass;      /* [kg] */
  double bfd[3], wfd[3];  /* body/world frame damping [1/s] */
  double area, drag_coeff;
  awe_loc loc;
} awe_point_spec;

/* Segment-like properties that may come from a material (by name) or explicit columns. */
typedef struct {
  double diameter_mm, unit_stiffness, unit_damping, compression_frac, density;
  /* SymbolicAWEModels 0.14 columns (NAN if absent): unit_stiffness = youngs_modulus [Pa]
   * pi (diameter_mm/2000)^2, unit_damping = damping_per_stiffness [s] unit_stiffness; the
   * damping factor when slack (default 1) */
  double youngs_modulus, damping_per_stiffness, compression_damping_frac;
  const char *material;   /* a material named in any property column, or NULL */
  awe_loc material_loc;
} awe_line_props;

typedef struct {
  const char *name;
  awe_ref p[2];
  double l0;              /* [m]; NAN or 0 = distance in the CAD geometry */
  awe_line_props props;
  int auto_tether;        /* >0: generated for that (1-based) tether */
  awe_loc loc;
} awe_segment_spec;

#define AWE_PULLEY_FRICTION_EPS 0.1 /* [m/s] a pulley's default friction_epsilon (awesim) */

typedef struct {
  const char *name;
  awe_ref seg[2];
  awe_dyn_type type;
  /* SymbolicAWEModels 0.14: the fraction of line tension the sheave passes on (default 0.95),
   * the speed [m/s] over which its friction's sign is smoothed, a damping [N s/m] */
  double efficiency, friction_epsilon, damping;
  /* awesim extension: a rope damping per unit rope mass [1/s] (the fixed 5 1/s before
   * SymbolicAWEModels 0.14), for models calibrated with it; default 0 */
  double damping_rate;
  int brake;              /* SymbolicAWEModels 0.14: hold the rope split (debugging) */
  double sum_len;         /* l0_1 + l0_2 as built [m] (an awesIO document's awesim_sum_len);
                           * 0 = the sum of the legs' rest lengths */
  awe_loc loc;
} awe_pulley_spec;

typedef struct {
  const char *name;
  int npoint;
  awe_ref *points;
  awe_dyn_type type;
  double moment_frac;
  double damping;         /* [N m s/rad] */
  awe_loc loc;
} awe_group_spec;

typedef struct {
  const char *name;
  int nseg;               /* explicit segment list (route 1); 0 = auto-generated (route 2) */
  awe_ref *segs;
  awe_ref start, end;
  int n_segments;         /* route 2; 1 ... AWE_N_SEGMENTS_MAX */
  awe_line_props props;   /* route 2 */
  double init_stretched_length, init_tether_force, init_stretch_frac; /* NAN if absent */
  int length_set;         /* the scenario set the length (tethers:, settings.initial.l_tethers) */
  double len0;            /* unstretched length as built [m] (an awesIO document's awesim_len0),
                           * used when no init_* is given; 0 = the sum of the rest lengths */
  awe_loc loc;
} awe_tether_spec;

typedef struct {
  const char *name;
  int ntether;
  awe_ref *tethers;
  awe_ref point;
  double init_vel;        /* [m/s] */
  int brake, speed_controlled;
  double friction_epsilon;
  /* SymbolicAWEModels 0.14 columns (older: f_coulomb, c_vf); NAN: settings winch.f_coulomb,
   * winch.c_vf */
  double coulomb_friction, viscous_coefficient; /* [N], [N s/m] */
  /* awesim extension: the damper of the winch's tether segments reads the endpoints alone (the
   * form before SymbolicAWEModels 0.14, which charges reeling c v/n), for models calibrated
   * with it */
  int endpoint_damping;
  awe_loc loc;
} awe_winch_spec;

typedef struct {
  const char *name;
  awe_wing_type type;
  int type_given;
  awe_aero_mode aero_mode;
  int ngroup;
  awe_ref *groups;
  int npoint;
  awe_ref *points;
  awe_ref transform;
  awe_wref origin, z_ref[2], y_ref[2];
  double y_damping, angular_damping, aero_scale_chord, aero_z_offset;
  /* SymbolicAWEModels 0.15: angular_damping as the per-axis vector [1/s] (principal axes);
   * given: it replaces angular_damping and y_damping ([a, a + y_damping, a]) */
  double angular_damping_vec[3];
  int has_angular_damping_vec;
  double pos_cad[3];
  int has_pos_cad;
  /* awesim extension: the wing's ground station, a STATIC point or a world position [m] */
  awe_ref ground_point;
  double ground_pos[3];
  int has_ground_pos;
  awe_loc ground_loc;
  awe_loc loc;
  awe_loc damping_loc[2];  /* angular_damping, y_damping set by a scenario (file NULL: not) */
  /* unsteady aerodynamics (SymbolicAWEModels 0.17 UnsteadyAero; off by default):
   * unsteady: {apparent_mass: SCALE, wagner: BOOL} */
  double apparent_mass;    /* scale of the thin-plate added mass rho pi c^2 w / 4; 0: off */
  int wagner;              /* Wagner lift lag (two states per wing) */
  double wagner_gains[2], wagner_rates[2]; /* its A_i, b_i where given */
  int wagner_own[2];       /* gains, rates given (else R. T. Jones' defaults) */
  awe_loc unsteady_loc;    /* where unsteady: was given (file NULL: not) */
} awe_wing_spec;

typedef struct {
  const char *name;
  double elevation, azimuth, heading;          /* [rad] (YAML in degrees) */
  awe_loc angle_loc[3];   /* where elevation, azimuth, heading were given last (line 0: not) */
  double elevation_vel, azimuth_vel, turn_rate; /* [rad/s] */
  double base_pos[3];
  int has_base_pos;
  awe_ref base_point, base_transform, wing, rot_point;
  awe_loc loc;
} awe_transform_spec;

/* A rigid body (SymbolicAWEModels 0.17 `bodies:`, system_structure/rigid_body.jl): mass,
 * inertia (principal moments in the body frame, or a full body-frame tensor), pose. */
typedef struct {
  const char *name;
  double mass;            /* [kg] (extra_mass or mass) */
  double inertia[9];      /* body-frame tensor [kg m^2] (diagonal when given as principal) */
  double pos[3], vel[3];  /* body origin = centre of mass, world [m], [m/s] */
  double q[4];            /* Q_b_to_w (w, x, y, z) */
  double omega_b[3];      /* [rad/s] */
  double angular_damping[3]; /* [1/s] */
  double world_frame_damping[3]; /* per-mass damping of the velocity, world axes [1/s] */
  double body_frame_damping[3];  /* of the velocity relative to a wing's origin, wing axes [1/s] */
  awe_ref wing;           /* the wing whose frame body_frame_damping uses (else its riders') */
  int is_static;          /* STATIC: clamped to its initial pose */
  awe_ref transform;      /* transform_idx: pos and Q are CAD then, moved as its points */
  awe_loc loc;
} awe_body_spec;

typedef enum { AWE_TUBE_TIMOSHENKO = 0, AWE_TUBE_ELASTIC } awe_tube_model;

/* A tube between two bodies (SymbolicAWEModels 0.17 `tubes:`): the Timoshenko beam element or
 * the lumped elastic 6-DOF joint; rigidities given, or from the tube law (Breukels 2011). NAN
 * = not given. */
typedef struct {
  const char *name;
  awe_ref body[2];
  awe_tube_model model;
  double diameter;        /* [m] */
  double pressure;        /* [Pa] */
  int law;                /* 0 none, 1 breukels2011 */
  double EA, GA, GJ, EIy, EIz, shear_coeff; /* Timoshenko [N], [N], [N m^2], [N m^2] */
  double k_axial, k_shear, k_torsion, k_bending; /* elastic [N/m], [N/m], [N m/rad] */
  double damping;         /* Rayleigh stiffness-proportional [s] */
  double anchor[2][3];    /* body-frame offsets of the element ends [m] */
  awe_loc loc;
} awe_tube_spec;

typedef struct {
  const char *path;
  int nmaterial, npoint, nsegment, npulley, ngroup, ntether, nwinch, nwing, ntransform;
  int nbody, ntube;
  awe_body_spec *bodies;
  awe_tube_spec *tubes;
  awe_material_spec *materials;
  awe_point_spec *points;
  awe_segment_spec *segments;
  awe_pulley_spec *pulleys;
  awe_group_spec *groups;
  awe_tether_spec *tethers;
  awe_winch_spec *winches;
  awe_wing_spec *wings;
  awe_transform_spec *transforms;
} awe_struct_spec;

/* Aero geometry: wing sections and section airfoils (polars loaded from their CSV files). */
typedef struct {
  int airfoil_id;
  double le[3], te[3];
  awe_loc loc;
} awe_section_spec;

typedef struct {
  const char *path;
  int nsection, nairfoil;
  awe_section_spec *sections;
  awe_airfoil *airfoils;
  const char **airfoil_files;  /* polar CSV path per airfoil (NULL if none) */
  double alpha_range[3];       /* [deg] min, max, step */
  double reynolds;
} awe_aero_spec;

/* A scheduled input signal. */
typedef enum {
  AWE_SIG_CONSTANT = 0,
  AWE_SIG_STEP,
  AWE_SIG_RAMP,
  AWE_SIG_SINE,
  AWE_SIG_TABLE
} awe_signal_type;

typedef struct {
  const char *channel;    /* GROUP.NAME.VAR, e.g. winches.main_winch.torque */
  awe_signal_type type;
  double value;           /* constant */
  double t0, before, after;            /* step: value before/after t0 */
  double t_start, t_end, from, to;     /* ramp */
  double amplitude, frequency, phase, offset; /* sine: offset + A sin(2 pi f t + phase) */
  int ntable;
  double *table_t, *table_v;           /* table: piecewise linear, held outside */
  awe_loc loc;
} awe_input_spec;

/* Run defaults: the one place they are set. The reader fills duration, vsm_interval and
 * steady_state_time; dt and the tolerances stay NAN ("not given") in the spec and the model
 * builder resolves them (dt from system.sample_freq first); nothing after the model defaults
 * them again. */
#define AWE_RUN_DURATION 10.0      /* [s] */
#define AWE_RUN_DT 0.05            /* [s], without run.dt and system.sample_freq */
#define AWE_RUN_TOL 1e-6           /* run.abs_tol and run.rel_tol */
#define AWE_RUN_VSM_INTERVAL 1     /* log steps between aerodynamic refreshes */
#define AWE_RUN_VSM_JAC_TOL 1e-3   /* [rad] drift of a kept VSM Jacobian (aero_coupling.h) */
#define AWE_RUN_STEADY_TIME 2.0    /* [s] of the settling march (SymbolicAWEModels' default) */
#define AWE_CTRL_MAX_TIMEOUT 1e9   /* [s] largest controllers[].timeout (as run.max_wall_time) */

typedef struct {
  double duration;        /* [s] */
  double dt;              /* log interval [s]; NAN = 1/sample_freq, else AWE_RUN_DT */
  const char *solver;     /* GSL stepper name */
  int jacobian_fd;        /* run.jacobian: 0 analytic (where available), 1 fd */
  double abs_tol, rel_tol;/* NAN = AWE_RUN_TOL (settings' solver.abs_tol is not used) */
  double max_step;        /* [s], NAN = dt */
  int vsm_interval;       /* log steps between aero refreshes; 0 = only at init */
  double vsm_dt;          /* [s] aero refresh period instead, independent of dt; NAN = not given */
  double vsm_jacobian_tol; /* [rad] a linearized wing's Jacobian is kept within it; NAN = default */
  int steady_state;
  double steady_state_time; /* [s] of the settling march */
  double min_step;        /* [s], NAN = 1e-12 max(1, |t|) */
  double max_wall_time;   /* [s], NAN = no limit */
  double max_steps;       /* NAN = AWE_GUARD_MAX_STEPS */
  awe_loc duration_loc;   /* where run.duration was given, else run:'s place (file NULL: no run:) */
  awe_loc dt_loc;         /* where run.dt was given (file NULL: not given) */
  int duration_given;     /* run.duration set in the scenario or by --set (not null) */
  int on_crash_continue;  /* run.on_crash: 0 stop (the default), 1 continue */
  double crash_clearance; /* run.crash_clearance [m] above the ground, NAN = AWE_CRASH_CLEARANCE */
} awe_run_spec;

/* The ground (scenario `ground:`, awesim-scenario(5); physics.md §3, engine/ground.h). */
#define AWE_GROUND_FREQUENCY 5.0     /* [Hz] contact frequency of every point */
#define AWE_GROUND_DAMPING_RATIO 0.7 /* [-] */
#define AWE_GROUND_FRICTION 0.5      /* Coulomb coefficient [-] */
#define AWE_GROUND_FRICTION_SPEED 0.05 /* [m/s] regularisation of the friction's sign */
#define AWE_CRASH_CLEARANCE 0.0      /* [m] */
typedef struct {
  int enabled;            /* 1 on, 0 off, -1 not given (on when the model has a wing) */
  double height;          /* z of the ground [m] */
  double frequency, damping_ratio, friction, friction_speed;
  awe_loc loc;            /* the ground: mapping (line 0: not given) */
} awe_ground_spec;

/* A closed-loop controller (scenario `controllers:`, controller.h). */
typedef enum {
  AWE_CTRL_PID = 0,
  AWE_CTRL_FIGURE_EIGHT,
  AWE_CTRL_PUMPING,
  AWE_CTRL_EXTERNAL
} awe_ctrl_type;

/* Between two samples an output is held (zero-order hold, the default) or ramped linearly from
 * the value it had at the sample to the new one, reached one period later (an actuator that
 * moves continuously, e.g. a steering motor). */
typedef enum { AWE_HOLD_ZERO = 0, AWE_HOLD_RAMP } awe_ctrl_hold;

typedef struct {
  const char *name;
  awe_ctrl_type type;
  double period;          /* [s], NAN = run.dt */
  int nmeasure;
  const char **measure;   /* output channel names */
  awe_loc *measure_loc;
  awe_input_spec setpoint;/* a constant for a number */
  int wrap;
  double kp, ki, kd, d_filter;   /* d_filter NAN = period */
  double limits[2];       /* -inf, inf when absent */
  double rate_limit;      /* NAN = none */
  awe_ctrl_hold hold;     /* how an output reaches its inputs between samples */
  int noutput;
  const char **output;    /* input channel names */
  double *gain;
  awe_loc *output_loc;
  const char *command;    /* external */
  double timeout;         /* external [s], 0 < timeout <= AWE_CTRL_MAX_TIMEOUT */
  /* figure_eight: attractor points (azimuth, elevation) [rad], the turn azimuth, the course
   * loop (kp, ki, kd above act on the course error), the measured wing */
  const char *wing;
  double f8_azimuth, f8_elevation, f8_turn_azimuth;
  int f8_down_turns;      /* 1: turns flown downward (down-loops), 0: upward (the default) */
  /* figure_eight during a pumping cycle's reel-in: while the channel f8_phase (e.g.
   * controllers.pump.phase) is >= 0.5 the kite is steered to the single point
   * (f8_in_azimuth, f8_in_elevation) [rad] out of the crosswind zone (NULL: never) */
  const char *f8_phase;
  awe_loc f8_phase_loc;
  double f8_in_azimuth, f8_in_elevation;
  /* pumping: winch, force set-point during reel-out, reel-in speed, lengths, depower */
  const char *winch;
  double reel_out_force, reel_in_speed, min_length, max_length, depower, reel_out_speed_gain;
  const char *depower_input;
  /* pumping: the reel-out force loop (integral bandwidth [rad/s], proportional gain [-]) and
   * the ramp time of the set-points and the depower at a phase switch [s] */
  double force_bandwidth, force_kp, ramp_time;
  /* pumping: the square-root reel-out law v_ro = kv sqrt(F) [m/s per sqrt(N)], 0 = none;
   * the reel-in force set-point [N] (0 = none: reel-in at reel_in_speed; > 0: the force is
   * held and reel_in_speed is the fastest reel-in) */
  double kv, reel_in_force;
  awe_loc loc, period_loc, limits_loc;
} awe_controller_spec;

/* The kite control unit (scenario `kcu:`, awesim-scenario(5)): depower and steering in % as
 * Kitepower logs them, mapped to the rest lengths of three tape segments of the structure and
 * moved by rate-limited motors (engine/kcu.h). NAN: the default (model/model_build_kcu.c). */
typedef struct {
  int present;
  const char *depower_tape, *steering_tapes[2];   /* segment names: depower, left, right */
  awe_loc depower_tape_loc, steering_tapes_loc[2];
  double depower, steering;                       /* initial setting [%] */
  double depower_zero, depower_range;             /* tape [m] at 0 %, change [m] 0..100 % */
  double steering_neutral, steering_range;        /* tapes [m] at 0 %, change [m] per 100 % */
  double depower_rate, steering_rate;             /* motor speed limits [%/s] */
  double gain;                                    /* motor speed per % of error [1/s] */
  awe_loc loc, depower_loc, steering_loc;
} awe_kcu_spec;

/* A deterministic gust of IEC 61400-1 (ed. 3/4) §6.3 (scenario `wind: gusts:`, engine/wind.h).
 * NAN: not given (the default or the formula of engine/wind_gust.c applies). */
typedef enum { AWE_GUST_EOG, AWE_GUST_EDC, AWE_GUST_ECD, AWE_GUST_EWS } awe_gust_type;

typedef struct {
  awe_gust_type type;
  double start;           /* [s] */
  double period;          /* T [s]; NAN = IEC's (EOG 10.5, EDC 6, ECD 10, EWS 12) */
  double height;          /* z_hub, where V_hub is taken [m]; NAN = h_ref */
  double sigma1;          /* standard deviation of the longitudinal turbulence [m/s] */
  double lambda1;         /* longitudinal turbulence scale [m]; NAN = 0.7 z_hub, 42 m above 60 m */
  double diameter;        /* D, the rotor diameter in IEC (the kite's span here) [m] */
  double v_e1;            /* EOG: the one-year extreme wind at z_hub [m/s] */
  double v_gust;          /* EOG: the gust speed itself [m/s] */
  double theta_e;         /* EDC: the direction change itself [deg] */
  double v_cg, theta_cg;  /* ECD: speed [m/s] (15) and direction [deg] change */
  double shear;           /* EWS: the amplitude 2.5 m/s + 0.2 beta sigma1 (D/Lambda1)^(1/4) [m/s] */
  int horizontal;         /* EWS: 1 horizontal (lateral) shear, 0 vertical */
  int sign;               /* +1 or -1: the sense of the change (EDC, ECD, EWS) */
  awe_loc loc;
} awe_gust_spec;

/* The scenario's `wind:` section. */
typedef struct {
  int ngust;
  awe_gust_spec *gusts;
  const char *field;      /* a turbulent wind box (HDF5, `awesim wind generate`), NULL = none */
  awe_mann_spec *generate; /* or one drawn at the start from this spec (field: {generate: ...}) */
  double field_scale;     /* its fluctuations times this [-] (1) */
  double advection;       /* Taylor's frozen-turbulence speed [m/s]; NAN = the mean wind at the
                           * box's middle height */
  awe_loc field_loc;
  double npz_grid[3];     /* a .npz field's grid_step, height_step, z_min [m]; NAN = defaults */
} awe_wind_spec;

/* output.compression of the HDF5 log */
enum { AWE_LOG_COMPRESS_NONE = 0, AWE_LOG_COMPRESS_DEFLATE, AWE_LOG_COMPRESS_SHUFFLE_DEFLATE };

typedef struct {
  const char *path;        /* scenario file */
  int bare_model;          /* loaded from a model file alone: no scenario, no run: section */
  const char *name;
  int version;
  /* model files (absolute or relative to the cwd, already resolved against the scenario) */
  const char *system_file, *structure_file, *aero_file, *settings_file, *vsm_settings_file;
  /* the YAML value that named each file (messages about the file point there), and the node
     that defines the model (system: mapping, or the scenario's model:) */
  awe_loc system_loc, structure_loc, aero_loc, settings_loc, vsm_settings_loc, model_loc;
  awe_run_spec run;
  awe_ground_spec ground;
  int ninput;
  awe_input_spec *inputs;
  const char *hdf5;        /* output file, NULL = none */
  const char *csv;         /* CSV channel patterns from the scenario, NULL = none */
  int nchannels;           /* output.channels: globs of the logged channels (0 = all) */
  const char **channels;
  awe_loc *channels_loc;   /* where each pattern was written */
  int compression;         /* output.compression: AWE_LOG_COMPRESS_* (none) */
  int compression_level;   /* output.compression_level 1..9 (4 when compressed, else 0) */
  int ncontroller;
  awe_controller_spec *controllers;
  awe_kcu_spec kcu;
  awe_wind_spec wind;
} awe_scenario_spec;

/* A file read for this spec (scenario, model files, polar tables): no output of the run may
 * write over it. Its identity is the device and inode it had when read, which a hard link or
 * a symbolic link shares and a second spelling of the path cannot hide. */
typedef struct awe_spec_file {
  const char *path;
  unsigned long long dev, ino;
  struct awe_spec_file *next;
} awe_spec_file;

/* Everything read for one run. Owns its memory (pool) and the YAML documents. */
typedef struct awe_spec awe_spec;
struct awe_spec {
  awe_scenario_spec scenario;
  awe_settings settings;
  awe_vsm_settings vsm;
  int has_vsm_settings;
  awe_struct_spec structure;
  awe_aero_spec aero;
  int has_aero;
  awe_diag warnings;
  char *scenario_text;     /* the scenario as run (after --set), YAML text */
  struct awe_pool *pool;   /* opaque */
  struct awe_ydoc *docs[8];/* parsed files, kept alive: locations point into them */
  int ndocs;
  awe_spec_file *files;    /* every file read, newest first (awe_spec_note_file) */
  const struct awe_ynode *vars; /* 'variables:' of the structure being read, else NULL */
  const char *deprecated[32];   /* old spellings warned about (one line each) */
  int ndeprecated;
};

/* An old spelling that still loads: one warning line per key (the old spelling) and spec,
 * saying the current spelling (key must outlive the spec: a literal or awe_spec_strdup). */
void awe_spec_deprecated(awe_spec *s, const awe_loc *loc, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Pool allocation for spec data (zeroed). Returns NULL when out of memory. */
void *awe_spec_alloc(awe_spec *s, size_t n);
const char *awe_spec_strdup(awe_spec *s, const char *str);
/* An empty spec with the settings and vsm_settings defaults (what every loader starts from);
 * NULL when out of memory. */
awe_spec *awe_spec_new(void);
void awe_spec_free(awe_spec *s);
/* Add path, a file just read, to s->files (stat gives its identity; a path that cannot be
 * stat'ed is skipped: nothing could have been read from it). AWE_ENOMEM on failure. */
awe_status awe_spec_note_file(awe_spec *s, const char *path, awe_err *err);

const char *awe_point_type_name(awe_point_type t);
const char *awe_dyn_type_name(awe_dyn_type t);

#endif
