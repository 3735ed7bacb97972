/* controller_external.c: a controller in any language, over a pipe (lock-step text protocol).
 *
 * Protocol (awesim-scenario(5)):
 *   1. the command runs once, before t = 0, with /bin/sh -c in the scenario's folder (as
 *      `exec COMMAND` when it is one plain command, so the controller itself is the child);
 *      awesim writes one CSV header line on its standard input: "time[s]," then the measured
 *      channels as --csv spells them ("wings.main_wing.heading[rad]")
 *   2. at every sample one CSV row (time, then the measured values, %.17g) goes to it, and one
 *      line comes back on its standard output: the output values, comma-separated, in the
 *      order of `output:`, each a finite decimal number
 *   3. at the end awesim closes its standard input and waits for it to exit
 * Faults (wrong count, not a decimal number, NaN/inf, a value that under- or overflows, a NUL
 * byte, output nobody asked for, early exit, no reply within `timeout` s of wall time, a write
 * to a closed pipe) stop the run with a message naming the controller, the simulation time and
 * the offending line (escaped). Every wait is a poll() of at most 100 ms that also checks the
 * run's stop flag, its wall-time deadline (run.max_wall_time) and whether the child exited (a
 * process it started may hold the pipes open after it is gone). Writes never block
 * (O_NONBLOCK + poll), SIGPIPE is blocked around writes (EPIPE is reported instead).
 * The child leads its own process group; at the end of every run, successful or not, and as
 * soon as the child is found to have exited, the whole group gets SIGTERM, then SIGKILL after
 * a grace period: whatever the controller started is gone with it (unless it left the group,
 * e.g. with setsid). The child is reaped: awesim never hangs and leaves no zombie. On Linux the
 * child also gets SIGTERM should awesim itself die without cleaning up (PR_SET_PDEATHSIG).
 */
#include <dirent.h>
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
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "control/controller_internal.h"

#define LINE_MAX_BYTES 65536
#define GRACE_S 0.5      /* SIGTERM to SIGKILL of the controller's process group [s] */
#define EXCERPT_BYTES 120 /* of a reply quoted in a message */

