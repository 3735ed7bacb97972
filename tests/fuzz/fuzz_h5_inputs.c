/* fuzz_h5_inputs.c: the HDF5 files awesim reads but may not have written, each handed to every
 * reader (io/h5_read.h underneath): the log of `linearize --along` and the replay
 * (output/log_read.c, with all of the pendulum model's output channels), the run log a sweep
 * merges (sweep/sweep_h5.c), the trim of `--from` (output/trim_file.c) and the .h5 wind box
 * (io/wind_box_read.c).
 *
 * The input is a recipe, not the file's bytes: a list of datasets and attributes, each with a
 * name (one the readers look for), a type (float or integer of either byte order, fixed or
 * variable-length string), a rank, extents (small, or up to 2^62: such datasets are chunked and
 * never written, so the file stays small and only a reader that trusts the extents allocates)
 * and data. The harness writes that file with HDF5 and runs the readers on it. So the shapes,
 * types and sizes the readers must check are what is fuzzed, not HDF5's own parser (libhdf5
 * 1.10 crashes on many corrupt files: that is HDF5's attack surface, not awesim's; a reader
 * cannot defend against it). The file lives in memory (HDF5's core driver) and each reader's
 * open-file entry point reads it; the path entry points only add H5Fopen/H5Fclose. Seeds (tests/fuzz/seeds_h5_inputs/) are recipes of files awesim
 * writes: a pendulum log, its trim, a wind box (made by tests/fuzz/h5_recipe.py, which turns an
 * HDF5 file into a recipe; its name list is this file's fixed_names).
 *
 * Recipe: byte count of objects, then per object
 *   name byte (index into names[], mod; bit 7: an attribute, on the root when the name is a
 *   root attribute, else on the last dataset), type byte (file_type below; a fixed string's
 *   width follows, 1..255), rank byte (mod 5; 0 a scalar), one byte per extent (< 200: itself; else
 *   big[] below), then the data (the elements' bytes in order while the input lasts, zeros
 *   after; variable-length strings take up to 24 bytes each, to a NUL).
 */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/linearize.h"
#include "fuzz.h"
#include "io/load.h"
#include "io/wind_box_read.h"
#include "model/model.h"
#include "output/log_read.h"
#include "output/trim_file.h"
#include "sweep/sweep.h"

/* the harness's own state, made once (libFuzzer runs one input at a time) */
static awe_spec *spec;
static awe_model *model;
static awe_lin_chan *ychan;
static int ny;
static char path_log[64], path_box[64];
static const char *names[96];
static int nnames;

static const char *const fixed_names[] = {
    "time", "scenario", "x", "x_names", "u", "u_names", "v", "w", "winches/force",
    "winches/vel", "segments/force", "wings/elevation", "points/pos", "status", "units", "d",
    "origin", "periodic_x", "gamma", "length", "ae", "ti", "v_ref", "h_ref", "seed",
    "awesim_version", "t_trim", "points/force", "points/vel", "segments/len"};

static const unsigned long long big[] = {
    200,      255,      256,      1000,         4096,         65535,         65536,
    1u << 20, 1u << 21, 1u << 22, 1ull << 30,   1ull << 31,   1ull << 32,    1ull << 40,
    1ull << 61, 1ull << 62, 3037000500ull, 2642246ull, 46341, 1ull << 33};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  /* HDF5's free lists keep freed blocks instead of freeing them: every input then ended with
   * more mallocs than frees, and libFuzzer ran a full leak scan after each (a third of the
   * time). Without them a leak of the readers still shows */
  H5set_free_list_limits(0, 0, 0, 0, 0, 0);
  /* a small budget: the readers must refuse what passes it before allocating (run.sh's
   * -malloc_limit_mb for this harness makes any larger allocation a failure) */
  setenv("AWESIM_MAX_MEMORY", "1M", 1);
  awe_err err = {0};
  awe_diag warn = {0};
  spec = awe_spec_load("scenarios/pendulum.yaml", 0, NULL, &warn, &err);
  awe_diag_free(&warn);
  model = spec ? awe_model_build(spec, &spec->warnings, &err) : NULL;
  if (!model) {
    fprintf(stderr, "fuzz_h5_inputs: run from the repository (scenarios/pendulum.yaml): %s\n",
            err.msg);
    exit(2);
  }
  const awe_varlist *yl = &model->reg.output;
  ny = awe_lin_nchan(yl);
  ychan = malloc(sizeof(*ychan) * (size_t)(ny + 1));
  awe_lin_channels(yl, ychan);
  for (size_t i = 0; i < sizeof(fixed_names) / sizeof(*fixed_names); i++)
    names[nnames++] = fixed_names[i];
  /* the model's own channels, "group/var", each once */
  static char chan[64][96];
  int nc = 0;
  for (int i = 0; i < yl->n && nc < 64 && nnames < 96; i++) {
    snprintf(chan[nc], sizeof(chan[nc]), "%s/%s", yl->v[i].group, yl->v[i].var);
    int dup = 0;
    for (int j = 0; j < nnames; j++) dup |= !strcmp(names[j], chan[nc]);
    if (!dup) names[nnames++] = chan[nc++];
  }
  /* names only: the file is built in memory and never written */
  snprintf(path_log, sizeof(path_log), "fuzz_h5_inputs_%d.h5", (int)getpid());
  snprintf(path_box, sizeof(path_box), "fuzz_h5_inputs_%d_box.h5", (int)getpid());
  return 0;
}

