/* npz_read.c: an array of a .npz archive (formats in npz_read.h). */
#include "io/npz_read.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/mem_budget.h"

#define U32_MAX 0xffffffffu


static uint64_t le(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}


void awe_npy_free(awe_npy *a) {
  free(a->data);
  memset(a, 0, sizeof(*a));
}


/* the central directory's place and entry count, from the (zip64) end record */
static awe_status find_cd(const unsigned char *b, size_t n, const char *path, uint64_t *off,
                          uint64_t *len, uint64_t *count, awe_err *err) {
  if (n < 22) return awe_err_set(err, AWE_EINVAL, "%s: %zu bytes: too short for a .npz (zip) "
                                 "archive", path, n);
  size_t e = n - 22, stop = n - 22 > 65535 ? n - 22 - 65535 : 0;
  for (;; e--) {
    if (le(b + e, 4) == 0x06054b50) break;
    if (e == stop)
      return awe_err_set(err, AWE_EINVAL, "%s: not a .npz (zip) archive: no end of central "
                         "directory (truncated?)", path);
  }
  *count = le(b + e + 10, 2);
  *len = le(b + e + 12, 4);
  *off = le(b + e + 16, 4);
  if ((*off == U32_MAX || *count == 0xffff) && e >= 20 && le(b + e - 20, 4) == 0x07064b50) {
    uint64_t z = le(b + e - 20 + 8, 8);
    if (n < 56 || z > n - 56 || le(b + z, 4) != 0x06064b50)
      return awe_err_set(err, AWE_EINVAL, "%s: zip64 end record out of place (truncated?)", path);
    *count = le(b + z + 32, 8);
    *len = le(b + z + 40, 8);
    *off = le(b + z + 48, 8);
  }
  if (*off > n || *len > n - *off)
    return awe_err_set(err, AWE_EINVAL, "%s: the central directory (%llu bytes at %llu) lies "
                       "past the end of the file (%zu bytes; truncated?)", path,
                       (unsigned long long)*len, (unsigned long long)*off, n);
  return AWE_OK;
}


/* the .npy header dict's value of key (the text after "'key':"), NULL when absent */
static const char *dict_value(const char *h, const char *key) {
  char k[32];
  snprintf(k, sizeof(k), "'%s':", key);
  const char *p = strstr(h, k);
  if (!p) return NULL;
  p += strlen(k);
  while (*p == ' ') p++;
  return p;
}


