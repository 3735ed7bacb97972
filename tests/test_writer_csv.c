/* test_writer_csv.c: CSV output (writer_csv.c) — exact header and rows, glob selection,
 * "%.9g" formatting, errors for patterns that match nothing, EPIPE and other write errors. */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "output/writer.h"

static void make_list(awe_varlist *l) {
  memset(l, 0, sizeof(*l));
  const unsigned L = AWE_VF_LOG;
  awe_varlist_add(l, "points", "a", 0, "pos", "m", 3, 0, L);          /* 0..2 */
  awe_varlist_add(l, "points", "b", 1, "pos", "m", 3, 0, L);          /* 3..5 */
  awe_varlist_add(l, "segments", "s1", 0, "force", "N", 1, 0, L);     /* 6 */
  awe_varlist_add(l, "segments", "s2", 1, "force", "N", 1, 0, L);     /* 7 */
  awe_varlist_add(l, "segments", "s3", 2, "force", "N", 1, 0, L);     /* 8 */
  awe_varlist_add(l, "segments", "s1", 0, "hidden", "m", 1, 0, 0);    /* 9: not logged */
  awe_varlist_add(l, "wind", "", 0, "v_wind", "m/s", 1, 0, L);        /* 10 */
}


/* run the writer into a temporary file; returns the text (static buffer) and the open rc */
static const char *csv_text(const awe_varlist *l, const char *patterns, int nrow,
                            const double *rows, const double *t, int *rc, awe_err *err) {
  static char text[8192];
  text[0] = 0;
  FILE *f = tmpfile();
  awe_csv *c = NULL;
  *rc = awe_csv_open(&c, f, l, patterns, err);
  if (*rc == AWE_OK) {
    for (int r = 0; r < nrow; r++) {
      int w = awe_csv_write_row(c, t[r], rows + (size_t)r * (size_t)l->size, err);
      if (w) *rc = w;
    }
    int cl = awe_csv_close(c, err);
    if (cl) *rc = cl;
  }
  rewind(f);
  size_t n = fread(text, 1, sizeof(text) - 1, f);
  text[n] = 0;
  fclose(f);
  return text;
}


static void test_all_columns(void) {
  awe_varlist l;
  make_list(&l);
  ENSURE(l.size == 11);
  double rows[2 * 11], t[2] = {0.0, 0.05};
  for (int k = 0; k < 11; k++) {
    rows[k] = k + 0.5;
    rows[11 + k] = -(k + 1) / 3.0;
  }
  int rc;
  awe_err err = {0};
  const char *s = csv_text(&l, NULL, 2, rows, t, &rc, &err);
  ENSURE(rc == AWE_OK);
  ENSURE_STR(s,
             "time[s],points.a.pos.x[m],points.a.pos.y[m],points.a.pos.z[m],"
             "points.b.pos.x[m],points.b.pos.y[m],points.b.pos.z[m],"
             "segments.s1.force[N],segments.s2.force[N],segments.s3.force[N],wind.v_wind[m/s]\n"
             "0,0.5,1.5,2.5,3.5,4.5,5.5,6.5,7.5,8.5,10.5\n"
             "0.05,-0.333333333,-0.666666667,-1,-1.33333333,-1.66666667,-2,-2.33333333,"
             "-2.66666667,-3,-3.66666667\n");
  /* "" and ",," mean all as well */
  const char *s2 = csv_text(&l, " , ", 0, rows, t, &rc, &err);
  ENSURE(rc == AWE_OK);
  ENSURE_CONTAINS(s2, "time[s],points.a.pos.x[m],");
  ENSURE_CONTAINS(s2, ",wind.v_wind[m/s]\n");
  awe_varlist_free(&l);
}


