/* writer.h: output writers for a model's logged variables — the HDF5 log and CSV on a stream.
 *
 * Both are driven by a variable list, normally &m->reg.output (or its copy by awe_log_select,
 * log_select.h, for the scenario's output.channels): every variable with AWE_VF_LOG is written
 * (the HDF5 dataset of a (group, var) holds its logged components only), its dim scalars read from out[v->offset .. v->offset + dim) of a flat vector of
 * length list->size. The list is only read while opening (it need not outlive the writer).
 * Writers allocate when they open; writing a row allocates nothing (HDF5 internals aside).
 * Every function accepts a NULL writer as a no-op returning AWE_OK, so a driver can call them
 * unconditionally whether or not that output was requested.
 *
 * Usage (simulate driver):
 *
 *   awe_h5_info info = {.solver = m->opt.solver, .command_line = cmdline,
 *                       .scenario = spec->scenario_text};
 *   awe_h5 *h5 = path ? awe_h5_open(path, &m->reg.output, &info, &err) : NULL;  // "running"
 *   if (path && !h5) fail(&err);                                   // AWE_EIO / AWE_EINTERNAL
 *   awe_csv *csv = NULL;
 *   if (want_csv && awe_csv_open(&csv, stdout, &m->reg.output, patterns, &err)) ...
 *   for each log step t:
 *     if (awe_h5_write_row(h5, t, out, &err)) { ... }              // AWE_EIO: disk full etc.
 *     int rc = awe_csv_write_row(csv, t, out, &err);
 *     if (rc == AWE_WRITER_EPIPE) ... stop quietly (reader went away, e.g. `| head`)
 *     else if (rc) ... report err
 *   awe_h5_set_attr_int(h5, "steps", steps, &err);                   // summary numbers
 *   awe_h5_set_attr_double(h5, "wall_time", wall, &err);
 *   awe_csv_close(csv, &err);                                        // flushes the stream
 *   awe_h5_close(h5, AWE_RUN_COMPLETE, NULL, &err);                  // or FAILED with message
 *
 * HDF5 layout (schema version 1; see writer_hdf5.c for details):
 *   /                  attrs awesim_version, schema_version=1, status, t_end, solver,
 *                      command_line, [error], [extra keys]
 *   /scenario          string dataset: the scenario YAML as run
 *   /topology          string dataset: the model's awesIO structure document
 *   /time              float64 [T], units "s"
 *   /GROUP             attr names: component names in registry order
 *   /GROUP/VAR         float64 [T,N] (dim 1), [T,N,3] (dim 3), [T,N,4] (dim 4); units attr.
 *                      Group-level variables (empty component, e.g. wind.v_wind) are [T]
 *                      (or [T,dim]) and add nothing to names.
 * Rows are buffered and written in blocks (one chunk per dataset per block), each followed by
 * H5Fflush, so a killed run leaves a readable file with every row of every written block and
 * status "running". A block is written when it is full (block_rows) or at the first row after
 * AWE_H5_FLUSH_SECONDS of wall time since the last write, so a SIGKILL loses at most
 * block_rows rows and at most the last second's rows. Files are bit-identical for identical
 * writes (no timestamps) as long as no block was cut by the time bound.
 *
 * CSV: header `time[s],points.kcu.pos.x[m],...` (names from awe_var_scalar_name, unit in
 * brackets), one line per row, numbers "%.9g" with '.' as decimal point whatever LC_NUMERIC
 * says (formatted under a private "C" locale via uselocale), "nan"/"inf" as C prints them.
 */
#ifndef AWE_WRITER_H
#define AWE_WRITER_H

#include <stdio.h>

#include "model/registry.h"
#include "util/status.h"

/* Returned by the CSV functions (never an awe_status value) when the stream's reader has gone
 * (EPIPE; SIGPIPE must be ignored by the process). err is set too, but the usual reaction is
 * to stop writing and exit quietly. */
#define AWE_WRITER_EPIPE (-32)

/* Final run status written to the HDF5 root attribute `status`. */
typedef enum {
  AWE_RUN_COMPLETE = 0,  /* "complete" */
  AWE_RUN_INTERRUPTED,   /* "interrupted" (a stop signal; the CSV reader gone) */
  AWE_RUN_FAILED,        /* "failed", with root attribute `error` */
  AWE_RUN_CRASHED        /* "crashed": a wing hit the ground (solve/sim.h awe_crash), with
                            root attributes crash_wing, crash_point, crash_time, ... */
} awe_run_status;

/* Exit status of a run that ended crashed (awesim(1) EXIT STATUS). */
#define AWE_EXIT_CRASHED 3

