/* steer.c: step a scenario, read channels, set an input: a steering step on the parked 2plate
 * kite, its heading printed every 0.5 s.
 *
 *   cc -o steer steer.c $(pkg-config --cflags --libs awesim)
 *   ./steer scenarios/2plate_parked.yaml
 */
#include <stdio.h>

#include <awesim.h>

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "scenarios/2plate_parked.yaml";
  /* no builtin controller: this program steers */
  const char *sets[] = {"run.duration=4", "controllers=[]"};
  awesim_error e;
  awesim_sim *s = awesim_open(path, 2, sets, &e);
  if (!s) {
    fprintf(stderr, "steer: error: %s\n", e.msg);
    return 65;
  }
  int heading = awesim_channel_index(s, "wings.main_wing.heading");
  int left = awesim_input_index(s, "segments.kcu_steering_left.l0");
  if (heading < 0 || left < 0) {
    fprintf(stderr, "steer: error: %s has no wings.main_wing.heading or no "
                    "segments.kcu_steering_left.l0\n", path);
    awesim_close(s);
    return 65;
  }
  double l0 = awesim_get_input(s, left);
  printf("time [s]  heading [%s]\n", awesim_channel_unit(s, heading));
  int rc = 0;
  for (int k = 1; awesim_time(s) < awesim_duration(s); k++) {
    if (k == 21 && awesim_set_input(s, left, l0 + 0.02)) break; /* 2 cm longer at 1 s */
    if (awesim_step(s, 0.05)) {
      fprintf(stderr, "steer: error: %s\n", awesim_message(s));
      rc = 1;
      break;
    }
    if (k % 10 == 0) printf("%8.2f  %.6f\n", awesim_time(s), awesim_get(s, heading));
  }
  awesim_close(s);
  return rc;
}
