/* yaml_doc.c: libyaml event stream -> tree of awe_ynode with positions.
 *
 * Built iteratively with an explicit stack, so deep nesting is a clean error rather than a
 * stack overflow. Duplicate mapping keys are rejected (YAML requires unique keys, and a
 * silently ignored duplicate is a classic source of wrong parameters).
 */
#include "io/yaml_doc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

/* ---- arena: every node and string of a document lives here ---- */
typedef struct chunk {
  struct chunk *next;
  size_t used, size;
  max_align_t data[];
} chunk;

struct awe_ydoc {
  chunk *chunks;
  awe_ynode *root;
  const char *path;
  const char *cur_name;   /* name that new nodes get as their file (path, or a --set label) */
  /* anchors: name -> node and the number of nodes it stands for, linear list (documents have
     few anchors) */
  struct anchor { const char *name; awe_ynode *node; size_t weight; } *anchors;
  int nanchor, capanchor;
  /* growable arrays (node items) are malloc'd and tracked for freeing */
  void **owned;
  int nowned, capowned;
  size_t nnodes;          /* nodes allocated (bounded by AWE_YAML_MAX_NODES) */
};


static void *arena_alloc(awe_ydoc *d, size_t n) {
  /* nodes hold pointers and ints: 8-byte granules keep a short string at 8 bytes */
  n = (n + 7) / 8 * 8;
  if (!d->chunks || d->chunks->size - d->chunks->used < n) {
    size_t size = n > 16384 ? n : 16384;
    chunk *c = malloc(sizeof(chunk) + size);
    if (!c) return NULL;
    c->next = d->chunks;
    c->used = 0;
    c->size = size;
    d->chunks = c;
  }
  void *p = (char *)d->chunks->data + d->chunks->used;
  d->chunks->used += n;
  memset(p, 0, n);
  return p;
}


const char *awe_ydoc_strdup(awe_ydoc *d, const char *s) {
  size_t n = strlen(s) + 1;
  char *p = arena_alloc(d, n);
  if (p) memcpy(p, s, n);
  return p;
}


/* record p for freeing; returns its slot or -1 */
static int track(awe_ydoc *d, void *p) {
  if (d->nowned == d->capowned) {
    int cap = d->capowned ? 2 * d->capowned : 64;
    void **o = realloc(d->owned, (size_t)cap * sizeof(*o));
    if (!o) return -1;
    d->owned = o;
    d->capowned = cap;
  }
  d->owned[d->nowned] = p;
  return d->nowned++;
}


/* append item (and key for mappings) to a collection node; items and keys share one block
   (keys after cap items), grown in place */
static int node_push(awe_ydoc *d, awe_ynode *c, awe_ynode *key, awe_ynode *val) {
  if (c->n == c->cap) {
    if (c->cap > INT_MAX / 4) return -1;
    int cap = c->cap ? 2 * c->cap : 4;
    size_t per = c->kind == AWE_Y_MAP ? 2 : 1;
    awe_ynode **blk = realloc(c->cap ? c->items : NULL, per * (size_t)cap * sizeof(*blk));
    if (!blk) return -1;
    if (per == 2 && c->n) memmove(blk + cap, blk + c->cap, (size_t)c->n * sizeof(*blk));
    if (!c->cap) {
      int slot = track(d, blk);
      if (slot < 0) {
        free(blk);
        return -1;
      }
      c->slot = slot;
    } else {
      d->owned[c->slot] = blk;
    }
    c->items = blk;
    c->keys = per == 2 ? blk + cap : NULL;
    c->cap = cap;
  }
  c->items[c->n] = val;
  if (c->kind == AWE_Y_MAP) c->keys[c->n] = key;
  c->n++;
  return 0;
}


void awe_ydoc_free(awe_ydoc *d) {
  if (!d) return;
  for (int i = 0; i < d->nowned; i++) free(d->owned[i]);
  free(d->owned);
  free(d->anchors);
  chunk *c = d->chunks;
  while (c) {
    chunk *n = c->next;
    free(c);
    c = n;
  }
  free(d);
}


awe_ynode *awe_ydoc_root(awe_ydoc *d) { return d ? d->root : NULL; }
const char *awe_ydoc_path(const awe_ydoc *d) { return d ? d->path : NULL; }