/* "complete", "interrupted", "failed", "crashed". */
const char *awe_run_status_name(awe_run_status s);

/* ---- HDF5 log ---------------------------------------------------------------------------- */

typedef struct {
  const char *solver;        /* root attribute `solver` (NULL = "") */
  const char *command_line;  /* root attribute `command_line` (NULL = "") */
  const char *scenario;      /* dataset /scenario, the scenario YAML as run (NULL = "") */
  const char *topology;      /* dataset /topology, the model's awesIO structure document
                              * (awesio_write.h), so a log is self-describing (NULL = none) */
  int block_rows;            /* rows per block = chunk length in time; 0 = automatic
                              * (about 256 KiB of output per block, 64..4096 rows) */
  int gzip_level;            /* 0 or -1 = no compression (the default: deflate costs more than
                              * the physics), 1..9 = shuffle + deflate at that level */
  int no_shuffle;            /* with gzip_level: deflate alone, without the shuffle filter */
} awe_h5_info;

typedef struct awe_h5 awe_h5;

/* A partial block is written at the first row after this much wall time since the last write:
 * the bound on what a SIGKILL can lose besides block_rows. */
#define AWE_H5_FLUSH_SECONDS 1.0

/* Create (truncate) path and write the layout, the metadata and status "running". info may be
 * NULL. Returns NULL with err set: AWE_EIO when the file cannot be created or written,
 * AWE_EINTERNAL when the list is not made of consecutive (group, var) runs with one dim and
 * unit each, AWE_ENOMEM. */
awe_h5 *awe_h5_open(const char *path, const awe_varlist *vars, const awe_h5_info *info,
                    awe_err *err);

/* Buffer one row (out has vars->size elements); a full block is written and flushed. Returns
 * AWE_OK or AWE_EIO (after which the writer refuses further rows; close it as failed). */
awe_status awe_h5_write_row(awe_h5 *w, double t, const double *out, awe_err *err);

/* Write the buffered rows now and flush the file. Not needed for correctness; note that a
 * partial block makes HDF5 rewrite that chunk later, so flushing on a wall-clock schedule
 * makes the file layout (not its content) depend on timing. */
awe_status awe_h5_flush(awe_h5 *w, awe_err *err);

/* Extra root attributes (summary numbers etc.); setting a key again replaces it. Strings longer
 * than 60000 bytes are truncated (HDF5 1.8-format attribute limit). */
awe_status awe_h5_set_attr_str(awe_h5 *w, const char *key, const char *value, awe_err *err);
awe_status awe_h5_set_attr_double(awe_h5 *w, const char *key, double value, awe_err *err);
awe_status awe_h5_set_attr_int(awe_h5 *w, const char *key, long long value, awe_err *err);

/* Rows accepted so far (written plus buffered). */
long awe_h5_rows(const awe_h5 *w);

/* Write the buffered rows, the final status (and, for AWE_RUN_FAILED, the root attribute
 * `error` = message when message is not NULL), t_end; close the file and free w (always, even
 * on error). Returns AWE_OK or AWE_EIO. */
awe_status awe_h5_close(awe_h5 *w, awe_run_status status, const char *message, awe_err *err);

/* ---- CSV --------------------------------------------------------------------------------- */

typedef struct awe_csv awe_csv;

/* Select columns and write the header line to f (not owned; use a large setvbuf for pipes).
 * patterns: comma-separated globs ('*', '?'; blanks ignored) over the scalar names
 * ("points.kcu.pos.x"); a vector variable's own name ("points.kcu.pos") selects all of its
 * components. NULL or "" selects every column, `time` first, then registry order. Otherwise
 * the columns come in the order asked: each pattern adds the columns it matches that no
 * earlier pattern added, in registry order among themselves (a glob expands in place), and
 * `time` only where a pattern asks for it.
 * A pattern that matches no column is an error (AWE_EUSAGE, message with a suggestion and
 * some available names). Returns AWE_OK and sets *csv, an awe_status with err set, or
 * AWE_WRITER_EPIPE. */
int awe_csv_open(awe_csv **csv, FILE *f, const awe_varlist *vars, const char *patterns,
                 awe_err *err);

/* Write one row. Returns AWE_OK, AWE_WRITER_EPIPE (reader closed the pipe; every later call
 * returns it too) or AWE_EIO. */
int awe_csv_write_row(awe_csv *c, double t, const double *out, awe_err *err);

/* Number of columns, time included. */
int awe_csv_ncolumns(const awe_csv *c);

/* Flush the stream (it is not closed) and free c. Returns AWE_OK, AWE_WRITER_EPIPE or
 * AWE_EIO. */
int awe_csv_close(awe_csv *c, awe_err *err);

#endif
