/* offload.h: a computation in a child process that its caller can abandon at any moment.
 *
 * Some library routines cannot be polled while they run: a dense eigen-solve or a matrix
 * exponential (GSL) of a few thousand states takes minutes in one call. awe_offload runs such a
 * routine in a fork()ed child; the result comes back through a pipe while the parent polls its
 * stop test every AWE_OFFLOAD_POLL_MS. When the test says stop, the child is killed (SIGKILL)
 * and reaped, and awe_offload returns AWE_EINTR at once, whatever the routine was doing. The
 * child shares nothing with the parent after the fork: it computes on its copy of the memory,
 * writes its status and result and ends with _exit (no atexit handlers, no stdio flush, so
 * open files of the parent are not touched).
 */
#ifndef AWE_OFFLOAD_H
#define AWE_OFFLOAD_H

#include <stddef.h>

#include "util/status.h"

#define AWE_OFFLOAD_POLL_MS 20

/* The routine, run in the child: on AWE_OK, *out (malloc'ed, *nout bytes) is the result. */
typedef awe_status (*awe_offload_fn)(void *arg, void **out, size_t *nout, awe_err *err);

/* Nonzero: abandon the computation. Called in the parent between waits. */
typedef int (*awe_offload_stop_fn)(void *sarg);

/* Run fn(arg) in a child process. On AWE_OK *out (malloc'ed; free it) holds the child's *nout
 * bytes. The routine's own error comes back as its status and message. AWE_EINTR (message
 * "stopped") when stop(sarg) said stop; AWE_EINTERNAL when the child could not be started or
 * ended without a result (killed, out of memory: the message says how). */
awe_status awe_offload(awe_offload_fn fn, void *arg, awe_offload_stop_fn stop, void *sarg,
                       void **out, size_t *nout, awe_err *err);

#endif
