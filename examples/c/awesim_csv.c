/* awesim_csv.c: `awesim simulate --csv` through libawesim: the CSV log of a scenario.
 *
 *   cc -o awesim_csv awesim_csv.c $(pkg-config --cflags --libs awesim)
 *   ./awesim_csv SCENARIO OUT.csv [KEY.PATH=VALUE ...]
 *
 * Writes the same bytes as `awesim simulate SCENARIO --no-hdf5 --csv --set ... > OUT.csv`.
 */
#include <stdio.h>

#include <awesim.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: awesim_csv SCENARIO OUT.csv [KEY.PATH=VALUE ...]\n");
    return 2;
  }
  awesim_error e;
  awesim_sim *s = awesim_open(argv[1], argc - 3, (const char *const *)argv + 3, &e);
  if (!s) {
    fprintf(stderr, "awesim_csv: error: %s\n", e.msg);
    return 65;
  }
  int rc = 0;
  if (awesim_log_csv(s, argv[2], NULL) || awesim_run(s, NULL, 0, NULL) ||
      awesim_log_csv_close(s)) {
    fprintf(stderr, "awesim_csv: error: %s\n", awesim_message(s));
    rc = 1;
  }
  awesim_close(s);
  return rc;
}
