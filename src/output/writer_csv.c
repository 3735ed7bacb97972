/* writer_csv.c: logged variables as CSV on a stream (normally stdout).
 *
 * Layout: one header line, then one line per row, comma-separated, no quoting (names contain
 * no commas), '\n' line ends:
 *   time[s],points.kcu.pos.x[m],points.kcu.pos.y[m],...,wind.v_wind[m/s]
 *   0,1.5,-2.25e-07,...
 * Column names are awe_var_scalar_name() with the unit in brackets, in the order the patterns
 * ask for them: each pattern adds the columns it matches, in registry order, that no earlier
 * pattern added (a glob expands in place). No patterns: time, then every column in registry
 * order. Numbers are "%.9g" formatted under a private "C" locale
 * (newlocale + uselocale around each row), so the decimal point is '.' even if someone calls
 * setlocale(LC_NUMERIC, ...); the CLI does not call setlocale at all.
 *
 * A write failing with EPIPE (reader gone; the driver ignores SIGPIPE) is reported as
 * AWE_WRITER_EPIPE, distinct from other I/O errors, so the driver can stop quietly.
 * Everything is allocated in awe_csv_open; a row is formatted into a preallocated buffer and
 * handed to fwrite once.
 */
#include "output/writer.h"

#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

enum { NUM_WIDTH = 32, TIME_COL = -1 };  /* "%.9g" needs at most 16 characters ("-1.23456789e-308") */

struct awe_csv {
  FILE *f;
  int ncol;         /* columns, time included */
  int *col;         /* scalar index into out for each column, TIME_COL for time */
  char *row;        /* formatting buffer */
  size_t rowcap;
  locale_t cloc;    /* (locale_t)0 if newlocale failed: then the caller's locale is used */
  int state;        /* AWE_OK, AWE_WRITER_EPIPE or AWE_EIO after a failure */
};

/* one scalar of the list with its names */
typedef struct {
  const awe_var *v;
  int k;             /* component */
  const char *name;  /* scalar name, "points.kcu.pos.x" */
  const char *vname; /* variable name, "points.kcu.pos" */
} scalar;


/* map a failed stdio call to the writer's return code (errno as left by stdio) */
static int io_fail(awe_csv *c, int e, awe_err *err) {
  if (e == EPIPE) {
    c->state = AWE_WRITER_EPIPE;
    awe_err_set(err, AWE_EIO, "CSV output: %s", strerror(e));
    return AWE_WRITER_EPIPE;
  }
  c->state = AWE_EIO;
  return awe_err_set(err, AWE_EIO, "CSV output: %s", e ? strerror(e) : "write error");
}


/* copy patterns without blanks; returns NULL when out of memory */
static char *strip_blanks(const char *p) {
  char *s = malloc(strlen(p) + 1), *o = s;
  if (!s) return NULL;
  for (; *p; p++)
    if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') *o++ = *p;
  *o = 0;
  return s;
}


/* error for a pattern that selects nothing: a suggestion and some available names */
static awe_status no_match(awe_err *err, const char *pat, const scalar *sc, int ns) {
  const char **cands = malloc((size_t)(ns + 1) * sizeof(char *));
  const char *best = NULL;
  if (cands) {
    cands[0] = "time";
    for (int i = 0; i < ns; i++) cands[i + 1] = sc[i].name;
    best = awe_closest(pat, cands, ns + 1);
  }
  char avail[700];
  size_t n = 0;
  int shown = 0;
  n += (size_t)snprintf(avail, sizeof(avail), "time");
  for (int i = 0; i < ns && shown < 8 && n < sizeof(avail) - 200; i++, shown++)
    n += (size_t)snprintf(avail + n, sizeof(avail) - n, ", %s", sc[i].name);
  if (ns > shown) snprintf(avail + n, sizeof(avail) - n, ", ... (%d channels)", ns + 1);
  awe_status st;
  if (best)
    st = awe_err_set(err, AWE_EUSAGE,
                     "CSV pattern \"%s\" matches no channel; did you mean \"%s\"? (available: %s)",
                     pat, best, avail);
  else
    st = awe_err_set(err, AWE_EUSAGE, "CSV pattern \"%s\" matches no channel (available: %s)",
                     pat, avail);
  free(cands);
  return st;
}


