/* outputs.c: fill the registry's output vector from the workspace (post-calculate). */
#include "outputs.h"

#include <string.h>


static void put3(double *dst, const double *src) { memcpy(dst, src, 3 * sizeof(double)); }


void awe_outputs_fill(const awe_model *m, const awe_work *w, double *yout) {
  const awe_varlist *l = &m->reg.output;
  for (int k = 0; k < l->n; k++) {
    const awe_var *v = &l->v[k];
    double *o = yout + v->offset;
    int i = v->comp_index;
    const char *g = v->group, *q = v->var;
    if (!strcmp(g, "points")) {
      if (!strcmp(q, "pos")) put3(o, w->pos + 3 * i);
      else if (!strcmp(q, "vel")) put3(o, w->vel + 3 * i);
      else if (!strcmp(q, "force")) put3(o, w->force + 3 * i);
      else o[0] = o[1] = o[2] = NAN;
    } else if (!strcmp(g, "segments")) {
      if (!strcmp(q, "len")) *o = w->seg_len[i];
      else if (!strcmp(q, "force")) *o = w->seg_force[i];
      else if (!strcmp(q, "l0")) *o = w->seg_l0[i];
      else *o = NAN;
    } else if (!strcmp(g, "tethers")) {
      if (!strcmp(q, "len")) {
        *o = w->tether_len[i];
      } else if (!strcmp(q, "stretched_len")) {
        double sum = 0.0;
        for (int j = 0; j < m->tether_seg_num[i]; j++)
          sum += w->seg_len[m->tether_segs[m->tether_seg_adr[i] + j]];
        *o = sum;
      } else {
        *o = NAN;
      }
    } else if (!strcmp(g, "winches")) {
      if (!strcmp(q, "force")) *o = w->winch_force[i];
      else if (!strcmp(q, "vel")) *o = w->winch_vel[i];
      else if (!strcmp(q, "torque")) *o = w->winch_torque[i];
      else if (!strcmp(q, "acc")) *o = w->winch_acc[i];
      else *o = NAN;
    } else if (!strcmp(g, "pulleys")) {
      if (!strcmp(q, "len")) *o = w->pulley_len[i];
      else if (!strcmp(q, "vel")) *o = w->pulley_vel[i];
      else *o = NAN;
    } else {
      for (int j = 0; j < v->dim; j++) o[j] = NAN;
    }
  }
}


int awe_outputs_eval(awe_ctx *ctx, double t, const double *y, double *dydt, double *yout) {
  int st = awe_rhs(t, y, dydt, ctx);
  awe_outputs_fill(ctx->m, ctx->w, yout);
  return st;
}
