/* cmd_sweep.c: `awesim sweep GRID.yaml` expands a grid file into a plan (plan.tsv and the
 * runner sweep.sh, which runs one point as `sh sweep.sh N` under GNU parallel and is also a
 * Slurm job-array script); `awesim sweep --merge DIR` collects the runs into summary.csv
 * (cmd_sweep_merge.c).
 * tools/awesim-sweep runs the plan. The folder layout is in awesim(1), SWEEPS. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dirent.h>

#include "cli/cli.h"
#include "cli/cmd_sweep.h"
#include "sweep/sweep.h"

static const char usage_text[] =
    "usage: awesim sweep [OPTIONS] GRID.yaml\n"
    "       awesim sweep --merge DIR [-o FILE.csv] [-q]\n"
    "\n"
    "Expand a sweep's grid file into a plan in the output folder: plan.tsv (one row per\n"
    "point: its overrides) and sweep.sh (runs point N: `sh sweep.sh N`; also a Slurm\n"
    "job-array script: `sbatch sweep.sh`). tools/awesim-sweep runs it through GNU parallel.\n"
    "--merge collects the runs' logs into DIR/summary.csv.\n"
    "\n"
    "options:\n"
    "  -o, --output DIR     output folder (default: the grid's output:, else out/NAME);\n"
    "                       with --merge: the CSV file ('-' = standard output)\n"
    "  --awesim PATH        the awesim binary sweep.sh runs (default: this one)\n"
    "  -j, --jobs N         at most N array tasks at a time on Slurm (--array=1-P%N)\n"
    "  --sbatch OPTION      extra '#SBATCH OPTION' line (repeatable)\n"
    "  --resume             keep the runs already in the folder\n"
    "  --dry-run            print the awesim command of every point; write nothing\n"
    "  --merge DIR          write DIR/summary.csv from the runs in DIR\n"
    "  -q, --quiet          no summary on stderr (runs not complete are still listed)\n"
    "  -h, --help           this text\n"
    "\n"
    "exit status: 0 ok (--merge: every run complete); 1..63 (--merge) that many runs failed\n"
    "or are missing (63: 63 or more); 2 usage; 65 invalid grid; 66 a file cannot be opened;\n"
    "74 the output cannot be written.\n";

typedef struct {
  const char *grid, *out, *awesim, *merge;
  const char **sbatch;
  int nsbatch, jobs, resume, dry, quiet;
} options;

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("awesim sweep: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs(" (see awesim sweep --help)\n", stderr);
  return 2;
}

/* <0: --help printed; >0: exit code; 0: go on */
static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof(*o));
  o->sbatch = calloc((size_t)argc, sizeof(*o->sbatch));
  if (!o->sbatch) return 71;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **dst = NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage_text, stdout);
      return -1;
    }
    if (!strcmp(a, "--resume")) o->resume = 1;
    else if (!strcmp(a, "--dry-run") || !strcmp(a, "-n")) o->dry = 1;
    else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) o->quiet = 1;
    else if (!strcmp(a, "-o") || !strcmp(a, "--output")) dst = &o->out;
    else if (!strcmp(a, "--awesim")) dst = &o->awesim;
    else if (!strcmp(a, "--merge")) dst = &o->merge;
    else if (!strcmp(a, "--sbatch")) dst = &o->sbatch[o->nsbatch++];
    else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
      if (i + 1 >= argc) return usage_error("%s needs a value", a);
      char *end;
      long j = strtol(argv[++i], &end, 10);
      if (*end || j < 1 || j > 1000000)
        return usage_error("-j '%s': expected a positive number of jobs", argv[i]);
      o->jobs = (int)j;
    } else if (a[0] == '-' && a[1]) return usage_error("unknown option '%s'", a);
    else if (o->grid) return usage_error("more than one grid file ('%s')", a);
    else o->grid = a;
    if (dst) {
      if (i + 1 >= argc) return usage_error("%s needs a value", a);
      *dst = argv[++i];
    }
  }
  if (o->merge && o->grid) return usage_error("--merge takes a folder, not a grid file ('%s')",
                                              o->grid);
  if (!o->merge && !o->grid) return usage_error("%s", "no grid file given");
  for (int i = 0; i < o->nsbatch; i++)
    if (strchr(o->sbatch[i], '\n')) return usage_error("%s", "--sbatch: no line breaks");
  return 0;
}

/* ---- plan ------------------------------------------------------------------------------- */

/* shell single quotes */
static void shq(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'') fputs("'\\''", f);
    else fputc(*s, f);
  }
  fputc('\'', f);
}

