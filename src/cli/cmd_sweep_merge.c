/* cmd_sweep_merge.c: `awesim sweep --merge DIR`: one summary.csv row per point of DIR/plan.tsv
 * from the point's run_NNN.rc (exit status), run_NNN.json (the --summary-json record),
 * run_NNN.log (its error line is the error of a failed run) and run_NNN.h5 (its status
 * attribute, its rows and the results columns, sweep_h5.c). An exit status of 0 is not taken on
 * trust: the log must open and say complete, and so must the JSON record. A log or record that
 * says crashed makes the run crashed whatever its exit status. The cycle columns are the JSON
 * record's cycle count and cycle_median. Columns and statuses: awesim(1), SWEEPS. summary.csv
 * is written under a temporary name and renamed. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/cycle_stats.h"
#include "cli/cli.h"
#include "cli/cmd_sweep.h"
#include "sweep/sweep.h"
#include "io/yaml_doc.h"

#define MAX_FAIL_EXIT 63 /* exit codes 1..63 count the runs not complete */
#define MAXF 64 /* plan.tsv columns */

typedef struct {
  char *text;             /* plan.tsv, modified in place */
  const char *name, *scenario;
  double t0;
  int nkeys;
  const char *keys[MAXF];
  int npoints;
  char **rows;            /* per point: its line (tab-separated) */
} plan_file;

static int split_tabs(char *line, char **f, int max) {
  int n = 0;
  while (n < max) {
    f[n++] = line;
    char *t = strchr(line, '\t');
    if (!t) break;
    *t = 0;
    line = t + 1;
  }
  return n;
}

static char *slurp(const char *path, long *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  if (!fseek(f, 0, SEEK_END)) {
    long n = ftell(f);
    if (n >= 0 && !fseek(f, 0, SEEK_SET) && (buf = malloc((size_t)n + 1))) {
      n = (long)fread(buf, 1, (size_t)n, f);
      buf[n] = 0;
      if (len) *len = n;
    }
  }
  fclose(f);
  return buf;
}

/* a header value of plan.tsv in place: \\ \t \n \r back to their bytes */
static void unescape(char *s) {
  char *w = s;
  for (; *s; s++) {
    if (*s == '\\' && s[1]) {
      s++;
      *w++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s;
    } else {
      *w++ = *s;
    }
  }
  *w = 0;
}

static int plan_error(const char *path, int line, const char *why) {
  fprintf(stderr, "awesim sweep: error: %s:%d: %s (not a complete plan written by awesim "
          "sweep)\n", path, line, why);
  return 65;
}

static int read_plan(const char *dir, plan_file *pl) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/plan.tsv", dir);
  memset(pl, 0, sizeof(*pl));
  pl->t0 = NAN;
  long len = 0;
  if (!(pl->text = slurp(path, &len))) {
    fprintf(stderr, "awesim sweep: error: %s: cannot open: %s (not a sweep folder?)\n", path,
            strerror(errno));
    return 66;
  }
  if ((long)strlen(pl->text) != len) return plan_error(path, 1, "a NUL byte in the file");
  if (strncmp(pl->text, AWE_SWEEP_PLAN_MARK, strlen(AWE_SWEEP_PLAN_MARK)))
    return plan_error(path, 1, "the first line is not '" AWE_SWEEP_PLAN_MARK "N'");
  if (len && pl->text[len - 1] != '\n') {
    int n = 1;
    for (char *c = pl->text; *c; c++) n += *c == '\n';
    return plan_error(path, n, "the last line is cut short (no line end)");
  }
  int header = 0, cap = 0, lineno = 0;
  for (char *line = pl->text, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    lineno++;
    char *f[MAXF + 2];
    if (line[0] == '#') {
      if (header) return plan_error(path, lineno, "a comment line after the header");
      int n = line[1] == ' ' ? split_tabs(line + 2, f, 3) : 0;
      if (n >= 2 && (!strcmp(f[0], "name") || !strcmp(f[0], "scenario"))) unescape(f[1]);
      if (n >= 2 && !strcmp(f[0], "name")) pl->name = f[1];
      if (n >= 2 && !strcmp(f[0], "scenario")) pl->scenario = f[1];
      if (n >= 2 && !strcmp(f[0], "summary_from")) pl->t0 = strtod(f[1], NULL);
    } else if (!header) {
      int n = split_tabs(line, f, MAXF + 2);
      if (n < 2 || strcmp(f[0], "point") || strcmp(f[1], "id"))
        return plan_error(path, lineno, "expected the header 'point<TAB>id<TAB>KEY...'");
      if (n > MAXF) return plan_error(path, lineno, "too many columns");
      pl->nkeys = n - 2;
      for (int k = 0; k < pl->nkeys; k++) pl->keys[k] = f[k + 2];
      header = 1;
    } else {
      /* point number, id of digits (it names the run files), one field per key */
      int tabs = 0;
      for (char *c = line; *c; c++) tabs += *c == '\t';
      char *id = strchr(line, '\t');
      char num[32];
      snprintf(num, sizeof(num), "%d", pl->npoints + 1);
      size_t nl = strlen(num);
      int ok = tabs == pl->nkeys + 1 && id && (size_t)(id - line) == nl &&
               !strncmp(line, num, nl) && id[1] != '\t';
      for (char *c = id ? id + 1 : line; ok && *c && *c != '\t'; c++) ok = *c >= '0' && *c <= '9';
      if (ok) ok = strtol(id + 1, NULL, 10) == pl->npoints + 1;
      if (!ok) {
        char why[160];
        snprintf(why, sizeof(why), "expected the row of point %d (its number, its id and %d "
                 "values, tab-separated)", pl->npoints + 1, pl->nkeys);
        return plan_error(path, lineno, why);
      }
      if (pl->npoints == cap) {
        cap = cap ? 2 * cap : 64;
        char **r = realloc(pl->rows, (size_t)cap * sizeof(*r));
        if (!r) return 71;
        pl->rows = r;
      }
      pl->rows[pl->npoints++] = line;
    }
  }
  if (!header || !pl->scenario) return plan_error(path, lineno, "no scenario or no header");
  if (!pl->npoints) return plan_error(path, lineno, "no points");
  return 0;
}