static void test_selection(void) {
  awe_varlist l;
  make_list(&l);
  double rows[11], t[1] = {1.25};
  for (int k = 0; k < 11; k++) rows[k] = 100 + k;
  int rc;
  awe_err err = {0};

  ENSURE_STR(csv_text(&l, "time,points.*.pos.z", 1, rows, t, &rc, &err),
             "time[s],points.a.pos.z[m],points.b.pos.z[m]\n1.25,102,105\n");
  ENSURE(rc == AWE_OK);
  /* the order asked for (awk/cut/gnuplot column numbers), a glob expanded in place in
     registry order; blanks ignored */
  ENSURE_STR(csv_text(&l, "wind.*, segments.s?.force ,time", 1, rows, t, &rc, &err),
             "wind.v_wind[m/s],segments.s1.force[N],segments.s2.force[N],"
             "segments.s3.force[N],time[s]\n110,106,107,108,1.25\n");
  /* a column asked for twice appears once, where it was first asked for */
  ENSURE_STR(csv_text(&l, "segments.s3.force,time,segments.*,time", 1, rows, t, &rc, &err),
             "segments.s3.force[N],time[s],segments.s1.force[N],segments.s2.force[N]\n"
             "108,1.25,106,107\n");
  ENSURE(rc == AWE_OK);
  /* without time when no pattern matches it */
  ENSURE_STR(csv_text(&l, "segments.s2.*", 1, rows, t, &rc, &err),
             "segments.s2.force[N]\n107\n");
  /* a vector's own name selects its components */
  ENSURE_STR(csv_text(&l, "points.b.pos", 1, rows, t, &rc, &err),
             "points.b.pos.x[m],points.b.pos.y[m],points.b.pos.z[m]\n103,104,105\n");
  /* '*' matches everything including time; the non-logged entry never appears */
  const char *s = csv_text(&l, "*", 1, rows, t, &rc, &err);
  ENSURE(rc == AWE_OK);
  ENSURE(strstr(s, "hidden") == NULL);
  ENSURE(strncmp(s, "time[s],", 8) == 0);
  /* time only */
  ENSURE_STR(csv_text(&l, "time", 1, rows, t, &rc, &err), "time[s]\n1.25\n");
  awe_varlist_free(&l);
}


static void test_no_match(void) {
  awe_varlist l;
  make_list(&l);
  double rows[11] = {0}, t[1] = {0};
  int rc;
  awe_err err = {0};
  const char *s = csv_text(&l, "time,segments.s1.forse", 1, rows, t, &rc, &err);
  ENSURE(rc == AWE_EUSAGE);
  ENSURE(err.code == AWE_EUSAGE);
  ENSURE_STR(s, "");  /* nothing written */
  ENSURE_CONTAINS(err.msg, "\"segments.s1.forse\" matches no channel");
  ENSURE_CONTAINS(err.msg, "did you mean \"segments.s1.force\"");
  ENSURE_CONTAINS(err.msg, "available: time, points.a.pos.x, points.a.pos.y");
  ENSURE_CONTAINS(err.msg, "(11 channels)");

  csv_text(&l, "tethers.*", 1, rows, t, &rc, &err);
  ENSURE(rc == AWE_EUSAGE);
  ENSURE_CONTAINS(err.msg, "\"tethers.*\" matches no channel");
  /* a non-logged variable is not a channel */
  csv_text(&l, "segments.s1.hidden", 1, rows, t, &rc, &err);
  ENSURE(rc == AWE_EUSAGE);
  awe_varlist_free(&l);
}


static void test_number_format(void) {
  awe_varlist l;
  memset(&l, 0, sizeof(l));
  for (int i = 0; i < 10; i++) {
    static const char *names[] = {"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"};
    awe_varlist_add(&l, "winches", names[i], i, "force", "N", 1, 0, AWE_VF_LOG);
  }
  double rows[10] = {0.1, 1.0 / 3.0, 1e-300, -0.0, NAN, INFINITY, -INFINITY,
                     123456789012.0, 2.5e-5, 1e21};
  double t[1] = {1.0 / 7.0};
  int rc;
  awe_err err = {0};
  const char *s = csv_text(&l, "winches.*", 1, rows, t, &rc, &err);
  ENSURE(rc == AWE_OK);
  const char *nl = strchr(s, '\n');
  ENSURE(nl != NULL);
  if (nl) {
    /* NAN prints as "nan" or "-nan" depending on its sign bit: accept both */
    char line[256];
    snprintf(line, sizeof(line), "%s", nl + 1);
    ENSURE(!strcmp(line, "0.1,0.333333333,1e-300,-0,nan,inf,-inf,1.23456789e+11,2.5e-05,1e+21\n") ||
           !strcmp(line, "0.1,0.333333333,1e-300,-0,-nan,inf,-inf,1.23456789e+11,2.5e-05,1e+21\n"));
  }
  /* time with 9 significant digits */
  s = csv_text(&l, "time", 1, rows, t, &rc, &err);
  ENSURE_STR(s, "time[s]\n0.142857143\n");

  /* a comma decimal locale must not leak into the output (only testable if installed) */
  const char *locs[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "nl_NL.UTF-8"};
  for (int i = 0; i < 4; i++) {
    if (!setlocale(LC_NUMERIC, locs[i])) continue;
    s = csv_text(&l, "time,winches.c0.*", 1, rows, t, &rc, &err);
    ENSURE_STR(s, "time[s],winches.c0.force[N]\n0.142857143,0.1\n");
    break;
  }
  setlocale(LC_NUMERIC, "C");
  awe_varlist_free(&l);
}


