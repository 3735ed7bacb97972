/* cmd_sweep.c: `awesim sweep GRID.yaml` expands a grid file into a plan (plan.tsv and the
 * runner sweep.sh, which runs one point as `sh sweep.sh N` under GNU parallel and is also a
 * Slurm job-array script; each point's overrides are in points.tsv, read by sweep.sh as data);
 * `awesim sweep --merge DIR` collects the runs into summary.csv (cmd_sweep_merge.c). The plan
 * is written under temporary names and renamed, with DIR/sweep.lock held (cmd_sweep_folder.c).
 * tools/awesim-sweep runs the plan. The folder layout is in awesim(1), SWEEPS. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dirent.h>

#include "cli/cli.h"
#include "cli/cmd_sweep.h"
#include "sweep/sweep.h"

static const char usage_text[] =
    "usage: awesim sweep [OPTIONS] GRID.yaml\n"
    "       awesim sweep --merge DIR [-o FILE.csv] [-q]\n"
    "       awesim sweep --pending DIR\n"
    "\n"
    "Expand a sweep's grid file into a plan in the output folder: plan.tsv (one row per\n"
    "point: its values), points.tsv (each point's overrides, read by sweep.sh) and sweep.sh\n"
    "(runs point N: `sh sweep.sh N`; also a Slurm job-array script: `sbatch sweep.sh`).\n"
    "tools/awesim-sweep runs it through GNU parallel. The folder must be empty, new or an\n"
    "earlier sweep's; DIR/sweep.lock keeps a second writer out.\n"
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
    "  --pending DIR        print the numbers of DIR's points whose run is not complete\n"
    "  --exec CMD [ARG...]  after planning, run CMD ARG... DIR POINTS in place of awesim\n"
    "                       (nothing printed), with the folder's lock held\n"
    "                       (tools/awesim-sweep runs the points this way)\n"
    "  -q, --quiet          no summary on stderr (runs not complete are still listed)\n"
    "  -h, --help           this text\n"
    "\n"
    "exit status: 0 ok (--merge: every run complete); 1..63 (--merge) that many runs not\n"
    "complete: failed, crashed, interrupted, invalid or missing (63: 63 or more); 2 usage;\n"
    "65 invalid grid or plan; 66 a file cannot be opened; 69 the --exec command cannot be\n"
    "run; 74 the output cannot be written, the folder is not a sweep folder or another sweep\n"
    "writes it; 130/143 interrupted.\n";

typedef struct {
  const char *grid, *out, *awesim, *merge, *pending;
  const char **sbatch;
  char **exec;
  int nsbatch, nexec, jobs, resume, dry, quiet;
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
    if (!strcmp(a, "--exec")) {
      if (i + 1 >= argc) return usage_error("%s", "--exec needs a command");
      o->exec = argv + i + 1;
      o->nexec = argc - i - 1;
      break;
    }
    if (!strcmp(a, "--resume")) o->resume = 1;
    else if (!strcmp(a, "--dry-run") || !strcmp(a, "-n")) o->dry = 1;
    else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) o->quiet = 1;
    else if (!strcmp(a, "-o") || !strcmp(a, "--output")) dst = &o->out;
    else if (!strcmp(a, "--awesim")) dst = &o->awesim;
    else if (!strcmp(a, "--merge")) dst = &o->merge;
    else if (!strcmp(a, "--pending")) dst = &o->pending;
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
  const char *folder = o->merge ? o->merge : o->pending;
  if (o->merge && o->pending) return usage_error("%s", "--merge or --pending, not both");
  if (folder && o->grid)
    return usage_error("--merge/--pending take a folder, not a grid file ('%s')", o->grid);
  if (folder && o->exec) return usage_error("%s", "--exec goes with planning, not --merge");
  if (!folder && !o->grid) return usage_error("%s", "no grid file given");
  for (int i = 0; i < o->nsbatch; i++)
    if (strchr(o->sbatch[i], '\n')) return usage_error("%s", "--sbatch: no line breaks");
  return 0;
}

/* ---- plan ------------------------------------------------------------------------------- */

/* s in shell single quotes (every byte kept, a quote as '\''); malloc'd */
static char *shq_str(const char *s) {
  size_t n = 3;
  for (const char *c = s; *c; c++) n += *c == '\'' ? 4 : 1;
  char *q = malloc(n), *w = q;
  if (!q) return NULL;
  *w++ = '\'';
  for (; *s; s++) {
    if (*s == '\'') {
      memcpy(w, "'\\''", 4);
      w += 4;
    } else {
      *w++ = *s;
    }
  }
  *w++ = '\'';
  *w = 0;
  return q;
}

