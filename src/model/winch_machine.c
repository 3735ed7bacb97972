/* winch_machine.c: torque-slip curve of the winch's asynchronous machine and its inverse.
 *
 * Equations and source: winch_machine.h (physics.md §5).
 */
#include "model/winch_machine.h"

#include <math.h>


int awe_async_init(awe_async_machine *a, double u_nom, double omega_sn, double omega_mn,
                   double tau_n, double tau_b) {
  if (!(u_nom > 0 && omega_mn > 0 && omega_mn < omega_sn && tau_n > 0 && tau_b > tau_n &&
        isfinite(u_nom * omega_sn * tau_b)))
    return -1;
  a->u2 = u_nom * u_nom;
  a->omega_sn = omega_sn;
  a->tau_b = tau_b;
  a->L = a->u2 / (2.0 * omega_sn * omega_sn * tau_b);
  a->R2 = a->u2 * (omega_sn - omega_mn) / (2.0 * omega_sn * omega_sn) *
          (1.0 / tau_n + sqrt(1.0 / (tau_n * tau_n) - 1.0 / (tau_b * tau_b)));
  return 0;
}


/* u^2 R2 / W^2: the numerator's constant at synchronous speed ws */
static double gain(const awe_async_machine *a, double ws) {
  double W = fmax(a->omega_sn, fabs(ws));
  return a->u2 * a->R2 / (W * W);
}


double awe_async_torque(const awe_async_machine *a, double ws, double w, double *dtau_dw) {
  double d = ws - w, A = gain(a, ws), R = a->R2, L = a->L;
  double den = R * R + L * L * d * d;
  /* d/d delta of A d/den = A (R^2 - L^2 d^2)/den^2; d delta/d w = -1 */
  if (dtau_dw) *dtau_dw = -A * (R * R - L * L * d * d) / (den * den);
  return A * d / den;
}


double awe_async_tau_max(const awe_async_machine *a, double ws) {
  double W = fmax(a->omega_sn, fabs(ws));
  return a->tau_b * (a->omega_sn / W) * (a->omega_sn / W);
}


double awe_async_slip(const awe_async_machine *a, double ws, double tau, double frac) {
  double tm = frac * awe_async_tau_max(a, ws);
  if (tau > tm) tau = tm;
  if (tau < -tm) tau = -tm;
  if (tau == 0.0) return 0.0;
  /* tau L^2 d^2 - A d + tau R^2 = 0, the root nearer 0 (stable branch), written without
   * cancellation: d = 2 tau R^2 / (A + sqrt(A^2 - 4 tau^2 L^2 R^2)) */
  double A = gain(a, ws), R = a->R2, L = a->L;
  double disc = A * A - 4.0 * tau * tau * L * L * R * R;
  return 2.0 * tau * R * R / (A + sqrt(fmax(disc, 0.0)));
}