static int is_plain_null(const char *s) {
  return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
         !strcmp(s, "NULL");
}


static awe_ynode *new_node(awe_ydoc *d, awe_ykind k, yaml_mark_t mark) {
  awe_ynode *n = arena_alloc(d, sizeof(*n));
  if (!n) return NULL;
  d->nnodes++;
  n->kind = (unsigned char)k;
  n->loc.file = d->cur_name ? d->cur_name : d->path;
  n->loc.line = (int)mark.line + 1;
  n->loc.col = (int)mark.column + 1;
  n->str = "";
  return n;
}


static int add_anchor(awe_ydoc *d, const char *name, awe_ynode *node, size_t weight) {
  if (d->nanchor == d->capanchor) {
    int cap = d->capanchor ? 2 * d->capanchor : 8;
    struct anchor *a = realloc(d->anchors, (size_t)cap * sizeof(*a));
    if (!a) return -1;
    d->anchors = a;
    d->capanchor = cap;
  }
  const char *nm = awe_ydoc_strdup(d, name);
  if (!nm) return -1;
  d->anchors[d->nanchor].name = nm;
  d->anchors[d->nanchor].node = node;
  d->anchors[d->nanchor].weight = weight;
  d->nanchor++;
  return 0;
}


static awe_ynode *find_anchor(awe_ydoc *d, const char *name, size_t *weight) {
  for (int i = d->nanchor - 1; i >= 0; i--)
    if (!strcmp(d->anchors[i].name, name)) {
      *weight = d->anchors[i].weight;
      return d->anchors[i].node;
    }
  return NULL;
}


static const char *ev_name(yaml_event_type_t t) {
  switch (t) {
    case YAML_SCALAR_EVENT: return "scalar";
    case YAML_SEQUENCE_START_EVENT: return "sequence";
    case YAML_MAPPING_START_EVENT: return "mapping";
    default: return "event";
  }
}


/* Parse one document from an initialised parser into *out (NULL node for an empty stream).
 * Accepts exactly one document. */
/* Allocation failure while reading is reported as a problem of the file (exit 65, the file and
 * the place named): the usual cause is an input far larger than a model. */
static awe_status oom(awe_err *err, awe_loc *loc, yaml_mark_t m) {
  loc->line = (int)m.line + 1;
  loc->col = (int)m.column + 1;
  return awe_err_at(err, AWE_EPARSE, loc, "out of memory while reading the file (is it far "
                    "larger than a model file?)");
}


