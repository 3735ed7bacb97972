/* test_flight_cycles.c: the simulator's cycle statistics (analysis/cycle_stats) over the measured
 * cycles shipped in tests/data/flight_2019/ (two consecutive files of the 2019 V3 flight, CC BY
 * 4.0, PROVENANCE.md there) equal the row of tools/flight-stats for that cycle in
 * tests/data/flight_2019/cycle_stats.csv: one definition for simulator and flight.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cycle_stats.h"
#include "harness.h"

#define DIR "tests/data/flight_2019/"
#define MAXCOL 64
#define G 9.81

/* split a CSV line in place (no quotes in these files); returns the field count */
static int split(char *line, char **f) {
  int n = 0;
  line[strcspn(line, "\r\n")] = 0;
  for (char *p = line; n < MAXCOL;) {
    f[n++] = p;
    char *c = strchr(p, ',');
    if (!c) break;
    *c = 0;
    p = c + 1;
  }
  return n;
}


static int col(char **head, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(head[i], name) == 0) return i;
  HARNESS_FAIL("no column %s", name);
  return 0;
}


/* feed one flight file; *t_end: the previous file's last time (the data set repeats it as the
 * next file's first row, skipped here as in tools/flight-stats) */
static void feed_file(awe_cycle_stats *s, const char *path, double *t_end) {
  FILE *fp = fopen(path, "r");
  ENSURE(fp != NULL);
  if (!fp) return;
  static char line[8192];
  char *h[MAXCOL], *f[MAXCOL];
  static char head[8192];
  if (!fgets(head, sizeof head, fp)) {
    fclose(fp);
    HARNESS_FAIL("%s: empty", path);
    return;
  }
  int nh = split(head, h);
  int it = col(h, nh, "time"), iF = col(h, nh, "ground_tether_force"),
      iv = col(h, nh, "ground_tether_reelout_speed"), ie = col(h, nh, "kite_elevation"),
      ia = col(h, nh, "kite_azimuth"), iva = col(h, nh, "airspeed_apparent_windspeed"),
      ix = col(h, nh, "kite_0_vx"), iy = col(h, nh, "kite_0_vy"), iz = col(h, nh, "kite_0_vz");
  while (fgets(line, sizeof line, fp)) {
    if (split(line, f) != nh) continue;
    double t = strtod(f[it], NULL);
    if (t == *t_end) continue;
    double vx = strtod(f[ix], NULL), vy = strtod(f[iy], NULL), vz = strtod(f[iz], NULL);
    awe_cycle_sample x = {t, strtod(f[iF], NULL) * G, strtod(f[iv], NULL), strtod(f[ie], NULL),
                          strtod(f[iva], NULL), sqrt(vx * vx + vy * vy + vz * vz),
                          strtod(f[ia], NULL), NAN};
    ENSURE(awe_cycle_stats_add(s, &x) == AWE_OK);
    *t_end = t;
  }
  fclose(fp);
}


/* the row of cycle_stats.csv whose file is name, as an awe_cycle */
static int table_row(const char *name, awe_cycle *c) {
  FILE *fp = fopen(DIR "cycle_stats.csv", "r");
  ENSURE(fp != NULL);
  if (!fp) return 0;
  static char head[8192], line[8192];
  char *h[MAXCOL], *f[MAXCOL];
  int found = 0;
  if (fgets(head, sizeof head, fp)) {
    int nh = split(head, h);
    while (!found && fgets(line, sizeof line, fp)) {
      if (split(line, f) != nh || strcmp(f[0], name) != 0) continue;
      for (int k = 0; k < awe_cycle_nfields; k++) {
        int i = col(h, nh, awe_cycle_fields[k].name);
        *(double *)((char *)c + awe_cycle_fields[k].offset) = strtod(f[i], NULL);
      }
      found = 1;
    }
  }
  fclose(fp);
  return found;
}


static void test_flight_cycle(void) {
  awe_cycle_stats s;
  awe_cycle_stats_init(&s);
  double t_end = NAN;
  feed_file(&s, DIR "20191008_0040.csv", &t_end);
  feed_file(&s, DIR "20191008_0041.csv", &t_end);
  ENSURE(s.n == 1);
  awe_cycle want;
  ENSURE(table_row("20191008_0040.csv", &want));
  if (s.n == 1) {
    const awe_cycle *got = &s.cycles[0];
    for (int k = 0; k < awe_cycle_nfields; k++) {
      size_t off = awe_cycle_fields[k].offset;
      double g = *(const double *)((const char *)got + off);
      double w = *(const double *)((const char *)&want + off);
      printf("  %-28s C %-22.15g flight-stats %-22.15g\n", awe_cycle_fields[k].name, g, w);
      if (isnan(w)) ENSURE(isnan(g));
      else ENSURE_REL(g, w, 1e-12);
    }
    /* and the measured cycle is the one the docs quote (docs/validation.md) */
    ENSURE_NEAR(got->duration, 131.1, 1e-6);
    ENSURE_NEAR(got->force_reel_out_mean / 1e3, 2.788, 5e-4);
    ENSURE_NEAR(got->figure_period, 21.2, 0.05);
  }
  awe_cycle_stats_free(&s);
}


int main(void) {
  RUN(test_flight_cycle);
  return harness_report();
}
