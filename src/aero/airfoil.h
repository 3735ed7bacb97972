/* airfoil.h: 2D section aerodynamics (cl, cd, cm versus angle of attack).
 *
 * Three models, as in VortexStepMethod.jl / the Python Vortex-Step-Method:
 *   INVISCID  cl = 2*pi*alpha, cd = cm = 0 (thin-airfoil theory)
 *   POLARS    tabulated alpha [rad], cl, cd, cm, linear interpolation, end rows held outside
 *   BREUKELS  Breukels (2011) regression for leading-edge-inflatable kite sections,
 *             parameterised by tube diameter/chord t and camber/chord kappa.
 */
#ifndef AWE_AIRFOIL_H
#define AWE_AIRFOIL_H

typedef enum {
  AWE_AIRFOIL_INVISCID = 0,
  AWE_AIRFOIL_POLARS,
  AWE_AIRFOIL_BREUKELS
} awe_airfoil_type;

typedef struct {
  awe_airfoil_type type;
  int id;               /* airfoil_id from the aero geometry file */
  /* POLARS: n rows, alpha strictly increasing [rad]; arrays owned by the builder of the struct */
  int n;
  double *alpha, *cl, *cd, *cm;
  /* BREUKELS: tube diameter / chord, camber / chord [-] */
  double t, kappa;
} awe_airfoil;

/* Evaluate the section coefficients at angle of attack alpha [rad]. Any output may be NULL. */
void awe_airfoil_eval(const awe_airfoil *a, double alpha, double *cl, double *cd, double *cm);

#endif
