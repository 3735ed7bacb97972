/* ground_station.c: the ground station of every wing, the base of its kite angles.
 *
 * Elevation, azimuth, heading, course, distance and turn rate (kite_frames.h, physics.md §9) and
 * the steady state's radial constraint (steady.c) are taken about r = origin - ground station.
 * Each wing gets its own station, found once here after placement:
 *   1. `ground_point:` on the wing (awesim extension of the structural geometry): a STATIC
 *      point, by name or 1-based index, or a world position [x, y, z] [m];
 *   2. otherwise the ground end of the line chain that holds it: a breadth-first walk from the
 *      wing's WING points along the segments (bridle, pulleys, tether segments, a chain of
 *      tethers), not through STATIC points; the first winch point reached, else the first
 *      STATIC point reached;
 *   3. a wing connected to no STATIC point keeps the old rule: the first winch point, else the
 *      first STATIC point, else the origin.
 */
#include "model/model.h"

#include <stdlib.h>
#include <string.h>


static int is_winch_point(const awe_model *m, int p) {
  for (int i = 0; i < m->nwinch; i++)
    if (m->winch_point[i] == p) return 1;
  return 0;
}


/* rule 3: the first winch point, else the first STATIC point, else -1 (origin) */
static int fallback_point(const awe_model *m) {
  if (m->nwinch > 0) return m->winch_point[0];
  for (int i = 0; i < m->npoint; i++)
    if (m->point_type[i] == AWE_PT_STATIC) return i;
  return -1;
}


/* rule 2 for wing j; adj/adr is the point graph (CSR), queue and seen are scratch [npoint] */
static int walk(const awe_model *m, int j, const int *adr, const int *adj, int *queue,
                unsigned char *seen) {
  int head = 0, tail = 0, first_static = -1;
  memset(seen, 0, (size_t)m->npoint);
  for (int p = 0; p < m->npoint; p++)
    if (m->point_wing[p] == j && m->point_type[p] == AWE_PT_WING) {
      seen[p] = 1;
      queue[tail++] = p;
    }
  while (head < tail) {
    int p = queue[head++];
    if (m->point_type[p] == AWE_PT_STATIC) {
      if (is_winch_point(m, p)) return p;
      if (first_static < 0) first_static = p;
      continue; /* a STATIC point holds: do not walk through it */
    }
    for (int k = adr[p]; k < adr[p + 1]; k++)
      if (!seen[adj[k]]) {
        seen[adj[k]] = 1;
        queue[tail++] = adj[k];
      }
  }
  return first_static;
}


awe_status awe_model_ground_stations(awe_model *m, const awe_spec *s, awe_err *err) {
  int np = m->npoint, ns = m->nsegment;
  int *adr = calloc((size_t)np + 2, sizeof(int));
  int *adj = malloc(sizeof(int) * (2 * (size_t)ns + 1));
  int *fill = malloc(sizeof(int) * ((size_t)np + 1));
  int *queue = malloc(sizeof(int) * ((size_t)np + 1));
  unsigned char *seen = malloc((size_t)np + 1);
  awe_status st = AWE_OK;
  if (!adr || !adj || !fill || !queue || !seen) {
    st = awe_err_set(err, AWE_ENOMEM, "out of memory");
    goto out;
  }
  for (int i = 0; i < ns; i++) {
    adr[m->segment_p[2 * i] + 1]++;
    adr[m->segment_p[2 * i + 1] + 1]++;
  }
  for (int p = 0; p < np; p++) adr[p + 1] += adr[p];
  memcpy(fill, adr, sizeof(int) * (size_t)np);
  for (int i = 0; i < ns; i++) {
    int a = m->segment_p[2 * i], b = m->segment_p[2 * i + 1];
    adj[fill[a]++] = b;
    adj[fill[b]++] = a;
  }
  for (int j = 0; j < m->nwing; j++) {
    const awe_wing_spec *ws = j < s->structure.nwing ? &s->structure.wings[j] : NULL;
    double *g = m->wing_ground + 3 * j;
    int p = m->wing_ground_point[j];
    if (ws && ws->has_ground_pos) {
      memcpy(g, ws->ground_pos, 3 * sizeof(double));
      m->wing_ground_point[j] = -1;
      continue;
    }
    if (p >= 0) {
      if (m->point_type[p] != AWE_PT_STATIC) {
        static const char *const kind[] = {"STATIC", "DYNAMIC", "QUASI_STATIC", "WING"};
        st = awe_err_at(err, AWE_EINVAL, ws ? &ws->ground_loc : NULL,
                        "wing '%s': ground_point '%s' is a %s point (a ground station must be a "
                        "STATIC point, or a position [x, y, z])",
                        m->wing_name[j], m->point_name[p], kind[m->point_type[p]]);
        goto out;
      }
    } else {
      p = walk(m, j, adr, adj, queue, seen);
      if (p < 0) p = fallback_point(m);
      m->wing_ground_point[j] = p;
    }
    if (p >= 0) memcpy(g, m->point_pos0 + 3 * p, 3 * sizeof(double));
    else g[0] = g[1] = g[2] = 0.0;
  }
out:
  free(adr);
  free(adj);
  free(fill);
  free(queue);
  free(seen);
  return st;
}