static void test_epipe(void) {
  awe_varlist l;
  make_list(&l);
  void (*old)(int) = signal(SIGPIPE, SIG_IGN);
  int fd[2];
  ENSURE(pipe(fd) == 0);
  close(fd[0]);  /* the reader is gone (as after `| head`) */
  FILE *f = fdopen(fd[1], "w");
  awe_err err = {0};
  awe_csv *c = NULL;
  int rc = awe_csv_open(&c, f, &l, NULL, &err);
  double row[11] = {0};
  /* the header and rows sit in the stdio buffer until it fills */
  for (int r = 0; r < 100000 && rc == AWE_OK; r++) rc = awe_csv_write_row(c, r * 0.1, row, &err);
  ENSURE(rc == AWE_WRITER_EPIPE);
  ENSURE_CONTAINS(err.msg, "Broken pipe");
  ENSURE(awe_csv_write_row(c, 0.0, row, &err) == AWE_WRITER_EPIPE);  /* sticky */
  ENSURE(awe_csv_close(c, &err) == AWE_WRITER_EPIPE);
  fclose(f);

  /* with a closed pipe and unbuffered output, open itself reports it */
  ENSURE(pipe(fd) == 0);
  close(fd[0]);
  f = fdopen(fd[1], "w");
  setvbuf(f, NULL, _IONBF, 0);
  c = NULL;
  ENSURE(awe_csv_open(&c, f, &l, NULL, &err) == AWE_WRITER_EPIPE);
  ENSURE(c == NULL);
  fclose(f);

  /* a closed pipe found at close (everything buffered) */
  ENSURE(pipe(fd) == 0);
  close(fd[0]);
  f = fdopen(fd[1], "w");
  ENSURE(awe_csv_open(&c, f, &l, "time", &err) == AWE_OK);
  ENSURE(awe_csv_write_row(c, 1.0, row, &err) == AWE_OK);
  ENSURE(awe_csv_close(c, &err) == AWE_WRITER_EPIPE);
  fclose(f);
  signal(SIGPIPE, old);
  awe_varlist_free(&l);
}


static void test_other_io_error(void) {
  awe_varlist l;
  make_list(&l);
  FILE *f = fopen("/dev/full", "w");
  if (!f) {  /* not in every sandbox */
    awe_varlist_free(&l);
    return;
  }
  awe_err err = {0};
  awe_csv *c = NULL;
  int rc = awe_csv_open(&c, f, &l, NULL, &err);
  double row[11] = {0};
  for (int r = 0; r < 100000 && rc == AWE_OK; r++) rc = awe_csv_write_row(c, r * 0.1, row, &err);
  ENSURE(rc == AWE_EIO);
  ENSURE_CONTAINS(err.msg, strerror(ENOSPC));
  ENSURE(awe_csv_write_row(c, 0.0, row, &err) == AWE_EIO);
  ENSURE(awe_csv_close(c, &err) == AWE_EIO);
  fclose(f);

  /* NULL writer is a no-op */
  ENSURE(awe_csv_write_row(NULL, 0.0, row, &err) == AWE_OK);
  ENSURE(awe_csv_close(NULL, &err) == AWE_OK);
  ENSURE(awe_csv_ncolumns(NULL) == 0);
  awe_varlist_free(&l);
}


int main(void) {
  RUN(test_all_columns);
  RUN(test_selection);
  RUN(test_no_match);
  RUN(test_number_format);
  RUN(test_epipe);
  RUN(test_other_io_error);
  return harness_report();
}
