/* status.h: status codes, error values with source locations, collected warnings.
 *
 * Library code never prints: a failing call fills an awe_err (code + message that already
 * names file:line:col and the offending key), suspicious-but-legal input adds to an awe_diag
 * list, and only the CLI layer writes them to stderr.
 */
#ifndef AWE_STATUS_H
#define AWE_STATUS_H

#include <stdatomic.h>
#include <stddef.h>

/* The flag a run polls to stop early: set by a signal handler (the CLI) or by another thread
 * (awesim_request_stop). A lock-free atomic int is both async-signal-safe (C11 7.14.1.1, 7.17.5)
 * and free of data races between threads, which volatile sig_atomic_t is not. */
typedef atomic_int awe_stop_flag;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "awe_stop_flag must be lock-free for signal handlers");

typedef enum {
  AWE_OK = 0,
  AWE_EUSAGE,     /* bad command line */
  AWE_EINVAL,     /* invalid input data (schema, ranges, references) */
  AWE_EPARSE,     /* malformed YAML / CSV */
  AWE_ENOFILE,    /* cannot open an input file */
  AWE_EIO,        /* cannot write output */
  AWE_ENOMEM,     /* out of memory */
  AWE_ENOCONV,    /* a solver did not converge */
  AWE_EINTEG,     /* integration failed (non-finite state, stepper failure) */
  AWE_EINTR,      /* interrupted by a signal */
  AWE_EINTERNAL   /* a bug */
} awe_status;

/* Where a value came from: file (borrowed, lives as long as its document/spec), 1-based line
 * and column; line 0 means "no position" (e.g. a --set override or a computed value). */
typedef struct {
  const char *file;
  int line, col;
} awe_loc;

typedef struct {
  awe_status code;
  char msg[2048];
} awe_err;

/* Return from the calling function when x (an awe_status expression) is not AWE_OK. */
#define AWE_TRY(x)              \
  do {                          \
    awe_status st_ = (x);       \
    if (st_) return st_;        \
  } while (0)

/* Number of elements of a true array. */
#define AWE_ARRLEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Human-readable name of a status code. */
const char *awe_strerror(awe_status s);

/* Documented process exit code for a status (sysexits.h values, see awesim(1)). */
int awe_exit_code(awe_status s);

/* Set err (may be NULL) to code and a printf-style message; returns code. */
awe_status awe_err_set(awe_err *err, awe_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Same, prefixed with "file:line:col: " from loc (when loc->file is set). */
awe_status awe_err_at(awe_err *err, awe_status code, const awe_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A path for a message: paths longer than AWE_PATH_SHOW characters keep their first 60 and last
 * characters around "..." (in buf, which holds AWE_PATH_SHOW + 1); shorter ones are returned. */
#define AWE_PATH_SHOW 200
const char *awe_path_short(const char *path, char *buf, size_t n);

/* The shortest of "%.6g" ... "%.17g" that reads back as v: a value in a message shows every
 * digit that matters (0.1000001 is not printed as 0.1) and no noise (0.1 stays 0.1).
 * Returned in a struct so that it can be an argument: printf("%s", awe_num_str(v).s). */
typedef struct {
  char s[32];
} awe_num_text;
awe_num_text awe_num_str(double v);

/* Format "file:line:col" (or "file" or "<unknown>") into buf. */
void awe_loc_format(const awe_loc *loc, char *buf, size_t n);

/* A growable list of warning messages. */
typedef struct {
  char **msg;
  int n, cap;
} awe_diag;

/* Append a warning (prefixed with loc when given; loc may be NULL). diag may be NULL. */
void awe_warn(awe_diag *d, const awe_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void awe_diag_free(awe_diag *d);

/* Closest candidate to word by edit distance, or NULL if none is close (for "did you mean"). */
const char *awe_closest(const char *word, const char *const *cands, int n);

#endif
