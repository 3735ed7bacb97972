/* awesio_read.h: an awesIO structure document (structure_schema.yml, what `awesim convert
 * --to awesio` writes) read as a structural geometry, wherever awesim reads one. */
#ifndef AWE_AWESIO_READ_H
#define AWE_AWESIO_READ_H

#include "io/spec.h"
#include "io/yaml_doc.h"

/* Whether root is an awesIO structure document: its metadata names structure_schema.yml or
 * an awesIO_version (decided by content, not by the file name). */
int awe_awesio_is_doc(const awe_ynode *root);

/* Fill s->structure from the document: points (BODY_STATIC ones riding the body their `body`
 * names), segments, stations (groups), pulleys, tethers, winches, bodies (DYNAMIC, STATIC),
 * tubes, and awesim's tool blocks awesim_wings and awesim_transforms with its awesim_ columns
 * (awesio_write.h), so that a document awesim wrote builds the model it was written from.
 * Refuses a major version other than 1 and what awesim cannot build yet (KINEMATIC bodies,
 * stations without awesim_wings); warns on a newer minor version. */
awe_status awe_spec_read_awesio(awe_spec *s, const awe_ynode *root, const char *path,
                                awe_err *err);

#endif
