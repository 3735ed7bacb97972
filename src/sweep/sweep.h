/* sweep.h: a sweep's grid file expanded into points, and the results of one run's HDF5 log.
 *
 * The grid file (awesim(1), SWEEPS) names a scenario and either a grid (Cartesian product of
 * value lists or ranges, the last key varying fastest) or a list of override mappings. Each
 * point is a list of KEY=VALUE overrides for `awesim simulate --set`; values keep their YAML
 * text (plain scalars verbatim, quoted ones re-quoted, collections in flow style). Errors name
 * the grid file's line:col. Library code: nothing here prints.
 */
#ifndef AWE_SWEEP_H
#define AWE_SWEEP_H

#include <stdint.h>

#include "util/status.h"

typedef struct {
  char *key;    /* dotted key path, e.g. settings.environment.v_wind */
  char *value;  /* YAML text for --set, e.g. 8 or '[1, 2]' */
  char *shown;  /* the value as shown in plan.tsv and summary.csv (quotes removed) */
} awe_sweep_set;

typedef struct {
  char *name;          /* grid's name: or the grid file's base name */
  char *scenario;      /* absolute path of the scenario file */
  char *output;        /* output folder from output: (absolute), or NULL */
  double summary_from; /* results over t >= summary_from; NaN: all rows */
  int nfixed;
  awe_sweep_set *fixed; /* set: overrides shared by every point */
  int nkeys;
  char **keys;          /* the varying keys, in order of first appearance */
  int npoints;
  int *nset;            /* per point: number of overrides */
  awe_sweep_set **sets; /* per point: its overrides (not the fixed ones) */
} awe_sweep_grid;

/* Read and expand a grid file. NULL on failure with err set: AWE_ENOFILE when the grid or
 * the scenario cannot be opened, AWE_EPARSE/AWE_EINVAL for invalid content. */
awe_sweep_grid *awe_sweep_grid_load(const char *path, awe_err *err);
void awe_sweep_grid_free(awe_sweep_grid *g);

/* Results of one run, from its HDF5 log, over the rows with t >= t0 (all rows if t0 is NaN).
 * A field that cannot be computed is NaN. */
typedef struct {
  double force_mean, force_max; /* sum of the winch forces, else the largest segment force */
  double power_mean;            /* sum over winches of force * reel-out speed */
  double elevation_final;       /* first wing's elevation [deg]; without wings the moving point
                                   farthest from the origin, when above ground */
  long rows;                    /* rows logged (length of /time), -1 when absent */
  char status[16];              /* the root attribute status ("complete", "interrupted",
                                   "failed", "crashed", "running"), "" when absent or
                                   unreadable */
} awe_sweep_results;

/* AWE_OK also when some fields stay NaN; an error only when the file cannot be opened as HDF5
 * (missing, truncated, not HDF5). */
awe_status awe_sweep_h5_results(const char *path, double t0, awe_sweep_results *r,
                                awe_err *err);
/* The same from an open HDF5 file (an hid_t, int64_t in HDF5 >= 1.10; kept out of this header's
 * includes): what the fuzzer drives, on a file built in memory. */
void awe_sweep_h5_results_file(int64_t f, double t0, awe_sweep_results *r);

#endif
