/* pool.h: a bump allocator for data that lives and dies together (a spec, a model).
 *
 * Allocations are zeroed and aligned for any type; awe_pool_free releases everything.
 */
#ifndef AWE_POOL_H
#define AWE_POOL_H

#include <stddef.h>

typedef struct awe_pool awe_pool;

awe_pool *awe_pool_new(void);
void awe_pool_free(awe_pool *p);
/* n bytes, zeroed; NULL when out of memory (n == 0 gives a valid unique pointer). */
void *awe_pool_alloc(awe_pool *p, size_t n);
/* a zeroed array of n elements of size sz, with overflow check */
void *awe_pool_array(awe_pool *p, size_t n, size_t sz);
const char *awe_pool_strdup(awe_pool *p, const char *s);
/* bytes handed out so far (for memory reports) */
size_t awe_pool_used(const awe_pool *p);

#endif
