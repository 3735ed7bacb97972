/* log_read.h: read back what `awesim simulate` logged (writer_hdf5.c's layout) for the
 * linearization along its trajectory: the scenario as run, the log times and selected output
 * channels. */
#ifndef AWE_LOG_READ_H
#define AWE_LOG_READ_H

#include <hdf5.h>

#include "analysis/linearize.h"
#include "util/status.h"

typedef struct {
  char *scenario;   /* /scenario (the YAML as run), or NULL when absent */
  char *status;     /* root attr status ("complete", "interrupted", ...), or NULL */
  long T;           /* rows */
  double *t;        /* [T] /time [s] */
  double *Y;        /* [T * ny] the selected outputs; NaN where a channel is not in the log
                       (or its unit differs from the registry's) */
  int ny;
} awe_log_data;

/* Read path's /scenario, /time and the channels yc [ny] of the output list yl. AWE_ENOFILE
 * (cannot open), AWE_EPARSE (not a log of awesim: no /time). */
awe_status awe_log_read(const char *path, const awe_varlist *yl, const awe_lin_chan *yc, int ny,
                        awe_log_data *out, awe_err *err);
/* The same from an open file f (path only names it in messages): what the fuzzer drives, on a
 * file built in memory. */
awe_status awe_log_read_file(hid_t f, const char *path, const awe_varlist *yl,
                             const awe_lin_chan *yc, int ny, awe_log_data *out, awe_err *err);
void awe_log_data_free(awe_log_data *d);

#endif
