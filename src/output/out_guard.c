/* out_guard.c: outputs never overwrite inputs or each other (out_guard.h). */
#include "output/out_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m) {
  return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static awe_status check_stat(const awe_spec *spec, const char *path, const struct stat *sb,
                             const char *other, awe_err *err) {
  if (!S_ISREG(sb->st_mode))
    return awe_err_set(err, AWE_EIO, "%s: is %s; a log is written to a regular file", path,
                       kind_of(sb->st_mode));
  for (const awe_spec_file *f = spec ? spec->files : NULL; f; f = f->next)
    if (f->dev == (unsigned long long)sb->st_dev && f->ino == (unsigned long long)sb->st_ino)
      return awe_err_set(err, AWE_EIO, "%s: this is %s, a file this run reads; it was not "
                         "written (give another output file)", path, f->path);
  struct stat ob;
  if (other && stat(other, &ob) == 0 && ob.st_dev == sb->st_dev && ob.st_ino == sb->st_ino)
    return awe_err_set(err, AWE_EIO, "%s: this is %s, the run's other log; give two files",
                       path, other);
  return AWE_OK;
}

awe_status awe_out_guard(const awe_spec *spec, const char *path, const char *other,
                         awe_err *err) {
  if (!path || !*path) return awe_err_set(err, AWE_EIO, "no output path");
  if (other && !strcmp(path, other))
    return awe_err_set(err, AWE_EIO, "%s: this is the run's other log; give two files", path);
  struct stat sb;
  if (stat(path, &sb) != 0) return AWE_OK; /* a new file is nobody's input */
  return check_stat(spec, path, &sb, other, err);
}

FILE *awe_out_guard_fopen(const awe_spec *spec, const char *path, const char *other,
                          awe_err *err) {
  if (awe_out_guard(spec, path, other, err)) return NULL;
  /* O_NONBLOCK: a FIFO without a reader fails or opens at once instead of hanging the caller */
  int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd < 0) {
    awe_err_set(err, AWE_EIO, "%s: cannot open for writing: %s", path, strerror(errno));
    return NULL;
  }
  struct stat sb;
  if (fstat(fd, &sb) != 0 || check_stat(spec, path, &sb, other, err) ||
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || ftruncate(fd, 0) != 0) {
    if (!err || !err->code) awe_err_set(err, AWE_EIO, "%s: %s", path, strerror(errno));
    close(fd);
    return NULL;
  }
  FILE *f = fdopen(fd, "w");
  if (!f) {
    awe_err_set(err, AWE_EIO, "%s: %s", path, strerror(errno));
    close(fd);
  }
  return f;
}