/* the .npy in d[0 .. n) into a */
static awe_status parse_npy(const unsigned char *d, size_t n, const char *path, const char *name,
                            awe_npy *a, awe_err *err) {
  if (n < 10 || memcmp(d, "\x93NUMPY", 6))
    return awe_err_set(err, AWE_EINVAL, "%s: %s.npy is not a .npy array (no \\x93NUMPY magic)",
                       path, name);
  int major = d[6];
  size_t hl, h0;
  if (major == 1) {
    hl = (size_t)le(d + 8, 2);
    h0 = 10;
  } else if ((major == 2 || major == 3) && n >= 12) {
    hl = (size_t)le(d + 8, 4);
    h0 = 12;
  } else {
    return awe_err_set(err, AWE_EINVAL, "%s: %s.npy: format version %d, 1 to 3 expected", path,
                       name, major);
  }
  if (hl > n - h0 || hl > 65536)
    return awe_err_set(err, AWE_EINVAL, "%s: %s.npy: header of %zu bytes past the data", path,
                       name, hl);
  char h[65537];
  memcpy(h, d + h0, hl);
  h[hl] = 0;
  const char *ds = dict_value(h, "descr"), *fo = dict_value(h, "fortran_order"),
             *sh = dict_value(h, "shape");
  if (!ds || !fo || !sh)
    return awe_err_set(err, AWE_EINVAL, "%s: %s.npy: header without descr, fortran_order or "
                       "shape: %.80s", path, name, h);
  int item;
  if (!strncmp(ds, "'<f8'", 5)) item = 8;
  else if (!strncmp(ds, "'<f4'", 5)) item = 4;
  else
    return awe_err_set(err, AWE_EINVAL, "%s: %s.npy: type %.8s, allowed little-endian float64 "
                       "('<f8') or float32 ('<f4')", path, name, ds);
  if (!strncmp(fo, "True", 4)) a->fortran = 1;
  else if (!strncmp(fo, "False", 5)) a->fortran = 0;
  else return awe_err_set(err, AWE_EINVAL, "%s: %s.npy: fortran_order %.8s", path, name, fo);
  if (*sh != '(')
    return awe_err_set(err, AWE_EINVAL, "%s: %s.npy: shape %.20s is not a tuple", path, name, sh);
  const char *p = sh + 1;
  a->ndim = 0;
  a->n = 1;
  for (;;) {
    while (*p == ' ' || *p == ',') p++;
    if (*p == ')') break;
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p || *p == '-' || a->ndim == 8 || v > (1ull << 40))
      return awe_err_set(err, AWE_EINVAL, "%s: %s.npy: bad shape %.40s", path, name, sh);
    a->shape[a->ndim++] = (size_t)v;
    if (v && a->n > ((size_t)1 << 40) / v)
      return awe_err_set(err, AWE_EINVAL, "%s: %s.npy: shape %.40s too large", path, name, sh);
    a->n *= (size_t)v;
    p = end;
  }
  size_t have = n - h0 - hl;
  if (a->n > have / (size_t)item)
    return awe_err_set(err, AWE_EINVAL, "%s: %s.npy: shape %.40s needs %zu bytes of data, the "
                       "entry holds %zu (truncated)", path, name, sh, a->n * (size_t)item, have);
  a->data = malloc(sizeof(double) * (a->n ? a->n : 1));
  if (!a->data) return awe_err_set(err, AWE_ENOMEM, "%s: out of memory for %s", path, name);
  const unsigned char *x = d + h0 + hl;
  for (size_t i = 0; i < a->n; i++) {
    uint64_t u = le(x + i * (size_t)item, item);
    if (item == 8) {
      memcpy(&a->data[i], &u, 8);
    } else {
      uint32_t u4 = (uint32_t)u;
      float f;
      memcpy(&f, &u4, 4);
      a->data[i] = f;
    }
  }
  return AWE_OK;
}