struct awe_ext {
  pid_t pid;               /* the direct child (the controller, or the shell running it) */
  pid_t pgid;              /* its process group; -1 once it was ended */
  int exited, status;      /* the child was reaped, with this wait status */
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


static void nap_ms(long ms) {
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}


/* reap the direct child if it exited (block: wait for it); 1 once it is reaped */
static int reap(awe_ext *e, int block) {
  if (e->exited || e->pid <= 0) return 1;
  int status = 0;
  pid_t r;
  while ((r = waitpid(e->pid, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR) {
  }
  if (r == e->pid || (r < 0 && errno == ECHILD)) {
    e->exited = 1;
    e->status = r == e->pid ? status : 0;
  }
  return e->exited;
}


/* a process of group pgid that is not a zombie still exists (a killed grandchild stays a zombie
 * until the reaper of orphans collects it, which may never happen in a container) */
static int group_alive(pid_t pgid) {
  if (kill(-pgid, 0) != 0) return errno == EPERM;
#ifdef __linux__
  DIR *d = opendir("/proc");
  if (!d) return 1;
  int alive = 0;
  struct dirent *de;
  while (!alive && (de = readdir(d)) != NULL) {
    if (de->d_name[0] < '1' || de->d_name[0] > '9') continue;
    char path[300], buf[512];
    snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0) continue;
    buf[n] = 0;
    /* "pid (comm) state ppid pgrp ...": comm may hold anything, so from its last ')' */
    char *p = strrchr(buf, ')');
    char state = 0;
    int ppid = 0, pgrp = 0;
    if (p && sscanf(p + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == (int)pgid &&
        state != 'Z' && state != 'X')
      alive = 1;
  }
  closedir(d);
  return alive;
#else
  return 1;
#endif
}


/* end the controller's process group (and the child, should it have left it): SIGTERM, up to
 * GRACE_S for it to go, then SIGKILL; the child is reaped. Called as soon as the child is known
 * to have exited, so the group's number cannot have been reused. */
static void end_group(awe_ext *e) {
  if (e->pgid > 0) {
    kill(-e->pgid, SIGTERM);
    kill(-e->pgid, SIGCONT); /* a stopped process acts on SIGTERM only once continued */
  }
  if (!e->exited && e->pid > 0) kill(e->pid, SIGTERM);
  double until = now_s() + GRACE_S;
  for (;;) {
    int child = reap(e, 0);
    int group = e->pgid > 0 && group_alive(e->pgid);
    if ((child && !group) || now_s() >= until) break;
    nap_ms(5);
  }
  if (e->pgid > 0) kill(-e->pgid, SIGKILL);
  if (!reap(e, 0)) {
    kill(e->pid, SIGKILL);
    reap(e, 1);
  }
  e->pgid = -1;
}


/* reap the child if it exited; if so, end what is left of its group; 1 when it exited */
static int child_gone(awe_ext *e) {
  if (!reap(e, 0)) return 0;
  if (e->pgid > 0) end_group(e);
  return 1;
}


void awe_ext_free(awe_ext *e) {
  if (!e) return;
  if (e->fd_w >= 0) close(e->fd_w);
  if (e->fd_r >= 0) close(e->fd_r);
  e->fd_w = e->fd_r = -1;
  if (e->pgid > 0 || !e->exited) end_group(e);
  free(e->line);
  free(e->row);
  free(e);
}


/* s[0..n) quoted for a message (at most EXCERPT_BYTES of it): backslash escapes for control
 * characters, NUL, backslash and bytes >= 0x7f */
static void excerpt(const char *s, size_t n, char *out, size_t cap) {
  size_t k = 0;
  for (size_t i = 0; i < n && i < EXCERPT_BYTES && k + 8 < cap; i++) {
    unsigned char ch = (unsigned char)s[i];
    const char *esc = ch == 0 ? "\\0" : ch == '\t' ? "\\t" : ch == '\r' ? "\\r"
                    : ch == '\n' ? "\\n" : ch == '\\' ? "\\\\" : NULL;
    if (esc) k += (size_t)snprintf(out + k, cap - k, "%s", esc);
    else if (ch < 0x20 || ch >= 0x7f) k += (size_t)snprintf(out + k, cap - k, "\\x%02x", ch);
    else out[k++] = (char)ch;
  }
  if (n > EXCERPT_BYTES && k + 4 < cap) out[k++] = '.', out[k++] = '.', out[k++] = '.';
  out[k] = 0;
}


static awe_status fault(awe_err *err, const awe_ctrl *c, double t, const char *what) {
  return awe_err_set(err, AWE_EINTEG, "controller '%s' at t=%.9g s: %s", c->cfg.name, t, what);
}


/* a raised stop flag ends a wait for the controller */
static awe_status stopped(const awe_ctrl *c, double t, awe_err *err) {
  return awe_err_set(err, AWE_EINTR, "interrupted while waiting for controller '%s' at t=%.9g s",
                     c->cfg.name, t);
}


/* the end of a wait that began now: the controller's timeout or the run's wall-time limit */
static double wait_end(const awe_ext *e, const awe_ext_limits *lim) {
  double end = now_s() + e->timeout;
  return lim && lim->deadline < end ? lim->deadline : end;
}


/* the wait ran out: the run's wall-time limit when that came first, else the timeout ("WHAT
 * <timeout> sTAIL") */
static awe_status out_of_time(const awe_ext *e, const awe_ctrl *c, double t,
                              const awe_ext_limits *lim, const char *what, const char *tail,
                              awe_err *err) {
  char msg[1400];
  if (lim && now_s() >= lim->deadline)
    snprintf(msg, sizeof(msg), "wall-time limit run.max_wall_time = %g s reached while waiting "
             "for it (its timeout: %g s)%s", lim->max_wall, e->timeout, tail);
  else
    snprintf(msg, sizeof(msg), "%s %g s%s", what, e->timeout, tail);
  return fault(err, c, t, msg);
}


/* "exited with status 3", "was killed by signal 9" (the child was reaped) */
static void exit_text(const awe_ext *e, char *buf, size_t n) {
  int code = WIFEXITED(e->status) ? WEXITSTATUS(e->status) : -1;
  if (code >= 0)
    snprintf(buf, n, "exited with status %d%s", code,
             code == 127 ? " (command not found?)" : code == 126 ? " (not executable?)" : "");
  else if (WIFSIGNALED(e->status))
    snprintf(buf, n, "was killed by signal %d", WTERMSIG(e->status));
  else snprintf(buf, n, "ended");
}


/* poll for at most the time left, in slices of 100 ms so that a signal, the wall-time limit
 * and the child's exit are seen promptly */
static int poll_slice(struct pollfd *pf, double left) {
  double ms = ceil(left * 1000.0);
  return poll(pf, 1, ms > 100.0 ? 100 : ms < 1.0 ? 1 : (int)ms);
}


/* write all of buf, polling for room, within the timeout */
static awe_status write_all(awe_ext *e, const awe_ctrl *c, double t, const char *buf, size_t n,
                            const awe_ext_limits *lim, awe_err *err) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigprocmask(SIG_BLOCK, &pipe_set, &old);
  double end = wait_end(e, lim);
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
      if (now_s() >= end) {
        st = out_of_time(e, c, t, lim, "no room in its input pipe within",
                         " (it does not read its input)", err);
        break;
      }
      struct pollfd pf = {e->fd_w, POLLOUT, 0};
      poll_slice(&pf, end - now_s());
      if (lim && lim->stop && *lim->stop) {
        st = stopped(c, t, err);
        break;
      }
      if (child_gone(e)) { /* something it started holds its input open, unread */
        char how[96], msg[200];
        exit_text(e, how, sizeof(how));
        snprintf(msg, sizeof(msg), "the controller %s before reading its input", how);
        st = fault(err, c, t, msg);
        break;
      }
      continue;
    }
    if (errno == EPIPE) { /* it closed its input: most likely it exited (say how) */
      for (int i = 0; i < 50 && !child_gone(e); i++) nap_ms(10);
      char how[96], msg[200];
      exit_text(e, how, sizeof(how));
      if (e->exited) snprintf(msg, sizeof(msg), "the controller %s before reading its input", how);
      else snprintf(msg, sizeof(msg), "it closed its input (and is still running)");
      st = fault(err, c, t, msg);
    } else {
      st = fault(err, c, t, strerror(errno));
    }
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


/* fd moved above the standard streams (should awesim run with one closed, a pipe may get its
 * number), close-on-exec; -1 on failure (fd closed) */
static int high_fd(int fd) {
  if (fd < 0) return -1;
  int nfd = fcntl(fd, F_DUPFD, 3);
  close(fd);
  if (nfd < 0) return -1;
  int fl = fcntl(nfd, F_GETFD);
  if (fl < 0 || fcntl(nfd, F_SETFD, fl | FD_CLOEXEC) < 0) {
    close(nfd);
    return -1;
  }
  return nfd;
}


static int set_nonblock(int fd) {
  int fl = fcntl(fd, F_GETFL);
  return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}


/* the command can run as `exec COMMAND`: one plain command (words of ordinary characters, the
 * first not an assignment, a reserved word or a shell built-in that has no program of its
 * own) -- then the controller is the child, and its exit and its closed pipes are its own */
static int plain_command(const char *cmd) {
  static const char *const builtin[] = {
      "exit", "cd", ":", ".", "eval", "exec", "set", "unset", "shift", "trap", "wait", "read",
      "export", "readonly", "return", "break", "continue", "times", "ulimit", "umask", "alias",
      "unalias", "getopts", "command", "type", "hash", "jobs", "fg", "bg", "local", "source",
      "if", "then", "else", "elif", "fi", "while", "until", "for", "do", "done", "case", "esac",
      "in", "function", "select", "time"};
  const char *p = cmd;
  while (*p == ' ' || *p == '\t') p++;
  if (!*p) return 0;
  for (const char *q = p; *q; q++)
    if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
          strchr(" \t_./,:=+@%-", *q)))
      return 0;
  size_t n = strcspn(p, " \t");
  if (*p == '-' || memchr(p, '=', n)) return 0;
  for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
    if (strlen(builtin[i]) == n && !strncmp(p, builtin[i], n)) return 0;
  return 1;
}


