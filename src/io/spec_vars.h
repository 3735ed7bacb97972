/* spec_vars.h: the 'variables:' block of SymbolicAWEModels' authoring YAML (SAM 0.17).
 *
 * A variable is a name for a value. A scalar (or list) variable stands for its value wherever
 * its name is written as an unquoted cell. A mapping variable stands for several columns at
 * once: in a list row it fills the columns it names (so the row holds fewer entries than its
 * headers; the positional entries take the columns left over, in order), in a mapping row it
 * adds its keys. A column given twice, a key that is not a column, or a variable named like a
 * component is an error at file:line. Rows are rebuilt in the spec's pool; the YAML tree is
 * not changed.
 */
#ifndef AWE_SPEC_VARS_H
#define AWE_SPEC_VARS_H

#include "io/spec.h"
#include "io/yaml_doc.h"

/* Check the block (a mapping of names to scalars, lists or mappings) and that no variable
 * has the name of a row of the structure root. */
awe_status awe_vars_check(const awe_ynode *vars, const awe_ynode *root, awe_err *err);

/* Does row (or anything inside it) name a variable? */
int awe_vars_used(const awe_ynode *vars, const awe_ynode *row);

/* The row with its variables put in; hdr is the block's headers (NULL for a mapping row). */
awe_status awe_vars_expand_row(awe_spec *s, const awe_ynode *vars, const awe_ynode *hdr,
                               const awe_ynode *row, const char *block, int rowno,
                               const awe_ynode **out, awe_err *err);

#endif
