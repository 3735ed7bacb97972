/* log_select.h: output.channels, the scenario's choice of logged channels, and
 * output.compression, for the writers of writer.h.
 *
 * A pattern is a glob ('*', '?') over channel names written with '/' or '.' between the
 * parts: "winches.*", "wings/kite/elevation", "points.kcu.pos", "wind/v_wind". It selects every
 * output variable whose name GROUP.COMPONENT.VAR, dataset path GROUP.VAR, or one of whose
 * scalar names (GROUP.COMPONENT.VAR.x) it matches; a vector is always logged whole (the HDF5
 * dataset keeps its [T,N,3] shape). `time` is always logged; the pattern "time" is accepted.
 */
#ifndef AWE_LOG_SELECT_H
#define AWE_LOG_SELECT_H

#include "io/spec.h"
#include "model/registry.h"
#include "output/writer.h"
#include "util/status.h"

/* *sel = a copy of all (its own v[], free with awe_varlist_free) with AWE_VF_LOG kept only on
 * the variables that spec's output.channels select (on every logged one when it has none).
 * A pattern that matches no channel is AWE_EINVAL naming the pattern, its file:line and a
 * suggestion. spec may be NULL (everything selected). */
awe_status awe_log_select(const awe_spec *spec, const awe_varlist *all, awe_varlist *sel,
                          awe_err *err);

/* Set info->gzip_level and info->no_shuffle from spec's output.compression (spec may be NULL).
 */
void awe_log_compression(const awe_spec *spec, awe_h5_info *info);

/* "none", "deflate", "shuffle+deflate" */
const char *awe_log_compression_name(int compression);

#endif
