/* cmd_sweep.h: the parts of `awesim sweep`: plan (cmd_sweep.c), merge (cmd_sweep_merge.c) and
 * the sweep folder's marker and lock (cmd_sweep_folder.c). CLI code: prints its messages,
 * returns the exit status. */
#ifndef AWE_CMD_SWEEP_H
#define AWE_CMD_SWEEP_H

/* the first line of every plan.tsv awesim writes (then the format version) */
#define AWE_SWEEP_PLAN_MARK "# awesim sweep plan "

/* Write summary.csv of the sweep folder dir (to out when not NULL; "-" = standard output) and
 * list the runs not complete on stderr. With pending set, print instead the numbers of the
 * points whose run is not complete, one a line, and return 0. Returns 0 when every run is
 * complete, else the number of runs not complete (at most 63), or 65/66/74 when the plan
 * cannot be read or the CSV written. */
int awe_sweep_merge(const char *dir, const char *out, int quiet, int pending);

/* Is path a plan.tsv written by awesim sweep (its first line is the marker)? */
int awe_sweep_is_plan(const char *path);

/* 0: dir is empty (but for sweep.lock and awesim's temporary files), 1: a sweep folder (a
 * plan.tsv with the marker), 2: anything else, -1: cannot be read. */
int awe_sweep_folder_state(const char *dir);

/* Open dir/sweep.lock (created when absent: *created = 1) and take its exclusive flock without
 * waiting. Returns the descriptor (kept open across exec when keep_on_exec), or -1 with errno
 * (EWOULDBLOCK: another process holds it). When the file system has no locks the descriptor
 * is returned unlocked with *unlocked = that errno. */
int awe_sweep_lock(const char *dir, int keep_on_exec, int *created, int *unlocked);

#endif