typedef struct {
  const uint8_t *p;
  size_t n;
} in_t;

static int byte(in_t *in) {
  if (!in->n) return -1;
  in->n--;
  return *in->p++;
}

static int is_root_attr(const char *name) {
  return !strcmp(name, "status") || !strcmp(name, "d") || !strcmp(name, "origin") ||
         !strcmp(name, "periodic_x") || !strcmp(name, "gamma") || !strcmp(name, "length") ||
         !strcmp(name, "ae") || !strcmp(name, "ti") || !strcmp(name, "v_ref") ||
         !strcmp(name, "h_ref") || !strcmp(name, "seed") || !strcmp(name, "awesim_version") ||
         !strcmp(name, "t_trim");
}

/* the file type of type byte t (width w for fixed strings); H5Tclose it */
static hid_t file_type(int t, int w) {
  switch (t % 9) {
  case 0: return H5Tcopy(H5T_IEEE_F64LE);
  case 1: return H5Tcopy(H5T_IEEE_F32LE);
  case 2: return H5Tcopy(H5T_STD_I32LE);
  case 3: return H5Tcopy(H5T_STD_U8LE);
  case 4: return H5Tcopy(H5T_STD_I64BE);
  case 5: return H5Tcopy(H5T_IEEE_F64BE);
  case 6:
  case 7: { /* UTF-8 as awesim writes, ASCII (as some tools do) when (t / 9) is odd */
    hid_t s = H5Tcopy(H5T_C_S1);
    H5Tset_size(s, t % 9 == 7 ? H5T_VARIABLE : (size_t)(w > 0 ? w : 1));
    H5Tset_cset(s, (t / 9) % 2 ? H5T_CSET_ASCII : H5T_CSET_UTF8);
    return s;
  }
  default: { /* a compound of two doubles: numeric-looking, but no number */
    hid_t c = H5Tcreate(H5T_COMPOUND, 16);
    H5Tinsert(c, "a", 0, H5T_IEEE_F64LE);
    H5Tinsert(c, "b", 8, H5T_IEEE_F64LE);
    return c;
  }
  }
}

