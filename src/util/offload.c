/* offload.c: run a routine in a child process that can be killed (see offload.h). */
#include "util/offload.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the child sends first: its status, message and the size of the result that follows. */
typedef struct {
  int code;
  char msg[sizeof(((awe_err *)0)->msg)];
  uint64_t nbytes;
} header;


static int write_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n > 0) {
    ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    c += w;
    n -= (size_t)w;
  }
  return 0;
}


/* the child: compute, send, end without touching anything of the parent's */
static void child(int fd, awe_offload_fn fn, void *arg) {
  signal(SIGINT, SIG_DFL); /* the parent decides; a Ctrl-C to the group ends the child too */
  signal(SIGTERM, SIG_DFL);
  signal(SIGPIPE, SIG_DFL); /* a parent that is gone: end quietly */
  awe_err e = {0};
  void *out = NULL;
  size_t n = 0;
  header h;
  memset(&h, 0, sizeof(h));
  h.code = (int)fn(arg, &out, &n, &e);
  memcpy(h.msg, e.msg, sizeof(h.msg));
  h.nbytes = h.code == AWE_OK ? (uint64_t)n : 0;
  int rc = write_all(fd, &h, sizeof(h));
  if (!rc && h.nbytes) rc = write_all(fd, out, n);
  _exit(rc ? 1 : 0); /* the child's end, not the program's: no atexit, no stdio flush */
}


awe_status awe_offload(awe_offload_fn fn, void *arg, awe_offload_stop_fn stop, void *sarg,
                       void **out, size_t *nout, awe_err *err) {
  *out = NULL;
  *nout = 0;
  int fds[2];
  if (pipe(fds) != 0)
    return awe_err_set(err, AWE_EINTERNAL, "cannot start a child process: pipe: %s",
                       strerror(errno));
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(fds[0]);
    close(fds[1]);
    return awe_err_set(err, AWE_EINTERNAL, "cannot start a child process: fork: %s",
                       strerror(e));
  }
  if (pid == 0) {
    close(fds[0]);
    child(fds[1], fn, arg);
  }
  close(fds[1]);
  header h;
  char *body = NULL;
  size_t got = 0, want = sizeof(h);
  int eof = 0, stopped = 0;
  awe_status st = AWE_OK;
  while (!eof) {
    if (stop && stop(sarg)) {
      stopped = 1;
      break;
    }
    struct pollfd pf = {.fd = fds[0], .events = POLLIN};
    int r = poll(&pf, 1, AWE_OFFLOAD_POLL_MS);
    if (r < 0 && errno != EINTR) break;
    if (r <= 0) continue;
    /* header first, then the body of the size it announces */
    char *dst = got < sizeof(h) ? (char *)&h + got : body + (got - sizeof(h));
    size_t room = want - got;
    ssize_t n = room ? read(fds[0], dst, room) : 0;
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      eof = 1;
      break;
    }
    got += (size_t)n;
    if (got == sizeof(h) && want == sizeof(h) && h.nbytes > 0) {
      body = malloc((size_t)h.nbytes);
      if (!body) {
        st = awe_err_set(err, AWE_ENOMEM, "out of memory");
        stopped = 1; /* nothing to receive it in: end the child */
        break;
      }
      want += (size_t)h.nbytes;
    }
    if (got == want) break;
  }
  close(fds[0]);
  if (stopped) kill(pid, SIGKILL);
  int ws = 0;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  if (stopped) {
    free(body);
    return st ? st : awe_err_set(err, AWE_EINTR, "stopped");
  }
  if (got < sizeof(h) || got != want) {
    free(body);
    if (WIFSIGNALED(ws))
      return awe_err_set(err, AWE_EINTERNAL, "the child process of the computation was ended "
                         "by signal %d before its result (out of memory?)", WTERMSIG(ws));
    return awe_err_set(err, AWE_EINTERNAL, "the child process of the computation ended "
                       "without a result (exit status %d)", WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
  }
  if (h.code != AWE_OK) {
    free(body);
    h.msg[sizeof(h.msg) - 1] = 0;
    return awe_err_set(err, (awe_status)h.code, "%s", h.msg);
  }
  *out = body;
  *nout = (size_t)h.nbytes;
  return AWE_OK;
}