static void point_args(FILE *f, const awe_sweep_grid *g, int p) {
  for (int k = 0; k < g->nfixed + g->nset[p]; k++) {
    const awe_sweep_set *s = k < g->nfixed ? &g->fixed[k] : &g->sets[p][k - g->nfixed];
    char *kv = malloc(strlen(s->key) + strlen(s->value) + 2);
    if (!kv) continue;
    sprintf(kv, "%s=%s", s->key, s->value);
    fputs(" --set ", f);
    shq(f, kv);
    free(kv);
  }
}

static int mkdirs(const char *path) {
  char *p = strdup(path);
  if (!p) return -1;
  for (char *c = p + 1; *c; c++) {
    if (*c != '/') continue;
    *c = 0;
    if (mkdir(p, 0777) && errno != EEXIST) return free(p), -1;
    *c = '/';
  }
  int rc = mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
  free(p);
  return rc;
}

/* run files of an earlier sweep: run_NNN.{h5,json,log,rc}, summary.csv, joblog.tsv,
   slurm-*.out */
static int stale(const char *n) {
  if (!strcmp(n, "summary.csv") || !strcmp(n, "joblog.tsv")) return 1;
  size_t l = strlen(n);
  if (!strncmp(n, "slurm-", 6) && l > 10 && !strcmp(n + l - 4, ".out")) return 1;
  if (strncmp(n, "run_", 4)) return 0;
  const char *c = n + 4;
  if (*c < '0' || *c > '9') return 0;
  while (*c >= '0' && *c <= '9') c++;
  return !strcmp(c, ".h5") || !strcmp(c, ".json") || !strcmp(c, ".log") || !strcmp(c, ".rc");
}

static void clean(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!stale(e->d_name)) continue;
    char p[4096];
    snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
    remove(p);
  }
  closedir(d);
}

static void write_plan(FILE *f, const awe_sweep_grid *g, int width) {
  fprintf(f, "# awesim sweep plan 1\n# name\t%s\n# scenario\t%s\n", g->name, g->scenario);
  if (isfinite(g->summary_from)) fprintf(f, "# summary_from\t%.17g\n", g->summary_from);
  for (int k = 0; k < g->nfixed; k++)
    fprintf(f, "# set\t%s\t%s\n", g->fixed[k].key, g->fixed[k].value);
  fputs("point\tid", f);
  for (int k = 0; k < g->nkeys; k++) fprintf(f, "\t%s", g->keys[k]);
  fputc('\n', f);
  for (int p = 0; p < g->npoints; p++) {
    fprintf(f, "%d\t%0*d", p + 1, width, p + 1);
    for (int k = 0; k < g->nkeys; k++) {
      const char *v = "";
      for (int s = 0; s < g->nset[p]; s++)
        if (!strcmp(g->sets[p][s].key, g->keys[k])) v = g->sets[p][s].shown;
      fprintf(f, "\t%s", v);
    }
    fputc('\n', f);
  }
}

