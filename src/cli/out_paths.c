/* out_paths.c: output paths compared by device and inode; mkdir -p; replace-by-rename
 * (out_paths.h). */
#include "cli/out_paths.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* what a path names: an existing file (dev, ino) or a name in an existing directory */
typedef struct {
  int exists, dir_ok;
  unsigned long long dev, ino;
  char base[1024];
} file_id;


/* the directory part of path ("." for none) */
static void dir_of(const char *path, char *dir, size_t n) {
  snprintf(dir, n, "%s", path);
  char *slash = strrchr(dir, '/');
  while (slash && slash > dir && slash[1] == 0) { /* "a/b/": the trailing slash is no part */
    *slash = 0;
    slash = strrchr(dir, '/');
  }
  if (!slash) snprintf(dir, n, ".");
  else if (slash == dir) dir[1] = 0;
  else *slash = 0;
}


static void get_id(const char *path, file_id *id) {
  struct stat sb;
  memset(id, 0, sizeof(*id));
  if (stat(path, &sb) == 0) {
    id->exists = 1;
    id->dev = (unsigned long long)sb.st_dev;
    id->ino = (unsigned long long)sb.st_ino;
    return;
  }
  char dir[4096];
  dir_of(path, dir, sizeof(dir));
  if (stat(dir, &sb) != 0) return;
  id->dir_ok = 1;
  id->dev = (unsigned long long)sb.st_dev;
  id->ino = (unsigned long long)sb.st_ino;
  const char *b = strrchr(path, '/');
  snprintf(id->base, sizeof(id->base), "%s", b ? b + 1 : path);
}


static int same_id(const file_id *a, const file_id *b) {
  if (a->exists != b->exists) return 0;
  if (a->exists) return a->dev == b->dev && a->ino == b->ino;
  return a->dir_ok && b->dir_ok && a->dev == b->dev && a->ino == b->ino &&
         !strcmp(a->base, b->base);
}


awe_status awe_cli_make_parents(const char *path, awe_err *err) {
  char dir[4096];
  dir_of(path, dir, sizeof(dir));
  struct stat sb;
  if (stat(dir, &sb) == 0) return AWE_OK;
  /* every prefix ending before a '/', then the whole directory */
  for (char *p = dir + 1;; p++) {
    if (*p != '/' && *p != 0) continue;
    char c = *p;
    *p = 0;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
      return awe_err_set(err, AWE_EIO, "%s: cannot create directory %s: %s", path, dir,
                         strerror(errno));
    *p = c;
    if (!c) break;
  }
  return AWE_OK;
}


awe_status awe_cli_output_not_input(const awe_spec *spec, const char *opt, const char *path,
                                    awe_err *err) {
  struct stat sb;
  if (!spec || !path || stat(path, &sb) != 0) return AWE_OK; /* a new file is no input */
  for (const awe_spec_file *f = spec->files; f; f = f->next)
    if (f->dev == (unsigned long long)sb.st_dev && f->ino == (unsigned long long)sb.st_ino)
      return awe_err_set(err, AWE_EIO, "%s %s: this is %s, a file this run reads; it was not "
                         "written (give another output file)", opt, path, f->path);
  return AWE_OK;
}


awe_status awe_cli_fd_not_input(const awe_spec *spec, int fd, const char *what, awe_err *err) {
  struct stat sb;
  if (!spec || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) return AWE_OK;
  for (const awe_spec_file *f = spec->files; f; f = f->next)
    if (f->dev == (unsigned long long)sb.st_dev && f->ino == (unsigned long long)sb.st_ino)
      return awe_err_set(err, AWE_EIO, "%s is %s, a file this run reads; nothing was written",
                         what, f->path);
  return AWE_OK;
}


awe_status awe_cli_outputs_distinct(const char *opt_a, const char *a, const char *opt_b,
                                    const char *b, awe_err *err) {
  if (!a || !b) return AWE_OK;
  file_id ia, ib;
  get_id(a, &ia);
  get_id(b, &ib);
  if (same_id(&ia, &ib) || !strcmp(a, b))
    return awe_err_set(err, AWE_EIO, "%s %s and %s %s are the same file: the second would "
                       "overwrite the first; give two files", opt_a, a, opt_b, b);
  return AWE_OK;
}


awe_status awe_cli_fd_not_path(int fd, const char *what, const char *opt, const char *path,
                               awe_err *err) {
  struct stat fs, ps;
  if (!path || fstat(fd, &fs) != 0 || !S_ISREG(fs.st_mode) || stat(path, &ps) != 0)
    return AWE_OK;
  if (fs.st_dev == ps.st_dev && fs.st_ino == ps.st_ino)
    return awe_err_set(err, AWE_EIO, "%s is %s %s: the two would overwrite each other", what,
                       opt, path);
  return AWE_OK;
}


awe_status awe_cli_replace_check(const char *path, awe_err *err) {
  char dir[4096];
  dir_of(path, dir, sizeof(dir));
  if (access(dir, W_OK | X_OK) != 0)
    return awe_err_set(err, AWE_EIO, "%s: cannot create a file in %s (the file is written "
                       "beside and renamed): %s", path, dir, strerror(errno));
  return AWE_OK;
}


FILE *awe_cli_replace_open(const char *path, char *tmp, size_t ntmp, awe_err *err) {
  char dir[4096];
  dir_of(path, dir, sizeof(dir));
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  /* hidden, beside the target: the rename stays on one file system */
  int n = snprintf(tmp, ntmp, "%s/.%s.XXXXXX", dir, b);
  if (n < 0 || (size_t)n >= ntmp) {
    awe_err_set(err, AWE_EIO, "%s: file name too long", path);
    return NULL;
  }
  int fd = mkstemp(tmp);
  if (fd < 0) {
    awe_err_set(err, AWE_EIO, "%s: cannot create a file in %s: %s", path, dir, strerror(errno));
    return NULL;
  }
  /* mkstemp makes it 0600: give it the mode a new file of fopen would have */
  mode_t um = umask(0);
  umask(um);
  fchmod(fd, 0666 & ~um);
  FILE *f = fdopen(fd, "w");
  if (!f) {
    awe_err_set(err, AWE_EIO, "%s: %s", path, strerror(errno));
    close(fd);
    unlink(tmp);
  }
  return f;
}


awe_status awe_cli_replace_commit(FILE *f, const char *tmp, const char *path, awe_err *err) {
  int e = 0;
  errno = 0;
  if (fflush(f) != 0 || ferror(f)) e = errno ? errno : EIO;
  if (!e && fsync(fileno(f)) != 0 && errno != EINVAL) e = errno;
  if (fclose(f) != 0 && !e) e = errno;
  if (!e && rename(tmp, path) != 0) e = errno;
  if (e) {
    unlink(tmp);
    return awe_err_set(err, AWE_EIO, "%s: cannot write: %s", path, strerror(e));
  }
  return AWE_OK;
}
