/* vsm_loads.c: forces, moments and coefficients of a solved VSM wing (vsm.c).
 *
 * Loads (vsm.md §9-10). With q_i = 1/2 rho V_eff,i^2, V_eff,i = sqrt(W_i) at the solve's
 * evaluation point: L'_i = q_i c_i cl_i, D'_i = q_i c_i cd_i, m'_i = q_i c_i^2 cm_i. Directions use,
 * with correct_aoa (default, VSM), alpha at the 1/4 chord, recomputed with the LLT matrix at the
 * aerodynamic centres: the Kutta-Joukowski force on the bound vortex is normal to the flow there
 * (Gaunaa, Li, Pirrung, TORQUE 2026; VortexStepMethod.jl's default); induced drag of an elliptic
 * wing AR 20 within -2.5 % of Prandtl's CL^2/(pi AR). Without it, the alpha of the solve (3/4
 * chord), as the Python Vortex-Step-Method (is_aoa_corrected = False): +10.8 % on that wing, and
 * CD +23 % on the V3 kite:
 *   e_f = normalize(cos a c + sin a n), e_L = normalize(e_f x s), e_D = normalize(y_s x e_L)
 *   (y_s = spanwise_direction), f_i = (L'_i e_L + D'_i e_D) w_i acting at the aerodynamic centre,
 *   M = sum m'_i w_i s_i + (ac_i - ref) x f_i,
 *   panel_moment_i = ((f_i/w_i . n_i)(moment_frac - 0.25) c_i + m'_i) w_i.
 * Coefficients on q_inf = 1/2 rho |va|^2 and the projected area S:
 *   CF = F/(q S), CM = M/(q S c_ref),
 * CL/CD/CS from F along e_L = normalize(va x y_s), e_D = va/|va|, e_S = e_L x e_D.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aero/vsm_filament.h"
#include "aero/vsm_internal.h"
#include "util/vec3.h"


static void fill_pointers(awe_vsm_wing *w, awe_vsm_result *r) {
  r->n_panels = w->n;
  r->n_sections = w->nsec;
  r->gamma = w->gam;
  r->alpha = w->alpha;
  r->alpha_ac = w->alpha_ac;
  r->v_eff = w->v_eff;
  r->cl = w->clv;
  r->cd = w->cdv;
  r->cm = w->cmv;
  r->panel_force = w->pforce;
  r->panel_moment = w->pmom;
  r->section_moment = w->smom;
  r->area = w->area;
  r->c_ref = w->c_ref;
  r->span = w->span;
}


/* Zero loads and per-panel outputs (low wind, failures). */
void awe_vsm_zero_results(awe_vsm_wing *w, awe_vsm_result *r) {
  const size_t n = (size_t)w->n;
  memset(w->gam, 0, n*sizeof(double));
  memset(w->alpha, 0, n*sizeof(double));
  memset(w->alpha_ac, 0, n*sizeof(double));
  memset(w->v_eff, 0, n*sizeof(double));
  memset(w->clv, 0, n*sizeof(double));
  memset(w->cdv, 0, n*sizeof(double));
  memset(w->cmv, 0, n*sizeof(double));
  memset(w->pforce, 0, 3*n*sizeof(double));
  memset(w->pmom, 0, n*sizeof(double));
  memset(w->smom, 0, (size_t)w->nsec*sizeof(double));
  fill_pointers(w, r);
}