/* the columns, pattern by pattern: each pattern appends what it matches (time, then the
   scalars in registry order) that is not picked yet; taken[] marks picked scalars, *time_taken
   the time column. Every pattern must match something (a column picked by an earlier pattern
   counts). Returns AWE_OK or the error. */
static awe_status pick_columns(const char *pats, const scalar *sc, int ns, int *pick, int *npick,
                               char *taken, awe_err *err) {
  char one[256];
  int time_taken = 0;
  for (const char *p = pats; *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len >= sizeof(one)) return awe_err_set(err, AWE_EUSAGE, "CSV pattern too long");
    memcpy(one, p, len);
    one[len] = 0;
    if (len) {
      int hit = awe_glob_match(one, "time");
      if (hit && !time_taken) {
        pick[(*npick)++] = TIME_COL;
        time_taken = 1;
      }
      for (int i = 0; i < ns; i++) {
        if (!awe_glob_match(one, sc[i].name) &&
            !(sc[i].v->dim > 1 && awe_glob_match(one, sc[i].vname)))
          continue;
        hit = 1;
        if (!taken[i]) {
          pick[(*npick)++] = i;
          taken[i] = 1;
        }
      }
      if (!hit) return no_match(err, one, sc, ns);
    }
    if (!comma) break;
    p = comma + 1;
  }
  return AWE_OK;
}


/* the logged scalars of l with their names, in one allocation (*names holds the strings) */
static scalar *list_scalars(const awe_varlist *l, int *ns, char **names) {
  int n = 0;
  size_t bytes = 0;
  char buf[512];
  for (int i = 0; i < l->n; i++) {
    const awe_var *v = &l->v[i];
    if (!(v->flags & AWE_VF_LOG)) continue;
    awe_var_name(v, buf, sizeof(buf));
    bytes += strlen(buf) + 1;
    for (int k = 0; k < v->dim; k++) {
      awe_var_scalar_name(v, k, buf, sizeof(buf));
      bytes += strlen(buf) + 1;
      n++;
    }
  }
  scalar *sc = malloc((size_t)(n ? n : 1) * sizeof(scalar));
  char *str = malloc(bytes ? bytes : 1), *p = str;
  if (!sc || !str) {
    free(sc);
    free(str);
    return NULL;
  }
  int j = 0;
  for (int i = 0; i < l->n; i++) {
    const awe_var *v = &l->v[i];
    if (!(v->flags & AWE_VF_LOG)) continue;
    awe_var_name(v, buf, sizeof(buf));
    const char *vname = p;
    memcpy(p, buf, strlen(buf) + 1);
    p += strlen(buf) + 1;
    for (int k = 0; k < v->dim; k++) {
      awe_var_scalar_name(v, k, buf, sizeof(buf));
      sc[j].v = v;
      sc[j].k = k;
      sc[j].vname = vname;
      sc[j].name = p;
      memcpy(p, buf, strlen(buf) + 1);
      p += strlen(buf) + 1;
      j++;
    }
  }
  *ns = n;
  *names = str;
  return sc;
}


static void csv_free(awe_csv *c) {
  if (!c) return;
  if (c->cloc != (locale_t)0) freelocale(c->cloc);
  free(c->col);
  free(c->row);
  free(c);
}