static void shq(FILE *f, const char *s) {
  char *q = shq_str(s);
  if (q) fputs(q, f);
  free(q);
}

/* a header value of plan.tsv: backslash, tab, line feed and carriage return as \\ \t \n \r */
static void tsv_esc(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '\\') fputs("\\\\", f);
    else if (*s == '\t') fputs("\\t", f);
    else if (*s == '\n') fputs("\\n", f);
    else if (*s == '\r') fputs("\\r", f);
    else fputc(*s, f);
  }
}

/* a path in an #SBATCH line, in double quotes: sbatch splits the line at blanks outside
   quotes (a backslash does not keep a blank) and takes a backslash as an escape inside them
   too, so " gets a backslash; % is doubled (Slurm's file name patterns). A backslash in the
   path cannot be written: Slurm then turns the patterns off. */
static void sbatch_esc(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('\\', f);
    if (*s == '%') fputc('%', f);
    fputc(*s, f);
  }
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

/* run files of an earlier sweep in a sweep folder: run_NNN.{h5,json,log,rc}, summary.csv,
   joblog.tsv (GNU parallel's, through tools/awesim-sweep), slurm-*.out (the job array's) */
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

/* how many results of an earlier sweep the folder holds (nothing is ever removed) */
static int count_results(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    n += stale(e->d_name);
  closedir(d);
  return n;
}

