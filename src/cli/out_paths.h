/* out_paths.h: output paths that cannot destroy what the run reads or writes.
 *
 * A run must never write over a file it reads (the scenario, the model files, the polars) or
 * over another of its own outputs. Paths are compared by what they name, device and inode,
 * not by spelling: a hard link, a symbolic link or `./x` name the same file as `x`. A path
 * that does not exist yet is named by its directory's device and inode and its last
 * component. The summary JSON is written beside its target and renamed onto it, so a reader
 * never sees half a file and a write error leaves the old one in place.
 */
#ifndef AWE_CLI_OUT_PATHS_H
#define AWE_CLI_OUT_PATHS_H

#include <stdio.h>

#include "io/spec.h"
#include "util/status.h"

/* Create the missing directories above path, every level (like mkdir -p). AWE_EIO with
 * "PATH: cannot create directory DIR: REASON" on failure. */
awe_status awe_cli_make_parents(const char *path, awe_err *err);

/* AWE_EIO when output path (given with option opt) names a file spec read: "OPT PATH: is
 * FILE, which this run reads; not written". */
awe_status awe_cli_output_not_input(const awe_spec *spec, const char *opt, const char *path,
                                    awe_err *err);

/* AWE_EIO when descriptor fd is a file spec read ("WHAT is FILE, which this run reads"). */
awe_status awe_cli_fd_not_input(const awe_spec *spec, int fd, const char *what, awe_err *err);

/* AWE_EIO when the two paths name the same file (either may be NULL): two outputs, or an input
 * that is not part of the spec (--from, --along, a wind spec) and an output. */
awe_status awe_cli_outputs_distinct(const char *opt_a, const char *a, const char *opt_b,
                                    const char *b, awe_err *err);

/* AWE_EIO when descriptor fd is an open regular file that is also path (NULL: no-op). */
awe_status awe_cli_fd_not_path(int fd, const char *what, const char *opt, const char *path,
                               awe_err *err);

/* Writing a whole file at once: open a temporary file beside path (tmp receives its name),
 * write to the stream, then awe_cli_replace_commit: flush, fsync and close it, checking each,
 * and rename it onto path (or remove it on any failure: path is left as it was). Both return
 * AWE_EIO with "PATH: REASON" on failure. */
/* Before the work: AWE_EIO unless a temporary file can be created beside path. */
awe_status awe_cli_replace_check(const char *path, awe_err *err);
FILE *awe_cli_replace_open(const char *path, char *tmp, size_t ntmp, awe_err *err);
awe_status awe_cli_replace_commit(FILE *f, const char *tmp, const char *path, awe_err *err);

#endif
