/* writer_hdf5.c: the HDF5 log (schema version 1). <hdf5.h> is included by h5_util.h (the
 * helpers this file and lin_output.c, the linear model file, share) and by sweep_h5.c (which
 * reads logs back for sweeps).
 *
 * Layout (T rows, growing; N components of a group; all float64, little-endian):
 *   /                   attrs awesim_version (str), schema_version (int32 1), status (str:
 *                       "running", then "complete" | "interrupted" | "failed"), t_end (float64,
 *                       last written time, NaN before the first row), solver, command_line,
 *                       error (str, failed runs only), plus keys set by awe_h5_set_attr_*
 *   /scenario           scalar string: the scenario YAML as run
 *   /topology           scalar string: the model's awesIO structure document (awesio_write.h;
 *                       SymbolicAWEModels keeps it under `topology` in its Arrow logs)
 *   /time               [T], attr units = "s"
 *   /GROUP              attr names: string array, component names in registry order (from
 *                       the group's first per-component dataset)
 *   /GROUP/VAR          one dataset per run of consecutive registry entries with equal
 *                       (group, var): dim 1 -> [T,N], dim 3 -> [T,N,3], dim 4 -> [T,N,4];
 *                       a group-level variable (empty component) -> [T] or [T,dim].
 *                       attr units; attr names too if its components differ from the group's.
 *                       Components of different units (the controllers of one run: a pid on
 *                       a length, another on an angle) give units = "mixed" and attr
 *                       component_units, one unit per component, as the CSV header has them.
 * Strings are fixed-length, NUL-padded, UTF-8 (what h5py writes; MATLAB reads them).
 *
 * Datasets are chunked along time, block_rows rows per chunk, uncompressed by default: shuffle
 * + deflate cost more than the physics of a typical run (2plate_parked, 600 s: 0.37 s of
 * physics, deflate 4 +0.45 s for a 1.6:1 ratio on simulation doubles); info->gzip_level 1..9
 * asks for shuffle + deflate (deflate alone with info->no_shuffle) when the filters are
 * available (H5Zfilter_avail). Rows are
 * buffered in memory ([block_rows][list size] doubles, allocated at open); a full block, or the
 * first row after AWE_H5_FLUSH_SECONDS of wall time since the last write, extends every
 * dataset, writes each dataset's columns gathered into one contiguous buffer (one plain
 * hyperslab per dataset and block: a strided memory selection made HDF5 iterate row by row),
 * updates t_end and calls H5Fflush. Block = chunk so that a compressed chunk is compressed once
 * (a partial block, written on the time bound, is rewritten when the block completes). A
 * killed run therefore loses at most the unflushed block: at most block_rows rows and at most
 * the rows of the last second of wall time; awe_h5_flush forces a partial block out.
 * Between blocks the file is not touched, so a process killed there leaves a file that opens
 * with every flushed row and status "running". Library-version bounds are (earliest, v1.8):
 * readable by HDF5 1.8+ and MATLAB, and no superblock "file open" flag that would make a
 * killed file need h5clear. Object timestamps are off, so identical writes give identical
 * bytes. HDF5's automatic error printing is switched off inside every call (library code
 * never prints); its innermost message goes into awe_err instead.
 */
#include "output/writer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output/out_file.h"

#include "output/h5_util.h"

#ifndef AWE_VERSION
#define AWE_VERSION "unknown"
#endif

enum { SCHEMA_VERSION = 1 };

typedef struct {
  hid_t id;       /* dataset */
  int rank;       /* 1..3 */
  hsize_t dims[3];/* dims[0] = rows in the file */
  int off, len;   /* slice of the out vector: len = N * dim scalars from off */
  int *coff;      /* or, when its components are not contiguous (output.channels left some
                   * out), each component's offset (ncomp of dim scalars); NULL = the slice */
  int ncomp, dim;
} dset;

struct awe_h5 {
  hid_t file;
  hid_t time;        /* /time */
  int nds;
  dset *ds;
  int size;          /* length of the out vector */
  int block;         /* rows per block */
  int gzip;          /* deflate level, 0 = none */
  int shuffle;       /* the shuffle filter before deflate */
  int nbuf;          /* rows buffered */
  hsize_t nrows;     /* rows in the file */
  double tlast;      /* time of the last row in the file */
  double *buf;       /* [block][size] */
  double *tbuf;      /* [block] */
  double *gbuf;      /* [block][longest dataset slice]: one dataset's columns, contiguous */
  double last_write; /* monotonic wall time of the last block written (s) */
  int broken;        /* a write failed: refuse further rows */
  int nospace;       /* the disk is full: nothing more may be written (see out_file.h) */
  awe_out_file of;   /* our lock on the path and the space reservations */
  char path[512];    /* for messages (shortened) */
};

