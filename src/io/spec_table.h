/* spec_table.h: reading SymbolicAWEModels "table" blocks row by row.
 *
 * A block is either {headers: [...], data: [[...], ...]} (list rows, padded with "not given"
 * when short) or {data: [{key: value}, ...]} / a bare list of mappings (dict rows) / a mapping of
 * names to mappings ({NAME: {key: value}, ...}: dict rows named by their keys). Rows that
 * are empty or whose first cell is a string starting with '#' are skipped, as the Julia loader
 * does. Column aliases of older file versions are mapped by the caller through row_get_any.
 */
#ifndef AWE_SPEC_TABLE_H
#define AWE_SPEC_TABLE_H

#include "io/spec.h"
#include "io/yaml_doc.h"

typedef struct {
  const awe_ynode *node;   /* the row: a list or a mapping */
  const awe_ynode *hdr;    /* the headers list, NULL for dict rows */
  int index;               /* 1-based row number among accepted rows */
} awe_row;

typedef struct {
  const char *block;       /* block name for messages, e.g. "segments" */
  const awe_ynode *node;   /* the block node */
  const awe_ynode *hdr;
  int nrow;
  awe_row *rows;
} awe_table;

/* Read a block into rows. allowed lists the known columns (others give a warning, since the
 * Julia loader ignores them). Returns AWE_OK with nrow = 0 when node is NULL/empty. */
awe_status awe_table_read(awe_spec *s, const awe_ynode *node, const char *block,
                          const char *const *allowed, int nallowed, awe_table *t, awe_err *err);

/* The cell of column col (NULL when absent or padded). */
const awe_ynode *awe_row_get(const awe_row *r, const char *col);
/* First present column among names (for aliases: "name", "idx", "id"). */
const awe_ynode *awe_row_get_any(const awe_row *r, const char *const *cols, int n);

/* Typed cells. what names the row for messages, e.g. "segment 'bridle_3'". A missing or
 * "nothing" cell gives def (opt_*) or an error (req_*). */
awe_status awe_row_opt_double(const awe_row *r, const char *col, const char *what, double def,
                              double *out, awe_err *err);
awe_status awe_row_req_double(const awe_row *r, const char *col, const char *what, double *out,
                              awe_err *err);
awe_status awe_row_opt_vec3(const awe_row *r, const char *col, const char *what,
                            const double def[3], int allow_scalar, double out[3], awe_err *err);
awe_status awe_row_opt_int(const awe_row *r, const char *col, const char *what, int def,
                           int *out, awe_err *err);
awe_status awe_row_opt_bool(const awe_row *r, const char *col, const char *what, int def,
                            int *out, awe_err *err);

/* A component reference (name or 1-based index). Absent/"nothing"/0 -> not given. */
awe_status awe_parse_ref(awe_spec *s, const awe_ynode *n, const char *what, awe_ref *out,
                         awe_err *err);
/* A list of references (a single scalar counts as a one-element list). */
awe_status awe_parse_ref_list(awe_spec *s, const awe_ynode *n, const char *what, awe_ref **out,
                              int *nout, awe_err *err);
/* Weighted point set: a, [a, b] (mean) or [[a, w], [b, w]]. */
awe_status awe_parse_wref(awe_spec *s, const awe_ynode *n, const char *what, awe_wref *out,
                          awe_err *err);

/* The name of a row: column name/idx/id, or the row number as text. */
const char *awe_row_name(awe_spec *s, const awe_row *r, awe_err *err, awe_status *st);

#endif
