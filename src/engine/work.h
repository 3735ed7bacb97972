/* work.h: the workspace of one simulation (after MuJoCo's mjData).
 *
 * Everything the right-hand side derives from the state y lives here: unpacked positions and
 * velocities, current rest lengths and masses, segment forces, winch and pulley quantities, the
 * quasi-static solver's scratch, counters and warnings. awe_work_alloc sizes every array from
 * the model once (one pool); nothing is allocated afterwards. The model stays read-only, so two
 * workspaces may run the same model side by side (tests, finite differences, sweeps).
 *
 * Address maps (-1 = none) translate components to places in the flat vectors:
 *   point_x[i]   offset of pos (vel at +3) in y for points with a state
 *   point_qs[i]  offset of the position in the quasi-static unknowns (QUASI_STATIC points)
 *   tether_x, winch_x, pulley_x (len; vel at +1), pulley_qs
 *   wing_x[j]    offset of a rigid wing's com (com_vel +3, Q +6, omega_p +10)
 *   group_x[g]   offset of a DYNAMIC group's twist (twist_vel +1)
 *   *_u_*        offsets in the input vector u
 * They are read from the registry (layout.c), so the layout is defined in one place.
 */
#ifndef AWE_WORK_H
#define AWE_WORK_H

#include <math.h>

#include "model/model.h"
#include "util/pool.h"
#include "util/vec3.h"


/* Runtime warnings, counted (MuJoCo's d->warning[]): the first occurrence is kept. */
enum {
  AWE_WARN_QS_NOCONV = 0,  /* quasi-static Newton hit its iteration cap (step retried) */
  AWE_WARN_QS_SINGULAR,    /* quasi-static Jacobian singular (step retried) */
  AWE_WARN_NONFINITE,      /* a trial stage produced a non-finite value (step retried) */
  AWE_NWARN
};

typedef struct {
  unsigned long count;     /* occurrences */
  double t;                /* time of the first one [s] */
  int index;               /* component / state index of the first one */
} awe_warning;

typedef struct {
  unsigned long rhs;       /* right-hand-side evaluations (including Jacobian columns) */
  unsigned long jac;       /* Jacobian evaluations */
  unsigned long steps;     /* accepted integrator steps */
  unsigned long rejected;  /* rejected (retried) steps */
  unsigned long qs_solves, qs_iter; /* quasi-static Newton solves and iterations */
  unsigned long lu, lu_solves; /* trbdf2: factorisations and solves of its iteration matrix */
  /* trbdf2: Newton iterations (one rhs and one solve each) of its TR and BDF2 stages, and
   * stages that failed to converge (the step is retried with a fresh J, or h halved) */
  unsigned long newton_tr, newton_bdf, newton_fail;
} awe_stats;

/* Flags of one right-hand-side call (awe_ctx.flags in rhs.h), kept in the workspace (flags
 * below) for the components that honour them (wing.c, group.c, rhs.c). */
enum {
  AWE_CTX_BRAKE_ALL = 1u << 0,  /* every winch braked (steady-state march) */
  AWE_CTX_FIX_WING = 1u << 1,   /* rigid wings and their twist held (all derivatives 0) */
  AWE_CTX_FIX_SPHERE = 1u << 2, /* rigid wings move only radially and do not turn about the
                                   radial axis (steady-state march, find_steady_state!) */
  AWE_CTX_NO_LAG = 1u << 3      /* Wagner lags inactive: d = 0, states frozen (the steady-state
                                   march: steady flow has no lag; unsteady.h) */
};

struct awe_qs;
struct awe_aero;

/* Constant body geometry of a wing (wing.c; from the CAD positions, physics.md §4). Frames:
 * body b (x chord, y span, z up; from the reference points), principal p (axes of the inertia
 * about the centre of mass), world w. R_xy maps y coordinates from x: v_y = R_xy v_x. */
typedef struct {
  double R_bc[9];          /* body -> CAD */
  double origin_cad[3];    /* body origin in CAD [m] */
  double mass;             /* rigid wings: sum of the WING points' masses at init [kg] */
  double com_b[3];         /* centre of mass relative to the origin, body frame [m] */
  double I_p[3];           /* principal moments of inertia about the COM [kg m^2] */
  double R_pb[9];          /* principal -> body (columns: principal axes in body coords) */
  double base[3];          /* its ground station (m->wing_ground), base of its angles [m] */
} awe_wing_geom;

/* Twist group geometry in the body frame (group.c, physics.md §7). */
typedef struct {
  double le_b[3];          /* LE (first point), untwisted [m] */
  double chord_b[3];       /* chord vector LE -> farthest point [m] */
  double x_airf[3], y_airf[3], z_airf[3]; /* chord, span and normal unit vectors */
  double inertia;          /* (1/3) m c^2 [kg m^2] */
} awe_group_geom;

/* What the segment loop reads of segment s, packed (work.c; the model's arrays are spread over
 * many cache lines): ends, spring-damper constants, pulley leg, line-drag factor. */