/* Bytes kept reserved past the data for the closing writes (summary attributes, status,
   error message) and for the chunk index and attribute updates of one block. */
enum { CLOSE_RESERVE = 64 * 1024, BLOCK_OVERHEAD = 32 * 1024 };

/* monotonic wall time in seconds (0 if the clock fails: then only the row bound holds) */
static double now_s(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* ---- HDF5 error handling ---------------------------------------------------------------- */

typedef struct {
  char desc[400];
} walk_data;

static herr_t walk_cb(unsigned n, const H5E_error2_t *e, void *data) {
  (void)n;
  walk_data *w = data;
  if (e->desc && *e->desc) snprintf(w->desc, sizeof(w->desc), "%s", e->desc);
  return 0;
}


/* err = "what: <innermost HDF5 message>"; returns AWE_EIO. A system-call failure
 * ("unable to open file: name = 'x', errno = 2, error message = 'No such file or directory',
 * flags = ...") is shortened to "unable to open file: No such file or directory". */
static awe_status h5_fail(awe_err *err, const char *what) {
  walk_data w;
  w.desc[0] = 0;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk_cb, &w);
  if (!w.desc[0]) return awe_err_set(err, AWE_EIO, "%s", what);
  const char *sys = strstr(w.desc, "error message = '");
  if (sys) {
    sys += strlen("error message = '");
    int head = (int)strcspn(w.desc, ":,");
    int slen = (int)strcspn(sys, "'");
    return awe_err_set(err, AWE_EIO, "%s: %.*s: %.*s", what, head, w.desc, slen, sys);
  }
  return awe_err_set(err, AWE_EIO, "%s: %s", what, w.desc);
}

/* ---- attributes ------------------------------------------------------------------------- */

/* scalar numeric attribute; an existing one of the same type is overwritten in place (t_end
 * changes every block: no delete/create churn in the object header) */
static int put_num_attr(hid_t loc, const char *name, hid_t ftype, hid_t mtype,
                        const void *value) {
  htri_t ex = H5Aexists(loc, name);
  if (ex < 0) return -1;
  if (ex > 0) {
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0) return -1;
    hid_t at = H5Aget_type(a), as = H5Aget_space(a);
    int same = at >= 0 && as >= 0 && H5Tequal(at, ftype) > 0 &&
               H5Sget_simple_extent_type(as) == H5S_SCALAR;
    int rc = same ? (H5Awrite(a, mtype, value) < 0 ? -1 : 0) : 0;
    if (at >= 0) H5Tclose(at);
    if (as >= 0) H5Sclose(as);
    if (H5Aclose(a) < 0) rc = -1;
    if (same || rc) return rc;
  }
  hid_t s = H5Screate(H5S_SCALAR);
  if (s < 0) return -1;
  int rc = awe_h5_put_attr(loc, name, ftype, mtype, s, value);
  H5Sclose(s);
  return rc;
}


/* string-array attribute `name` on loc: the component names (units = 0) or units (1) of vars
 * v[0 .. n) */
static int put_comp_attr(hid_t loc, const char *name, const awe_var *v, int n, int units) {
  if (n < 1) return -1;
  size_t w = 1;
  for (int i = 0; i < n; i++) {
    size_t l = strlen(units ? v[i].unit : v[i].comp);
    if (l > w) w = l;
  }
  char *buf = calloc((size_t)n, w);
  if (!buf) return -1;
  for (int i = 0; i < n; i++) {
    const char *x = units ? v[i].unit : v[i].comp;
    memcpy(buf + (size_t)i * w, x, strlen(x));
  }
  hsize_t dim = (hsize_t)n;
  hid_t t = awe_h5_str_type(w), s = H5Screate_simple(1, &dim, NULL);
  int rc = (t < 0 || s < 0) ? -1 : awe_h5_put_attr(loc, name, t, t, s, buf);
  if (t >= 0) H5Tclose(t);
  if (s >= 0) H5Sclose(s);
  free(buf);
  return rc;
}

/* ---- layout ----------------------------------------------------------------------------- */

/* a run of consecutive logged registry entries with equal (group, var) */
typedef struct {
  int first, n;  /* entries v[first .. first+n) */
  int grouplevel;/* empty component name */
  int mixed;     /* its components' units differ */
} run;

static int is_log(const awe_var *v) { return (v->flags & AWE_VF_LOG) != 0; }
static int no_comp(const awe_var *v) { return !v->comp || !*v->comp; }