static void write_runner(FILE *f, const awe_sweep_grid *g, const options *o, const char *dir,
                         const char *awesim, int width) {
  fputs("#!/bin/sh\n#SBATCH --job-name=awesim-", f);
  for (const char *c = g->name; *c; c++)
    fputc(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", *c)
              ? *c : '_', f);
  fprintf(f, "\n#SBATCH --array=1-%d", g->npoints);
  if (o->jobs) fprintf(f, "%%%d", o->jobs);
  fprintf(f, "\n#SBATCH --output=%s/slurm-%%A_%%a.out\n#SBATCH --ntasks=1\n"
             "#SBATCH --cpus-per-task=1\n", dir);
  for (int i = 0; i < o->nsbatch; i++) fprintf(f, "#SBATCH %s\n", o->sbatch[i]);
  fprintf(f,
          "# awesim sweep '%s': %d runs of %s (plan.tsv lists them), written by awesim sweep.\n"
          "#   one point:   sh sweep.sh N       (N = 1..%d)\n"
          "#   all points:  sh sweep.sh jobs | parallel   (one command per line)\n"
          "#   on Slurm:    sbatch sweep.sh     (one array task per point)\n"
          "#   afterwards:  awesim sweep --merge %s\n"
          "# Point N writes run_NNN.h5 (log), run_NNN.json (summary), run_NNN.log (stderr) and\n"
          "# run_NNN.rc (exit status). One thread per run, and no HDF5 file locks (each run\n"
          "# has its own file; locks fail on some cluster file systems).\n"
          "set -eu\n"
          "export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 HDF5_USE_FILE_LOCKING=FALSE\n",
          g->name, g->npoints, g->scenario, g->npoints, dir);
  fputs("awesim=", f);
  shq(f, awesim);
  fputs("\nscenario=", f);
  shq(f, g->scenario);
  fputs("\ndir=", f);
  shq(f, dir);
  fprintf(f, "\npoint=${1:-${SLURM_ARRAY_TASK_ID:-}}\n"
             "if [ \"$point\" = jobs ]; then\n"
             "  i=1\n"
             "  while [ \"$i\" -le %d ]; do echo \"sh '$dir/sweep.sh' $i\"; i=$((i + 1)); done\n"
             "  exit 0\n"
             "fi\n"
             "case $point in\n", g->npoints);
  for (int p = 0; p < g->npoints; p++) {
    fprintf(f, "  %d) id=%0*d; set --", p + 1, width, p + 1);
    point_args(f, g, p);
    fputs(" ;;\n", f);
  }
  fprintf(f,
          "  *) echo \"sweep.sh: no grid point '$point' (expected 1..%d)\" >&2; exit 2 ;;\n"
          "esac\n"
          "rm -f \"$dir/run_$id.h5\" \"$dir/run_$id.json\" \"$dir/run_$id.rc\"\n"
          "rc=0\n"
          "\"$awesim\" simulate \"$scenario\" -o \"$dir/run_$id.h5\" "
          "--summary-json \"$dir/run_$id.json\" \\\n"
          "  \"$@\" >/dev/null 2>\"$dir/run_$id.log\" || rc=$?\n"
          "echo \"$rc\" >\"$dir/run_$id.rc\"\n"
          "exit \"$rc\"\n",
          g->npoints);
}

static int write_file(const char *dir, const char *name, int mode, const awe_sweep_grid *g,
                      const options *o, const char *awesim, int width) {
  char p[4096];
  snprintf(p, sizeof(p), "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  if (!f) {
    fprintf(stderr, "awesim sweep: error: %s: cannot write: %s\n", p, strerror(errno));
    return 74;
  }
  if (mode) write_runner(f, g, o, dir, awesim, width);
  else write_plan(f, g, width);
  if (fclose(f)) {
    fprintf(stderr, "awesim sweep: error: %s: cannot write: %s\n", p, strerror(errno));
    return 74;
  }
  if (mode) chmod(p, 0755);
  return 0;
}

static int plan(const options *o) {
  awe_err err = {0};
  awe_sweep_grid *g = awe_sweep_grid_load(o->grid, &err);
  if (!g) {
    fprintf(stderr, "awesim sweep: error: %s\n", err.msg);
    return awe_exit_code(err.code);
  }
  char fallback[4096];
  const char *out = o->out ? o->out : g->output;
  if (!out) {
    snprintf(fallback, sizeof(fallback), "out/%s", g->name);
    out = fallback;
  }
  int width = 3;
  for (int n = g->npoints; n >= 1000; n /= 10) width++;
  char *self = o->awesim ? NULL : realpath("/proc/self/exe", NULL);
  const char *awesim = o->awesim ? o->awesim : self ? self : "awesim";
  int rc = 0;
  if (o->dry) {
    for (int p = 0; p < g->npoints; p++) {
      shq(stdout, awesim);
      fputs(" simulate ", stdout);
      shq(stdout, g->scenario);
      printf(" -o %s/run_%0*d.h5 --summary-json %s/run_%0*d.json", out, width, p + 1, out,
             width, p + 1);
      point_args(stdout, g, p);
      fputc('\n', stdout);
    }
  } else {
    char *dir = NULL;
    if (mkdirs(out) || !(dir = realpath(out, NULL))) {
      fprintf(stderr, "awesim sweep: error: %s: cannot create the folder: %s\n", out,
              strerror(errno));
      rc = 74;
    } else {
      if (!o->resume) clean(dir);
      rc = write_file(dir, "plan.tsv", 0, g, o, awesim, width);
      if (!rc) rc = write_file(dir, "sweep.sh", 1, g, o, awesim, width);
      if (!rc) printf("%s\t%d\n", dir, g->npoints);
    }
    free(dir);
  }
  free(self);
  awe_sweep_grid_free(g);
  return rc;
}

int awe_cmd_sweep(int argc, char **argv) {
  options o;
  int rc = parse_args(argc, argv, &o);
  if (!rc) rc = o.merge ? awe_sweep_merge(o.merge, o.out, o.quiet) : plan(&o);
  free(o.sbatch);
  return rc < 0 ? 0 : rc;
}