typedef struct {
  int a, b;                /* end points */
  int pulley;              /* pulley index, -1 */
  double leg_sign;         /* +1 on leg 0 of a pulley, -1 on leg 1 */
  double unit_k, unit_c;   /* E A [N], damping [N s] */
  double comp_frac;        /* stiffness factor when slack */
  double comp_damp_frac;   /* damping factor when slack (SymbolicAWEModels 0.14) */
  double drag;             /* 0.5 cd_tether d [m]; 0: no line drag (inside a wing, cd or d 0) */
  int rigid;               /* both ends on one rigid wing: no force */
} awe_seg_hot;

/* The wind of the current right-hand-side call (engine/wind.h): at a point p,
 *   wind(p) = (f(z) v_ref + dv + gz z + gy (p . lat)) dir + w e_z + the wind box's u', v', w'. */
typedef struct {
  double dir[3];           /* unit vector the wind blows toward, gusts' turn included */
  double lat[3];           /* horizontal unit vector across it, e_z x dir (EWS's y) */
  double v_ref;            /* mean speed at h_ref [m/s] (input wind.v_wind) */
  double dv;               /* speed change of the gusts, uniform part [m/s] */
  double gz, gy;           /* the gusts' speed change per metre of height, of y [1/s] */
  double w;                /* vertical wind [m/s] (input wind.w) */
  double dir_deg;          /* upwind direction, wind.direction plus the gusts' turn [deg] */
  double dh[2];            /* the horizontal part of dir, normalised: the wind box's x axis */
  double box_shift;        /* Taylor: how far the box has moved along it, U t [m] */
} awe_wind_now;

