/* controller_external.c: a controller in any language, over a pipe (lock-step text protocol).
 *
 * Protocol (awesim-scenario(5)):
 *   1. the command runs once, before t = 0, with /bin/sh -c in the scenario's folder; awesim
 *      writes one CSV header line on its standard input: "time[s]," then the measured channels
 *      as --csv spells them ("wings.main_wing.heading[rad]")
 *   2. at every sample one CSV row (time, then the measured values, %.17g) goes to it, and one
 *      line comes back on its standard output: the output values, comma-separated, in the
 *      order of `output:`
 *   3. at the end awesim closes its standard input and waits for it to exit
 * Faults (wrong count, not a number, NaN/inf, early exit, no reply within `timeout` s of wall
 * time, a write to a closed pipe) stop the run with a message naming the controller, the
 * simulation time and the offending line. Every wait is a poll() with the remaining timeout,
 * writes never block (O_NONBLOCK + poll), SIGPIPE is blocked around writes (EPIPE is reported
 * instead), and a child that is left behind is killed with its process group (the shell and
 * whatever it started) and reaped: awesim never hangs and leaves no zombie.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "control/controller_internal.h"

#define LINE_MAX_BYTES 65536

struct awe_ext {
  pid_t pid;
  int fd_w, fd_r;          /* child's stdin (we write), child's stdout (we read) */
  char *line;              /* reply buffer */
  size_t len;              /* bytes buffered */
  char *row;               /* row buffer */
  size_t row_cap;
  double timeout;
};


static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