/* 1 when the files a and b hold the same bytes */
static int same_bytes(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  int same = fa && fb;
  while (same) {
    int ca = fgetc(fa), cb = fgetc(fb);
    if (ca != cb) same = 0;
    if (ca == EOF || cb == EOF) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same;
}

static void write_plan(FILE *f, const awe_sweep_grid *g, int width) {
  fputs(AWE_SWEEP_PLAN_MARK "2\n# name\t", f);
  tsv_esc(f, g->name);
  fputs("\n# scenario\t", f);
  tsv_esc(f, g->scenario);
  fputc('\n', f);
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

/* points.tsv: line N is N, then point N's overrides KEY=VALUE (the grid layer keeps tabs and
   line breaks out of values; keys are key paths) */
static void write_points(FILE *f, const awe_sweep_grid *g) {
  for (int p = 0; p < g->npoints; p++) {
    fprintf(f, "%d", p + 1);
    for (int s = 0; s < g->nset[p]; s++)
      fprintf(f, "\t%s=%s", g->sets[p][s].key, g->sets[p][s].value);
    fputc('\n', f);
  }
}

/* sweep.sh. No user string appears but in single quotes: the comments name nothing of the
   grid, and the point's overrides are read from points.tsv as data. */
static void write_runner(FILE *f, const awe_sweep_grid *g, const options *o, const char *dir,
                         const char *awesim, int width) {
  fputs("#!/bin/sh\n#SBATCH --job-name=awesim-", f);
  for (const char *c = g->name; *c; c++)
    fputc(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", *c)
              ? *c : '_', f);
  fprintf(f, "\n#SBATCH --array=1-%d", g->npoints);
  if (o->jobs) fprintf(f, "%%%d", o->jobs);
  /* Slurm's output file in the sweep folder; with a backslash in the folder's path (which
     Slurm would take as turning its patterns off) the script sends its output there itself */
  int bslash = strchr(dir, '\\') != NULL;
  if (bslash) {
    fputs("\n#SBATCH --output=/dev/null", f);
  } else {
    fputs("\n#SBATCH --output=", f);
    sbatch_esc(f, dir);
    fputs("/slurm-%A_%a.out\"", f);
  }
  fputs("\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n", f);
  for (int i = 0; i < o->nsbatch; i++) fprintf(f, "#SBATCH %s\n", o->sbatch[i]);
  fprintf(f,
          "# An awesim sweep of %d runs, written by awesim sweep: plan.tsv lists the points\n"
          "# and points.tsv holds their overrides (line N: N, then KEY=VALUE, tab-separated).\n"
          "#   one point:   sh sweep.sh N       (N = 1..%d)\n"
          "#   all points:  sh sweep.sh jobs | parallel   (one command per line)\n"
          "#   on Slurm:    sbatch sweep.sh     (one array task per point)\n"
          "#   afterwards:  awesim sweep --merge DIR      (DIR: this folder)\n"
          "# Point N writes run_NNN.h5 (log), run_NNN.json (summary), run_NNN.log (stderr) and\n"
          "# run_NNN.rc (exit status). One thread per run, and no HDF5 file locks (each run\n"
          "# has its own file; locks fail on some cluster file systems).\n"
          "set -eu\n"
          "export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 HDF5_USE_FILE_LOCKING=FALSE\n",
          g->npoints, g->npoints);
  fputs("awesim=", f);
  shq(f, awesim);
  fputs("\nscenario=", f);
  shq(f, g->scenario);
  fputs("\ndir=", f);
  shq(f, dir);
  /* the job list names this script quoted for the shell that runs each line */
  size_t n = strlen(dir);
  char *self = malloc(n + 10);
  char *qself = self ? (sprintf(self, "%s/sweep.sh", dir), shq_str(self)) : NULL;
  fputs("\njob=", f);
  shq(f, qself ? qself : "");
  free(self);
  free(qself);
  fprintf(f,
          "\nn=%d\n"
          "point=${1:-${SLURM_ARRAY_TASK_ID:-}}\n"
          "if [ \"$point\" = jobs ]; then\n"
          "  i=1\n"
          "  while [ \"$i\" -le \"$n\" ]; do printf 'sh %%s %%s\\n' \"$job\" \"$i\"; "
          "i=$((i + 1)); done\n"
          "  exit 0\n"
          "fi\n"
          "no_point() { echo \"sweep.sh: no grid point '$point' (expected 1..$n)\" >&2; exit 2; }\n"
          "case $point in ''|0*|*[!0-9]*) no_point ;; esac\n"
          "{ [ \"${#point}\" -le 9 ] && [ \"$point\" -le \"$n\" ]; } || no_point\n"
          "id=$(printf '%%0%dd' \"$point\")\n"
          "%s"
          "line=$(sed -n \"${point}{p;q;}\" \"$dir/points.tsv\")\n"
          "set -f\n"
          "IFS='\t'\n"
          "# shellcheck disable=SC2086 # split at tabs only, no globbing: each field is data\n"
          "set -- $line\n"
          "IFS=' \t\n'\n"
          "if [ \"${1:-}\" != \"$point\" ]; then\n"
          "  echo \"sweep.sh: $dir/points.tsv: line $point does not hold point $point\" >&2\n"
          "  exit 65\n"
          "fi\n"
          "shift\n"
          "for kv do shift; set -- \"$@\" --set \"$kv\"; done\n",
          g->npoints, width,
          bslash ? "if [ $# -eq 0 ] && [ -n \"${SLURM_ARRAY_JOB_ID:-}\" ]; then\n"
                   "  exec >>\"$dir/slurm-${SLURM_ARRAY_JOB_ID}_$point.out\" 2>&1\n"
                   "fi\n" : "");
  if (g->nfixed) {
    fputs("set --", f);
    for (int k = 0; k < g->nfixed; k++) {
      char *kv = malloc(strlen(g->fixed[k].key) + strlen(g->fixed[k].value) + 2);
      if (!kv) continue;
      sprintf(kv, "%s=%s", g->fixed[k].key, g->fixed[k].value);
      fputs(" --set ", f);
      shq(f, kv);
      free(kv);
    }
    fputs(" \"$@\"\n", f);
  }
  fputs("# a complete run of this grid is a result: kept, never run again (a sweep removes no\n"
        "# result; delete run_$id.* by hand to run the point again)\n"
        "if [ -s \"$dir/run_$id.h5\" ] && pending=$(\"$awesim\" sweep --pending \"$dir\" 2>/dev/null) &&\n"
        "   ! printf '%s\\n' \"$pending\" | grep -qx \"$point\"; then\n"
        "  echo \"sweep.sh: point $point: complete (run_$id.h5), kept\" >&2\n"
        "  exit 0\n"
        "fi\n"
        "rm -f \"$dir/run_$id.h5\" \"$dir/run_$id.json\" \"$dir/run_$id.rc\"\n"
        "# a signal stops the run (awesim closes its log as interrupted); its status is kept\n"
        "trap 'signalled=1' INT TERM HUP\n"
        "rc=0\n"
        "\"$awesim\" simulate \"$scenario\" -o \"$dir/run_$id.h5\" "
        "--summary-json \"$dir/run_$id.json\" \\\n"
        "  \"$@\" >/dev/null 2>\"$dir/run_$id.log\" || rc=$?\n"
        "echo \"$rc\" >\"$dir/run_$id.rc\"\n"
        "exit \"$rc\"\n",
        f);
}

static const char *const final_names[] = {"points.tsv", "sweep.sh", "plan.tsv"};

/* the three plan files under fresh temporary names (mkstemp: nothing existing is written
   over); 0, or 74 with the temporaries removed */
static int write_temps(char tmp[3][4200], const char *dir, const awe_sweep_grid *g,
                       const options *o, const char *awesim, int width) {
  int made = 0;
  for (int k = 0; k < 3; k++) {
    snprintf(tmp[k], sizeof(tmp[k]), "%s/.awesim-tmp.%s.XXXXXX", dir, final_names[k]);
    int fd = mkstemp(tmp[k]);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    int bad = !f;
    if (fd >= 0) made++;
    if (fd >= 0 && !f) close(fd);
    if (f) {
      if (k == 0) write_points(f, g);
      else if (k == 1) write_runner(f, g, o, dir, awesim, width);
      else write_plan(f, g, width);
      bad = fflush(f) || ferror(f) || fsync(fileno(f));
      bad |= fclose(f) != 0;
    }
    if (bad) {
      fprintf(stderr, "awesim sweep: error: %s: cannot write: %s\n", tmp[k], strerror(errno));
      for (int j = 0; j < made; j++) unlink(tmp[j]);
      return 74;
    }
    chmod(tmp[k], k == 1 ? 0755 : 0644);
  }
  return 0;
}

/* a path for messages: line breaks shown as \n */
static void show_path(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '\n') fputs("\\n", f);
    else fputc(*s, f);
  }
}

