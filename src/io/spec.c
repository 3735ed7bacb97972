/* spec.c: spec memory and enum names. */
#include "io/spec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/pool.h"
#include "io/settings.h"
#include "aero/vsm_settings.h"
#include "io/yaml_doc.h"

void *awe_spec_alloc(awe_spec *s, size_t n) { return awe_pool_alloc(s->pool, n); }
const char *awe_spec_strdup(awe_spec *s, const char *str) { return awe_pool_strdup(s->pool, str); }


awe_spec *awe_spec_new(void) {
  awe_spec *s = calloc(1, sizeof(*s));
  if (!s) return NULL;
  s->pool = awe_pool_new();
  if (!s->pool) {
    free(s);
    return NULL;
  }
  awe_settings_default(&s->settings);
  awe_vsm_settings_default(&s->vsm);
  return s;
}


void awe_spec_free(awe_spec *s) {
  if (!s) return;
  awe_diag_free(&s->warnings);
  free(s->scenario_text);
  for (int i = 0; i < s->ndocs; i++) awe_ydoc_free(s->docs[i]);
  awe_pool_free(s->pool);
  free(s);
}


awe_status awe_spec_note_file(awe_spec *s, const char *path, awe_err *err) {
  struct stat sb;
  if (stat(path, &sb) != 0) return AWE_OK;
  awe_spec_file *f = awe_spec_alloc(s, sizeof(*f));
  if (!f || !(f->path = awe_spec_strdup(s, path)))
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  f->dev = (unsigned long long)sb.st_dev;
  f->ino = (unsigned long long)sb.st_ino;
  f->next = s->files;
  s->files = f;
  return AWE_OK;
}


const char *awe_point_type_name(awe_point_type t) {
  switch (t) {
    case AWE_PT_STATIC: return "STATIC";
    case AWE_PT_DYNAMIC: return "DYNAMIC";
    case AWE_PT_QUASI_STATIC: return "QUASI_STATIC";
    case AWE_PT_WING: return "WING";
  }
  return "?";
}


const char *awe_dyn_type_name(awe_dyn_type t) {
  switch (t) {
    case AWE_DYN_DYNAMIC: return "DYNAMIC";
    case AWE_DYN_QUASI_STATIC: return "QUASI_STATIC";
    case AWE_DYN_STATIC: return "STATIC";
  }
  return "?";
}


/* An old spelling that still loads: one line on stderr per spelling and file set (key), saying
 * the current spelling. */
void awe_spec_deprecated(awe_spec *s, const awe_loc *loc, const char *key, const char *fmt, ...) {
  for (int i = 0; i < s->ndeprecated; i++)
    if (!strcmp(s->deprecated[i], key)) return;
  if (s->ndeprecated < AWE_ARRLEN(s->deprecated)) s->deprecated[s->ndeprecated++] = key;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  awe_warn(&s->warnings, loc, "%s", msg);
}


int awe_ref_index(const awe_ref *r, const char *const *names, int n) {
  if (r->name) {
    for (int i = 0; i < n; i++)
      if (names[i] && !strcmp(names[i], r->name)) return i;
    return -1;
  }
  return r->index >= 1 && r->index <= n ? r->index - 1 : -1;
}