/* split the list into runs; returns the count or -1 with err set. runs may be NULL (count). */
static int find_runs(const awe_varlist *l, run *runs, awe_err *err) {
  int nr = 0;
  for (int i = 0; i < l->n;) {
    const awe_var *a = &l->v[i];
    if (!is_log(a)) {
      i++;
      continue;
    }
    if (a->dim < 1 || !a->group || !*a->group || !a->var || !*a->var || !a->unit) {
      awe_err_set(err, AWE_EINTERNAL, "registry: output %d has no group, var, unit or dim", i);
      return -1;
    }
    int j = i + 1, mixed = 0;
    if (!no_comp(a)) {
      for (; j < l->n; j++) {
        const awe_var *b = &l->v[j];
        if (!is_log(b) || strcmp(b->group, a->group) || strcmp(b->var, a->var)) break;
        /* components left out of the log (output.channels) leave gaps */
        if (no_comp(b) || b->dim != a->dim || b->offset < l->v[j - 1].offset + a->dim) {
          awe_err_set(err, AWE_EINTERNAL,
                      "registry: %s.%s entries differ in component or dim, or are not "
                      "contiguous", a->group, a->var);
          return -1;
        }
        mixed |= strcmp(b->unit, a->unit) != 0;
      }
    }
    for (int r = 0; r < nr && runs; r++) {
      const awe_var *b = &l->v[runs[r].first];
      if (!strcmp(b->group, a->group) && !strcmp(b->var, a->var)) {
        awe_err_set(err, AWE_EINTERNAL, "registry: %s.%s is not one consecutive run", a->group,
                    a->var);
        return -1;
      }
    }
    if (a->offset < 0 || l->v[j - 1].offset + a->dim > l->size) {
      awe_err_set(err, AWE_EINTERNAL, "registry: %s.%s lies outside the vector", a->group,
                  a->var);
      return -1;
    }
    if (runs) {
      runs[nr].first = i;
      runs[nr].n = j - i;
      runs[nr].grouplevel = no_comp(a);
      runs[nr].mixed = mixed;
    }
    nr++;
    i = j;
  }
  return nr;
}


/* dataset name under loc, chunked along time, [0, inner...] growing */
static hid_t make_dataset(hid_t loc, const char *name, int rank, const hsize_t *inner, int block,
                          int gzip, int shuffle, const char *unit) {
  hsize_t dims[3] = {0, 0, 0}, maxd[3], chunk[3];
  dims[0] = 0;
  maxd[0] = H5S_UNLIMITED;
  chunk[0] = (hsize_t)block;
  for (int k = 1; k < rank; k++) dims[k] = maxd[k] = chunk[k] = inner[k - 1];
  hid_t space = H5Screate_simple(rank, dims, maxd);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
  hid_t d = -1;
  if (space < 0 || dcpl < 0 || dapl < 0) goto done;
  if (H5Pset_chunk(dcpl, rank, chunk) < 0 || H5Pset_obj_track_times(dcpl, 0) < 0) goto done;
  /* chunks are written whole and never read back: no chunk cache, so memory stays flat in the
     length of the run */
  if (H5Pset_chunk_cache(dapl, 0, 0, 1.0) < 0) goto done;
  if (gzip > 0 && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
    if (shuffle && H5Zfilter_avail(H5Z_FILTER_SHUFFLE) > 0 && H5Pset_shuffle(dcpl) < 0)
      goto done;
    if (H5Pset_deflate(dcpl, (unsigned)gzip) < 0) goto done;
  }
  d = H5Dcreate2(loc, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, dapl);
  if (d >= 0 && awe_h5_put_str_attr(d, "units", unit) < 0) {
    H5Dclose(d);
    d = -1;
  }
done:
  if (dapl >= 0) H5Pclose(dapl);
  if (dcpl >= 0) H5Pclose(dcpl);
  if (space >= 0) H5Sclose(space);
  return d;
}


/* /scenario, /topology: scalar string datasets */
static int write_text(hid_t file, const char *name, const char *text) {
  if (!text) text = "";
  size_t n = strlen(text);
  hid_t t = awe_h5_str_type(n), s = H5Screate(H5S_SCALAR), dcpl = H5Pcreate(H5P_DATASET_CREATE);
  int rc = -1;
  if (t >= 0 && s >= 0 && dcpl >= 0 && H5Pset_obj_track_times(dcpl, 0) >= 0) {
    hid_t d = H5Dcreate2(file, name, t, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d >= 0) {
      /* an empty text is written from a one-byte NUL buffer (the type has size 1) */
      rc = H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, text) < 0 ? -1 : 0;
      if (H5Dclose(d) < 0) rc = -1;
    }
  }
  if (dcpl >= 0) H5Pclose(dcpl);
  if (s >= 0) H5Sclose(s);
  if (t >= 0) H5Tclose(t);
  return rc;
}