static awe_status parse_stream(awe_ydoc *d, yaml_parser_t *p, const char *name, awe_ynode **out,
                               awe_err *err) {
  awe_ynode *stack[AWE_YAML_MAX_DEPTH + 1];
  awe_ynode *pending_key[AWE_YAML_MAX_DEPTH + 1];
  const char *pending_anchor[AWE_YAML_MAX_DEPTH + 1]; /* registered when the node is complete */
  /* nodes each open collection stands for so far (aliases at their full size), and in all */
  size_t weight[AWE_YAML_MAX_DEPTH + 1], total = 0;
  const char *new_anchor = NULL;
  int depth = 0, ndocs = 0, done = 0;
  awe_ynode *root = NULL;
  awe_loc loc = {name, 0, 0};
  awe_status st = AWE_OK;

  while (!done) {
    yaml_event_t ev;
    if (!yaml_parser_parse(p, &ev)) {
      if (p->error == YAML_MEMORY_ERROR) return oom(err, &loc, p->mark);
      loc.line = (int)p->problem_mark.line + 1;
      loc.col = (int)p->problem_mark.column + 1;
      return awe_err_at(err, AWE_EPARSE, &loc, "invalid YAML: %s%s%s",
                        p->problem ? p->problem : "syntax error",
                        p->context ? " " : "", p->context ? p->context : "");
    }
    awe_ynode *node = NULL;
    int opens = 0;
    size_t w = 1;  /* nodes the new node stands for */
    switch (ev.type) {
      case YAML_STREAM_END_EVENT:
        done = 1;
        break;
      case YAML_DOCUMENT_START_EVENT:
        if (++ndocs > 1) {
          loc.line = (int)ev.start_mark.line + 1;
          loc.col = (int)ev.start_mark.column + 1;
          st = awe_err_at(err, AWE_EPARSE, &loc,
                          "more than one YAML document in the file; awesim reads exactly one");
        }
        break;
      case YAML_SCALAR_EVENT: {
        const char *txt = (const char *)ev.data.scalar.value;
        int quoted = ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
        /* reject embedded NUL bytes: the text would be silently cut */
        if (strlen(txt) != ev.data.scalar.length) {
          loc.line = (int)ev.start_mark.line + 1;
          loc.col = (int)ev.start_mark.column + 1;
          st = awe_err_at(err, AWE_EPARSE, &loc, "scalar contains a NUL byte");
          break;
        }
        node = new_node(d, (!quoted && is_plain_null(txt)) ? AWE_Y_NULL : AWE_Y_SCALAR,
                        ev.start_mark);
        if (!node || !(node->str = awe_ydoc_strdup(d, txt))) {
          st = oom(err, &loc, ev.start_mark);
          break;
        }
        node->quoted = (unsigned char)quoted;
        if (ev.data.scalar.anchor && add_anchor(d, (const char *)ev.data.scalar.anchor, node, 1))
          st = oom(err, &loc, ev.start_mark);
        break;
      }
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT: {
        int is_map = ev.type == YAML_MAPPING_START_EVENT;
        node = new_node(d, is_map ? AWE_Y_MAP : AWE_Y_SEQ, ev.start_mark);
        if (!node) {
          st = oom(err, &loc, ev.start_mark);
          break;
        }
        const yaml_char_t *anchor =
            is_map ? ev.data.mapping_start.anchor : ev.data.sequence_start.anchor;
        /* a collection's anchor becomes visible only once the collection is complete, so an
           alias cannot refer to its own ancestor (no cycles) */
        new_anchor = anchor ? awe_ydoc_strdup(d, (const char *)anchor) : NULL;
        if (anchor && !new_anchor) st = oom(err, &loc, ev.start_mark);
        opens = 1;
        break;
      }
      case YAML_ALIAS_EVENT:
        node = find_anchor(d, (const char *)ev.data.alias.anchor, &w);
        if (!node) {
          loc.line = (int)ev.start_mark.line + 1;
          loc.col = (int)ev.start_mark.column + 1;
          st = awe_err_at(err, AWE_EPARSE, &loc, "unknown alias '*%s'",
                          (const char *)ev.data.alias.anchor);
        }
        break;
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT:
        depth--;
        if (depth >= 0) {
          if (pending_anchor[depth] && add_anchor(d, pending_anchor[depth], stack[depth],
                                                  weight[depth]))
            st = oom(err, &loc, ev.start_mark);
          if (depth > 0) weight[depth - 1] += weight[depth];
        }
        break;
      default:
        break;
    }
    yaml_mark_t mark = ev.start_mark;
    yaml_event_type_t evtype = ev.type;
    yaml_event_delete(&ev);
    if (st) return st;
    if (!node) continue;

    /* bound the tree, aliases expanded: memory for a huge file, time for an alias bomb */
    total += w;
    if (depth > 0 && !opens) weight[depth - 1] += w;
    if (total > AWE_YAML_MAX_NODES || d->nnodes > AWE_YAML_MAX_NODES) {
      loc.line = (int)mark.line + 1;
      loc.col = (int)mark.column + 1;
      return awe_err_at(err, AWE_EPARSE, &loc,
                        evtype == YAML_ALIAS_EVENT
                            ? "aliases expand the document to more than %d nodes (an alias bomb?)"
                            : "more than %d YAML nodes: too large for a model file",
                        AWE_YAML_MAX_NODES);
    }

    /* attach the new node to its parent */
    if (depth == 0) {
      root = node;
    } else {
      awe_ynode *parent = stack[depth - 1];
      if (parent->kind == AWE_Y_SEQ) {
        if (node_push(d, parent, NULL, node)) return oom(err, &loc, mark);
      } else if (!pending_key[depth - 1]) {
        /* this node is a key */
        if (node->kind == AWE_Y_SEQ || node->kind == AWE_Y_MAP) {
          loc.line = (int)mark.line + 1;
          loc.col = (int)mark.column + 1;
          return awe_err_at(err, AWE_EPARSE, &loc, "a %s cannot be a mapping key",
                            ev_name(evtype));
        }
        for (int i = 0; i < parent->n; i++) {
          if (!strcmp(parent->keys[i]->str, node->str)) {
            loc.line = (int)mark.line + 1;
            loc.col = (int)mark.column + 1;
            return awe_err_at(err, AWE_EPARSE, &loc,
                              "duplicate key '%s' (first defined at line %d)", node->str,
                              parent->keys[i]->loc.line);
          }
        }
        pending_key[depth - 1] = node;
      } else {
        if (node_push(d, parent, pending_key[depth - 1], node)) return oom(err, &loc, mark);
        pending_key[depth - 1] = NULL;
      }
    }
    if (opens) {
      if (depth >= AWE_YAML_MAX_DEPTH) {
        loc.line = (int)mark.line + 1;
        loc.col = (int)mark.column + 1;
        return awe_err_at(err, AWE_EPARSE, &loc, "nesting deeper than %d levels",
                          AWE_YAML_MAX_DEPTH);
      }
      stack[depth] = node;
      weight[depth] = 1;
      pending_key[depth] = NULL;
      pending_anchor[depth] = new_anchor;
      new_anchor = NULL;
      depth++;
    }
  }
  if (!root) {
    yaml_mark_t m = {0, 0, 0};
    root = new_node(d, AWE_Y_NULL, m);
    if (!root) return oom(err, &loc, m);
    root->loc.line = 1;
  }
  *out = root;
  return AWE_OK;
}


