/* cycles_report.h: the pumping cycles of `awesim simulate` (analysis/cycle_stats.h), fed with
 * the logged outputs at every log step and reported in the run summary: a table on stderr and
 * "cycles"/"cycle_median" in --summary-json.
 *
 * Channels: the first winch's force, vel (reel speed, positive paying out) and
 * power_electrical (when the model logs it), the first wing's elevation, azimuth, |va| and
 * |vel|. A channel the model lacks is NaN (null in JSON). A model without a winch has no
 * cycles and reports nothing.
 *
 * The cycles follow the reel speed, as in the flight logs (cycle_stats.h). When a pumping
 * controller drives that winch, its phase channel is watched too: a cycle that starts while
 * the controller is reeling in (the kite pulled harder than the reel-in force and the winch
 * paid out for min_reel_out or longer) is split from its neighbour by the speed rule, and the
 * table says so in a warning rather than passing the split off as two cycles.
 */
#ifndef AWE_CLI_CYCLES_REPORT_H
#define AWE_CLI_CYCLES_REPORT_H

#include <stdio.h>

#include "analysis/cycle_stats.h"
#include "model/model.h"

typedef struct {
  awe_cycle_stats s;
  int force, speed, p_el, elev, az, va, vk;  /* offsets in the output vector, -1 absent */
  int failed;                                /* out of memory: cycles after it are lost */
  int cphase;               /* the pumping controller's phase channel (1 = reel-in), -1 none */
  const char *cname;        /* that controller's name */
  double *ri;               /* [2 nri]: the controller's reel-in intervals [from, to) */
  int nri, cap_ri, in_ri;
} awe_cycles_report;

void awe_cycles_report_init(awe_cycles_report *c, const awe_model *m);
void awe_cycles_report_add(awe_cycles_report *c, double t, const double *yout);
/* `, "cycles": [...], "cycle_median": {...}` (null when none), with a pumping controller on the
 * winch `, "cycles_started_in_reel_in": N` (the split cycles above); nothing without a winch */
void awe_cycles_report_json(FILE *f, const awe_cycles_report *c);
/* the table (kN, kW, deg) and its median row, or a line saying there was no full cycle */
void awe_cycles_report_print(FILE *f, const awe_cycles_report *c);
void awe_cycles_report_free(awe_cycles_report *c);

#endif