static int same_comps(const awe_var *a, int na, const awe_var *b, int nb) {
  if (na != nb) return 0;
  for (int i = 0; i < na; i++)
    if (strcmp(a[i].comp, b[i].comp)) return 0;
  return 1;
}


/* HDF5 group for runs[r] (created with its names on first use); returns an id to close */
static hid_t open_group(hid_t file, const awe_varlist *l, const run *runs, int r,
                        int *names_run) {
  const awe_var *a = &l->v[runs[r].first];
  int prev = -1;  /* the latest earlier run in the same group */
  for (int q = r - 1; q >= 0 && prev < 0; q--)
    if (!strcmp(l->v[runs[q].first].group, a->group)) prev = q;
  hid_t g;
  if (prev < 0) {
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    if (gcpl < 0) return -1;
    g = H5Pset_obj_track_times(gcpl, 0) < 0
            ? -1
            : H5Gcreate2(file, a->group, H5P_DEFAULT, gcpl, H5P_DEFAULT);
    H5Pclose(gcpl);
    names_run[r] = -1;
  } else {
    g = H5Gopen2(file, a->group, H5P_DEFAULT);
    names_run[r] = names_run[prev];
  }
  if (g < 0) return g;
  if (names_run[r] < 0 && !runs[r].grouplevel) {
    /* the group's first per-component dataset names the group */
    if (put_comp_attr(g, "names", a, runs[r].n, 0) < 0) {
      H5Gclose(g);
      return -1;
    }
    names_run[r] = r;
  }
  return g;
}


static awe_status create_layout(awe_h5 *w, const awe_varlist *l, const run *runs, int nr,
                                const awe_h5_info *info, awe_err *err) {
  hid_t f = w->file;
  int schema = SCHEMA_VERSION;
  double t_nan = NAN;
  if (awe_h5_put_str_attr(f, "awesim_version", AWE_VERSION) < 0 ||
      put_num_attr(f, "schema_version", H5T_STD_I32LE, H5T_NATIVE_INT, &schema) < 0 ||
      awe_h5_put_str_attr(f, "status", "running") < 0 ||
      put_num_attr(f, "t_end", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &t_nan) < 0 ||
      awe_h5_put_str_attr(f, "solver", info ? info->solver : NULL) < 0 ||
      awe_h5_put_str_attr(f, "command_line", info ? info->command_line : NULL) < 0)
    return h5_fail(err, "cannot write the root attributes");
  if (write_text(f, "scenario", info ? info->scenario : NULL) < 0)
    return h5_fail(err, "cannot write /scenario");
  if (info && info->topology && write_text(f, "topology", info->topology) < 0)
    return h5_fail(err, "cannot write /topology");
  w->time = make_dataset(f, "time", 1, NULL, w->block, w->gzip, w->shuffle, "s");
  if (w->time < 0) return h5_fail(err, "cannot create /time");

  int *names_run = malloc((size_t)(nr ? nr : 1) * sizeof(int));
  if (!names_run) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  awe_status st = AWE_OK;
  for (int r = 0; r < nr && !st; r++) {
    const awe_var *a = &l->v[runs[r].first];
    dset *d = &w->ds[r];
    d->off = a->offset;
    d->len = runs[r].n * a->dim;
    d->ncomp = runs[r].n;
    d->dim = a->dim;
    if (l->v[runs[r].first + runs[r].n - 1].offset != a->offset + d->len - a->dim) {
      d->coff = malloc((size_t)runs[r].n * sizeof(int));
      if (!d->coff) {
        st = awe_err_set(err, AWE_ENOMEM, "out of memory");
        break;
      }
      for (int c = 0; c < runs[r].n; c++) d->coff[c] = l->v[runs[r].first + c].offset;
    }
    hsize_t inner[2] = {0, 0};
    if (runs[r].grouplevel) {
      d->rank = a->dim == 1 ? 1 : 2;
      inner[0] = (hsize_t)a->dim;
    } else {
      d->rank = a->dim == 1 ? 2 : 3;
      inner[0] = (hsize_t)runs[r].n;
      inner[1] = (hsize_t)a->dim;
    }
    d->dims[0] = 0;
    d->dims[1] = d->rank > 1 ? inner[0] : 0;
    d->dims[2] = d->rank > 2 ? inner[1] : 0;

    char what[320];
    snprintf(what, sizeof(what), "cannot create /%s/%s", a->group, a->var);
    hid_t g = open_group(f, l, runs, r, names_run);
    if (g < 0) {
      st = h5_fail(err, what);
      break;
    }
    d->id = make_dataset(g, a->var, d->rank, inner, w->block, w->gzip, w->shuffle,
                         runs[r].mixed ? "mixed" : a->unit);
    if (d->id >= 0 && runs[r].mixed &&
        put_comp_attr(d->id, "component_units", a, runs[r].n, 1) < 0) {
      st = h5_fail(err, what);
    } else if (d->id < 0) {
      st = h5_fail(err, what);
    } else if (!runs[r].grouplevel && names_run[r] != r) {
      const run *q = &runs[names_run[r]];
      if (!same_comps(&l->v[q->first], q->n, a, runs[r].n) &&
          put_comp_attr(d->id, "names", a, runs[r].n, 0) < 0)
        st = h5_fail(err, what);
    }
    H5Gclose(g);
  }
  free(names_run);
  return st;
}