typedef struct awe_work {
  int nx, nu, ny;          /* sizes of state, input and output vectors */
  int nqs;                 /* quasi-static unknowns: 3 per QUASI_STATIC point + 1 per QS pulley */
  int nqs_point;           /* QUASI_STATIC points */

  /* address maps (see above) */
  int *point_x, *point_qs;
  int *tether_x, *winch_x, *pulley_x, *pulley_qs;
  int *winch_u_torque, *winch_u_brake, *winch_u_speed;
  int *segment_u_l0, *point_u_force;
  int u_v_wind, u_wind_dir, u_wind_w; /* wind.v_wind, wind.direction, wind.w */
  int *wing_x, *group_x;
  int *wing_u_force, *wing_u_moment;
  int *body_x;             /* [nbody] offset of a DYNAMIC body's pos (vel +3, Q +6, omega +10) */
  int *body_u_force, *body_u_moment;
  int kcu_x[2], kcu_u[2];  /* kcu.depower_actual, kcu.steering_actual; kcu.depower, .steering */
  /* kite control unit (kcu.h): settings [%] (clamped), actual positions [%], tapes [m] */
  double kcu_set[2], kcu_act[2], kcu_l0[3];

  /* topology helpers: segments touching each point (CSR) */
  int *point_seg_adr, *point_seg_num, *point_segs;
  double *point_seg_sign;  /* [CSR] +1 if the point is the segment's p1, -1 if p2 */
  awe_seg_hot *seg_hot;    /* [ns] */
  int *winch_seg_adr, *winch_seg_num, *winch_segs; /* tether segments at each winch point */
  double *winch_seg_sign;  /* +1 if the winch point is the segment's p1 */
  double *segment_lambda;  /* line mass per length rho pi d^2/4 [kg/m] */
  double *pulley_mass;     /* rope mass of a pulley, sum_len * lambda of leg 1 [kg] */

  /* kinematics, unpacked from y (static and quasi-static points filled too) */
  double *pos, *vel;       /* [3 np] [m], [m/s] */
  double *acc;             /* [3 np] [m/s^2] (points with a state) */
  double *mass;            /* [np] current point mass [kg] */
  double *spring;          /* [3 np] segment spring-damper forces + half line drag [N] */
  double *force;           /* [3 np] total point force F_i [N] */

  /* segments */
  double *seg_l0;          /* current rest length [m] */
  double *seg_l0_rate;     /* d l0/dt of a winched tether's segment (winch speed / n, 0 while
                            * held) [m/s]; 0 for every other segment (segment.h) */
  double *seg_len;         /* current length [m] */
  double *seg_force;       /* spring-damper force F_s, tension positive [N] */
  double *seg_dir;         /* [3 ns] unit vector from p1 to p2 */
  double *seg_drag;        /* [3 ns] line drag (before the split to the ends) [N] */

  /* tethers, winches, pulleys */
  double *tether_len;      /* unstretched length [m] */
  double *tether_stretched;/* sum of segment lengths [m] */
  double *winch_vel;       /* reel-out speed [m/s] */
  double *winch_force;     /* |F_w| [N] */
  double *winch_torque;    /* motor set torque [N m] */
  double *winch_acc;       /* [m/s^2] */
  /* log-stage accumulators (awe_outputs_log), not state: energy since t = 0 [J], the power
   * and time of the last log step [W, s] */
  double *winch_energy, *winch_power_log, log_t;
  double *winch_energy_el, *winch_power_el_log; /* the same for the electrical power */
  double *pulley_len, *pulley_vel, *pulley_acc;

  /* rigid bodies (body.h): pose and loads of the current state */
  double *body_pos, *body_vel;   /* [3 nb] centre of mass, world */
  double *body_q;                /* [4 nb] Q_b_to_w */
  double *body_R;                /* [9 nb] body -> world */
  double *body_omega, *body_omega_w; /* [3 nb] angular velocity, body and world frame */
  double *body_force, *body_moment;  /* [3 nb] about the centre of mass, world */
  double *body_dydt;             /* [13 nb] derivatives in the layout of the body's state */

  /* wings (wing.h): constant geometry, then the kinematics and loads of the current state */
  awe_wing_geom *wg;       /* [nwing] */
  double *point_pos_b;     /* [3 np] WING points: untwisted position in the body frame [m] */
  unsigned char *point_slave; /* [np] WING point of a rigid wing (awe_point_is_slave) */
  int *point_group;        /* [np] twist group of a rigid-wing point, -1 */
  double *point_twist_r;   /* [np] chordwise lever of a group point about the twist axis [m] */
  unsigned char *seg_rigid;/* [ns] both ends on one rigid wing: no force (SAM: k = c = 0) */
  double *wing_R;          /* [9 nw] body -> world */
  double *wing_Rp;         /* [9 nw] principal -> world (rigid wings) */
  double *wing_pos, *wing_vel;      /* [3 nw] origin position and velocity, world */
  double *wing_com, *wing_com_vel;  /* [3 nw] centre of mass (rigid wings), world */
  double *wing_omega_p, *wing_omega_w; /* [3 nw] body rates, principal and world frame */
  double *wing_va, *wing_va_b;      /* [3 nw] apparent wind at the origin, world and body */
  double *wing_aero_force_b, *wing_aero_moment_b; /* [3 nw] about the origin, body frame */
  double *wing_force, *wing_moment; /* [3 nw] total force and moment about the COM, world */
  double *wing_acc, *wing_alpha_p;  /* [3 nw] COM acceleration, angular acceleration (p) */
  double *wing_q, *wing_qdot; /* [4 nw] quaternion state (principal -> world), its rate */
  double *wing_dcom;       /* [3 nw] d com/dt (the velocity, projected under FIX_SPHERE) */
  /* groups (group.h) */
  awe_group_geom *gg;      /* [ngroup] */
  double *twist, *twist_free, *twist_vel, *twist_acc; /* [ngroup] [rad], [rad/s], [rad/s^2] */
  double *group_moment_aero, *group_moment_tether;    /* [ngroup] [N m] */
  /* unsteady aerodynamics (unsteady.h) */
  int *wing_wag_x;         /* [nw] offset of wings.NAME.wagner_x1 (x2 at +1), -1: no lag */
  double *wing_wag_chord;  /* [nw] mean chord c of the lag's reduced time 2 V t / c [m] */
  double *wing_wag_d;      /* [nw] deficiency d of the current call [rad] (0 without lag) */
  double *wing_wag_dx;     /* [2 nw] dx_i/dt of the current call [rad/s] */
  double *wing_wag_xs;     /* [2 nw] the lag's states x_1, x_2 of the current call [rad] */
  double *point_ma;        /* [np] apparent (added) mass of each point [kg]; NULL: none */
  double *wing_ma;         /* [nw] its sum over the wing's points [kg] */
  struct awe_aero *aero;   /* aerodynamic coupling (aero_coupling.h), NULL without aero */
  unsigned flags;          /* AWE_CTX_* flags of the current rhs call */

  double wind_gnd[3];      /* mean wind vector at h_ref without gusts, v_ref dir [m/s] */
  awe_wind_now wind;       /* the wind of this call (engine/wind.h) */
  double *u;               /* [nu] effective inputs of the last rhs call */
  double *refresh_dydt;    /* [nx] scratch: the aerodynamic refresh's rhs call (rhs.h) */
  int *out_code;           /* [number of output variables] awe_output_code of each (outputs.h) */

  struct awe_qs *qs;       /* quasi-static solver scratch (NULL when nqs == 0) */

  awe_stats stats;
  awe_warning warn[AWE_NWARN];
  int bad_x;               /* state index of the first non-finite value the rhs saw, or -1 */
  int bad_dydt;            /* 1 if it was a derivative rather than a state */
  double bad_t;            /* its time [s] */

  awe_pool *pool;          /* owns every array above */
} awe_work;

/* Default inputs u0 [w->nu]: zero torque, brake as in the model, no rest-length change, no
 * external force, v_wind and the direction from the settings, no vertical wind, speed-controlled winches at their init_vel, the
 * kite control unit at its initial depower and steering. */
void awe_input_default(const awe_model *m, const awe_work *w, double *u);

/* Record a warning (first occurrence keeps t and index). */
void awe_work_warn(awe_work *w, int kind, double t, int index);

#endif
