/* mem_budget.h: how much memory one input may make awesim allocate, asked before allocating.
 *
 * A crafted file can announce any size (a 2 KB HDF5 box that asks for 16 GiB, a zip bomb); the
 * readers and generators compare what they are about to allocate with this budget and refuse
 * with both numbers and the way to raise it, instead of letting the allocator or the kernel's
 * OOM killer decide. The budget is half of the machine's physical memory unless the
 * environment variable AWESIM_MAX_MEMORY (set by the CLI's --max-memory) says otherwise.
 */
#ifndef AWE_MEM_BUDGET_H
#define AWE_MEM_BUDGET_H

#include <stddef.h>

#include "util/status.h"

/* The budget [bytes]: AWESIM_MAX_MEMORY ("8G", "512M", "2.5e9", suffixes K M G T, powers of
 * 1024) when set and valid, else half the physical memory (4 GiB where it cannot be read). */
double awe_mem_budget(void);

/* Parse a size such as "8G" into bytes; 0 on success, -1 when it is not a positive size. */
int awe_mem_parse(const char *s, double *bytes);

/* a * b * c ... as a double count, so that products of file-given sizes cannot wrap. */
static inline double awe_mem_product(const double *v, int n) {
  double p = 1.0;
  for (int i = 0; i < n; i++) p *= v[i];
  return p;
}

/* AWE_OK when `bytes` fits the budget; else AWE_ENOMEM with "WHAT needs X GiB, more than the
 * memory budget Y GiB (--max-memory / AWESIM_MAX_MEMORY raise it)". */
awe_status awe_mem_check(double bytes, const char *what, awe_err *err);

#endif