static awe_status attr_fail(awe_err *err, const char *key) {
  char what[300];
  snprintf(what, sizeof(what), "cannot write attribute %s", key);
  return h5_fail(err, what);
}

/* ---- public API ------------------------------------------------------------------------- */

const char *awe_run_status_name(awe_run_status s) {
  switch (s) {
    case AWE_RUN_COMPLETE: return "complete";
    case AWE_RUN_INTERRUPTED: return "interrupted";
    case AWE_RUN_FAILED: return "failed";
    case AWE_RUN_CRASHED: return "crashed";
  }
  return "failed";
}


/* Our own flock (out_file.c) guards the path; HDF5's flock on its own descriptor would
   collide with it inside this process, so HDF5's file locking is switched off. */
static int no_locking(hid_t fapl) {
#if H5_VERSION_GE(1, 10, 7)
  return H5Pset_file_locking(fapl, 0, 1) < 0;
#else
  (void)fapl;
  return 0;
#endif
}


/* a reservation failed: nothing more is written; returns AWE_EIO */
static awe_status space_fail(awe_h5 *w, int errnum, awe_err *err) {
  w->broken = 1;
  w->nospace = 1;
  if (w->nrows == 0)
    return awe_err_set(err, AWE_EIO, "%s: %s: the log holds no rows", w->path,
                       strerror(errnum));
  return awe_err_set(err, AWE_EIO, "%s: %s: the log keeps the %llu rows written before "
                     "(t <= %.9g s)", w->path, strerror(errnum), (unsigned long long)w->nrows,
                     w->tlast);
}


static void free_writer(awe_h5 *w) {
  for (int i = 0; i < w->nds; i++) {
    if (w->ds[i].id >= 0) H5Dclose(w->ds[i].id);
    free(w->ds[i].coff);
  }
  if (w->time >= 0) H5Dclose(w->time);
  if (w->file >= 0) H5Fclose(w->file);
  awe_out_file_release(&w->of);
  free(w->ds);
  free(w->buf);
  free(w->tbuf);
  free(w->gbuf);
  free(w);
}


static int auto_block(int nscalar) {
  long row_bytes = 8L * (nscalar + 1);
  long b = 262144L / row_bytes;
  if (b < 64) b = 64;
  if (b > 4096) b = 4096;
  return (int)b;
}


static awe_h5 *h5_open(const char *path, const awe_varlist *vars, const awe_h5_info *info,
                       awe_err *err);

