/* spec_aero_yaml.c: aero geometry YAML (VortexStepMethod format) and polar CSV files.
 *
 * wing_sections: [airfoil_id, LE_x, LE_y, LE_z, TE_x, TE_y, TE_z] per spanwise section (CAD
 * frame, m). wing_airfoils: [airfoil_id, type, info_dict] with types polars (csv_file_path,
 * relative to the geometry file), breukels_regression (t, kappa) and inviscid. Polar CSV:
 * header row, comma separated, columns alpha, cl, cd, cm in any order (case-insensitive; cm
 * also matches CmPitch as the Python reader does), alpha in degrees (the Julia reader's
 * convention) unless the column is named alpha_rad or alpha[rad].
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/spec_load.h"
#include "io/spec_table.h"



const char *awe_spec_path_join(awe_spec *s, const char *base_file, const char *rel) {
  if (!rel) return NULL;
  if (rel[0] == '/' || !base_file) return awe_spec_strdup(s, rel);
  const char *slash = strrchr(base_file, '/');
  if (!slash) return awe_spec_strdup(s, rel);
  size_t nd = (size_t)(slash - base_file);
  size_t n = nd + 1 + strlen(rel) + 1;
  char *p = awe_spec_alloc(s, n);
  if (!p) return NULL;
  memcpy(p, base_file, nd);
  p[nd] = '/';
  strcpy(p + nd + 1, rel);
  return p;
}


/* ---- polar CSV ---------------------------------------------------------------------------- */

static void lower_trim(char *s) {
  char *b = s;
  while (*b && isspace((unsigned char)*b)) b++;
  memmove(s, b, strlen(b) + 1);
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
  for (char *c = s; *c; c++) *c = (char)tolower((unsigned char)*c);
}


awe_status awe_polar_csv_read(awe_spec *s, const char *path, awe_airfoil *a, awe_err *err) {
  char sh[AWE_PATH_SHOW + 1];
  struct stat sb;  /* refuse a FIFO or device before fopen() could block on it */
  if (!stat(path, &sb) && !S_ISREG(sb.st_mode))
    return awe_err_set(err, AWE_ENOFILE, "%s: cannot read polar file: not a regular file",
                       awe_path_short(path, sh, sizeof(sh)));
  FILE *f = fopen(path, "r");
  if (!f) return awe_err_set(err, AWE_ENOFILE, "%s: cannot open polar file: %s",
                             awe_path_short(path, sh, sizeof(sh)), strerror(errno));
  awe_status st = awe_polar_csv_read_stream(s, f, path, a, err);
  fclose(f);
  return st ? st : awe_spec_note_file(s, path, err);
}