static awe_ydoc *doc_new(const char *name) {
  awe_ydoc *d = calloc(1, sizeof(*d));
  if (!d) return NULL;
  d->path = awe_ydoc_strdup(d, name);
  if (!d->path) {
    awe_ydoc_free(d);
    return NULL;
  }
  return d;
}


awe_ydoc *awe_ydoc_load_string(const char *text, size_t len, const char *name, awe_err *err) {
  awe_ydoc *d = doc_new(name);
  if (!d) {
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p)) {
    awe_ydoc_free(d);
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
  awe_status st = parse_stream(d, &p, d->path, &d->root, err);
  yaml_parser_delete(&p);
  if (st) {
    awe_ydoc_free(d);
    return NULL;
  }
  return d;
}


awe_ydoc *awe_ydoc_load_file(const char *path, awe_err *err) {
  char sh[AWE_PATH_SHOW + 1];
  const char *shown = awe_path_short(path, sh, sizeof(sh));
  /* O_NONBLOCK: a FIFO must not block open(); it is refused below like every non-regular file */
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) {
    awe_err_set(err, AWE_ENOFILE, "%s: cannot open: %s", shown, strerror(errno));
    return NULL;
  }
  struct stat sb;
  if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
    int dir = S_ISDIR(sb.st_mode);
    close(fd);
    awe_err_set(err, AWE_ENOFILE, "%s: cannot read: not a regular file (%s)", shown,
                dir ? "a directory" : "a FIFO, device or socket");
    return NULL;
  }
  /* model files are small; refuse absurd sizes instead of thrashing */
  if (sb.st_size > ((off_t)256 << 20)) {
    close(fd);
    awe_err_set(err, AWE_EPARSE, "%s: file larger than 256 MiB", shown);
    return NULL;
  }
  size_t cap = (size_t)sb.st_size + 1, n = 0;
  char *buf = malloc(cap);
  if (!buf) {
    close(fd);
    awe_err_set(err, AWE_EPARSE, "%s: out of memory reading the file (%zu bytes)", shown, cap);
    return NULL;
  }
  int rerr = 0;
  for (;;) {
    ssize_t k = read(fd, buf + n, cap - n);
    if (k < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (k < 0) {
      rerr = 1;
      break;
    }
    if (k == 0) break;
    n += (size_t)k;
    if (n == cap) {
      /* the file grew while being read */
      if (cap >= ((size_t)256 << 20)) {
        free(buf);
        close(fd);
        awe_err_set(err, AWE_EPARSE, "%s: file larger than 256 MiB", shown);
        return NULL;
      }
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        close(fd);
        awe_err_set(err, AWE_EPARSE, "%s: out of memory reading the file", shown);
        return NULL;
      }
      buf = nb;
      cap *= 2;
    }
  }
  close(fd);
  if (rerr) {
    free(buf);
    awe_err_set(err, AWE_ENOFILE, "%s: read error", shown);
    return NULL;
  }
  if (memchr(buf, '\0', n)) {
    /* libyaml would stop at the NUL; binary garbage deserves a clear message */
    size_t off = (size_t)((char *)memchr(buf, '\0', n) - buf);
    int line = 1;
    for (size_t i = 0; i < off; i++) line += buf[i] == '\n';
    free(buf);
    awe_err_set(err, AWE_EPARSE, "%s:%d:1: file contains a NUL byte (binary, not YAML text)",
                shown, line);
    return NULL;
  }
  awe_ydoc *d = awe_ydoc_load_string(buf, n, path, err);
  free(buf);
  return d;
}


