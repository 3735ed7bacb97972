/* out_file.c: claim an output path (lock before truncate) and reserve disk space before writes.
 * Why: see out_file.h. Linux fallocate(2) with FALLOC_FL_KEEP_SIZE allocates blocks beyond the
 * end of file without changing its size, so HDF5's own view of the file (its end-of-file
 * checks) is unaffected; flock(2) is the lock HDF5 itself uses, so an HDF5 reader or another
 * awesim holding the file makes the claim fail instead of truncating it.
 */
#define _GNU_SOURCE /* fallocate, FALLOC_FL_KEEP_SIZE */
#include "output/out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

awe_status awe_out_file_claim(awe_out_file *f, const char *path, awe_err *err) {
  f->fd = -1;
  f->can_reserve = 1;
  struct stat sb;
  int existed = stat(path, &sb) == 0;
  if (existed && !S_ISREG(sb.st_mode))
    return awe_err_set(err, AWE_EIO, "%.300s: not a regular file (%s); give a file name",
                       path, S_ISDIR(sb.st_mode) ? "a directory" : "a device, FIFO or socket");
  /* O_NONBLOCK: a FIFO created between the stat and the open must not block us */
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0666);
  if (fd < 0) return awe_err_set(err, AWE_EIO, "cannot create %.300s: %s", path, strerror(errno));
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    close(fd);
    return awe_err_set(err, AWE_EIO, "%.300s: not a regular file", path);
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    close(fd);
    if (e == EWOULDBLOCK)
      return awe_err_set(err, AWE_EIO,
                         "%.300s is in use by another process (another awesim run or an HDF5 "
                         "reader holds its lock); the file was not touched", path);
    return awe_err_set(err, AWE_EIO, "cannot lock %.300s: %s", path, strerror(e));
  }
  if (ftruncate(fd, 0) != 0) {
    int e = errno;
    if (!existed) unlink(path);
    close(fd);
    return awe_err_set(err, AWE_EIO, "cannot truncate %.300s: %s", path, strerror(e));
  }
  f->fd = fd;
  return AWE_OK;
}


int awe_out_file_reserve(awe_out_file *f, long long bytes) {
  if (f->fd < 0 || !f->can_reserve || bytes <= 0) return 0;
#ifdef FALLOC_FL_KEEP_SIZE
  struct stat sb;
  if (fstat(f->fd, &sb) != 0) return 0;
  if (fallocate(f->fd, FALLOC_FL_KEEP_SIZE, sb.st_size, (off_t)bytes) == 0) return 0;
  if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL) {
    f->can_reserve = 0;
    return 0;
  }
  return -1;
#else
  f->can_reserve = 0;
  return 0;
#endif
}


long long awe_out_file_free_bytes(const awe_out_file *f) {
  struct statvfs vs;
  if (f->fd < 0 || fstatvfs(f->fd, &vs) != 0) return -1;
  return (long long)vs.f_bavail * (long long)vs.f_frsize;
}


void awe_out_file_release(awe_out_file *f) {
  if (f->fd < 0) return;
  flock(f->fd, LOCK_UN);
  close(f->fd);
  f->fd = -1;
}
