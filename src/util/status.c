/* status.c: error values, warnings and "did you mean" suggestions. */
#include "util/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *awe_strerror(awe_status s) {
  switch (s) {
    case AWE_OK: return "ok";
    case AWE_EUSAGE: return "usage error";
    case AWE_EINVAL: return "invalid input";
    case AWE_EPARSE: return "parse error";
    case AWE_ENOFILE: return "cannot open input";
    case AWE_EIO: return "output error";
    case AWE_ENOMEM: return "out of memory";
    case AWE_ENOCONV: return "no convergence";
    case AWE_EINTEG: return "integration failed";
    case AWE_EINTR: return "interrupted";
    case AWE_EINTERNAL: return "internal error";
  }
  return "unknown status";
}


int awe_exit_code(awe_status s) {
  switch (s) {
    case AWE_OK: return 0;
    case AWE_EUSAGE: return 2;       /* EX_USAGE would be 64; 2 is what getopt users expect */
    case AWE_EINVAL:
    case AWE_EPARSE: return 65;      /* EX_DATAERR */
    case AWE_ENOFILE: return 66;     /* EX_NOINPUT */
    case AWE_EIO: return 74;         /* EX_IOERR */
    case AWE_ENOMEM:
    case AWE_EINTERNAL: return 70;   /* EX_SOFTWARE */
    case AWE_ENOCONV:
    case AWE_EINTEG: return 1;       /* the run itself failed */
    case AWE_EINTR: return 130;
  }
  return 70;
}


const char *awe_path_short(const char *path, char *buf, size_t n) {
  size_t len = strlen(path);
  if (len <= AWE_PATH_SHOW || n < AWE_PATH_SHOW + 1) return path;
  /* keep the start (where it is) and the end (which file), drop the middle */
  snprintf(buf, n, "%.60s...%s", path, path + len - (AWE_PATH_SHOW - 63));
  return buf;
}


void awe_loc_format(const awe_loc *loc, char *buf, size_t n) {
  char sh[AWE_PATH_SHOW + 1];
  if (!loc || !loc->file) {
    snprintf(buf, n, "<unknown>");
  } else if (loc->line > 0) {
    snprintf(buf, n, "%s:%d:%d", awe_path_short(loc->file, sh, sizeof(sh)), loc->line, loc->col);
  } else {
    snprintf(buf, n, "%s", awe_path_short(loc->file, sh, sizeof(sh)));
  }
}


static awe_status vset(awe_err *err, awe_status code, const awe_loc *loc, const char *fmt,
                       va_list ap) {
  if (!err) return code;
  err->code = code;
  size_t off = 0;
  if (loc && loc->file) {
    char where[1024];
    awe_loc_format(loc, where, sizeof(where));
    int k = snprintf(err->msg, sizeof(err->msg), "%s: ", where);
    off = k > 0 ? (size_t)k : 0;
    if (off >= sizeof(err->msg)) off = sizeof(err->msg) - 1;
  }
  vsnprintf(err->msg + off, sizeof(err->msg) - off, fmt, ap);
  return code;
}


awe_status awe_err_set(awe_err *err, awe_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vset(err, code, NULL, fmt, ap);
  va_end(ap);
  return code;
}


awe_status awe_err_at(awe_err *err, awe_status code, const awe_loc *loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vset(err, code, loc, fmt, ap);
  va_end(ap);
  return code;
}


void awe_warn(awe_diag *d, const awe_loc *loc, const char *fmt, ...) {
  if (!d) return;
  char buf[2048];
  size_t off = 0;
  if (loc && loc->file) {
    char where[1024];
    awe_loc_format(loc, where, sizeof(where));
    int k = snprintf(buf, sizeof(buf), "%s: ", where);
    off = k > 0 ? (size_t)k : 0;
    if (off >= sizeof(buf)) off = sizeof(buf) - 1;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + off, sizeof(buf) - off, fmt, ap);
  va_end(ap);
  if (d->n == d->cap) {
    int cap = d->cap ? 2 * d->cap : 8;
    char **m = realloc(d->msg, (size_t)cap * sizeof(*m));
    if (!m) return;  /* dropping a warning is better than failing the run */
    d->msg = m;
    d->cap = cap;
  }
  char *s = malloc(strlen(buf) + 1);
  if (!s) return;
  strcpy(s, buf);
  d->msg[d->n++] = s;
}


void awe_diag_free(awe_diag *d) {
  if (!d) return;
  for (int i = 0; i < d->n; i++) free(d->msg[i]);
  free(d->msg);
  d->msg = NULL;
  d->n = d->cap = 0;
}


/* Edit distance with adjacent transpositions (optimal string alignment), capped: long
 * strings are never "close" anyway. Typos like "rnu" for "run" cost one edit. */
static int edit_distance(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  if (na > 63 || nb > 63) return 1000;
  int d[64][64];
  for (size_t i = 0; i <= na; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= nb; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= na; i++) {
    for (size_t j = 1; j <= nb; j++) {
      int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
      int v = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  }
  return d[na][nb];
}


const char *awe_closest(const char *word, const char *const *cands, int n) {
  const char *best = NULL;
  int bestd = 1000;
  for (int i = 0; i < n; i++) {
    if (!cands[i]) continue;
    int d = edit_distance(word, cands[i]);
    if (d < bestd) {
      bestd = d;
      best = cands[i];
    }
  }
  /* close: at most a third of the word's length, and at least one edit allowed */
  int lim = (int)strlen(word) / 3;
  if (lim < 1) lim = 1;
  if (lim > 3) lim = 3;
  /* also accept a prefix relation (kcu2 vs kcu) */
  if (best && bestd > lim) {
    size_t lw = strlen(word), lb = strlen(best);
    if (!(lb >= 2 && lw > lb && strncmp(word, best, lb) == 0 && lw - lb <= 2)) best = NULL;
  }
  return best;
}


awe_num_text awe_num_str(double v) {
  awe_num_text t;
  /* from %g's 6 digits up: 600 stays "600", not the shorter "6e+02" */
  for (int p = 6; p <= 17; p++) {
    snprintf(t.s, sizeof(t.s), "%.*g", p, v);
    if (strtod(t.s, NULL) == v || v != v) break;
  }
  return t;
}