awe_ynode *awe_ydoc_parse_value(awe_ydoc *d, const char *text, const char *loc_name,
                                awe_err *err) {
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p)) {
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  const char *nm = awe_ydoc_strdup(d, loc_name);
  yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
  awe_ynode *out = NULL;
  d->cur_name = nm;
  awe_status st = nm ? parse_stream(d, &p, nm, &out, err) : AWE_ENOMEM;
  d->cur_name = NULL;
  yaml_parser_delete(&p);
  if (st) return NULL;
  /* a value from the command line has no line: report it by name only */
  out->loc.line = 0;
  return out;
}


awe_ynode *awe_ymap_get(const awe_ynode *map, const char *key) {
  if (!map || map->kind != AWE_Y_MAP) return NULL;
  for (int i = 0; i < map->n; i++)
    if (!strcmp(map->keys[i]->str, key)) return map->items[i];
  return NULL;
}


/* Split "name[3]" into name and index (-1 when there is no index). */
static int split_index(char *part, long *idx) {
  *idx = -1;
  char *br = strchr(part, '[');
  if (!br) return 0;
  char *end;
  long v = strtol(br + 1, &end, 10);
  if (end == br + 1 || *end != ']' || end[1] || v < 0) return -1;
  *br = 0;
  *idx = v;
  return 0;
}