awe_h5 *awe_h5_open(const char *path, const awe_varlist *vars, const awe_h5_info *info,
                    awe_err *err) {
  /* the logged entries alone: a (group, var) whose middle components are not logged is still
     one run of consecutive entries */
  awe_varlist l = {.size = vars->size};
  l.v = malloc((size_t)(vars->n ? vars->n : 1) * sizeof(awe_var));
  if (!l.v) {
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  for (int i = 0; i < vars->n; i++)
    if (is_log(&vars->v[i])) l.v[l.n++] = vars->v[i];
  l.cap = l.n;
  awe_h5 *w = h5_open(path, &l, info, err);
  free(l.v);
  return w;
}


static awe_h5 *h5_open(const char *path, const awe_varlist *vars, const awe_h5_info *info,
                       awe_err *err) {
  int nr = find_runs(vars, NULL, err);
  if (nr < 0) return NULL;
  awe_h5 *w = calloc(1, sizeof(*w));
  run *runs = malloc((size_t)(nr ? nr : 1) * sizeof(run));
  if (!w || !runs) {
    free(w);
    free(runs);
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  w->file = w->time = -1;
  w->of.fd = -1;
  snprintf(w->path, sizeof(w->path), "%s", path);
  if (strlen(path) >= sizeof(w->path)) memcpy(w->path + sizeof(w->path) - 4, "...", 4);
  if (find_runs(vars, runs, err) != nr) {
    free(runs);
    free(w);
    return NULL;
  }
  int nlog = 0;
  for (int r = 0; r < nr; r++) nlog += runs[r].n * vars->v[runs[r].first].dim;
  w->size = vars->size;
  w->block = info && info->block_rows > 0 ? info->block_rows : auto_block(nlog);
  if (w->block > 65536) w->block = 65536;
  int gz = info ? info->gzip_level : 0;
  w->gzip = gz <= 0 ? 0 : gz > 9 ? 9 : gz;
  w->shuffle = !(info && info->no_shuffle);
  int maxlen = 1;
  for (int r = 0; r < nr; r++)
    if (runs[r].n * vars->v[runs[r].first].dim > maxlen)
      maxlen = runs[r].n * vars->v[runs[r].first].dim;
  w->ds = calloc((size_t)(nr ? nr : 1), sizeof(dset));
  w->buf = malloc((size_t)w->block * (size_t)(w->size ? w->size : 1) * sizeof(double));
  w->tbuf = malloc((size_t)w->block * sizeof(double));
  w->gbuf = malloc((size_t)w->block * (size_t)maxlen * sizeof(double));
  if (!w->ds || !w->buf || !w->tbuf || !w->gbuf) {
    free(runs);
    free(w->ds);
    free(w->buf);
    free(w->tbuf);
    free(w->gbuf);
    free(w);
    awe_err_set(err, AWE_ENOMEM, "out of memory");
    return NULL;
  }
  for (int r = 0; r < nr; r++) w->ds[r].id = -1;
  w->nds = nr;

  /* claim the path before HDF5 touches it: a locked file is refused untouched */
  if (awe_out_file_claim(&w->of, path, err)) {
    free(runs);
    free(w->ds);
    free(w->buf);
    free(w->tbuf);
    free(w->gbuf);
    free(w);
    return NULL;
  }
  /* what the layout needs: metadata, the scenario text, one object header per dataset */
  long long need = BLOCK_OVERHEAD + CLOSE_RESERVE + 4096LL * (nr + 1) +
                   (info && info->scenario ? 2 * (long long)strlen(info->scenario) : 0) +
                   (info && info->topology ? 2 * (long long)strlen(info->topology) : 0);
  long long avail = awe_out_file_free_bytes(&w->of);
  if (avail >= 0 && avail < need) {
    awe_err_set(err, AWE_EIO, "%s: No space left on device (the log needs about %lld KiB to "
                "start, %lld KiB are free)", w->path, need / 1024, avail / 1024);
    unlink(path);
    free(runs);
    free_writer(w);
    return NULL;
  }

  awe_h5_quiet q;
  awe_h5_quiet_on(&q);
  awe_status st = AWE_OK;
  /* HDF5 keeps freed internal blocks on free lists without bound; cap them (a library-wide
     setting, the same for every file) so memory stays flat in the length of the run */
  H5set_free_list_limits(1 << 20, 64 << 10, 1 << 20, 64 << 10, 1 << 20, 64 << 10);
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  /* a small, fixed metadata cache: the chunk index grows with the run, memory must not */
  H5AC_cache_config_t mdc;
  memset(&mdc, 0, sizeof(mdc));
  mdc.version = H5AC__CURR_CACHE_CONFIG_VERSION;
  int mdc_ok = fapl >= 0 && H5Pget_mdc_config(fapl, &mdc) >= 0;
  if (mdc_ok) {
    mdc.set_initial_size = 1;
    mdc.initial_size = 256 * 1024;
    mdc.min_size = 128 * 1024;
    mdc.max_size = 512 * 1024;
    mdc.incr_mode = H5C_incr__off;
    mdc.flash_incr_mode = H5C_flash_incr__off;
    mdc.decr_mode = H5C_decr__off;
    mdc_ok = H5Pset_mdc_config(fapl, &mdc) >= 0;
  }
  if (fapl < 0 || !mdc_ok ||
      /* the 1.8 format at least: a component-name attribute past 64 KiB (more than ~2,700
         named components) goes to dense storage instead of failing late */
      H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0 || no_locking(fapl)) {
    st = h5_fail(err, "cannot set up HDF5");
  } else {
    /* no time stamps in the root group's header either: the same run, the same bytes */
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    if (fcpl >= 0) H5Pset_obj_track_times(fcpl, 0);
    w->file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl >= 0 ? fcpl : H5P_DEFAULT, fapl);
    if (fcpl >= 0) H5Pclose(fcpl);
    if (w->file < 0) {
      char what[600];
      snprintf(what, sizeof(what), "cannot create %s", w->path);
      st = h5_fail(err, what);
    } else if (awe_out_file_reserve(&w->of, need) != 0) {
      st = space_fail(w, errno, err);
    }
  }
  if (fapl >= 0) H5Pclose(fapl);
  if (!st) st = create_layout(w, vars, runs, nr, info, err);
  if (!st && H5Fflush(w->file, H5F_SCOPE_GLOBAL) < 0) st = h5_fail(err, "cannot flush");
  if (!st) w->last_write = now_s();
  if (st) {
    free_writer(w);
    unlink(path);  /* we hold the claim: the half-made file is ours, and useless */
    w = NULL;
  }
  awe_h5_quiet_off(&q);
  free(runs);
  return w;
}


/* write the buffered rows as one block, update t_end, flush; HDF5 errors stay on the stack */
/* Returns 0, -1 (HDF5 error on its stack) or -2 (no disk space for the block: errno set,
   nothing written). */
static int write_block(awe_h5 *w) {
  if (w->nbuf == 0) return 0;
  hsize_t n0 = w->nrows, nb = (hsize_t)w->nbuf, n1 = n0 + nb;
  int rc = 0;
  /* uncompressed size is the bound (deflate falls back to raw for incompressible chunks) */
  long long raw = (long long)w->nbuf * (w->size + 1) * (long long)sizeof(double);
  if (awe_out_file_reserve(&w->of, raw + raw / 8 + BLOCK_OVERHEAD + CLOSE_RESERVE) != 0)
    return -2;

  /* /time */
  hid_t ms = H5Screate_simple(1, &nb, NULL), fs = -1;
  if (ms < 0 || H5Dset_extent(w->time, &n1) < 0 || (fs = H5Dget_space(w->time)) < 0 ||
      H5Sselect_hyperslab(fs, H5S_SELECT_SET, &n0, NULL, &nb, NULL) < 0 ||
      H5Dwrite(w->time, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, w->tbuf) < 0)
    rc = -1;
  if (fs >= 0) H5Sclose(fs);
  if (ms >= 0) H5Sclose(ms);

  /* the buffer is [block][size]; each dataset is the column slice [off, off+len) of its rows,
     gathered into gbuf so that HDF5 sees one contiguous block */
  for (int i = 0; i < w->nds && !rc; i++) {
    dset *d = &w->ds[i];
    hsize_t dims[3] = {n1, d->dims[1], d->dims[2]};
    hsize_t start[3] = {n0, 0, 0}, count[3] = {nb, d->dims[1], d->dims[2]};
    for (int r = 0; r < w->nbuf; r++) {
      double *to = w->gbuf + (size_t)r * (size_t)d->len;
      const double *row = w->buf + (size_t)r * (size_t)w->size;
      if (!d->coff) {
        memcpy(to, row + d->off, (size_t)d->len * sizeof(double));
        continue;
      }
      for (int c = 0; c < d->ncomp; c++)
        memcpy(to + (size_t)c * (size_t)d->dim, row + d->coff[c],
               (size_t)d->dim * sizeof(double));
    }
    /* the memory space has the file selection's shape: HDF5 then maps it without walking
       element by element */
    ms = H5Screate_simple(d->rank, count, NULL);
    fs = -1;
    if (ms < 0 || H5Dset_extent(d->id, dims) < 0 || (fs = H5Dget_space(d->id)) < 0 ||
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
        H5Dwrite(d->id, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, w->gbuf) < 0)
      rc = -1;
    if (fs >= 0) H5Sclose(fs);
    if (ms >= 0) H5Sclose(ms);
    d->dims[0] = n1;
  }
  double t_end = w->tbuf[w->nbuf - 1];
  if (!rc) rc = put_num_attr(w->file, "t_end", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &t_end);
  if (!rc && H5Fflush(w->file, H5F_SCOPE_GLOBAL) < 0) rc = -1;
  if (rc) {
    w->broken = 1;
    return -1;
  }
  w->nrows = n1;
  w->tlast = t_end;
  w->nbuf = 0;
  w->last_write = now_s();
  return 0;
}


/* write_block with its error turned into err */
static awe_status put_block(awe_h5 *w, awe_err *err) {
  int rc = write_block(w);
  if (rc == -2) return space_fail(w, errno, err);
  if (rc < 0) {
    char what[600];
    snprintf(what, sizeof(what), "cannot write the HDF5 log %s", w->path);
    return h5_fail(err, what);
  }
  return AWE_OK;
}


/* room for a small metadata write (an attribute); 0 or AWE_EIO with nospace set */
static awe_status small_write_ok(awe_h5 *w, awe_err *err) {
  if (w->nospace) return AWE_EIO;  /* already reported; keep that message in err */
  if (awe_out_file_reserve(&w->of, CLOSE_RESERVE) != 0) return space_fail(w, errno, err);
  return AWE_OK;
}


awe_status awe_h5_write_row(awe_h5 *w, double t, const double *out, awe_err *err) {
  if (!w) return AWE_OK;
  if (w->broken) return awe_err_set(err, AWE_EIO, "HDF5 log: an earlier write failed");
  w->tbuf[w->nbuf] = t;
  if (w->size)
    memcpy(w->buf + (size_t)w->nbuf * (size_t)w->size, out, (size_t)w->size * sizeof(double));
  w->nbuf++;
  if (w->nbuf < w->block && now_s() - w->last_write < AWE_H5_FLUSH_SECONDS) return AWE_OK;
  return awe_h5_flush(w, err);
}


awe_status awe_h5_flush(awe_h5 *w, awe_err *err) {
  if (!w) return AWE_OK;
  if (w->broken) return awe_err_set(err, AWE_EIO, "HDF5 log: an earlier write failed");
  awe_h5_quiet q;
  awe_h5_quiet_on(&q);
  awe_status st = put_block(w, err);
  awe_h5_quiet_off(&q);
  return st;
}


long awe_h5_rows(const awe_h5 *w) { return w ? (long)w->nrows + w->nbuf : 0; }


awe_status awe_h5_set_attr_str(awe_h5 *w, const char *key, const char *value, awe_err *err) {
  if (!w) return AWE_OK;
  if (small_write_ok(w, err)) return AWE_EIO;
  awe_h5_quiet q;
  awe_h5_quiet_on(&q);
  awe_status st = awe_h5_put_str_attr(w->file, key, value) < 0 ? attr_fail(err, key) : AWE_OK;
  awe_h5_quiet_off(&q);
  return st;
}


awe_status awe_h5_set_attr_double(awe_h5 *w, const char *key, double value, awe_err *err) {
  if (!w) return AWE_OK;
  if (small_write_ok(w, err)) return AWE_EIO;
  awe_h5_quiet q;
  awe_h5_quiet_on(&q);
  awe_status st =
      put_num_attr(w->file, key, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value) < 0
          ? attr_fail(err, key)
          : AWE_OK;
  awe_h5_quiet_off(&q);
  return st;
}


awe_status awe_h5_set_attr_int(awe_h5 *w, const char *key, long long value, awe_err *err) {
  if (!w) return AWE_OK;
  if (small_write_ok(w, err)) return AWE_EIO;
  awe_h5_quiet q;
  awe_h5_quiet_on(&q);
  awe_status st =
      put_num_attr(w->file, key, H5T_STD_I64LE, H5T_NATIVE_LLONG, &value) < 0
          ? attr_fail(err, key)
          : AWE_OK;
  awe_h5_quiet_off(&q);
  return st;
}


awe_status awe_h5_close(awe_h5 *w, awe_run_status status, const char *message, awe_err *err) {
  if (!w) return AWE_OK;
  awe_h5_quiet q;
  awe_h5_quiet_on(&q);
  awe_status st = AWE_OK;
  if (!w->broken) st = put_block(w, err);
  if (w->nospace) st = AWE_EIO;  /* err was set when the space ran out */
  /* the status goes in even when the data could not: a reader must not see "complete";
     on a full disk only if the space kept for it is still there (else it stays "running") */
  awe_run_status final = st ? AWE_RUN_FAILED : status;
  int can_write = !w->nospace || awe_out_file_reserve(&w->of, CLOSE_RESERVE / 2) == 0;
  if (can_write && awe_h5_put_str_attr(w->file, "status", awe_run_status_name(final)) < 0 && !st)
    st = h5_fail(err, "cannot write the status");
  if (can_write && final == AWE_RUN_FAILED && (message || st)) {
    const char *msg = message ? message : (err ? err->msg : "write error");
    if (awe_h5_put_str_attr(w->file, "error", msg) < 0 && !st)
      st = h5_fail(err, "cannot write the error message");
  }
  for (int i = 0; i < w->nds; i++) {
    if (w->ds[i].id >= 0 && H5Dclose(w->ds[i].id) < 0 && !st) st = h5_fail(err, "close");
    w->ds[i].id = -1;
  }
  if (w->time >= 0 && H5Dclose(w->time) < 0 && !st) st = h5_fail(err, "close");
  w->time = -1;
  if (w->file >= 0 && H5Fclose(w->file) < 0 && !st) st = h5_fail(err, "cannot close the file");
  w->file = -1;
  free_writer(w);
  awe_h5_quiet_off(&q);
  return st;
}