awe_status awe_ext_start(awe_ext **out, const awe_model *m, const awe_ctrl *c,
                         const awe_ext_limits *lim, awe_err *err) {
  awe_ext *e = calloc(1, sizeof(*e));
  if (!e) return awe_err_set(err, AWE_ENOMEM, "out of memory");
  e->fd_w = e->fd_r = -1;
  e->pid = e->pgid = -1;
  e->exited = 1; /* no child yet */
  e->timeout = c->cfg.timeout;
  e->line = malloc(LINE_MAX_BYTES + 1);
  e->row_cap = 64 + 32 * (size_t)c->cfg.nmeasure;
  e->row = malloc(e->row_cap);
  /* the header: time, then the measured channels with units, as --csv spells them */
  size_t hcap = 16;
  for (int k = 0; k < c->cfg.nmeasure; k++) hcap += 600;
  char *hdr = malloc(hcap);
  size_t clen = strlen(c->cfg.command);
  char *cmd = malloc(clen + 6);
  if (!e->line || !e->row || !hdr || !cmd) {
    free(hdr);
    free(cmd);
    awe_ext_free(e);
    return awe_err_set(err, AWE_ENOMEM, "out of memory");
  }
  snprintf(cmd, clen + 6, "%s%s", plain_command(c->cfg.command) ? "exec " : "", c->cfg.command);
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
  int ok = pipe(in_p) == 0 && pipe(out_p) == 0;
  int e0 = errno;
  for (int k = 0; ok && k < 2; k++) {
    in_p[k] = high_fd(in_p[k]);
    out_p[k] = high_fd(out_p[k]);
    ok = in_p[k] >= 0 && out_p[k] >= 0;
    e0 = errno;
  }
  if (!ok) {
    for (int k = 0; k < 2; k++) {
      if (in_p[k] >= 0) close(in_p[k]);
      if (out_p[k] >= 0) close(out_p[k]);
    }
    free(hdr);
    free(cmd);
    awe_ext_free(e);
    return awe_err_set(err, AWE_EINTEG, "controller '%s': cannot create a pipe: %s",
                       c->cfg.name, strerror(e0));
  }
  fflush(NULL); /* no buffered output is duplicated into the child */
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    /* child: its own process group (ended as a whole), SIGPIPE and SIGTERM at their defaults,
     * stdin/stdout the pipes (all four above fd 2: dup2 cannot clobber one), in the scenario's
     * folder */
    setpgid(0, 0);
#ifdef __linux__
    /* awesim has one thread: the signal comes when the process that forked dies */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(127); /* awesim died before the line above */
#else
    (void)parent;
#endif
    signal(SIGPIPE, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (dup2(in_p[0], 0) < 0 || dup2(out_p[1], 1) < 0) _exit(127);
    if (chdir(c->cwd) != 0) _exit(127);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL); /* the pipes' originals close on exec */
    _exit(127);
  }
  e0 = errno;
  free(cmd);
  close(in_p[0]);
  close(out_p[1]);
  e->fd_w = in_p[1];
  e->fd_r = out_p[0];
  if (pid < 0) {
    free(hdr);
    awe_ext_free(e);
    return awe_err_set(err, AWE_EINTEG, "controller '%s': cannot start '%s': %s", c->cfg.name,
                       c->cfg.command, strerror(e0));
  }
  setpgid(pid, pid); /* also here: the group exists before either side goes on */
  e->pid = e->pgid = pid;
  e->exited = 0;
  if (set_nonblock(e->fd_w) || set_nonblock(e->fd_r)) {
    e0 = errno;
    free(hdr);
    awe_ext_free(e);
    return awe_err_set(err, AWE_EINTEG, "controller '%s': fcntl: %s", c->cfg.name,
                       strerror(e0));
  }
  awe_status st = write_all(e, c, 0.0, hdr, hl, lim, err);
  free(hdr);
  if (st) {
    awe_ext_free(e);
    return st;
  }
  *out = e;
  return AWE_OK;
}


