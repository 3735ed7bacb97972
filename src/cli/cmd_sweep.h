/* cmd_sweep.h: the two halves of `awesim sweep`: plan (cmd_sweep.c) and merge
 * (cmd_sweep_merge.c). CLI code: prints its messages, returns the exit status. */
#ifndef AWE_CMD_SWEEP_H
#define AWE_CMD_SWEEP_H

/* Write summary.csv of the sweep folder dir (to out when not NULL; "-" = standard output) and
 * list the runs not complete on stderr. Returns 0 when every run is complete, else the number
 * of runs not complete (at most 63), or 65/66/74 when the plan cannot be read or the CSV
 * written. */
int awe_sweep_merge(const char *dir, const char *out, int quiet);

#endif
