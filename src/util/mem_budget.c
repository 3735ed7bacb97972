/* mem_budget.c: the memory budget of one input (mem_budget.h). */
#include "util/mem_budget.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

int awe_mem_parse(const char *s, double *bytes) {
  if (!s || !*s) return -1;
  char *end = NULL;
  double v = strtod(s, &end);
  if (end == s || !isfinite(v) || v <= 0) return -1;
  double mul = 1.0;
  switch (*end) {
  case 'k': case 'K': mul = 1024.0; end++; break;
  case 'm': case 'M': mul = 1024.0 * 1024.0; end++; break;
  case 'g': case 'G': mul = 1024.0 * 1024.0 * 1024.0; end++; break;
  case 't': case 'T': mul = 1024.0 * 1024.0 * 1024.0 * 1024.0; end++; break;
  default: break;
  }
  if (*end == 'i' || *end == 'B') end++; /* "GiB", "GB" */
  if (*end == 'B') end++;
  if (*end) return -1;
  *bytes = v * mul;
  return 0;
}


double awe_mem_budget(void) {
  double b;
  if (awe_mem_parse(getenv("AWESIM_MAX_MEMORY"), &b) == 0) return b;
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && size > 0) return 0.5 * (double)pages * (double)size;
  return 4.0 * 1024 * 1024 * 1024;
}


awe_status awe_mem_check(double bytes, const char *what, awe_err *err) {
  double lim = awe_mem_budget();
  if (bytes >= 0 && bytes <= lim) return AWE_OK;
  const double gib = 1024.0 * 1024.0 * 1024.0;
  return awe_err_set(err, AWE_ENOMEM, "%s needs %.3g GiB, more than the memory budget of %.3g "
                     "GiB (raise it with --max-memory SIZE or AWESIM_MAX_MEMORY=SIZE, e.g. 16G)",
                     what, bytes / gib, lim / gib);
}
