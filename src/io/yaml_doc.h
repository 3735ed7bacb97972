/* yaml_doc.h: a YAML document as a plain tree of nodes that remember file:line:col.
 *
 * The only module (with yaml_doc.c) that includes <yaml.h>. Nodes, strings and the file name
 * live in one arena owned by the document and are freed together. Aliases point at their
 * anchored node (no copying); the tree they stand for counts towards AWE_YAML_MAX_NODES, so an
 * alias bomb is refused rather than walked. Getters return AWE_OK or fill an
 * awe_err whose message names the node's position and the key being read.
 */
#ifndef AWE_YAML_DOC_H
#define AWE_YAML_DOC_H

#include <stddef.h>

#include "util/status.h"

typedef enum { AWE_Y_NULL = 0, AWE_Y_SCALAR, AWE_Y_SEQ, AWE_Y_MAP } awe_ykind;

typedef struct awe_ynode awe_ynode;
struct awe_ynode {
  awe_loc loc;
  const char *str;    /* scalar text ("" for null) */
  awe_ynode **items;  /* sequence items, or mapping values */
  awe_ynode **keys;   /* mapping keys (scalars), NULL for sequences */
  int n;              /* number of items (sequence) or pairs (mapping) */
  int cap;
  int slot;           /* where items is recorded for freeing (reader-internal) */
  unsigned char kind; /* an awe_ykind (a byte: large files hold millions of nodes) */
  unsigned char quoted; /* scalar was written quoted: never a number/bool/null */
};

typedef struct awe_ydoc awe_ydoc;

/* Maximum nesting depth accepted (deeper input is rejected, not recursed into). */
#define AWE_YAML_MAX_DEPTH 128

/* Maximum number of nodes in a document, counting every alias as the tree it stands for: bounds
 * the memory of a huge file (about 70 bytes a node) and the time of every walk over the tree
 * (an alias bomb expands to more). The largest shipped model has about 3000. */
#define AWE_YAML_MAX_NODES 4000000

/* Load a file. On failure returns NULL with err set (AWE_ENOFILE: cannot open, not a regular
 * file; AWE_EPARSE: malformed, too large, or out of memory while reading it). An empty file gives
 * a document whose root is a NULL node (at line 1). Non-regular files (FIFOs, devices) are
 * refused without blocking. */
awe_ydoc *awe_ydoc_load_file(const char *path, awe_err *err);

/* Parse text (name is used in locations). */
awe_ydoc *awe_ydoc_load_string(const char *text, size_t len, const char *name, awe_err *err);

void awe_ydoc_free(awe_ydoc *doc);
awe_ynode *awe_ydoc_root(awe_ydoc *doc);
const char *awe_ydoc_path(const awe_ydoc *doc);

/* Parse a YAML value (e.g. "9.5" or "[1, 2]") into a node owned by doc; loc_name/col name
 * where it came from (e.g. "--set run.duration"). Returns NULL on a parse error. */
awe_ynode *awe_ydoc_parse_value(awe_ydoc *doc, const char *text, const char *loc_name,
                                awe_err *err);

/* Set a dotted key path (a.b.c) in the root mapping to value, creating mappings on the way.
 * Fails when a path element exists but is not a mapping. */
awe_status awe_ydoc_set_path(awe_ydoc *doc, const char *path, awe_ynode *value, awe_err *err);

/* Copy a string into the document's arena. */
const char *awe_ydoc_strdup(awe_ydoc *doc, const char *s);

/* --- reading helpers -------------------------------------------------------------------- */

/* Value of key in a mapping, or NULL (also when map is not a mapping). */
awe_ynode *awe_ymap_get(const awe_ynode *map, const char *key);

/* True for a NULL node, a plain "~"/"null", or the string "nothing" (SymbolicAWEModels'
 * marker for "not given"). */
int awe_ynode_is_nothing(const awe_ynode *n);

/* Scalar conversions. "what" names the key for the message (e.g. "points[3].extra_mass").
 * Numbers must be finite; integers must be integral and fit in int. */
awe_status awe_ynode_double(const awe_ynode *n, const char *what, double *out, awe_err *err);
awe_status awe_ynode_int(const awe_ynode *n, const char *what, int *out, awe_err *err);
awe_status awe_ynode_bool(const awe_ynode *n, const char *what, int *out, awe_err *err);
awe_status awe_ynode_string(const awe_ynode *n, const char *what, const char **out,
                            awe_err *err);
/* A sequence of exactly dim numbers. */
awe_status awe_ynode_vec(const awe_ynode *n, const char *what, int dim, double *out,
                         awe_err *err);

/* Does the scalar look like a number (so a reference "3" is an index, "kcu" a name)? */
int awe_ynode_is_number(const awe_ynode *n);

/* Reject keys of map that are not in allowed[]; the message suggests the closest one.
 * what names the mapping (e.g. "run"). */
awe_status awe_ymap_check_keys(const awe_ynode *map, const char *what,
                               const char *const *allowed, int nallowed, awe_err *err);

/* Emit a node tree as block-style YAML (malloc'd text, at most 1 MiB; NULL if out of memory). */
char *awe_ynode_emit(const awe_ynode *root);

/* A short description of a node's kind for messages: "a mapping", "a list", "'abc'". */
void awe_ynode_describe(const awe_ynode *n, char *buf, size_t sz);

#endif