/* a finite decimal number, with optional blanks around it: [+-] digits [. digits] [e[+-]digits]
 * (strtod would also take hex floats, "inf", "nan" and "infinity") */
static int decimal(const char *s, const char *end) {
  while (s < end && (*s == ' ' || *s == '\t')) s++;
  if (s < end && (*s == '+' || *s == '-')) s++;
  int digits = 0;
  while (s < end && *s >= '0' && *s <= '9') s++, digits++;
  if (s < end && *s == '.')
    for (s++; s < end && *s >= '0' && *s <= '9'; s++) digits++;
  if (!digits) return 0;
  if (s < end && (*s == 'e' || *s == 'E')) {
    s++;
    if (s < end && (*s == '+' || *s == '-')) s++;
    if (!(s < end && *s >= '0' && *s <= '9')) return 0;
    while (s < end && *s >= '0' && *s <= '9') s++;
  }
  while (s < end && (*s == ' ' || *s == '\t')) s++;
  return s == end;
}


/* the field [s, end) has a nonzero digit in its mantissa (a value that must not read as 0) */
static int nonzero_mantissa(const char *s, const char *end) {
  for (; s < end && *s != 'e' && *s != 'E'; s++)
    if (*s >= '1' && *s <= '9') return 1;
  return 0;
}