awe_status awe_ydoc_set_path(awe_ydoc *d, const char *path, awe_ynode *value, awe_err *err) {
  if (!d->root || d->root->kind == AWE_Y_NULL) {
    yaml_mark_t m = {0, 0, 0};
    d->root = new_node(d, AWE_Y_MAP, m);
    if (!d->root) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  awe_ynode *cur = d->root;
  char part[256];
  const char *s = path;
  for (;;) {
    const char *dot = strchr(s, '.');
    size_t len = dot ? (size_t)(dot - s) : strlen(s);
    if (len == 0 || len >= sizeof(part))
      return awe_err_set(err, AWE_EUSAGE, "--set %s: empty or too long key in the path", path);
    memcpy(part, s, len);
    part[len] = 0;
    long li;
    if (split_index(part, &li) || !part[0])
      return awe_err_set(err, AWE_EUSAGE,
                         "--set %s: '%s' is not a key or key[INDEX] (0-based list index)", path,
                         part);
    if (cur->kind != AWE_Y_MAP)
      return awe_err_set(err, AWE_EUSAGE, "--set %s: '%s' is not a mapping in the scenario",
                         path, part);
    int idx = -1;
    for (int i = 0; i < cur->n; i++)
      if (!strcmp(cur->keys[i]->str, part)) idx = i;
    if (li >= 0) {
      /* key[N]: an element of an existing list */
      awe_ynode *seq = idx >= 0 ? cur->items[idx] : NULL;
      if (!seq || seq->kind != AWE_Y_SEQ)
        return awe_err_set(err, AWE_EUSAGE, "--set %s: '%s' is not a list in the scenario", path,
                           part);
      if (li >= seq->n)
        return awe_err_set(err, AWE_EUSAGE, "--set %s: index %ld is out of range ('%s' has %d "
                           "elements, 0 ... %d)", path, li, part, seq->n, seq->n - 1);
      if (!dot) {
        seq->items[li] = value;
        return AWE_OK;
      }
      cur = seq->items[li];
      s = dot + 1;
      continue;
    }
    if (!dot) {
      if (idx >= 0) {
        cur->items[idx] = value;
      } else {
        awe_ynode *k = new_node(d, AWE_Y_SCALAR, (yaml_mark_t){0, 0, 0});
        if (!k || !(k->str = awe_ydoc_strdup(d, part)) || node_push(d, cur, k, value))
          return awe_err_set(err, AWE_ENOMEM, "out of memory");
        k->loc = value->loc;
      }
      return AWE_OK;
    }
    if (idx < 0 || cur->items[idx]->kind == AWE_Y_NULL) {
      awe_ynode *m = new_node(d, AWE_Y_MAP, (yaml_mark_t){0, 0, 0});
      if (!m) return awe_err_set(err, AWE_ENOMEM, "out of memory");
      m->loc = value->loc;
      if (idx < 0) {
        awe_ynode *k = new_node(d, AWE_Y_SCALAR, (yaml_mark_t){0, 0, 0});
        if (!k || !(k->str = awe_ydoc_strdup(d, part)) || node_push(d, cur, k, m))
          return awe_err_set(err, AWE_ENOMEM, "out of memory");
        k->loc = value->loc;
      } else {
        cur->items[idx] = m;
      }
      cur = m;
    } else {
      cur = cur->items[idx];
    }
    s = dot + 1;
  }
}


int awe_ynode_is_nothing(const awe_ynode *n) {
  if (!n || n->kind == AWE_Y_NULL) return 1;
  return n->kind == AWE_Y_SCALAR && !n->quoted && !strcmp(n->str, "nothing");
}


void awe_ynode_describe(const awe_ynode *n, char *buf, size_t sz) {
  if (!n || n->kind == AWE_Y_NULL) snprintf(buf, sz, "nothing (null)");
  else if (n->kind == AWE_Y_SEQ) snprintf(buf, sz, "a list");
  else if (n->kind == AWE_Y_MAP) snprintf(buf, sz, "a mapping");
  else if (strlen(n->str) > 40) snprintf(buf, sz, "'%.37s...'", n->str);
  else snprintf(buf, sz, "'%s'", n->str);
}


static const awe_loc *nloc(const awe_ynode *n) { return n ? &n->loc : NULL; }


/* strtod with YAML's .inf/.nan spellings; returns 1 if the whole text is a number */
static int parse_number(const char *s, double *out) {
  if (!strcasecmp(s, ".nan")) { *out = NAN; return 1; }
  if (!strcasecmp(s, ".inf") || !strcasecmp(s, "+.inf")) { *out = INFINITY; return 1; }
  if (!strcasecmp(s, "-.inf")) { *out = -INFINITY; return 1; }
  if (!*s) return 0;
  /* strtod accepts "nan", "inf", hex: keep YAML's stricter view of what a number is */
  for (const char *c = s; *c; c++)
    if (!strchr("0123456789+-.eE_", *c)) return 0;
  char clean[128];
  size_t k = 0;
  for (const char *c = s; *c && k < sizeof(clean) - 1; c++)
    if (*c != '_') clean[k++] = *c;
  clean[k] = 0;
  char *end;
  errno = 0;
  double v = strtod(clean, &end);
  if (end == clean || *end) return 0;
  *out = v;  /* overflow gives +-HUGE_VAL = inf, caught as non-finite by the caller */
  return 1;
}


int awe_ynode_is_number(const awe_ynode *n) {
  double v;
  return n && n->kind == AWE_Y_SCALAR && !n->quoted && parse_number(n->str, &v);
}


awe_status awe_ynode_double(const awe_ynode *n, const char *what, double *out, awe_err *err) {
  char desc[64];
  awe_ynode_describe(n, desc, sizeof(desc));
  double v;
  if (!n || n->kind != AWE_Y_SCALAR || n->quoted || !parse_number(n->str, &v))
    return awe_err_at(err, AWE_EINVAL, nloc(n), "%s: expected a number, got %s", what, desc);
  if (!isfinite(v))
    return awe_err_at(err, AWE_EINVAL, nloc(n), "%s: must be a finite number, got %s", what,
                      desc);
  *out = v;
  return AWE_OK;
}


awe_status awe_ynode_int(const awe_ynode *n, const char *what, int *out, awe_err *err) {
  double v;
  awe_status st = awe_ynode_double(n, what, &v, err);
  if (st) return st;
  if (v != floor(v) || v < INT_MIN || v > INT_MAX)
    return awe_err_at(err, AWE_EINVAL, nloc(n), "%s: expected an integer, got '%s'", what,
                      n->str);
  *out = (int)v;
  return AWE_OK;
}


awe_status awe_ynode_bool(const awe_ynode *n, const char *what, int *out, awe_err *err) {
  static const char *yes[] = {"true", "True", "TRUE", "yes", "Yes", "on", "On", "1"};
  static const char *no[] = {"false", "False", "FALSE", "no", "No", "off", "Off", "0"};
  char desc[64];
  awe_ynode_describe(n, desc, sizeof(desc));
  if (n && n->kind == AWE_Y_SCALAR && !n->quoted) {
    for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++)
      if (!strcmp(n->str, yes[i])) { *out = 1; return AWE_OK; }
    for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
      if (!strcmp(n->str, no[i])) { *out = 0; return AWE_OK; }
  }
  return awe_err_at(err, AWE_EINVAL, nloc(n), "%s: expected true or false, got %s", what, desc);
}