/* write n elements of type ft from the input (zeros when it runs out) */
static void fill(hid_t obj, int is_attr, hid_t ft, size_t n, in_t *in) {
  if (H5Tis_variable_str(ft) > 0) {
    char **v = calloc(n ? n : 1, sizeof(char *));
    char *txt = calloc(n ? n : 1, 25);
    if (!v || !txt) goto done_v;
    for (size_t i = 0; i < n; i++) {
      char *s = txt + 25 * i;
      for (int k = 0; k < 24; k++) {
        int c = byte(in);
        if (c <= 0) break;
        s[k] = (char)c;
      }
      v[i] = s;
    }
    if (is_attr) H5Awrite(obj, ft, v);
    else H5Dwrite(obj, ft, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
  done_v:
    free(v);
    free(txt);
    return;
  }
  size_t es = H5Tget_size(ft), bytes = n * es;
  unsigned char *b = calloc(bytes ? bytes : 1, 1);
  if (!b) return;
  size_t take = bytes < in->n ? bytes : in->n;
  memcpy(b, in->p, take);
  in->p += take;
  in->n -= take;
  if (is_attr) H5Awrite(obj, ft, b);
  else H5Dwrite(obj, ft, H5S_ALL, H5S_ALL, H5P_DEFAULT, b);
  free(b);
}

static void build(hid_t f, in_t *in) {
  int nobj = byte(in);
  hid_t last = -1;
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  for (int o = 0; o < (nobj < 0 ? 0 : nobj % 32); o++) {
    int nb = byte(in), tb = byte(in);
    if (nb < 0 || tb < 0) break;
    int w = (tb % 9) == 6 ? byte(in) : 0;
    int rank = byte(in);
    if (rank < 0) break;
    rank %= 5;
    hsize_t dims[4], chunk[4];
    double total = 1;
    for (int i = 0; i < rank; i++) {
      int d = byte(in);
      if (d < 0) d = 2;
      dims[i] = d < 200 ? (hsize_t)d : (hsize_t)big[(d - 200) % (sizeof(big) / sizeof(*big))];
      chunk[i] = dims[i] < 16 ? (dims[i] ? dims[i] : 1) : 16;
      total *= (double)dims[i];
    }
    const char *name = names[(nb & 0x7f) % nnames];
    hid_t ft = file_type(tb, w);
    hid_t sp = rank ? H5Screate_simple(rank, dims, NULL) : H5Screate(H5S_SCALAR);
    if (nb & 0x80) { /* an attribute: small by HDF5's rule (64 KiB) */
      hid_t loc = is_root_attr(name) || last < 0 ? f : last;
      if (total <= 4096 && H5Aexists(loc, name) == 0) {
        hid_t a = H5Acreate2(loc, name, ft, sp, H5P_DEFAULT, H5P_DEFAULT);
        if (a >= 0) {
          fill(a, 1, ft, (size_t)total, in);
          H5Aclose(a);
        }
      }
    } else if (H5Lexists(f, name, H5P_DEFAULT) == 0 ||
               (strchr(name, '/') && H5Lexists(f, name, H5P_DEFAULT) <= 0)) {
      int huge = total > 4096; /* larger: chunked, never written (the input is at most 64 KiB) */
      hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
      /* no fill pass: what is written is the input (zeros where it ran out), and a fill pass
       * costs a 1 MiB buffer per dataset */
      H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
      if (huge && rank) H5Pset_chunk(dcpl, rank, chunk); /* never written: no chunk stored */
      hid_t d = H5Dcreate2(f, name, ft, sp, lcpl, dcpl, H5P_DEFAULT);
      if (d >= 0) {
        if (!huge && total > 0) fill(d, 0, ft, (size_t)total, in);
        if (last >= 0) H5Dclose(last);
        last = d;
      }
      H5Pclose(dcpl);
    }
    H5Sclose(sp);
    H5Tclose(ft);
  }
  if (last >= 0) H5Dclose(last);
  H5Pclose(lcpl);
}

/* The file each input is built in: in memory (the core driver, no backing store), read while
 * open through the readers' open-file entry points (their path entry points add only H5Fopen and
 * H5Fclose). It is kept open and emptied between inputs (every link and root attribute deleted),
 * and made anew every 4096 inputs to bound the free space it accumulates: a new file per input
 * costs a 0.5 MiB metadata-cache table that ASan maps fresh each time, 8 ms of the 9 ms an
 * input took. Readers see only the objects of the current input. */
static hid_t mem_file(void) {
  static hid_t f = -1;
  static unsigned uses;
  if (f >= 0 && ++uses % 4096 == 0) {
    H5Fclose(f);
    f = -1;
  }
  if (f < 0) {
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_core(fapl, 1 << 16, 0);
    f = H5Fcreate(path_log, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    return f;
  }
  hsize_t n = 0;
  H5G_info_t gi;
  if (H5Gget_info(f, &gi) >= 0) n = gi.nlinks;
  for (hsize_t i = 0; i < n; i++) /* index 0 each time: the list shrinks */
    H5Ldelete_by_idx(f, ".", H5_INDEX_NAME, H5_ITER_INC, 0, H5P_DEFAULT);
  H5O_info_t oi;
  if (H5Oget_info(f, &oi) >= 0)
    for (hsize_t i = 0; i < oi.num_attrs; i++)
      H5Adelete_by_idx(f, ".", H5_INDEX_NAME, H5_ITER_INC, 0, H5P_DEFAULT);
  return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  in_t in = {data, size};
  hid_t f = mem_file();
  if (f < 0) return 0;
  build(f, &in);
  H5Fflush(f, H5F_SCOPE_GLOBAL);

  /* FUZZ_H5_VERBOSE=1: what each reader said (to see that the seeds read as they should) */
  int verbose = getenv("FUZZ_H5_VERBOSE") != NULL;
  awe_err err = {0};
  awe_log_data lg;
  awe_status st = awe_log_read_file(f, path_log, &model->reg.output, ychan, ny, &lg, &err);
  if (verbose)
    fprintf(stderr, "log: %d %s (T %ld, scenario %s)\n", st, st ? err.msg : "", st ? 0 : lg.T,
            !st && lg.scenario ? "read" : "none");
  if (st == AWE_OK) awe_log_data_free(&lg);
  awe_sweep_results r;
  awe_sweep_h5_results_file(f, 0.05, &r);
  if (verbose)
    fprintf(stderr, "run log: rows %ld status '%s' force_mean %g\n", r.rows, r.status,
            r.force_mean);
  int nx = model->reg.state.size, nu = model->reg.input.size;
  double *x = malloc(sizeof(double) * (size_t)(nx + 1));
  double *u = malloc(sizeof(double) * (size_t)(nu + 1));
  if (x && u) {
    st = awe_trim_read_file(f, path_log, model, x, u, &err);
    if (verbose) fprintf(stderr, "trim: %d %s\n", st, st ? err.msg : "");
  }
  free(x);
  free(u);
  awe_wind_box b;
  st = awe_wind_box_read_h5file(f, path_box, &b, &err);
  if (verbose) fprintf(stderr, "box: %d %s\n", st, st ? err.msg : "");
  if (st == AWE_OK) {
    double o[3];
    awe_wind_box_at(&b, 0.0, 0.0, b.x0[2], o);
    awe_wind_box_free(&b);
  }
  return 0;
}