awe_status awe_polar_csv_read_stream(awe_spec *s, FILE *f, const char *path, awe_airfoil *a,
                                     awe_err *err) {
  char line[4096];
  int lineno = 0, col_alpha = -1, col_cl = -1, col_cd = -1, col_cm = -1, ncol = 0, rad = 0;
  awe_loc loc = {path, 0, 1};
  awe_status st = AWE_OK;
  int cap = 64, n = 0;
  double *buf = malloc(sizeof(double) * 4 * (size_t)cap);
  if (!buf) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  while (fgets(line, sizeof(line), f)) {
    lineno++;
    loc.line = lineno;
    size_t len = strlen(line);
    if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
      st = awe_err_at(err, AWE_EPARSE, &loc, "line longer than %zu characters", sizeof(line) - 2);
      break;
    }
    if (memchr(line, '\0', len) != line + len) { /* unreachable: fgets stops at NUL */ }
    char *p = line;
    while (*p && isspace((unsigned char)*p)) p++;
    if (!*p) continue;
    if (col_alpha < 0 && ncol == 0) {
      /* header: find the columns */
      char *save = NULL;
      int k = 0;
      for (char *tok = strtok_r(line, ",", &save); tok; tok = strtok_r(NULL, ",", &save), k++) {
        lower_trim(tok);
        if (col_alpha < 0 && !strncmp(tok, "alpha", 5)) {
          col_alpha = k;
          rad = strstr(tok, "rad") != NULL;
        } else if (!strcmp(tok, "cl") || (col_cl < 0 && strstr(tok, "cl") == tok)) {
          if (col_cl < 0 || !strcmp(tok, "cl")) col_cl = k;
        } else if (!strcmp(tok, "cd") || (col_cd < 0 && strstr(tok, "cd") == tok)) {
          if (col_cd < 0 || !strcmp(tok, "cd")) col_cd = k;
        } else if (!strcmp(tok, "cm") || (col_cm < 0 && strstr(tok, "cm") == tok)) {
          if (col_cm < 0 || !strcmp(tok, "cm")) col_cm = k;
        }
      }
      ncol = k;
      if (col_alpha < 0 || col_cl < 0 || col_cd < 0 || col_cm < 0) {
        st = awe_err_at(err, AWE_EPARSE, &loc,
                        "polar header must name columns alpha, cl, cd and cm (any order); "
                        "missing %s%s%s%s", col_alpha < 0 ? "alpha " : "", col_cl < 0 ? "cl " : "",
                        col_cd < 0 ? "cd " : "", col_cm < 0 ? "cm" : "");
        break;
      }
      continue;
    }
    /* data row */
    double v[64];
    int k = 0;
    char *q = line;
    for (;;) {
      char *end;
      while (*q == ' ' || *q == '\t') q++;
      errno = 0;
      double x = strtod(q, &end);
      if (end == q || !isfinite(x)) {
        loc.col = (int)(q - line) + 1;
        st = awe_err_at(err, AWE_EPARSE, &loc, "expected a finite number in column %d", k + 1);
        break;
      }
      if (k < 64) v[k] = x;
      k++;
      q = end;
      while (*q == ' ' || *q == '\t' || *q == '\r') q++;
      if (*q == ',') {
        q++;
        continue;
      }
      if (*q == '\n' || !*q) break;
      loc.col = (int)(q - line) + 1;
      st = awe_err_at(err, AWE_EPARSE, &loc, "unexpected character '%c'", *q);
      break;
    }
    if (st) break;
    if (k != ncol) {
      loc.col = 1;
      st = awe_err_at(err, AWE_EPARSE, &loc, "row has %d values, the header has %d", k, ncol);
      break;
    }
    if (n == cap) {
      if (cap > 1000000) {
        st = awe_err_at(err, AWE_EINVAL, &loc, "more than 1e6 polar rows");
        break;
      }
      cap *= 2;
      double *nb = realloc(buf, sizeof(double) * 4 * (size_t)cap);
      if (!nb) {
        st = awe_err_set(err, AWE_ENOMEM, "out of memory");
        break;
      }
      buf = nb;
    }
    double al = v[col_alpha];
    buf[4 * n + 0] = rad ? al : al * M_PI / 180.0;
    buf[4 * n + 1] = v[col_cl];
    buf[4 * n + 2] = v[col_cd];
    buf[4 * n + 3] = v[col_cm];
    if (n > 0 && !(buf[4 * n] > buf[4 * (n - 1)])) {
      loc.col = 1;
      st = awe_err_at(err, AWE_EINVAL, &loc, "alpha must increase strictly from row to row");
      break;
    }
    n++;
  }
  if (!st && ferror(f)) st = awe_err_set(err, AWE_ENOFILE, "%s: read error", path);
  /* whole-file problems are reported at the last line read */
  loc.line = lineno > 0 ? lineno : 1;
  loc.col = 1;
  if (!st && ncol == 0) st = awe_err_at(err, AWE_EPARSE, &loc, "empty polar file");
  if (!st && n < 2)
    st = awe_err_at(err, AWE_EINVAL, &loc, "a polar needs at least 2 rows, found %d", n);
  if (!st) {
    a->n = n;
    a->alpha = awe_spec_alloc(s, sizeof(double) * (size_t)n);
    a->cl = awe_spec_alloc(s, sizeof(double) * (size_t)n);
    a->cd = awe_spec_alloc(s, sizeof(double) * (size_t)n);
    a->cm = awe_spec_alloc(s, sizeof(double) * (size_t)n);
    if (!a->alpha || !a->cl || !a->cd || !a->cm) {
      st = awe_err_set(err, AWE_ENOMEM, "out of memory");
    } else {
      for (int i = 0; i < n; i++) {
        a->alpha[i] = buf[4 * i];
        a->cl[i] = buf[4 * i + 1];
        a->cd[i] = buf[4 * i + 2];
        a->cm[i] = buf[4 * i + 3];
      }
    }
  }
  free(buf);
  return st;
}


/* ---- aero geometry ------------------------------------------------------------------------ */

