/* out_guard.h: the checks every output of a run passes before anything is opened for writing,
 * for the library's log calls (the CLI has its own in cli/out_paths.h, which reports options).
 *
 * A log call used to truncate whatever path it was given: the scenario being run, one of its
 * model files, the other log of the same run, or a FIFO without a reader (the open blocked for
 * ever). The guard compares by device and inode, which a second spelling, a hard link or a
 * symbolic link cannot hide.
 */
#ifndef AWE_OUT_GUARD_H
#define AWE_OUT_GUARD_H

#include <stdio.h>

#include "io/spec.h"
#include "util/status.h"

/* AWE_OK when path may be written: a new name in an existing directory, or an existing regular
 * file that is none of spec's input files (spec may be NULL) and not the file `other` names
 * (another output of the same run; NULL: none). Else AWE_EIO saying which rule it broke. */
awe_status awe_out_guard(const awe_spec *spec, const char *path, const char *other,
                         awe_err *err);

/* Open path for writing as a stream after awe_out_guard: created if new, never blocking (a FIFO
 * or device is refused after the open, by its type), truncated only once it is known to be a
 * regular file. NULL with err set on failure. */
FILE *awe_out_guard_fopen(const awe_spec *spec, const char *path, const char *other,
                          awe_err *err);

#endif