static void csv_field(FILE *f, const char *s, int first) {
  if (!first) fputc(',', f);
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void csv_num(FILE *f, double x) {
  if (isnan(x)) fputc(',', f);
  else fprintf(f, ",%.9g", x);
}

/* the run's error from its log: the last "awesim: error: " line, else the last non-empty line
   that is not indented (the cycle table's rows are), without awesim's "awesim: error: " */
static void last_line(const char *path, char *out, size_t n) {
  out[0] = 0;
  char *t = slurp(path, NULL);
  if (!t) return;
  const char *pick = NULL, *err = NULL;
  for (char *line = t, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    char *end = line + strlen(line);
    while (end > line && (end[-1] == '\r' || end[-1] == ' ')) *--end = 0;
    if (!strncmp(line, "awesim: error: ", 15)) err = line;
    if (*line && *line != ' ') pick = line;
  }
  if (err) pick = err;
  if (pick) {
    if (!strncmp(pick, "awesim: ", 8)) pick += 8;
    if (!strncmp(pick, "error: ", 7)) pick += 7;
    snprintf(out, n, "%s", pick);
  }
  free(t);
}

/* the scenario's name: key, else its file name without extension */
static void scenario_name(const char *path, char *out, size_t n) {
  awe_err err;
  awe_ydoc *d = awe_ydoc_load_file(path, &err);
  const awe_ynode *nm = d ? awe_ymap_get(awe_ydoc_root(d), "name") : NULL;
  if (nm && nm->kind == AWE_Y_SCALAR && *nm->str) {
    snprintf(out, n, "%s", nm->str);
  } else {
    const char *b = strrchr(path, '/');
    snprintf(out, n, "%s", b ? b + 1 : path);
    char *dot = strrchr(out, '.');
    if (dot && dot != out) *dot = 0;
  }
  awe_ydoc_free(d);
}

/* one field of the run's summary JSON (read as YAML: JSON is a flow mapping) */
static const char *jfield(const awe_ynode *root, const char *key) {
  const awe_ynode *v = root ? awe_ymap_get(root, key) : NULL;
  return v && v->kind == AWE_Y_SCALAR ? v->str : NULL;
}

/* a crashed run's "crash" record of its summary JSON as "crash: KEY VALUE, ..." */
static void crash_text(const awe_ynode *root, char *out, size_t n) {
  const awe_ynode *c = root ? awe_ymap_get(root, "crash") : NULL;
  out[0] = 0;
  if (!c || c->kind != AWE_Y_MAP) return;
  size_t l = (size_t)snprintf(out, n, "crash:");
  for (int i = 0; i < c->n && l < n; i++)
    if (c->items[i]->kind == AWE_Y_SCALAR)
      l += (size_t)snprintf(out + l, n - l, "%s %s %s", l > 6 ? "," : "", c->keys[i]->str,
                            c->items[i]->str);
}

/* the cycle columns from the run's summary JSON: the number of full cycles (NaN without a
   "cycles" list) and the fields of "cycle_median" (NaN when it is null or a field is null) */
static double cycle_columns(const awe_ynode *root, double *med) {
  const awe_ynode *cy = root ? awe_ymap_get(root, "cycles") : NULL;
  const awe_ynode *m = root ? awe_ymap_get(root, "cycle_median") : NULL;
  for (int i = 0; i < awe_cycle_nfields; i++) {
    const awe_ynode *v = m && m->kind == AWE_Y_MAP ? awe_ymap_get(m, awe_cycle_fields[i].name)
                                                   : NULL;
    char *end = NULL;
    med[i] = v && v->kind == AWE_Y_SCALAR ? strtod(v->str, &end) : NAN;
    if (end && (end == v->str || *end || !isfinite(med[i]))) med[i] = NAN;
  }
  return cy && cy->kind == AWE_Y_SEQ ? cy->n : NAN;
}

/* the run's exit status from run_NNN.rc: digits and a line end, else -1 */
static int read_rc(const char *path) {
  char *t = slurp(path, NULL);
  if (!t) return -1;
  char *end;
  long v = strtol(t, &end, 10);
  int ok = end != t && t[0] >= '0' && t[0] <= '9' && v <= 255 && (!*end || !strcmp(end, "\n"));
  free(t);
  return ok ? (int)v : -1;
}

/* status and error of one run (see the file's comment); 1 when it is complete */
static int judge(const char *id, int rc, int have_h5, int h5_ok, const awe_sweep_results *r,
                 int have_js, const char *jst, const char **status, char *err, size_t n) {
  const char *hs = r->status;
  int interrupted = rc == 130 || rc == 143 || (jst && !strcmp(jst, "interrupted")) ||
                    (h5_ok && !strcmp(hs, "interrupted"));
  int crashed = (h5_ok && !strcmp(hs, "crashed")) || (jst && !strcmp(jst, "crashed"));
  if (rc < 0 && !have_h5 && !have_js) {
    *status = "missing";
    snprintf(err, n, "did not run");
  } else if (crashed && rc != 130 && rc != 143) {
    /* the wing hit the ground: a result of the physics, not of the solver */
    *status = "crashed";
  } else if (rc > 0 || (rc < 0 && h5_ok && strcmp(hs, "complete"))) {
    *status = interrupted || (rc < 0 && !strcmp(hs, "running")) ? "interrupted" : "failed";
    if (rc < 0 && !strcmp(*status, "interrupted"))
      snprintf(err, n, "no exit status: the run was stopped with its log %s", hs);
  } else if (have_h5 && !h5_ok) {
    *status = "invalid";
    snprintf(err, n, "run_%s.h5: cannot be read as HDF5 (truncated or not a log)", id);
  } else if (!have_h5) {
    *status = "invalid";
    snprintf(err, n, "run_%s.h5: missing", id);
  } else if (strcmp(hs, "complete")) {
    *status = "invalid";
    snprintf(err, n, "run_%s.h5: status '%s', expected 'complete'", id, hs);
  } else if (r->rows <= 0) {
    *status = "invalid";
    snprintf(err, n, "run_%s.h5: no rows", id);
  } else if (!jst || strcmp(jst, "complete")) {
    *status = "invalid";
    snprintf(err, n, "run_%s.json: %s", id, jst ? "status not complete" :
             "missing or unreadable");
  } else {
    *status = "complete";
    return 1;
  }
  return 0;
}

/* 1 when point p's run is complete */
static int merge_row(FILE *f, const char *dir, const plan_file *pl, int p, const char *name,
                     int *bad) {
  char *fld[MAXF + 2];
  char *row = strdup(pl->rows[p]);
  if (!row) return 0;
  int nf = split_tabs(row, fld, MAXF + 2);
  const char *id = nf > 1 ? fld[1] : "";
  char base[4096], path[4200], err_msg[600] = "";
  snprintf(base, sizeof(base), "%s/run_%s", dir, id);

  snprintf(path, sizeof(path), "%s.rc", base);
  int rc = read_rc(path);
  snprintf(path, sizeof(path), "%s.json", base);
  awe_err e;
  int have_js = !access(path, F_OK);
  awe_ydoc *js = have_js && !access(path, R_OK) ? awe_ydoc_load_file(path, &e) : NULL;
  const awe_ynode *jr = js ? awe_ydoc_root(js) : NULL;
  const char *jst = jfield(jr, "status"), *jerr = jfield(jr, "error");
  awe_sweep_results r = {NAN, NAN, NAN, NAN, -1, ""};
  snprintf(path, sizeof(path), "%s.h5", base);
  int have_h5 = !access(path, F_OK);
  int h5_ok = have_h5 && !awe_sweep_h5_results(path, pl->t0, &r, &e);
  const char *status;
  int complete = judge(id, rc, have_h5, h5_ok, &r, have_js, jst, &status, err_msg,
                       sizeof(err_msg));
  if (!strcmp(status, "crashed") && !err_msg[0]) crash_text(jr, err_msg, sizeof(err_msg));
  if (!strcmp(status, "crashed") && !err_msg[0])
    snprintf(err_msg, sizeof(err_msg), "no crash record (run_%s.json %s)", id,
             jr ? "has no \"crash\"" : "missing or unreadable");
  if (!complete && !err_msg[0] && jerr) snprintf(err_msg, sizeof(err_msg), "%s", jerr);
  snprintf(path, sizeof(path), "%s.log", base);
  if (!complete && !err_msg[0]) last_line(path, err_msg, sizeof(err_msg));
  if (!strcmp(status, "interrupted") && r.rows >= 0) {
    size_t l = strlen(err_msg);
    snprintf(err_msg + l, sizeof(err_msg) - l, "%s%ld rows logged", l ? "; " : "", r.rows);
  }

  if (f) {
    csv_field(f, fld[0], 1);
    for (int k = 0; k < pl->nkeys; k++) csv_field(f, k + 2 < nf ? fld[k + 2] : "", 0);
    csv_field(f, status, 0);
    if (rc >= 0) fprintf(f, ",%d", rc);
    else fputc(',', f);
    csv_num(f, r.force_mean);
    csv_num(f, r.force_max);
    csv_num(f, r.power_mean);
    csv_num(f, r.elevation_final);
    static const char *const jnum[] = {"t_end", "wall_time", "realtime_factor"};
    for (int k = 0; k < 3; k++) {
      const char *v = jfield(jr, jnum[k]);
      csv_num(f, v ? strtod(v, NULL) : NAN);
    }
    csv_field(f, jfield(jr, "steps") ? jfield(jr, "steps") : "", 0);
    csv_field(f, jfield(jr, "rhs_calls") ? jfield(jr, "rhs_calls") : "", 0);
    if (r.rows >= 0) fprintf(f, ",%ld", r.rows);
    else fputc(',', f);
    double med[sizeof(awe_cycle) / sizeof(double)];
    double ncy = cycle_columns(jr, med);
    if (isnan(ncy)) fputc(',', f);
    else fprintf(f, ",%.0f", ncy);
    for (int i = 0; i < awe_cycle_nfields; i++) csv_num(f, ncy > 0 ? med[i] : NAN);
    csv_field(f, name, 0);
    char rel[64];
    snprintf(rel, sizeof(rel), "run_%s.h5", id);
    csv_field(f, have_h5 ? rel : "", 0);
    csv_field(f, err_msg, 0);
    fputc('\n', f);
  }

  if (!complete && f && ++*bad <= 20) {
    fprintf(stderr, "  run %s (", id);
    int any = 0;
    for (int k = 0; k < pl->nkeys; k++)
      if (k + 2 < nf && fld[k + 2][0])
        fprintf(stderr, "%s%s=%s", any++ ? ", " : "", pl->keys[k], fld[k + 2]);
    fprintf(stderr, "%s): %s", any ? "" : "no overrides", status);
    if (rc >= 0) fprintf(stderr, ", exit %d", rc);
    fprintf(stderr, "%s%s\n", err_msg[0] ? ": " : "", err_msg);
  } else if (!complete && !f) {
    ++*bad;
  }
  awe_ydoc_free(js);
  free(row);
  return complete;
}

/* is target one of the files the merge reads (plan, scenario, a run's files)? */
static int reads(const char *target, const char *dir, const plan_file *pl) {
  struct stat t, s;
  if (stat(target, &t)) return 0;
  char p[4200];
  const char *fixed[] = {"plan.tsv", "points.tsv", "sweep.sh", "sweep.lock"};
  for (int k = 0; k < 4; k++) {
    snprintf(p, sizeof(p), "%s/%s", dir, fixed[k]);
    if (!stat(p, &s) && s.st_dev == t.st_dev && s.st_ino == t.st_ino) return 1;
  }
  if (!stat(pl->scenario, &s) && s.st_dev == t.st_dev && s.st_ino == t.st_ino) return 1;
  static const char *const ext[] = {"h5", "json", "log", "rc"};
  for (int i = 0; i < pl->npoints; i++) {
    const char *id = strchr(pl->rows[i], '\t') + 1;
    size_t n = strcspn(id, "\t");
    for (int k = 0; k < 4; k++) {
      snprintf(p, sizeof(p), "%s/run_%.*s.%s", dir, (int)n, id, ext[k]);
      if (!stat(p, &s) && s.st_dev == t.st_dev && s.st_ino == t.st_ino) return 1;
    }
  }
  return 0;
}

int awe_sweep_merge(const char *folder, const char *out, int quiet, int pending) {
  plan_file pl;
  char *dir = realpath(folder, NULL);
  if (!dir) {
    fprintf(stderr, "awesim sweep: error: %s: no such folder\n", folder);
    return 66;
  }
  int rc = read_plan(dir, &pl);
  if (!rc && pending) {
    int bad = 0;
    for (int p = 0; p < pl.npoints; p++)
      if (!merge_row(NULL, dir, &pl, p, "", &bad)) printf("%d\n", p + 1);
    rc = fflush(stdout) ? 74 : 0;
  }
  char target[4096], tmp[4200];
  snprintf(target, sizeof(target), "%s/summary.csv", dir);
  if (out) snprintf(target, sizeof(target), "%s", out);
  int to_stdout = !strcmp(target, "-");
  FILE *f = NULL;
  /* A signal ends the merge between rows, without a temporary left behind; until then it
     waits (blocked from before the temporary exists), so the rename is never cut short. */
  sigset_t old;
  awe_cli_block_stop_signals(&old);
  if (!rc && !pending && !to_stdout && reads(target, dir, &pl)) {
    fprintf(stderr, "awesim sweep: error: %s: the merge reads this file; give another -o\n",
            target);
    rc = 74;
  }
  if (!rc && !pending) {
    /* the temporary beside the target, so that the rename stays on one file system */
    const char *slash = strrchr(target, '/');
    snprintf(tmp, sizeof(tmp), "%.*s.awesim-tmp.summary.XXXXXX",
             slash ? (int)(slash - target + 1) : 0, target);
    int fd = to_stdout ? -1 : mkstemp(tmp);
    f = to_stdout ? stdout : fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !f) {
      close(fd);
      unlink(tmp);
    }
    if (f && !to_stdout) fchmod(fd, 0644);
    if (!f) {
      fprintf(stderr, "awesim sweep: error: %s: cannot write: %s\n", target, strerror(errno));
      rc = 74;
    }
  }
  int bad = 0;
  if (!rc && !pending) {
    char name[512];
    scenario_name(pl.scenario, name, sizeof(name));
    fputs("point", f);
    for (int k = 0; k < pl.nkeys; k++) csv_field(f, pl.keys[k], 0);
    fputs(",status,exit_code,force_mean[N],force_max[N],power_mean[W],elevation_final[deg],"
          "t_end[s],wall_time[s],realtime_factor,steps,rhs_calls,rows,cycles", f);
    for (int i = 0; i < awe_cycle_nfields; i++)
      fprintf(f, ",cycle_median.%s[%s]", awe_cycle_fields[i].name, awe_cycle_fields[i].unit);
    fputs(",scenario,hdf5,error\n", f);
    /* runs not complete are listed on stderr as they come */
    int sig = 0;
    for (int p = 0; p < pl.npoints && !sig; p++) {
      merge_row(f, dir, &pl, p, name, &bad);
      sig = awe_cli_pending_stop_signal();
    }
    int werr = to_stdout ? fflush(f) != 0 : (ferror(f) | (fclose(f) != 0));
    if (sig) {
      if (!to_stdout) unlink(tmp);
      fputs("awesim sweep: interrupted: summary not written\n", stderr);
      rc = 128 + sig;
    } else if (!werr && !to_stdout && rename(tmp, target)) {
      werr = 1;
    }
    if (werr && !sig) {
      fprintf(stderr, "awesim sweep: error: %s: cannot write: %s\n", target, strerror(errno));
      if (!to_stdout) unlink(tmp);
      rc = 74;
    }
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (!rc && !pending) {
    if (bad)
      fprintf(stderr, "awesim sweep: %d of %d runs not complete%s\n", bad, pl.npoints,
              bad > 20 ? " (the first 20 above; see the status column)" : " (above)");
    if (!quiet)
      fprintf(stderr, "awesim sweep: %d of %d runs complete; summary: %s\n", pl.npoints - bad,
              pl.npoints, target);
    rc = bad > MAX_FAIL_EXIT ? MAX_FAIL_EXIT : bad;
  }
  free(pl.text);
  free(pl.rows);
  free(dir);
  return rc;
}