static int folder_error(const char *dir, const char *why) {
  fputs("awesim sweep: error: ", stderr);
  show_path(stderr, dir);
  fprintf(stderr, ": %s\n", why);
  return 74;
}

/* write the plan into dir (created, absolute); the lock stays held until exit or exec */
static int write_folder(const char *dir, const awe_sweep_grid *g, const options *o,
                        const char *awesim, int width) {
  int state = awe_sweep_folder_state(dir);
  if (state < 0) return folder_error(dir, strerror(errno));
  if (state == 2)
    return folder_error(dir, "the folder holds files and is not a sweep folder (no plan.tsv "
                             "written by awesim sweep); nothing was changed. Give an empty or "
                             "new folder with -o");
  int created, unlocked;
  int fd = awe_sweep_lock(dir, o->exec != NULL, &created, &unlocked);
  if (fd < 0 && errno == EWOULDBLOCK)
    return folder_error(dir, "another awesim sweep is writing this folder (it holds "
                             "sweep.lock); nothing was changed. Wait for it or give another "
                             "folder with -o");
  if (fd < 0) return folder_error(dir, "cannot create sweep.lock");
  if (unlocked)
    fprintf(stderr, "awesim sweep: warning: %s/sweep.lock: cannot lock (%s): make sure no other "
            "sweep writes this folder\n", dir, strerror(unlocked));
  /* under the lock, the folder cannot change under us */
  state = awe_sweep_folder_state(dir);
  if (state == 2 || state < 0) {
    if (created) {
      char p[4200];
      snprintf(p, sizeof(p), "%s/sweep.lock", dir);
      unlink(p);
    }
    return folder_error(dir, "the folder holds files and is not a sweep folder; nothing was "
                             "changed");
  }
  /* Signals wait until the folder is consistent: a signal while the temporaries are written
     leaves the old plan untouched; the swap itself is a few renames. */
  sigset_t old;
  awe_cli_block_stop_signals(&old);
  char tmp[3][4200];
  int rc = write_temps(tmp, dir, g, o, awesim, width);
  int sig = awe_cli_pending_stop_signal();
  if (!rc && sig) {
    for (int k = 0; k < 3; k++) unlink(tmp[k]);
    fputs("awesim sweep: interrupted: the folder is unchanged\n", stderr);
    rc = 128 + sig;
  }
  /* A folder with results of an earlier sweep: a sweep never removes a result. The same grid
     (points and plan byte for byte) keeps them, as --resume: the complete runs are reused and
     the job script skips them; another grid is refused with what to do. */
  int nres = !rc && state == 1 ? count_results(dir) : 0;
  if (nres > 0) {
    char oldp[4200], oldq[4200];
    snprintf(oldp, sizeof(oldp), "%s/points.tsv", dir);
    snprintf(oldq, sizeof(oldq), "%s/plan.tsv", dir);
    if (same_bytes(tmp[0], oldp) && same_bytes(tmp[2], oldq)) {
      if (!o->resume && !o->quiet)
        fprintf(stderr, "awesim sweep: %s holds %d result files of this same grid: they are "
                "kept, complete runs are not run again (as --resume)\n", dir, nres);
    } else {
      for (int k = 0; k < 3; k++) unlink(tmp[k]);
      fprintf(stderr, "awesim sweep: error: %s holds %d result files (run_NNN.*, summary.csv) "
              "of an earlier sweep of another grid; nothing was changed or removed. Give a new "
              "folder with -o, or move the earlier results away first (mv DIR DIR.old)\n", dir,
              nres);
      rc = 74;
    }
  }
  for (int k = 0; !rc && k < 3; k++) {
    char to[4200];
    snprintf(to, sizeof(to), "%s/%s", dir, final_names[k]);
    if (rename(tmp[k], to)) {
      fprintf(stderr, "awesim sweep: error: %s: cannot write: %s\n", to, strerror(errno));
      rc = 74;
    }
  }
  sigprocmask(SIG_SETMASK, &old, NULL); /* a pending signal ends the process here */
  return rc;
}

