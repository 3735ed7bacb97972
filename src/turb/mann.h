/* mann.h: Mann's (1994, 1998) uniform-shear spectral tensor and a frozen-turbulence box drawn
 * from it by an inverse 3-D FFT of the tensor applied to complex white noise.
 *
 * Sources: J. Mann, "The spatial structure of neutral atmospheric surface-layer turbulence",
 * J. Fluid Mech. 273 (1994) 141-168; J. Mann, "Wind field simulation", Prob. Eng. Mech. 13
 * (1998) 269-282, eqs. (12)-(16) and §4 (the discrete sum). Defaults as AtmosphericModels.jl
 * (Gamma 3.9, L 33.6 m, alpha eps^(2/3) 0.1 m^(4/3)/s^2, grid 2 m).
 *
 *   E(k)    = alpha eps^(2/3) L^(5/3) (kL)^4 / (1 + (kL)^2)^(17/6)      von Karman energy spectrum
 *   beta(k) = Gamma (kL)^(-2/3) / sqrt(2F1(1/3, 17/6; 4/3; -(kL)^-2))  eddy lifetime (x shear)
 *   k0      = (k1, k2, k30), k30 = k3 + beta k1                         wave vector before shear
 *   C1 = beta k1^2 (k0^2 - 2 k30^2 + beta k1 k30) / (k^2 (k1^2 + k2^2))
 *   C2 = k2 k0^2 / (k1^2 + k2^2)^(3/2) atan(beta k1 sqrt(k1^2 + k2^2) / (k0^2 - k30 k1 beta))
 *   zeta1 = C1 - k2/k1 C2, zeta2 = k2/k1 C1 + C2     (k1 = 0: zeta1 = -beta, zeta2 = 0, limits)
 *   (u, v, w)^(k) = sqrt(E(k0) / (4 pi)) / k0^2 A n,
 *   A = [[k2 zeta1, k30 - k1 zeta1, -k2], [k2 zeta2 - k30, -k1 zeta2, k1],
 *        [k0^2 k2 / k^2, -k0^2 k1 / k^2, 0]]
 *
 * The hypergeometric function is evaluated after Pfaff's transformation,
 * 2F1(a, b; c; z) = (1 - z)^(-a) 2F1(a, c - b; c; z / (z - 1)), whose argument lies in [0, 1)
 * for z <= 0 and whose series converges at 1 (c - a - (c - b) = 5/2 > 0); GSL's
 * gsl_sf_hyperg_2F1 covers |x| < 1 only, the reason for the transformation. beta is tabulated
 * in ln(kL) once per box (the tensor is needed at every wave number).
 *
 * The box: n1 x n2 x n3 points (x along the mean wind, y lateral, z up), spacing d, periodic in
 * every direction as any FFT field. u(x) = sum_k A(k) n(k) sqrt(dk1 dk2 dk3) exp(i k.x), n
 * complex with E|n|^2 = 1 and Hermitian symmetry (a real field), the k = 0 mode 0 (mean 0). The
 * noise comes from GSL's mt19937 seeded with the seed, drawn in a fixed order (bit for bit
 * reproducible on one platform).
 */
#ifndef AWE_MANN_H
#define AWE_MANN_H

#include <stddef.h>
#include <stdint.h>

#include "turb/wind_box.h"
#include "util/status.h"

typedef struct {
  int n[3];                 /* points in x, y, z (each a power of two is fastest) */
  double d[3];              /* spacing [m] */
  double gamma;             /* shear distortion Gamma [-] */
  double length;            /* L [m] */
  double ae;                /* alpha eps^(2/3) [m^(4/3)/s^2]; ignored when ti > 0 */
  double ti;                /* > 0: scale to sigma_u = ti v_ref (the box's own sigma) */
  double v_ref, h_ref;      /* mean wind [m/s] at the reference height [m] (attributes, ti) */
  double z_bottom;          /* height of the box's lowest plane [m] */
  uint64_t seed;
} awe_mann_spec;

/* The spec's defaults: 4096 x 64 x 64 points of 2 m, Gamma 3.9, L 33.6 m, ae 0.1, no ti,
 * v_ref 10 m/s at h_ref 200 m, z_bottom h_ref - 63 m, seed 1. */
void awe_mann_defaults(awe_mann_spec *s);

/* beta(kL) of the tensor (computed, not tabulated) and 2F1(1/3, 17/6; 4/3; z), z <= 0. */
double awe_mann_beta(double gamma, double kl);
double awe_mann_hyp2f1(double z);

/* The 3x3 matrix C(k) = sqrt(E(k0) / (4 pi)) / k0^2 A (row-major) for unit ae. */
void awe_mann_matrix(double gamma, double length, const double k[3], double C[9]);

/* Draw the box into u, v, w [n1 n2 n3] floats each (index (i n2 + j) n3 + l), caller's
 * memory. *ae_used gets alpha eps^(2/3) (from ti when given). Errors: bad spec (AWE_EINVAL,
 * naming the parameter), out of memory. */
awe_status awe_mann_generate(const awe_mann_spec *s, float *u, float *v, float *w,
                             double *ae_used, awe_err *err);

/* The whole box b (u, v, w malloc'd, the caller frees them) as `awesim wind generate` writes
 * it: x from 0 (periodic), y centred, z from z_bottom (default h_ref minus half the box), the
 * spec's parameters as attributes. b is empty on failure. */
awe_status awe_mann_box(const awe_mann_spec *s, awe_wind_box *b, awe_err *err);

/* The box's expected variances of u, v, w and covariance uw (the discrete sum over its wave
 * numbers) for alpha eps^(2/3) = ae: var[0..2], var[3] = <uw>. */
void awe_mann_box_variance(const awe_mann_spec *s, double ae, double var[4]);

#endif