awe_status awe_ynode_string(const awe_ynode *n, const char *what, const char **out,
                            awe_err *err) {
  char desc[64];
  awe_ynode_describe(n, desc, sizeof(desc));
  if (!n || n->kind != AWE_Y_SCALAR)
    return awe_err_at(err, AWE_EINVAL, nloc(n), "%s: expected a text value, got %s", what, desc);
  *out = n->str;
  return AWE_OK;
}


awe_status awe_ynode_vec(const awe_ynode *n, const char *what, int dim, double *out,
                         awe_err *err) {
  char desc[64];
  awe_ynode_describe(n, desc, sizeof(desc));
  if (!n || n->kind != AWE_Y_SEQ || n->n != dim)
    return awe_err_at(err, AWE_EINVAL, nloc(n), "%s: expected a list of %d numbers, got %s%s",
                      what, dim, desc,
                      (n && n->kind == AWE_Y_SEQ) ? " of another length" : "");
  for (int i = 0; i < dim; i++) {
    char w[256];
    snprintf(w, sizeof(w), "%s[%d]", what, i);
    awe_status st = awe_ynode_double(n->items[i], w, &out[i], err);
    if (st) return st;
  }
  return AWE_OK;
}


awe_status awe_ymap_check_keys(const awe_ynode *map, const char *what,
                               const char *const *allowed, int nallowed, awe_err *err) {
  if (!map || map->kind != AWE_Y_MAP) return AWE_OK;
  for (int i = 0; i < map->n; i++) {
    const char *k = map->keys[i]->str;
    int ok = 0;
    for (int j = 0; j < nallowed && !ok; j++) ok = !strcmp(k, allowed[j]);
    if (ok) continue;
    const char *best = awe_closest(k, allowed, nallowed);
    char list[1024] = "";
    size_t off = 0;
    for (int j = 0; j < nallowed && off < sizeof(list) - 64; j++) {
      int w = snprintf(list + off, sizeof(list) - off, "%s%s", j ? ", " : "", allowed[j]);
      if (w > 0) off += (size_t)w;
    }
    if (best)
      return awe_err_at(err, AWE_EINVAL, &map->keys[i]->loc,
                        "%s: unknown key '%s' (did you mean '%s'?)", what, k, best);
    return awe_err_at(err, AWE_EINVAL, &map->keys[i]->loc,
                      "%s: unknown key '%s' (allowed: %s)", what, k, list);
  }
  return AWE_OK;
}


/* ---- emitting (the scenario as run, stored in the HDF5 log) ------------------------------- */

typedef struct {
  char *buf;
  size_t n, cap;
  int overflow;
} sbuf;

#define EMIT_LIMIT ((size_t)1 << 20)

static void sb_put(sbuf *b, const char *s, size_t n) {
  if (b->overflow) return;
  if (b->n + n + 1 > EMIT_LIMIT) {
    b->overflow = 1;
    return;
  }
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->n + n + 1) cap *= 2;
    char *nb = realloc(b->buf, cap);
    if (!nb) {
      b->overflow = 1;
      return;
    }
    b->buf = nb;
    b->cap = cap;
  }
  memcpy(b->buf + b->n, s, n);
  b->n += n;
  b->buf[b->n] = 0;
}