/* replace this process by o->exec with DIR and the number of points appended */
static int exec_after(const options *o, const char *dir, int npoints) {
  char num[32];
  snprintf(num, sizeof(num), "%d", npoints);
  char **argv = calloc((size_t)o->nexec + 3, sizeof(*argv));
  if (!argv) return 71;
  for (int i = 0; i < o->nexec; i++) argv[i] = o->exec[i];
  argv[o->nexec] = (char *)dir;
  argv[o->nexec + 1] = num;
  fflush(stdout);
  execvp(argv[0], argv);
  fprintf(stderr, "awesim sweep: error: --exec %s: cannot run: %s\n", argv[0], strerror(errno));
  free(argv);
  return 69;
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
  if (strchr(out, '\n')) {
    fputs("awesim sweep: error: the sweep folder '", stderr);
    show_path(stderr, out);
    fprintf(stderr, "' (%s) has a line break in its path; a job list, an #SBATCH line and "
            "plan.tsv cannot hold it: give another folder with -o\n",
            o->out ? "-o" : g->output ? "the grid's output:" : "out/ and the grid's name");
    awe_sweep_grid_free(g);
    return o->out ? 2 : 65;
  }
  int width = 3;
  for (int n = g->npoints; n >= 1000; n /= 10) width++;
  char *self = o->awesim ? NULL : realpath("/proc/self/exe", NULL);
  const char *awesim = o->awesim ? o->awesim : self ? self : "awesim";
  int rc = 0;
  if (o->dry) {
    char p[4200];
    for (int i = 0; i < g->npoints; i++) {
      shq(stdout, awesim);
      fputs(" simulate ", stdout);
      shq(stdout, g->scenario);
      snprintf(p, sizeof(p), "%s/run_%0*d.h5", out, width, i + 1);
      fputs(" -o ", stdout);
      shq(stdout, p);
      snprintf(p, sizeof(p), "%s/run_%0*d.json", out, width, i + 1);
      fputs(" --summary-json ", stdout);
      shq(stdout, p);
      point_args(stdout, g, i);
      fputc('\n', stdout);
    }
  } else {
    char *dir = NULL;
    if (mkdirs(out) || !(dir = realpath(out, NULL))) {
      fputs("awesim sweep: error: ", stderr);
      show_path(stderr, out);
      fprintf(stderr, ": cannot create the folder: %s\n", strerror(errno));
      rc = 74;
    } else if (strchr(dir, '\n')) {
      rc = folder_error(dir, "a line break in the folder's path (from the working folder); "
                             "give another folder with -o");
    } else {
      rc = write_folder(dir, g, o, awesim, width);
      if (!rc && o->exec) rc = exec_after(o, dir, g->npoints);
      else if (!rc) printf("%s\t%d\n", dir, g->npoints);
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
  if (!rc)
    rc = o.merge     ? awe_sweep_merge(o.merge, o.out, o.quiet, 0)
         : o.pending ? awe_sweep_merge(o.pending, NULL, 1, 1)
                     : plan(&o);
  free(o.sbatch);
  return rc < 0 ? 0 : rc;
}