awe_status awe_npz_array(const unsigned char *buf, size_t size, const char *path,
                         const char *name, awe_npy *a, int *found, awe_err *err) {
  memset(a, 0, sizeof(*a));
  if (found) *found = 0;
  uint64_t off = 0, len = 0, count = 0;
  AWE_TRY(find_cd(buf, size, path, &off, &len, &count, err));
  char want[64];
  snprintf(want, sizeof(want), "%s.npy", name);
  size_t wl = strlen(want);
  const unsigned char *c = buf + off, *cend = buf + off + len;
  for (uint64_t i = 0; i < count; i++) {
    if (cend - c < 46 || le(c, 4) != 0x02014b50)
      return awe_err_set(err, AWE_EINVAL, "%s: central directory entry %llu is damaged", path,
                         (unsigned long long)i + 1);
    uint64_t method = le(c + 10, 2), csz = le(c + 20, 4), usz = le(c + 24, 4);
    size_t nl = (size_t)le(c + 28, 2), el = (size_t)le(c + 30, 2), cl = (size_t)le(c + 32, 2);
    uint64_t loff = le(c + 42, 4);
    if ((size_t)(cend - c) < 46 + nl + el + cl)
      return awe_err_set(err, AWE_EINVAL, "%s: central directory entry %llu is damaged", path,
                         (unsigned long long)i + 1);
    const unsigned char *nm = c + 46, *ex = nm + nl;
    if (nl != wl || memcmp(nm, want, wl)) {
      c += 46 + nl + el + cl;
      continue;
    }
    /* zip64: the sizes and offset that read 0xffffffff follow in extra field 1, in order */
    for (size_t q = 0; q + 4 <= el;) {
      size_t id = (size_t)le(ex + q, 2), sz = (size_t)le(ex + q + 2, 2), r = q + 4;
      if (q + 4 + sz > el) break;
      if (id == 1) {
        if (usz == U32_MAX && r + 8 <= q + 4 + sz) usz = le(ex + r, 8), r += 8;
        if (csz == U32_MAX && r + 8 <= q + 4 + sz) csz = le(ex + r, 8), r += 8;
        if (loff == U32_MAX && r + 8 <= q + 4 + sz) loff = le(ex + r, 8);
      }
      q += 4 + sz;
    }
    if (loff > size || size - loff < 30 || le(buf + loff, 4) != 0x04034b50)
      return awe_err_set(err, AWE_EINVAL, "%s: %s: local header missing (truncated?)", path,
                         want);
    uint64_t data = loff + 30 + le(buf + loff + 26, 2) + le(buf + loff + 28, 2);
    if (data > size || csz > size - data)
      return awe_err_set(err, AWE_EINVAL, "%s: %s: %llu bytes of data past the end of the file "
                         "(truncated)", path, want, (unsigned long long)csz);
    awe_status st;
    if (method == 0) {
      if (csz != usz)
        return awe_err_set(err, AWE_EINVAL, "%s: %s: stored entry of %llu bytes claims %llu",
                           path, want, (unsigned long long)csz, (unsigned long long)usz);
      st = parse_npy(buf + data, (size_t)csz, path, name, a, err);
    } else if (method == 8) {
      /* deflate expands at most 1032:1: a larger claim is damage, not data */
      if (usz > 1032 * csz + 1024 || usz > (uint64_t)SIZE_MAX / 2 || csz > UINT_MAX ||
          usz > UINT_MAX)
        return awe_err_set(err, AWE_EINVAL, "%s: %s: %llu compressed bytes cannot hold %llu",
                           path, want, (unsigned long long)csz, (unsigned long long)usz);
      /* the inflated bytes and their doubles (up to twice as many bytes for float32) against
       * the memory budget before anything is inflated: a small zip bomb stops here */
      char what[300];
      snprintf(what, sizeof(what), "%s: %s (%llu bytes inflated)", path, want,
               (unsigned long long)usz);
      AWE_TRY(awe_mem_check(3.0 * (double)usz, what, err));
      unsigned char *u = malloc(usz ? (size_t)usz : 1);
      if (!u) return awe_err_set(err, AWE_ENOMEM, "%s: out of memory for %s", path, want);
      z_stream zs;
      memset(&zs, 0, sizeof(zs));
      int zr = inflateInit2(&zs, -15);
      if (zr == Z_OK) {
        zs.next_in = (unsigned char *)(uintptr_t)(buf + data);
        zs.avail_in = (unsigned)csz;
        zs.next_out = u;
        zs.avail_out = (unsigned)usz;
        zr = inflate(&zs, Z_FINISH);
        inflateEnd(&zs);
      }
      if (zr != Z_STREAM_END || zs.total_out != usz) {
        free(u);
        return awe_err_set(err, AWE_EINVAL, "%s: %s: the deflated data do not inflate to %llu "
                           "bytes (zlib: %d; damaged or truncated)", path, want,
                           (unsigned long long)usz, zr);
      }
      st = parse_npy(u, (size_t)usz, path, name, a, err);
      free(u);
    } else {
      return awe_err_set(err, AWE_EINVAL, "%s: %s: compression method %llu, allowed stored (0) "
                         "or deflate (8)", path, want, (unsigned long long)method);
    }
    if (st) {
      awe_npy_free(a);
      return st;
    }
    if (found) *found = 1;
    return AWE_OK;
  }
  if (found) return AWE_OK;
  return awe_err_set(err, AWE_EINVAL, "%s: no array '%s' (no entry %s in the archive)", path,
                     name, want);
}