/* write the header; returns AWE_OK or the stdio failure code */
static int write_header(awe_csv *c, const scalar *sc, const int *pick, awe_err *err) {
  FILE *f = c->f;
  errno = 0;
  for (int i = 0; i < c->ncol; i++) {
    const char *sep = i ? "," : "";
    int rc;
    if (pick[i] == TIME_COL) {
      rc = fprintf(f, "%stime[s]", sep);
    } else {
      const scalar *s = &sc[pick[i]];
      rc = fprintf(f, "%s%s[%s]", sep, s->name, s->v->unit ? s->v->unit : "");
    }
    if (rc < 0) return io_fail(c, errno, err);
  }
  if (fputc('\n', f) == EOF) return io_fail(c, errno, err);
  return AWE_OK;
}


int awe_csv_open(awe_csv **csv, FILE *f, const awe_varlist *vars, const char *patterns,
                 awe_err *err) {
  *csv = NULL;
  int ns = 0;
  char *names = NULL;
  scalar *sc = list_scalars(vars, &ns, &names);
  char *pats = strip_blanks(patterns ? patterns : "");
  awe_csv *c = calloc(1, sizeof(*c));
  int *pick = malloc((size_t)(ns + 1) * sizeof(int));
  char *taken = calloc((size_t)(ns + 1), 1);
  int rc = AWE_OK;
  if (!sc || !pats || !c || !pick || !taken) {
    rc = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto done;
  }
  c->f = f;
  int all = 1;
  for (const char *p = pats; *p; p++)
    if (*p != ',') all = 0;
  if (all) {
    pick[c->ncol++] = TIME_COL;
    for (int i = 0; i < ns; i++) pick[c->ncol++] = i;
  } else if ((rc = pick_columns(pats, sc, ns, pick, &c->ncol, taken, err)) != AWE_OK) {
    goto done;
  }

  c->col = malloc((size_t)(c->ncol ? c->ncol : 1) * sizeof(int));
  c->rowcap = (size_t)(c->ncol + 1) * NUM_WIDTH + 2;
  c->row = malloc(c->rowcap);
  if (!c->col || !c->row) {
    rc = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto done;
  }
  for (int i = 0; i < c->ncol; i++)
    c->col[i] = pick[i] == TIME_COL ? TIME_COL : sc[pick[i]].v->offset + sc[pick[i]].k;
  c->cloc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  rc = write_header(c, sc, pick, err);

done:
  if (rc != AWE_OK) csv_free(c);
  else *csv = c;
  free(pick);
  free(taken);
  free(pats);
  free(names);
  free(sc);
  return rc;
}


int awe_csv_write_row(awe_csv *c, double t, const double *out, awe_err *err) {
  if (!c) return AWE_OK;
  if (c->state == AWE_WRITER_EPIPE) return AWE_WRITER_EPIPE;
  if (c->state) return awe_err_set(err, AWE_EIO, "CSV output: an earlier write failed");
  locale_t old = (locale_t)0;
  if (c->cloc != (locale_t)0) old = uselocale(c->cloc);
  char *p = c->row;
  size_t left = c->rowcap;
  for (int i = 0; i < c->ncol; i++) {
    double x = c->col[i] == TIME_COL ? t : out[c->col[i]];
    int n = snprintf(p, left, i ? ",%.9g" : "%.9g", x);
    p += n;
    left -= (size_t)n;
  }
  *p++ = '\n';
  if (old != (locale_t)0) uselocale(old);
  size_t len = (size_t)(p - c->row);
  errno = 0;
  if (fwrite(c->row, 1, len, c->f) != len) return io_fail(c, errno, err);
  return AWE_OK;
}


int awe_csv_ncolumns(const awe_csv *c) { return c ? c->ncol : 0; }


int awe_csv_close(awe_csv *c, awe_err *err) {
  if (!c) return AWE_OK;
  int rc = c->state == AWE_WRITER_EPIPE ? AWE_WRITER_EPIPE : AWE_OK;
  if (!c->state) {
    errno = 0;
    if (fflush(c->f) == EOF || ferror(c->f)) rc = io_fail(c, errno, err);
  }
  if (c->state == AWE_EIO && rc == AWE_OK) rc = AWE_EIO;
  csv_free(c);
  return rc;
}
