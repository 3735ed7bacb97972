/* pool.c: chunked bump allocator. */
#include "util/pool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct pchunk {
  struct pchunk *next;
  size_t used, size;
  max_align_t data[];
} pchunk;

struct awe_pool {
  pchunk *head;
  size_t total;
};


awe_pool *awe_pool_new(void) { return calloc(1, sizeof(awe_pool)); }


void awe_pool_free(awe_pool *p) {
  if (!p) return;
  pchunk *c = p->head;
  while (c) {
    pchunk *n = c->next;
    free(c);
    c = n;
  }
  free(p);
}


void *awe_pool_alloc(awe_pool *p, size_t n) {
  const size_t a = sizeof(max_align_t);
  if (n > SIZE_MAX / 2) return NULL;
  n = n ? (n + a - 1) / a * a : a;
  if (!p->head || p->head->size - p->head->used < n) {
    size_t size = n > 65536 ? n : 65536;
    pchunk *c = malloc(sizeof(pchunk) + size);
    if (!c) return NULL;
    c->next = p->head;
    c->used = 0;
    c->size = size;
    p->head = c;
  }
  void *r = (char *)p->head->data + p->head->used;
  p->head->used += n;
  p->total += n;
  memset(r, 0, n);
  return r;
}


void *awe_pool_array(awe_pool *p, size_t n, size_t sz) {
  if (sz && n > SIZE_MAX / 4 / sz) return NULL;
  return awe_pool_alloc(p, n * sz);
}


const char *awe_pool_strdup(awe_pool *p, const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *r = awe_pool_alloc(p, n);
  if (r) memcpy(r, s, n);
  return r;
}


size_t awe_pool_used(const awe_pool *p) { return p ? p->total : 0; }
