/* cycles_report.c: pumping cycles in the summary of `awesim simulate` (cycles_report.h). */
#include "cli/cycles_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* offset of the first GROUP.*.VAR of the output list (of component comp_index, -1 any) */
static int find(const awe_model *m, const char *group, const char *var, int comp_index,
                int *index) {
  const awe_varlist *l = &m->reg.output;
  for (int k = 0; k < l->n; k++) {
    const awe_var *v = &l->v[k];
    if (strcmp(v->group, group) || strcmp(v->var, var)) continue;
    if (comp_index >= 0 && v->comp_index != comp_index) continue;
    if (index) *index = v->comp_index;
    return v->offset;
  }
  return -1;
}


void awe_cycles_report_init(awe_cycles_report *c, const awe_model *m) {
  memset(c, 0, sizeof(*c));
  awe_cycle_stats_init(&c->s);
  c->s.starts_in_cycle = 0;   /* a run starts parked: its first reel-out is no cycle's */
  int winch = -1, wing = -1;
  c->force = find(m, "winches", "force", -1, &winch);
  c->speed = winch >= 0 ? find(m, "winches", "vel", winch, NULL) : -1;
  c->p_el = winch >= 0 ? find(m, "winches", "power_electrical", winch, NULL) : -1;
  c->elev = find(m, "wings", "elevation", -1, &wing);
  c->az = wing >= 0 ? find(m, "wings", "azimuth", wing, NULL) : -1;
  c->va = wing >= 0 ? find(m, "wings", "va", wing, NULL) : -1;
  c->vk = wing >= 0 ? find(m, "wings", "vel", wing, NULL) : -1;
  c->cphase = -1;
  for (int i = 0; i < m->nctrl && winch >= 0; i++)
    if (m->ctrl[i].cfg.type == AWE_CTRL_PUMPING && m->ctrl[i].winch == winch &&
        m->ctrl[i].y_phase >= 0) {
      c->cphase = m->ctrl[i].y_phase;
      c->cname = m->ctrl[i].cfg.name;
      break;
    }
}


/* the controller's reel-in intervals: a new one opens when its phase turns to reel-in */
static void watch_phase(awe_cycles_report *c, double t, double phase) {
  int in = phase >= 0.5;
  if (in && !c->in_ri) {
    if (c->nri == c->cap_ri) {
      int cap = c->cap_ri ? 2 * c->cap_ri : 16;
      double *p = realloc(c->ri, 2 * (size_t)cap * sizeof(double));
      if (!p) {
        c->cphase = -1;   /* no memory: no check (the cycles themselves are kept) */
        return;
      }
      c->ri = p;
      c->cap_ri = cap;
    }
    c->ri[2 * c->nri] = t;
    c->ri[2 * c->nri + 1] = INFINITY;
    c->nri++;
  } else if (!in && c->in_ri) {
    c->ri[2 * c->nri - 1] = t;
  }
  c->in_ri = in;
}


static double at(const double *y, int off) { return off >= 0 ? y[off] : NAN; }
static double norm_at(const double *y, int off) {
  return off >= 0 ? sqrt(y[off] * y[off] + y[off + 1] * y[off + 1] + y[off + 2] * y[off + 2])
                  : NAN;
}


void awe_cycles_report_add(awe_cycles_report *c, double t, const double *yout) {
  if (c->force < 0 || c->speed < 0 || c->failed) return;
  awe_cycle_sample x = {t, yout[c->force], yout[c->speed], at(yout, c->elev),
                        norm_at(yout, c->va), norm_at(yout, c->vk), at(yout, c->az),
                        at(yout, c->p_el)};
  if (awe_cycle_stats_add(&c->s, &x)) c->failed = 1;
  if (c->cphase >= 0) watch_phase(c, t, yout[c->cphase]);
}


/* the cycles the speed rule started inside one of the controller's reel-ins; *first the index
 * of the first (-1 none) */
static int count_split(const awe_cycles_report *c, int *first) {
  int n = 0;
  *first = -1;
  for (int i = 0; i < c->s.n; i++)
    for (int k = 0; k < c->nri; k++)
      if (c->s.cycles[i].t_start > c->ri[2 * k] && c->s.cycles[i].t_start < c->ri[2 * k + 1]) {
        if (!n++) *first = i;
        break;
      }
  return n;
}


static void json_cycle(FILE *f, const awe_cycle *cy) {
  fputc('{', f);
  for (int i = 0; i < awe_cycle_nfields; i++) {
    double v = *(const double *)((const char *)cy + awe_cycle_fields[i].offset);
    fprintf(f, "%s\"%s\": ", i ? ", " : "", awe_cycle_fields[i].name);
    if (isfinite(v)) fprintf(f, "%.9g", v);
    else fputs("null", f);
  }
  fputc('}', f);
}


