/* cmd_sweep_merge.c: `awesim sweep --merge DIR`: one summary.csv row per point of DIR/plan.tsv
 * from the point's run_NNN.rc (exit status), run_NNN.json (the --summary-json record),
 * run_NNN.log (its last line is the error of a failed run) and run_NNN.h5 (the results columns,
 * sweep_h5.c). Columns: awesim(1), SWEEPS. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static int read_plan(const char *dir, plan_file *pl) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/plan.tsv", dir);
  memset(pl, 0, sizeof(*pl));
  pl->t0 = NAN;
  if (!(pl->text = slurp(path, NULL))) {
    fprintf(stderr, "awesim sweep: error: %s: cannot open: %s (not a sweep folder?)\n", path,
            strerror(errno));
    return 66;
  }
  int header = 0, cap = 0;
  for (char *line = pl->text, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    char *f[MAXF + 2];
    if (line[0] == '#') {
      int n = split_tabs(line + 2, f, 3);
      if (n >= 2 && !strcmp(f[0], "name")) pl->name = f[1];
      if (n >= 2 && !strcmp(f[0], "scenario")) pl->scenario = f[1];
      if (n >= 2 && !strcmp(f[0], "summary_from")) pl->t0 = strtod(f[1], NULL);
    } else if (!header) {
      int n = split_tabs(line, f, MAXF + 2);
      if (n < 2 || strcmp(f[0], "point") || strcmp(f[1], "id")) break;
      pl->nkeys = n - 2;
      for (int k = 0; k < pl->nkeys; k++) pl->keys[k] = f[k + 2];
      header = 1;
    } else {
      if (pl->npoints == cap) {
        cap = cap ? 2 * cap : 64;
        char **r = realloc(pl->rows, (size_t)cap * sizeof(*r));
        if (!r) return 71;
        pl->rows = r;
      }
      pl->rows[pl->npoints++] = line;
    }
  }
  if (!header || !pl->scenario) {
    fprintf(stderr, "awesim sweep: error: %s: not a sweep plan (no scenario or header)\n", path);
    return 65;
  }
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

/* the last non-empty line of a run's log, without awesim's "awesim: error: " prefix */
static void last_line(const char *path, char *out, size_t n) {
  out[0] = 0;
  char *t = slurp(path, NULL);
  if (!t) return;
  char *end = t + strlen(t);
  while (end > t && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ')) *--end = 0;
  char *start = strrchr(t, '\n');
  start = start ? start + 1 : t;
  if (!strncmp(start, "awesim: ", 8)) start += 8;
  if (!strncmp(start, "error: ", 7)) start += 7;
  snprintf(out, n, "%s", start);
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

static void merge_row(FILE *f, const char *dir, const plan_file *pl, int p, const char *name,
                      int *bad) {
  char *fld[MAXF + 2];
  char *row = strdup(pl->rows[p]);
  if (!row) return;
  int nf = split_tabs(row, fld, MAXF + 2);
  const char *id = nf > 1 ? fld[1] : "";
  char base[4096], path[4200], err_msg[600] = "";
  snprintf(base, sizeof(base), "%s/run_%s", dir, id);

  int rc = -1;
  snprintf(path, sizeof(path), "%s.rc", base);
  char *rct = slurp(path, NULL);
  if (rct) {
    char *end;
    long v = strtol(rct, &end, 10);
    if (end != rct) rc = (int)v;
    free(rct);
  }
  snprintf(path, sizeof(path), "%s.json", base);
  awe_err e;
  awe_ydoc *js = access(path, R_OK) ? NULL : awe_ydoc_load_file(path, &e);
  const awe_ynode *jr = js ? awe_ydoc_root(js) : NULL;
  const char *jst = jfield(jr, "status"), *jerr = jfield(jr, "error");
  const char *status = rc < 0 ? "missing"
                       : jst && strcmp(jst, "complete") ? jst
                       : rc == 0 ? "complete" : "failed";
  if (jerr) snprintf(err_msg, sizeof(err_msg), "%s", jerr);
  snprintf(path, sizeof(path), "%s.log", base);
  if (strcmp(status, "complete") && !err_msg[0]) {
    if (rc < 0) snprintf(err_msg, sizeof(err_msg), "did not run");
    else last_line(path, err_msg, sizeof(err_msg));
  }
  awe_sweep_results r = {NAN, NAN, NAN, NAN};
  snprintf(path, sizeof(path), "%s.h5", base);
  int have_h5 = !access(path, R_OK);
  if (have_h5 && awe_sweep_h5_results(path, pl->t0, &r, &e))
    fprintf(stderr, "awesim sweep: warning: %s\n", e.msg);

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
  csv_field(f, name, 0);
  char rel[64];
  snprintf(rel, sizeof(rel), "run_%s.h5", id);
  csv_field(f, have_h5 ? rel : "", 0);
  csv_field(f, err_msg, 0);
  fputc('\n', f);

  if (strcmp(status, "complete")) {
    if (++*bad <= 20) {
      fprintf(stderr, "  run %s (", id);
      int any = 0;
      for (int k = 0; k < pl->nkeys; k++)
        if (k + 2 < nf && fld[k + 2][0])
          fprintf(stderr, "%s%s=%s", any++ ? ", " : "", pl->keys[k], fld[k + 2]);
      fprintf(stderr, "%s): %s", any ? "" : "no overrides", status);
      if (rc >= 0) fprintf(stderr, ", exit %d", rc);
      fprintf(stderr, "%s%s\n", err_msg[0] ? ": " : "", err_msg);
    }
  }
  awe_ydoc_free(js);
  free(row);
}

int awe_sweep_merge(const char *folder, const char *out, int quiet) {
  plan_file pl;
  char *dir = realpath(folder, NULL);
  if (!dir) {
    fprintf(stderr, "awesim sweep: error: %s: no such folder\n", folder);
    return 66;
  }
  int rc = read_plan(dir, &pl);
  char target[4096];
  snprintf(target, sizeof(target), "%s/summary.csv", dir);
  if (out) snprintf(target, sizeof(target), "%s", out);
  FILE *f = NULL;
  if (!rc) {
    f = !strcmp(target, "-") ? stdout : fopen(target, "w");
    if (!f) {
      fprintf(stderr, "awesim sweep: error: %s: cannot write: %s\n", target, strerror(errno));
      rc = 74;
    }
  }
  int bad = 0;
  if (!rc) {
    char name[512];
    scenario_name(pl.scenario, name, sizeof(name));
    fputs("point", f);
    for (int k = 0; k < pl.nkeys; k++) csv_field(f, pl.keys[k], 0);
    fputs(",status,exit_code,force_mean[N],force_max[N],power_mean[W],elevation_final[deg],"
          "t_end[s],wall_time[s],realtime_factor,steps,rhs_calls,scenario,hdf5,error\n", f);
    /* runs not complete are listed on stderr as they come */
    for (int p = 0; p < pl.npoints; p++) merge_row(f, dir, &pl, p, name, &bad);
    if ((f == stdout ? fflush(f) : fclose(f)) != 0) {
      fprintf(stderr, "awesim sweep: error: %s: cannot write: %s\n", target, strerror(errno));
      rc = 74;
    }
  }
  if (!rc) {
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

