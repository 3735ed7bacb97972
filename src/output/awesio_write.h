/* awesio_write.h: the awesIO structure document (IEA Wind Task 48, structure_schema.yml
 * 1.0.0, tests/data/awesio/) of a built model: fully expanded, every block a
 * headers/units/data table, every reference by name, positions in ENU relative to the ground
 * station, extra masses only; awesim's own columns appended after the schema's core ones and
 * its wings and transforms under the tool blocks `awesim_wings` and `awesim_transforms`:
 * everything the model build needs, so that the document read back (awesio_read.h) builds the
 * same model (CAD positions, each point's wing and transform, tether placement and unstretched
 * length, a pulley's rope length, the transforms as placed), and the rigid bodies and tubes
 * (blocks `bodies` and `tubes`, the points riding a body BODY_STATIC with their offset in
 * awesim_anchor_b). */
#ifndef AWE_AWESIO_WRITE_H
#define AWE_AWESIO_WRITE_H

#include <stdio.h>

#include "model/model.h"
#include "util/status.h"

#define AWE_AWESIO_VERSION "1.0.0"

/* The connectivity_sha of m as the schema defines it: SHA-256 of "npoint;" then "i,j;" per
 * segment (one-based point rows), then "nbody;" then "a,b;" per tube (one-based body rows). */
void awe_awesio_connectivity_sha(const awe_model *m, char hex[65]);

/* Write the document of m to f; name and source go to metadata.name and metadata.note.
 * AWE_EIO when a write fails. */
awe_status awe_awesio_write(FILE *f, const awe_model *m, const char *name, const char *source,
                            awe_err *err);

/* The same document as a malloc'd string (what an HDF5 log keeps as /topology); NULL with err
 * set (why: out of memory, or what the document cannot hold) when it cannot be made. */
char *awe_awesio_string(const awe_model *m, const char *name, const char *source,
                        awe_err *err);

#endif