void awe_vsm_compute_results(awe_vsm_wing *w, const double va[3], const double ref[3],
                             awe_vsm_result *r) {
  const int n = w->n;
  const double rho = w->s.density;
  const int vsm = w->s.model == AWE_VSM_MODEL_VSM;

  // section coefficients at the angle of the solve; panels past their maximum lift (where the
  // circulation may have more than one solution)
  int stalled = 0;
  for (int i = 0; i < n; i++) {
    awe_vsm_panel_coeffs(w, i, w->alpha[i], &w->clv[i], &w->cdv[i], &w->cmv[i]);
    stalled += w->alpha[i] > w->pa[i].a_clmax;
  }
  r->n_stalled = stalled;

  // force directions: from the angle that gave cl (the peer's default), or with correct_aoa from
  // the angle at the aerodynamic centres (VSM only)
  if (vsm && w->s.correct_aoa) {
    awe_vsm_velocity_ac(w, w->gam, w->vel);
    for (int i = 0; i < n; i++) {
      const double *v = w->vel + 3*i;
      w->alpha_ac[i] = atan2(awe_v3_dot(v, w->en + 3*i), awe_v3_dot(v, w->ec + 3*i));
    }
  } else {
    memcpy(w->alpha_ac, w->alpha, (size_t)n*sizeof(double));
  }

  // panel forces and moments
  double f[3] = {0.0, 0.0, 0.0}, m[3] = {0.0, 0.0, 0.0};
  memset(w->smom, 0, (size_t)w->nsec*sizeof(double));
  for (int i = 0; i < n; i++) {
    const double *ec = w->ec + 3*i, *en = w->en + 3*i, *es = w->es + 3*i;
    const double q = 0.5*rho*w->v_eff[i]*w->v_eff[i];
    const double c = w->chord[i], wd = w->width[i];
    const double lift = q*c*w->clv[i], drag = q*c*w->cdv[i], mom = q*c*c*w->cmv[i];
    const double ca = cos(w->alpha_ac[i]), sa = sin(w->alpha_ac[i]);
    double ef[3], el[3], ed[3];
    for (int k = 0; k < 3; k++) ef[k] = ca*ec[k] + sa*en[k];
    awe_v3_normalize(ef);
    awe_v3_cross(el, ef, es);
    awe_v3_normalize(el);
    awe_v3_cross(ed, w->sdir, el);
    awe_v3_normalize(ed);

    double *fi = w->pforce + 3*i;
    for (int k = 0; k < 3; k++) fi[k] = (lift*el[k] + drag*ed[k])*wd;
    double arm[3], mf[3];
    for (int k = 0; k < 3; k++) arm[k] = w->ac[3*i + k] - ref[k];
    awe_v3_cross(mf, arm, fi);
    for (int k = 0; k < 3; k++) {
      f[k] += fi[k];
      m[k] += mom*wd*es[k] + mf[k];
    }
    w->pmom[i] = awe_v3_dot(fi, en)*(w->moment_frac - 0.25)*c + mom*wd;
    w->smom[w->pan_sec_user[i]] += w->pmom[i];
  }

  // totals and coefficients
  const double vnorm = awe_v3_norm(va);
  const double qinf = 0.5*rho*vnorm*vnorm;
  const double qs = qinf*w->area;
  double ed[3] = {va[0]/vnorm, va[1]/vnorm, va[2]/vnorm}, el[3], esd[3];
  awe_v3_cross(el, va, w->sdir);
  awe_v3_normalize(el);
  awe_v3_cross(esd, el, ed);
  memcpy(r->force, f, sizeof(f));
  memcpy(r->moment, m, sizeof(m));
  r->lift = awe_v3_dot(f, el);
  r->drag = awe_v3_dot(f, ed);
  r->side = awe_v3_dot(f, esd);
  r->va_norm = vnorm;
  r->q_inf = qinf;
  r->reynolds = w->s.mu > 0.0 ? rho*vnorm*w->c_ref/w->s.mu : 0.0;
  if (qs > 0.0) {
    r->CL = r->lift/qs;
    r->CD = r->drag/qs;
    r->CS = r->side/qs;
    for (int k = 0; k < 3; k++) {
      r->CF[k] = f[k]/qs;
      r->CM[k] = w->c_ref > 0.0 ? m[k]/(qs*w->c_ref) : 0.0;
    }
  }
  fill_pointers(w, r);
}
