/* winch_machine.h: the asynchronous machine of a winch (physics.md §5), as WinchModels.jl's
 * AsyncMachine (src/async_generator.jl, Uwe Fechner, MIT; WinchModels.jl @48ccb7d).
 *
 * Steady torque of the machine at shaft speed w [rad/s] and synchronous speed w_s (the speed
 * set-point: w_s = v_set / ratio, ratio = drum_radius / gear_ratio), slip delta = w_s - w:
 *   tau_m   = u_nom^2 R2 delta / (W^2 (R2^2 + L^2 delta^2)),  W = max(omega_sn, |w_s|)
 *   L       = u_nom^2 / (2 omega_sn^2 tau_b)                             (inductance [H])
 *   R2      = u_nom^2 (omega_sn - omega_mn) / (2 omega_sn^2)
 *             (1/tau_n + sqrt(1/tau_n^2 - 1/tau_b^2))                    (rotor resistance [Ohm])
 * so tau_m(omega_sn - omega_mn) = tau_n at w_s = omega_sn, and |tau_m| peaks at the breakdown
 * torque tau_b (omega_sn/W)^2 at the breakdown slip |delta| = R2/L. Positive tau_m drives the
 * drum towards reel-out. Power drawn from the supply: tau_m w_s (air-gap power; the rotor
 * dissipates tau_m delta >= 0, stator losses are not modelled).
 */
#ifndef AWE_WINCH_MACHINE_H
#define AWE_WINCH_MACHINE_H

typedef struct {
  double u2;       /* u_nom^2 [V^2] */
  double omega_sn; /* [rad/s] */
  double R2, L;    /* [Ohm], [H] */
  double tau_b;    /* [N m] */
} awe_async_machine;

/* Constants from the rated values; 0 on success, -1 when they admit no machine (needs
 * u_nom > 0, 0 < omega_mn < omega_sn, 0 < tau_n < tau_b). */
int awe_async_init(awe_async_machine *a, double u_nom, double omega_sn, double omega_mn,
                   double tau_n, double tau_b);

/* tau_m [N m] at synchronous speed ws and shaft speed w; *dtau_dw (may be NULL) = d tau_m/d w
 * at fixed ws. */
double awe_async_torque(const awe_async_machine *a, double ws, double w, double *dtau_dw);

/* Largest |tau_m| at synchronous speed ws (the breakdown torque, field-weakened above
 * omega_sn) [N m]. */
double awe_async_tau_max(const awe_async_machine *a, double ws);

/* The slip delta [rad/s] on the stable branch (|delta| <= R2/L) at which the machine gives
 * torque tau at synchronous speed near ws; tau is clamped to +-frac tau_max (0 < frac < 1). */
double awe_async_slip(const awe_async_machine *a, double ws, double tau, double frac);

#endif