void awe_cycles_report_json(FILE *f, const awe_cycles_report *c) {
  if (c->force < 0 || c->speed < 0) return;
  fputs(", \"cycles\": [", f);
  for (int i = 0; i < c->s.n; i++) {
    if (i) fputs(", ", f);
    json_cycle(f, &c->s.cycles[i]);
  }
  fputs("], \"cycle_median\": ", f);
  awe_cycle med;
  if (c->s.n > 0 && awe_cycle_median(c->s.cycles, c->s.n, &med) == AWE_OK) json_cycle(f, &med);
  else fputs("null", f);
  int first;
  if (c->cphase >= 0 || c->nri > 0)
    fprintf(f, ", \"cycles_started_in_reel_in\": %d", count_split(c, &first));
}


/* one cell: the value scaled, or "-" when it is not a number */
static void cell(FILE *f, int width, int prec, double v) {
  if (isfinite(v)) fprintf(f, " %*.*f", width, prec, v);
  else fprintf(f, " %*s", width, "-");
}


static void row(FILE *f, const char *label, const awe_cycle *y, int median) {
  fprintf(f, "  %-6s", label);
  cell(f, 7, 1, median ? NAN : y->t_start);
  cell(f, 6, 1, y->duration);
  cell(f, 5, 1, y->reel_out_duration);
  cell(f, 5, 1, y->reel_in_duration);
  cell(f, 6, 3, y->force_reel_out_mean / 1e3);
  cell(f, 6, 3, y->force_max / 1e3);
  cell(f, 6, 3, y->force_reel_in_mean / 1e3);
  cell(f, 6, 3, y->speed_reel_out_mean);
  cell(f, 6, 3, y->speed_reel_in_mean);
  cell(f, 5, 1, y->elevation_reel_out_mean);
  cell(f, 5, 1, y->apparent_wind_reel_out_mean);
  cell(f, 5, 1, y->kite_speed_reel_out_mean);
  cell(f, 5, 1, y->figure_period);
  cell(f, 6, 3, y->power_mean / 1e3);
  cell(f, 6, 3, y->power_electrical_mean / 1e3);
  fputc('\n', f);
}


void awe_cycles_report_print(FILE *f, const awe_cycles_report *c) {
  if (c->force < 0 || c->speed < 0) return;
  if (c->failed)
    fprintf(f, "awesim: warning: out of memory for the cycle list; cycles after the %dth are "
               "not reported\n", c->s.n);
  if (c->s.n == 0 && c->s.phase < 0) return; /* the winch never reeled: nothing to say */
  if (c->s.n == 0) {
    fputs("awesim: cycles: no full pumping cycle (one runs from a start of reel-out to the "
          "next)\n", f);
    return;
  }
  fprintf(f, "awesim: cycles: %d full (reel-out to reel-out; out = reel-out, in = reel-in)\n",
          c->s.n);
  fputs("  cycle  t_start    dur   out    in  F_out  F_max   F_in  v_out   v_in  elev  "
        "va_o  vk_o   fig  P_mec  P_ele\n"
        "             [s]    [s]   [s]   [s]   [kN]   [kN]   [kN]  [m/s]  [m/s] [deg] "
        "[m/s] [m/s]   [s]   [kW]   [kW]\n", f);
  for (int i = 0; i < c->s.n; i++) {
    char label[16];
    snprintf(label, sizeof(label), "%d", i + 1);
    row(f, label, &c->s.cycles[i], 0);
  }
  awe_cycle med;
  if (awe_cycle_median(c->s.cycles, c->s.n, &med) == AWE_OK) row(f, "median", &med, 1);
  int first, nsplit = count_split(c, &first);
  if (nsplit)
    fprintf(f, "awesim: warning: %d of the %d cycles start while the pumping controller '%s' "
               "was reeling in (first: cycle %d at t = %.1f s, whose %.1f s of reel-out are a "
               "pay-out during the reel-in: the kite pulled more than the reel-in force): the "
               "table follows the reel speed and splits one controller cycle in two there "
               "(more reel-in depower or a higher reel-in force avoid the pay-out)\n", nsplit,
            c->s.n, c->cname, first + 1, c->s.cycles[first].t_start,
            c->s.cycles[first].reel_out_duration);
}


void awe_cycles_report_free(awe_cycles_report *c) {
  awe_cycle_stats_free(&c->s);
  free(c->ri);
  c->ri = NULL;
}
