/* cycles_report.h: the pumping cycles of `awesim simulate` (analysis/cycle_stats.h), fed with
 * the logged outputs at every log step and reported in the run summary: a table on stderr and
 * "cycles"/"cycle_median" in --summary-json.
 *
 * Channels: the first winch's force, vel (reel speed, positive paying out) and
 * power_electrical (when the model logs it), the first wing's elevation, azimuth, |va| and
 * |vel|. A channel the model lacks is NaN (null in JSON). A model without a winch has no
 * cycles and reports nothing.
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
} awe_cycles_report;

void awe_cycles_report_init(awe_cycles_report *c, const awe_model *m);
void awe_cycles_report_add(awe_cycles_report *c, double t, const double *yout);
/* `, "cycles": [...], "cycle_median": {...}` (null when none); nothing without a winch */
void awe_cycles_report_json(FILE *f, const awe_cycles_report *c);
/* the table (kN, kW, deg) and its median row, or a line saying there was no full cycle */
void awe_cycles_report_print(FILE *f, const awe_cycles_report *c);
void awe_cycles_report_free(awe_cycles_report *c);

#endif