static void kill_reap(awe_ext *e) {
  if (e->pid > 0) {
    int status;
    if (waitpid(e->pid, &status, WNOHANG) == 0) {
      kill(-e->pid, SIGKILL); /* its process group: the shell and what it started */
      kill(e->pid, SIGKILL);
      while (waitpid(e->pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    e->pid = -1;
  }
}


void awe_ext_free(awe_ext *e) {
  if (!e) return;
  if (e->fd_w >= 0) close(e->fd_w);
  if (e->fd_r >= 0) close(e->fd_r);
  e->fd_w = e->fd_r = -1;
  kill_reap(e);
  free(e->line);
  free(e->row);
  free(e);
}


/* printable excerpt of s (at most 200 bytes, control characters as '?') */
static void excerpt(const char *s, size_t n, char *out, size_t cap) {
  size_t k = 0;
  for (size_t i = 0; i < n && k + 4 < cap && i < 200; i++)
    out[k++] = (unsigned char)s[i] >= 0x20 && s[i] != 0x7f ? s[i] : '?';
  if (n > 200 && k + 4 < cap) out[k++] = '.', out[k++] = '.', out[k++] = '.';
  out[k] = 0;
}


static awe_status fault(awe_err *err, const awe_ctrl *c, double t, const char *what) {
  return awe_err_set(err, AWE_EINTEG, "controller '%s' at t=%.9g s: %s", c->cfg.name, t, what);
}


/* write all of buf, polling for room, within the deadline */
/* a raised stop flag ends a wait for the controller */
static awe_status stopped(const awe_ctrl *c, double t, awe_err *err) {
  return awe_err_set(err, AWE_EINTR, "interrupted while waiting for controller '%s' at t=%.9g s",
                     c->cfg.name, t);
}


/* poll for at most the time left, in slices of 100 ms so that a signal is seen promptly */
static int poll_slice(struct pollfd *pf, double left) {
  double ms = ceil(left * 1000.0);
  return poll(pf, 1, ms > 100.0 ? 100 : (int)ms);
}


static awe_status write_all(awe_ext *e, const awe_ctrl *c, double t, const char *buf, size_t n,
                            double deadline, const volatile sig_atomic_t *stop, awe_err *err) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigprocmask(SIG_BLOCK, &pipe_set, &old);
  awe_status st = AWE_OK;
  size_t off = 0;
  while (off < n) {
    ssize_t w = write(e->fd_w, buf + off, n - off);
    if (w > 0) {
      off += (size_t)w;
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) {
      double left = deadline - now_s();
      if (left <= 0) {
        st = fault(err, c, t, "it does not read its input (no room in the pipe within the "
                              "timeout)");
        break;
      }
      struct pollfd pf = {e->fd_w, POLLOUT, 0};
      poll_slice(&pf, left);
      if (stop && *stop) {
        st = stopped(c, t, err);
        break;
      }
      continue;
    }
    st = fault(err, c, t, errno == EPIPE ? "it closed its input (the controller exited?)"
                                         : strerror(errno));
    break;
  }
  /* consume a SIGPIPE raised by this write (it was blocked) before unblocking */
  sigset_t pend;
  sigpending(&pend);
  if (sigismember(&pend, SIGPIPE) && !sigismember(&old, SIGPIPE)) {
    struct timespec zero = {0, 0};
    sigtimedwait(&pipe_set, NULL, &zero);
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  return st;
}


static int set_flags(int fd, int nonblock) {
  int fl = fcntl(fd, F_GETFD);
  if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0) return -1;
  if (!nonblock) return 0;
  fl = fcntl(fd, F_GETFL);
  return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}


awe_status awe_ext_start(awe_ext **out, const awe_model *m, const awe_ctrl *c, awe_err *err) {
  awe_ext *e = calloc(1, sizeof(*e));
  if (!e) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  e->fd_w = e->fd_r = -1;
  e->pid = -1;
  e->timeout = c->cfg.timeout;
  e->line = malloc(LINE_MAX_BYTES + 1);
  e->row_cap = 64 + 32 * (size_t)c->cfg.nmeasure;
  e->row = malloc(e->row_cap);
  /* the header: time, then the measured channels with units, as --csv spells them */
  size_t hcap = 16;
  for (int k = 0; k < c->cfg.nmeasure; k++) hcap += 600;
  char *hdr = malloc(hcap);
  if (!e->line || !e->row || !hdr) {
    free(hdr);
    awe_ext_free(e);
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  size_t hl = (size_t)snprintf(hdr, hcap, "time[s]");
  const awe_varlist *l = &m->reg.output;
  for (int k = 0; k < c->cfg.nmeasure; k++) {
    int idx = c->meas_y[k];
    for (int v = 0; v < l->n; v++) {
      const awe_var *a = &l->v[v];
      if (idx < a->offset || idx >= a->offset + a->dim) continue;
      char name[512];
      awe_var_scalar_name(a, idx - a->offset, name, sizeof(name));
      hl += (size_t)snprintf(hdr + hl, hcap - hl, ",%s[%s]", name, a->unit);
      break;
    }
  }
  hl += (size_t)snprintf(hdr + hl, hcap - hl, "\n");

  int in_p[2] = {-1, -1}, out_p[2] = {-1, -1};
  if (pipe(in_p) || pipe(out_p)) {
    int e0 = errno;
    for (int k = 0; k < 2; k++) {
      if (in_p[k] >= 0) close(in_p[k]);
      if (out_p[k] >= 0) close(out_p[k]);
    }
    free(hdr);
    awe_ext_free(e);
    return awe_err_set(err, AWE_EINTEG, "controller '%s': cannot create a pipe: %s",
                       c->cfg.name, strerror(e0));
  }
  fflush(NULL); /* no buffered output is duplicated into the child */
  pid_t pid = fork();
  if (pid == 0) {
    /* child: stdin/stdout are the pipes, SIGPIPE back to its default, in the scenario's folder */
    setpgid(0, 0); /* its own process group, killed as a whole if it must be stopped */
    signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (dup2(in_p[0], 0) < 0 || dup2(out_p[1], 1) < 0) _exit(127);
    close(in_p[0]);
    close(in_p[1]);
    close(out_p[0]);
    close(out_p[1]);
    if (chdir(c->cwd) != 0) _exit(127);
    execl("/bin/sh", "sh", "-c", c->cfg.command, (char *)NULL);
    _exit(127);
  }
  close(in_p[0]);
  close(out_p[1]);
  e->fd_w = in_p[1];
  e->fd_r = out_p[0];
  if (pid < 0) {
    int e0 = errno;
    free(hdr);
    awe_ext_free(e);
    return awe_err_set(err, AWE_EINTEG, "controller '%s': cannot start '%s': %s", c->cfg.name,
                       c->cfg.command, strerror(e0));
  }
  e->pid = pid;
  if (set_flags(e->fd_w, 1) || set_flags(e->fd_r, 1)) {
    free(hdr);
    awe_ext_free(e);
    return awe_err_set(err, AWE_EINTEG, "controller '%s': fcntl: %s", c->cfg.name,
                       strerror(errno));
  }
  /* before the run's stop flag is set: this wait is bounded by the controller's timeout */
  awe_status st = write_all(e, c, 0.0, hdr, hl, now_s() + e->timeout, NULL, err);
  free(hdr);
  if (st) {
    awe_ext_free(e);
    return st;
  }
  *out = e;
  return AWE_OK;
}


/* status of an exited child, for messages */
static void exit_text(awe_ext *e, char *buf, size_t n) {
  int status = 0;
  pid_t r = -1;
  /* it closed its output: give it a moment to exit, then look */
  for (int i = 0; i < 50 && (r = waitpid(e->pid, &status, WNOHANG)) == 0; i++) {
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
  }
  if (r == e->pid) {
    e->pid = -1;
    if (WIFEXITED(status)) snprintf(buf, n, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status)) snprintf(buf, n, "was killed by signal %d", WTERMSIG(status));
    else snprintf(buf, n, "ended");
  } else {
    snprintf(buf, n, "closed its output");
  }
}


/* parse "v1,v2,...": exactly n finite numbers */
static awe_status parse_reply(const awe_ctrl *c, double t, char *line, double *out,
                              awe_err *err) {
  int n = c->cfg.noutput, got = 0;
  char ex[260], msg[600];
  excerpt(line, strlen(line), ex, sizeof(ex));
  /* count the fields first, for the message */
  int fields = 1;
  for (const char *p = line; *p; p++) fields += *p == ',';
  if (fields != n) {
    snprintf(msg, sizeof(msg), "expected %d value%s, got '%s'", n, n == 1 ? "" : "s", ex);
    return fault(err, c, t, msg);
  }
  char *p = line;
  for (got = 0; got < n; got++) {
    char *end;
    errno = 0;
    double v = strtod(p, &end);
    char *q = end;
    while (*q == ' ' || *q == '\t') q++;
    if (end == p || (*q != ',' && *q != 0)) {
      snprintf(msg, sizeof(msg), "value %d is not a number in '%s'", got + 1, ex);
      return fault(err, c, t, msg);
    }
    if (!isfinite(v)) {
      snprintf(msg, sizeof(msg), "value %d is not finite in '%s'", got + 1, ex);
      return fault(err, c, t, msg);
    }
    out[got] = v;
    p = *q ? q + 1 : q;
  }
  return AWE_OK;
}


awe_status awe_ext_exchange(awe_ext *e, const awe_ctrl *c, double t, const double *yout,
                            double *out, const volatile sig_atomic_t *stop, awe_err *err) {
  double deadline = now_s() + e->timeout;
  /* the row */
  size_t n = (size_t)snprintf(e->row, e->row_cap, "%.17g", t);
  for (int k = 0; k < c->cfg.nmeasure; k++)
    n += (size_t)snprintf(e->row + n, e->row_cap - n, ",%.17g", yout[c->meas_y[k]]);
  n += (size_t)snprintf(e->row + n, e->row_cap - n, "\n");
  AWE_TRY(write_all(e, c, t, e->row, n, deadline, stop, err));
  /* one line back */
  e->len = 0;
  for (;;) {
    char *nl = e->len ? memchr(e->line, '\n', e->len) : NULL;
    if (nl) {
      *nl = 0;
      if (nl > e->line && nl[-1] == '\r') nl[-1] = 0;
      size_t rest = e->len - (size_t)(nl + 1 - e->line);
      if (rest) {
        char ex[260], msg[400];
        excerpt(nl + 1, rest, ex, sizeof(ex));
        snprintf(msg, sizeof(msg), "more than one line in its reply ('%s' after the first)", ex);
        return fault(err, c, t, msg);
      }
      return parse_reply(c, t, e->line, out, err);
    }
    if (e->len >= LINE_MAX_BYTES)
      return fault(err, c, t, "reply line longer than 65536 bytes");
    double left = deadline - now_s();
    if (left <= 0) {
      char ex[260], msg[400];
      excerpt(e->line, e->len, ex, sizeof(ex));
      snprintf(msg, sizeof(msg), "no reply within %g s%s%s%s", e->timeout,
               e->len ? " (partial line '" : "", ex, e->len ? "')" : "");
      return fault(err, c, t, msg);
    }
    struct pollfd pf = {e->fd_r, POLLIN, 0};
    int pr = poll_slice(&pf, left);
    if (stop && *stop) return stopped(c, t, err);
    if (pr < 0 && errno != EINTR) return fault(err, c, t, strerror(errno));
    if (pr <= 0) continue;
    ssize_t r = read(e->fd_r, e->line + e->len, LINE_MAX_BYTES - e->len);
    if (r > 0) {
      e->len += (size_t)r;
      continue;
    }
    if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    /* end of file: the controller exited (or closed its output) */
    char how[64], ex[260], msg[500];
    exit_text(e, how, sizeof(how));
    excerpt(e->line, e->len, ex, sizeof(ex));
    snprintf(msg, sizeof(msg), "the controller %s before replying%s%s%s", how,
             e->len ? " (partial line '" : "", ex, e->len ? "')" : "");
    return fault(err, c, t, msg);
  }
}


awe_status awe_ext_finish(awe_ext *e, const awe_ctrl *c, double t,
                          const volatile sig_atomic_t *stop, awe_err *err) {
  awe_status st = AWE_OK;
  close(e->fd_w);
  e->fd_w = -1;
  double deadline = now_s() + e->timeout;
  int status = 0;
  pid_t r = 0;
  while ((r = waitpid(e->pid, &status, WNOHANG)) == 0 && now_s() < deadline &&
         !(stop && *stop)) {
    struct timespec ts = {0, 2000000};
    nanosleep(&ts, NULL);
  }
  if (r == e->pid) {
    e->pid = -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      char msg[120];
      if (WIFEXITED(status))
        snprintf(msg, sizeof(msg), "exited with status %d at the end of the run",
                 WEXITSTATUS(status));
      else
        snprintf(msg, sizeof(msg), "was killed by signal %d at the end of the run",
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
      st = fault(err, c, t, msg);
    }
  } else if (stop && *stop) {
    st = stopped(c, t, err);  /* awe_ext_free kills and reaps it */
  } else {
    char msg[120];
    snprintf(msg, sizeof(msg), "did not exit within %g s after its input was closed (killed)",
             e->timeout);
    st = fault(err, c, t, msg);
  }
  awe_ext_free(e);
  return st;
}