/* parse the reply line[0..n): exactly noutput finite decimal numbers, comma-separated */
static awe_status parse_reply(const awe_ctrl *c, double t, char *line, size_t n, double *out,
                              awe_err *err) {
  int want = c->cfg.noutput;
  char ex[EXCERPT_BYTES * 4 + 8], msg[1400];
  excerpt(line, n, ex, sizeof(ex));
  if (memchr(line, 0, n)) {
    snprintf(msg, sizeof(msg), "its reply holds a NUL byte: '%s'", ex);
    return fault(err, c, t, msg);
  }
  /* count the fields first, for the message */
  int fields = 1;
  for (size_t i = 0; i < n; i++) fields += line[i] == ',';
  if (fields != want) {
    snprintf(msg, sizeof(msg), "expected %d value%s, got '%s'", want, want == 1 ? "" : "s", ex);
    return fault(err, c, t, msg);
  }
  char *p = line, *stop = line + n;
  for (int got = 0; got < want; got++) {
    char *q = memchr(p, ',', (size_t)(stop - p));
    if (!q) q = stop;
    char f[64];
    size_t fl = (size_t)(q - p);
    excerpt(p, fl, f, sizeof(f));
    if (!decimal(p, q)) {
      const char *w = p;
      while (w < q && (*w == ' ' || *w == '\t')) w++;
      if (w < q && (*w == '+' || *w == '-')) w++;
      const char *why = "is not a number";
      if (q - w >= 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X'))
        why = "is a hexadecimal number (only decimal numbers are read)";
      else if (fl < sizeof(f)) { /* "inf", "-Infinity", "nan(...)": words for no number */
        char b[64], *end;
        memcpy(b, p, fl);
        b[fl] = 0;
        double v = strtod(b, &end);
        while (*end == ' ' || *end == '\t') end++;
        if (!*end && end > b && !isfinite(v)) why = "is not finite";
      }
      snprintf(msg, sizeof(msg), "value %d %s in '%s'", got + 1, why, ex);
      return fault(err, c, t, msg);
    }
    char save = *q;
    *q = 0;
    errno = 0;
    double v = strtod(p, NULL);
    int range = errno == ERANGE;
    *q = save;
    if (!isfinite(v) || (v == 0.0 && (range || nonzero_mantissa(p, q)))) {
      snprintf(msg, sizeof(msg), "value %d '%s' %s a double in '%s'", got + 1, f,
               isfinite(v) ? "underflows to 0 as" : "overflows", ex);
      return fault(err, c, t, msg);
    }
    out[got] = v;
    p = q + 1;
  }
  return AWE_OK;
}


/* the reply waiting in the buffer (a complete line, nothing after it) */
static awe_status take_line(awe_ext *e, const awe_ctrl *c, double t, char *nl, double *out,
                            awe_err *err) {
  size_t n = (size_t)(nl - e->line);
  size_t rest = e->len - n - 1;
  if (rest) {
    char ex[EXCERPT_BYTES * 4 + 8], msg[1200];
    excerpt(nl + 1, rest, ex, sizeof(ex));
    snprintf(msg, sizeof(msg), "more than one line in its reply ('%s' after the first)", ex);
    return fault(err, c, t, msg);
  }
  if (n && e->line[n - 1] == '\r') n--;
  return parse_reply(c, t, e->line, n, out, err);
}


/* read what is there (non-blocking): > 0 bytes added, 0 at end of file, -1 nothing yet */
static ssize_t read_some(awe_ext *e) {
  for (;;) {
    ssize_t r = read(e->fd_r, e->line + e->len, LINE_MAX_BYTES - e->len);
    if (r > 0) e->len += (size_t)r;
    if (r >= 0) return r;
    if (errno != EINTR) return -1;
  }
}


/* the controller is gone (end of file on its output, or the child exited): the message */
static awe_status gone(awe_ext *e, const awe_ctrl *c, double t, awe_err *err) {
  char how[96], ex[EXCERPT_BYTES * 4 + 8], msg[1200];
  /* it closed its output: give it a moment to exit, then look */
  for (int i = 0; i < 50 && !reap(e, 0); i++) nap_ms(10);
  if (e->exited) {
    exit_text(e, how, sizeof(how));
    end_group(e);
  } else {
    snprintf(how, sizeof(how), "closed its output");
  }
  excerpt(e->line, e->len, ex, sizeof(ex));
  snprintf(msg, sizeof(msg), "the controller %s before replying%s%s%s", how,
           e->len ? " (partial line '" : "", ex, e->len ? "')" : "");
  return fault(err, c, t, msg);
}


/* the usual reason for a missing reply: output (or, for mawk, input) buffered on a pipe */
#define FLUSH_HINT \
  " (does the controller flush its output after each line? C: fflush(stdout) or " \
  "setvbuf(stdout, NULL, _IOLBF, 0); awk: fflush(), and mawk -W interactive (Debian's awk " \
  "buffers its input too); Python: print(..., flush=True); see awesim-scenario(5))"


awe_status awe_ext_exchange(awe_ext *e, const awe_ctrl *c, double t, const double *yout,
                            double *out, const awe_ext_limits *lim, awe_err *err) {
  /* lock-step: nothing may be waiting before the row is sent, and the controller must live */
  e->len = 0;
  ssize_t r = read_some(e);
  if (r > 0) {
    char ex[EXCERPT_BYTES * 4 + 8], msg[1200];
    excerpt(e->line, e->len, ex, sizeof(ex));
    snprintf(msg, sizeof(msg), "it wrote '%s' before it was sent this sample (one reply line "
             "per row)", ex);
    return fault(err, c, t, msg);
  }
  if (r == 0 || child_gone(e)) return gone(e, c, t, err);
  /* the row */
  size_t n = (size_t)snprintf(e->row, e->row_cap, "%.17g", t);
  for (int k = 0; k < c->cfg.nmeasure; k++)
    n += (size_t)snprintf(e->row + n, e->row_cap - n, ",%.17g", yout[c->meas_y[k]]);
  n += (size_t)snprintf(e->row + n, e->row_cap - n, "\n");
  AWE_TRY(write_all(e, c, t, e->row, n, lim, err));
  /* one line back */
  double end = wait_end(e, lim);
  for (;;) {
    char *nl = e->len ? memchr(e->line, '\n', e->len) : NULL;
    if (nl) return take_line(e, c, t, nl, out, err);
    if (e->len >= LINE_MAX_BYTES)
      return fault(err, c, t, "reply line longer than 65536 bytes");
    if (now_s() >= end) {
      char ex[EXCERPT_BYTES * 4 + 8], tail[sizeof(ex) + 400];
      excerpt(e->line, e->len, ex, sizeof(ex));
      snprintf(tail, sizeof(tail), "%s%s%s%s", e->len ? " (partial line '" : "", ex,
               e->len ? "')" : "", FLUSH_HINT);
      return out_of_time(e, c, t, lim, "no reply within", tail, err);
    }
    struct pollfd pf = {e->fd_r, POLLIN, 0};
    int pr = poll_slice(&pf, end - now_s());
    if (lim && lim->stop && *lim->stop) return stopped(c, t, err);
    if (pr < 0 && errno != EINTR) return fault(err, c, t, strerror(errno));
    if (pr > 0) {
      r = read_some(e);
      if (r == 0) return gone(e, c, t, err); /* end of file: it exited or closed its output */
      continue;
    }
    /* nothing came: has the child exited while something it started holds the pipe open? */
    if (child_gone(e)) {
      if (read_some(e) > 0 && (nl = memchr(e->line, '\n', e->len)) != NULL)
        return take_line(e, c, t, nl, out, err); /* its last words; the exit is seen next */
      return gone(e, c, t, err);
    }
  }
}


awe_status awe_ext_finish(awe_ext *e, const awe_ctrl *c, double t, const awe_ext_limits *lim,
                          awe_err *err) {
  awe_status st = AWE_OK;
  close(e->fd_w);
  e->fd_w = -1;
  double end = wait_end(e, lim);
  /* wait for it to exit, reading what it still writes (a full pipe would block its exit) */
  e->len = 0;
  int eof = 0;
  while (!reap(e, 0) && now_s() < end && !(lim && lim->stop && *lim->stop)) {
    struct pollfd pf = {e->fd_r, POLLIN, 0};
    if (!eof && poll_slice(&pf, 0.002) > 0) {
      if (e->len > EXCERPT_BYTES) e->len = EXCERPT_BYTES + 1; /* keep what the message shows */
      eof = read_some(e) == 0;
    } else if (eof) {
      nap_ms(2);
    }
  }
  if (e->exited) {
    end_group(e); /* nothing it started can write any more */
    for (ssize_t r = 1; !eof && r > 0;) {
      if (e->len > EXCERPT_BYTES) e->len = EXCERPT_BYTES + 1;
      r = read_some(e);
    }
  }
  char how[96], ex[EXCERPT_BYTES * 4 + 8], msg[1200];
  if (e->exited && (!WIFEXITED(e->status) || WEXITSTATUS(e->status) != 0)) {
    exit_text(e, how, sizeof(how));
    snprintf(msg, sizeof(msg), "%s at the end of the run", how);
    st = fault(err, c, t, msg);
  } else if (e->len) {
    /* a reply that no row asked for: it is out of step (answers the header line?) */
    excerpt(e->line, e->len, ex, sizeof(ex));
    snprintf(msg, sizeof(msg), "it wrote '%s' after its last reply (one reply line per row; "
             "the header line gets none)", ex);
    st = fault(err, c, t, msg);
  } else if (!e->exited && lim && lim->stop && *lim->stop) {
    st = stopped(c, t, err);
  } else if (!e->exited) {
    st = out_of_time(e, c, t, lim, "did not exit within", " after its input was closed (killed)",
                     err);
  }
  awe_ext_free(e); /* what is left of its process group goes with it */
  return st;
}
