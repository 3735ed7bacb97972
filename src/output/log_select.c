/* log_select.c: output.channels and output.compression (log_select.h). */
#include "output/log_select.h"

#include <stdlib.h>
#include <string.h>

/* pattern with '/' written as '.', the separator of the registry's names */
static void dotted(const char *p, char *out, size_t n) {
  size_t i = 0;
  for (; p[i] && i + 1 < n; i++) out[i] = p[i] == '/' ? '.' : p[i];
  out[i] = 0;
}


static int var_matches(const char *pat, const awe_var *v) {
  char buf[512];
  awe_var_name(v, buf, sizeof(buf));
  if (awe_glob_match(pat, buf)) return 1;
  snprintf(buf, sizeof(buf), "%s.%s", v->group, v->var); /* the HDF5 dataset */
  if (awe_glob_match(pat, buf)) return 1;
  for (int k = 0; v->dim > 1 && k < v->dim; k++) {
    awe_var_scalar_name(v, k, buf, sizeof(buf));
    if (awe_glob_match(pat, buf)) return 1;
  }
  return 0;
}


/* the error for pattern i, which matches nothing */
static awe_status no_match(const awe_scenario_spec *sc, int i, const awe_varlist *all,
                           awe_err *err) {
  int n = 0;
  for (int k = 0; k < all->n; k++) n += (all->v[k].flags & AWE_VF_LOG) != 0;
  const char **cands = malloc((size_t)(2 * n + 1) * sizeof(char *));
  char *names = malloc((size_t)(2 * n + 1) * 256);
  const char *best = NULL;
  char avail[600];
  size_t len = (size_t)snprintf(avail, sizeof(avail), "time");
  if (cands && names) {
    int c = 0;
    cands[c++] = "time";
    for (int k = 0; k < all->n; k++) {
      const awe_var *v = &all->v[k];
      if (!(v->flags & AWE_VF_LOG)) continue;
      char *a = names + (size_t)c * 256;
      awe_var_name(v, a, 256);
      for (char *q = a; *q; q++)
        if (*q == '.') *q = '/';
      cands[c++] = a;
      if (c <= 13 && len < sizeof(avail) - 200)
        len += (size_t)snprintf(avail + len, sizeof(avail) - len, ", %s", a);
    }
    if (c > 13) snprintf(avail + len, sizeof(avail) - len, ", ... (%d in all)", c);
    best = awe_closest(sc->channels[i], cands, c);
  }
  awe_status st;
  if (best)
    st = awe_err_at(err, AWE_EINVAL, &sc->channels_loc[i],
                    "output.channels: \"%s\" matches no channel; did you mean \"%s\"? "
                    "(channels: %s)", sc->channels[i], best, avail);
  else
    st = awe_err_at(err, AWE_EINVAL, &sc->channels_loc[i],
                    "output.channels: \"%s\" matches no channel (channels: %s)",
                    sc->channels[i], avail);
  free(cands);
  free(names);
  return st;
}


awe_status awe_log_select(const awe_spec *spec, const awe_varlist *all, awe_varlist *sel,
                          awe_err *err) {
  memset(sel, 0, sizeof(*sel));
  sel->v = malloc((size_t)(all->n ? all->n : 1) * sizeof(awe_var));
  if (!sel->v) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  if (all->n) memcpy(sel->v, all->v, (size_t)all->n * sizeof(awe_var));
  sel->n = sel->cap = all->n;
  sel->size = all->size;
  const awe_scenario_spec *sc = spec ? &spec->scenario : NULL;
  if (!sc || sc->nchannels < 1) return AWE_OK;
  char *hit = calloc((size_t)(all->n ? all->n : 1), 1);
  if (!hit) {
    awe_varlist_free(sel);
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  for (int i = 0; i < sc->nchannels; i++) {
    char pat[256];
    dotted(sc->channels[i], pat, sizeof(pat));
    int any = awe_glob_match(pat, "time");
    for (int k = 0; k < all->n; k++) {
      if (!(all->v[k].flags & AWE_VF_LOG) || !var_matches(pat, &all->v[k])) continue;
      hit[k] = 1;
      any = 1;
    }
    if (!any) {
      free(hit);
      awe_varlist_free(sel);
      return no_match(sc, i, all, err);
    }
  }
  for (int k = 0; k < all->n; k++)
    if (!hit[k]) sel->v[k].flags &= ~(unsigned)AWE_VF_LOG;
  free(hit);
  return AWE_OK;
}


void awe_log_compression(const awe_spec *spec, awe_h5_info *info) {
  int c = spec ? spec->scenario.compression : AWE_LOG_COMPRESS_NONE;
  info->gzip_level = c ? spec->scenario.compression_level : 0;
  info->no_shuffle = c == AWE_LOG_COMPRESS_DEFLATE;
}


const char *awe_log_compression_name(int compression) {
  return compression == AWE_LOG_COMPRESS_DEFLATE           ? "deflate"
         : compression == AWE_LOG_COMPRESS_SHUFFLE_DEFLATE ? "shuffle+deflate"
                                                           : "none";
}