awe_status awe_spec_read_aero(awe_spec *s, const awe_ynode *root, const char *path,
                              awe_err *err) {
  awe_aero_spec *a = &s->aero;
  a->path = awe_spec_strdup(s, path);
  s->has_aero = 1;
  if (!root || root->kind == AWE_Y_NULL)
    return root ? awe_err_at(err, AWE_EINVAL, &root->loc, "the aero geometry file is empty")
                : awe_err_set(err, AWE_EINVAL, "%s: the aero geometry file is empty", path);
  if (root->kind != AWE_Y_MAP)
    return awe_err_at(err, AWE_EINVAL, &root->loc,
                      "aero geometry must be a mapping with wing_sections and wing_airfoils");
  static const char *const top[] = {"wing_sections", "wing_airfoils", "bridle_nodes",
                                    "bridle_lines", "bridle_connections"};
  AWE_TRY(awe_ymap_check_keys(root, "aero geometry", top, 5, err));
  /* the Python Vortex-Step-Method's bridle drag: awesim's bridle lives in the structure */
  for (int k = 2; k < 5; k++) {
    const awe_ynode *b = awe_ymap_get(root, top[k]);
    if (b)
      awe_warn(&s->warnings, &b->loc, "aero geometry: '%s' is ignored (awesim models the "
               "bridle in the structural geometry, with its line drag)", top[k]);
  }

  /* sections */
  static const char *const scols[] = {"airfoil_id", "LE_x", "LE_y", "LE_z",
                                      "TE_x",       "TE_y", "TE_z"};
  const awe_ynode *ws = awe_ymap_get(root, "wing_sections");
  if (!ws) return awe_err_at(err, AWE_EINVAL, &root->loc, "aero geometry: 'wing_sections' missing");
  awe_table t;
  AWE_TRY(awe_table_read(s, ws, "wing_sections", scols, AWE_ARRLEN(scols), &t, err));
  if (t.nrow < 2)
    return awe_err_at(err, AWE_EINVAL, &ws->loc, "wing_sections: a wing needs at least 2 sections, "
                      "found %d", t.nrow);
  a->nsection = t.nrow;
  a->sections = awe_spec_alloc(s, sizeof(awe_section_spec) * (size_t)t.nrow);
  if (!a->sections) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_section_spec *x = &a->sections[i];
    char what[64];
    snprintf(what, sizeof(what), "wing_sections row %d", i + 1);
    x->loc = r->node->loc;
    double id;
    AWE_TRY(awe_row_req_double(r, "airfoil_id", what, &id, err));
    if (id != floor(id) || fabs(id) > 1e9)
      return awe_err_at(err, AWE_EINVAL, &awe_row_get(r, "airfoil_id")->loc,
                        "%s: airfoil_id must be an integer", what);
    x->airfoil_id = (int)id;
    for (int k = 0; k < 3; k++) {
      AWE_TRY(awe_row_req_double(r, scols[1 + k], what, &x->le[k], err));
      AWE_TRY(awe_row_req_double(r, scols[4 + k], what, &x->te[k], err));
    }
  }

  /* airfoils */
  const awe_ynode *wa = awe_ymap_get(root, "wing_airfoils");
  if (!wa) return awe_err_at(err, AWE_EINVAL, &root->loc, "aero geometry: 'wing_airfoils' missing");
  static const char *const acols[] = {"airfoil_id", "type", "info_dict"};
  AWE_TRY(awe_table_read(s, wa, "wing_airfoils", acols, AWE_ARRLEN(acols), &t, err));
  a->alpha_range[0] = -180;
  a->alpha_range[1] = 180;
  a->alpha_range[2] = 1;
  a->reynolds = 1e6;
  if (wa->kind == AWE_Y_MAP) {
    const awe_ynode *ar = awe_ymap_get(wa, "alpha_range");
    if (ar && ar->kind != AWE_Y_NULL)
      AWE_TRY(awe_ynode_vec(ar, "wing_airfoils.alpha_range", 3, a->alpha_range, err));
    const awe_ynode *re = awe_ymap_get(wa, "reynolds");
    if (re && re->kind != AWE_Y_NULL)
      AWE_TRY(awe_ynode_double(re, "wing_airfoils.reynolds", &a->reynolds, err));
  }
  if (t.nrow == 0)
    return awe_err_at(err, AWE_EINVAL, &wa->loc, "wing_airfoils: no airfoils defined");
  a->nairfoil = t.nrow;
  a->airfoils = awe_spec_alloc(s, sizeof(awe_airfoil) * (size_t)t.nrow);
  a->airfoil_files = awe_spec_alloc(s, sizeof(char *) * (size_t)t.nrow);
  if (!a->airfoils || !a->airfoil_files) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  for (int i = 0; i < t.nrow; i++) {
    const awe_row *r = &t.rows[i];
    awe_airfoil *af = &a->airfoils[i];
    char what[64];
    snprintf(what, sizeof(what), "wing_airfoils row %d", i + 1);
    double id;
    AWE_TRY(awe_row_req_double(r, "airfoil_id", what, &id, err));
    if (id != floor(id) || fabs(id) > 1e9)
      return awe_err_at(err, AWE_EINVAL, &awe_row_get(r, "airfoil_id")->loc,
                        "%s: airfoil_id must be an integer", what);
    af->id = (int)id;
    for (int j = 0; j < i; j++)
      if (a->airfoils[j].id == af->id)
        return awe_err_at(err, AWE_EINVAL, &r->node->loc, "%s: airfoil_id %d is defined twice",
                          what, af->id);
    const awe_ynode *ty = awe_row_get(r, "type");
    const awe_ynode *info = awe_row_get(r, "info_dict");
    const char *tys = "";
    if (!awe_ynode_is_nothing(ty)) {
      char w[96];
      snprintf(w, sizeof(w), "%s: type", what);
      AWE_TRY(awe_ynode_string(ty, w, &tys, err));
    }
    if (info && info->kind != AWE_Y_MAP && info->kind != AWE_Y_NULL)
      return awe_err_at(err, AWE_EINVAL, &info->loc, "%s: info_dict must be a mapping", what);
    if (!strcmp(tys, "inviscid") || (!tys[0] && !awe_ymap_get(info, "csv_file_path"))) {
      af->type = AWE_AIRFOIL_INVISCID;
    } else if (!strcmp(tys, "polars") || !tys[0]) {
      af->type = AWE_AIRFOIL_POLARS;
      static const char *const ik[] = {"csv_file_path"};
      AWE_TRY(awe_ymap_check_keys(info, "info_dict", ik, 1, err));
      const awe_ynode *cp = awe_ymap_get(info, "csv_file_path");
      const char *rel;
      char w[96];
      snprintf(w, sizeof(w), "%s: info_dict.csv_file_path", what);
      if (!cp)
        return awe_err_at(err, AWE_EINVAL, info ? &info->loc : &r->node->loc,
                          "%s: a 'polars' airfoil needs info_dict {csv_file_path: FILE}", what);
      AWE_TRY(awe_ynode_string(cp, w, &rel, err));
      const char *full = awe_spec_path_join(s, path, rel);
      a->airfoil_files[i] = full;
      awe_status st = awe_polar_csv_read(s, full, af, err);
      if (st == AWE_ENOFILE) {
        /* name the YAML line that asked for the file, and the file */
        char msg[sizeof(err->msg)];
        snprintf(msg, sizeof(msg), "%s", err->msg);
        return awe_err_at(err, AWE_ENOFILE, &cp->loc, "%s: %s", what, msg);
      }
      if (st) return st;
    } else if (!strcmp(tys, "breukels_regression")) {
      af->type = AWE_AIRFOIL_BREUKELS;
      static const char *const ik[] = {"t", "kappa"};
      AWE_TRY(awe_ymap_check_keys(info, "info_dict", ik, 2, err));
      const awe_ynode *tt = awe_ymap_get(info, "t"), *kk = awe_ymap_get(info, "kappa");
      if (!tt || !kk)
        return awe_err_at(err, AWE_EINVAL, info ? &info->loc : &r->node->loc,
                          "%s: breukels_regression needs info_dict {t: ..., kappa: ...}", what);
      char w[96];
      snprintf(w, sizeof(w), "%s: info_dict.t", what);
      AWE_TRY(awe_ynode_double(tt, w, &af->t, err));
      snprintf(w, sizeof(w), "%s: info_dict.kappa", what);
      AWE_TRY(awe_ynode_double(kk, w, &af->kappa, err));
    } else if (!strcmp(tys, "neuralfoil") || !strcmp(tys, "masure_regression") ||
               !strcmp(tys, "poly")) {
      return awe_err_at(err, AWE_EINVAL, &ty->loc,
                        "%s: airfoil type '%s' is not supported by awesim; use polars (CSV), "
                        "breukels_regression or inviscid", what, tys);
    } else {
      static const char *const types[] = {"polars", "breukels_regression", "inviscid"};
      const char *best = awe_closest(tys, types, 3);
      return awe_err_at(err, AWE_EINVAL, &ty->loc,
                        "%s: unknown airfoil type '%s'%s%s%s (allowed: polars, "
                        "breukels_regression, inviscid)", what, tys, best ? " (did you mean '" : "",
                        best ? best : "", best ? "'?)" : "");
    }
  }
  /* every section's airfoil must exist */
  for (int i = 0; i < a->nsection; i++) {
    int ok = 0;
    for (int j = 0; j < a->nairfoil && !ok; j++) ok = a->airfoils[j].id == a->sections[i].airfoil_id;
    if (!ok)
      return awe_err_at(err, AWE_EINVAL, &a->sections[i].loc,
                        "wing_sections row %d: airfoil_id %d is not defined in wing_airfoils",
                        i + 1, a->sections[i].airfoil_id);
  }
  return AWE_OK;
}