static void sb_str(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

static void emit_scalar(sbuf *b, const awe_ynode *n) {
  if (n->kind == AWE_Y_NULL) {
    sb_str(b, "null");
    return;
  }
  const char *s = n->str;
  int plain = !n->quoted && *s && s[0] != ' ' && s[strlen(s) - 1] != ' ' &&
              !strpbrk(s, ":#,[]{}&*!|>'\"%@`\n\t\\") && s[0] != '-' && s[0] != '?';
  /* numbers that start with '-' are safe plain */
  if (!n->quoted && s[0] == '-' && awe_ynode_is_number(n)) plain = 1;
  if (plain) {
    sb_str(b, s);
    return;
  }
  sb_str(b, "\"");
  for (const char *c = s; *c; c++) {
    char e[8];
    if (*c == '"' || *c == '\\') {
      e[0] = '\\';
      e[1] = *c;
      sb_put(b, e, 2);
    } else if (*c == '\n') {
      sb_str(b, "\\n");
    } else if (*c == '\t') {
      sb_str(b, "\\t");
    } else if ((unsigned char)*c < 0x20) {
      snprintf(e, sizeof(e), "\\x%02x", (unsigned char)*c);
      sb_str(b, e);
    } else {
      sb_put(b, c, 1);
    }
  }
  sb_str(b, "\"");
}

static int is_flat(const awe_ynode *n) {
  if (n->kind != AWE_Y_SEQ) return 0;
  for (int i = 0; i < n->n; i++)
    if (n->items[i]->kind == AWE_Y_MAP || (n->items[i]->kind == AWE_Y_SEQ && !is_flat(n->items[i])))
      return 0;
  return 1;
}

static void emit_flow(sbuf *b, const awe_ynode *n) {
  if (n->kind != AWE_Y_SEQ) {
    emit_scalar(b, n);
    return;
  }
  sb_str(b, "[");
  for (int i = 0; i < n->n; i++) {
    if (i) sb_str(b, ", ");
    emit_flow(b, n->items[i]);
  }
  sb_str(b, "]");
}

static void indent(sbuf *b, int k) {
  for (int i = 0; i < k; i++) sb_str(b, "  ");
}

static void emit_node(sbuf *b, const awe_ynode *n, int ind, int depth) {
  if (depth > AWE_YAML_MAX_DEPTH) return;
  if (n->kind == AWE_Y_MAP) {
    if (n->n == 0) {
      sb_str(b, "{}\n");
      return;
    }
    for (int i = 0; i < n->n; i++) {
      indent(b, ind);
      emit_scalar(b, n->keys[i]);
      const awe_ynode *v = n->items[i];
      if (v->kind == AWE_Y_MAP && v->n > 0) {
        sb_str(b, ":\n");
        emit_node(b, v, ind + 1, depth + 1);
      } else if (v->kind == AWE_Y_SEQ && !is_flat(v)) {
        sb_str(b, ":\n");
        emit_node(b, v, ind + 1, depth + 1);
      } else {
        sb_str(b, ": ");
        if (v->kind == AWE_Y_MAP) sb_str(b, "{}");
        else emit_flow(b, v);
        sb_str(b, "\n");
      }
    }
  } else if (n->kind == AWE_Y_SEQ) {
    if (is_flat(n)) {
      indent(b, ind);
      emit_flow(b, n);
      sb_str(b, "\n");
      return;
    }
    for (int i = 0; i < n->n; i++) {
      const awe_ynode *v = n->items[i];
      indent(b, ind);
      sb_str(b, "-");
      if (v->kind == AWE_Y_MAP && v->n > 0) {
        sb_str(b, "\n");
        emit_node(b, v, ind + 1, depth + 1);
      } else if (v->kind == AWE_Y_SEQ && !is_flat(v)) {
        sb_str(b, "\n");
        emit_node(b, v, ind + 1, depth + 1);
      } else {
        sb_str(b, " ");
        if (v->kind == AWE_Y_MAP) sb_str(b, "{}");
        else emit_flow(b, v);
        sb_str(b, "\n");
      }
    }
  } else {
    indent(b, ind);
    emit_scalar(b, n);
    sb_str(b, "\n");
  }
}

char *awe_ynode_emit(const awe_ynode *root) {
  sbuf b = {0};
  sb_str(&b, "");
  if (root) emit_node(&b, root, 0, 0);
  if (b.overflow) {
    free(b.buf);
    const char *msg = "# (scenario too large to store)\n";
    char *r = malloc(strlen(msg) + 1);
    if (r) strcpy(r, msg);
    return r;
  }
  return b.buf;
}
