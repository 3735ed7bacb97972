/* out_file.h: claiming an output file safely before a writer library opens it.
 *
 * Two ways a log used to be lost:
 *   - a second run on the same path truncated it before it found the first run's lock;
 *   - a full disk made HDF5 fail half-way through writing its metadata, leaving a file whose
 *     superblock points past its end.
 * So a writer first claims the path: open without truncation, take an exclusive advisory lock
 * (flock, which is also what HDF5 readers and writers take), and only then truncate. The lock is
 * held until the writer releases the claim. Then, before every write it is about to make, the
 * writer reserves the disk blocks that write can need (fallocate with FALLOC_FL_KEEP_SIZE: the
 * blocks are allocated past the end of the file, its size is unchanged). A write whose
 * reservation fails is not made, so what is already on disk stays consistent.
 *
 * Usage:
 *   awe_out_file of;
 *   if (awe_out_file_claim(&of, path, &err)) fail;         // AWE_EIO, file untouched if locked
 *   ... library opens path itself (with its own locking off) ...
 *   if (awe_out_file_reserve(&of, bytes)) -> ENOSPC: do not write; report
 *   awe_out_file_release(&of);                              // after the library closed it
 */
#ifndef AWE_OUT_FILE_H
#define AWE_OUT_FILE_H

#include "util/status.h"

typedef struct {
  int fd;           /* our descriptor holding the lock; -1 when not claimed */
  int can_reserve;  /* the file system supports fallocate(KEEP_SIZE) */
} awe_out_file;

/* Refuse anything but a regular file (or a new one); open or create without truncating; lock
 * exclusively without waiting; then truncate to 0 bytes. On failure of any step the file is
 * left as it was (a new file is removed again) and err says why: AWE_EIO. */
awe_status awe_out_file_claim(awe_out_file *f, const char *path, awe_err *err);

/* Make sure `bytes` more bytes past the current end of the file are allocated on disk.
 * Returns 0, or -1 with errno = ENOSPC (or another write error). A file system without
 * fallocate support always returns 0 (no protection there, no false alarms either). */
int awe_out_file_reserve(awe_out_file *f, long long bytes);

/* Free space on the file system holding the claimed file, in bytes (-1 if unknown). */
long long awe_out_file_free_bytes(const awe_out_file *f);

/* Release the lock and close our descriptor (no-op when not claimed). */
void awe_out_file_release(awe_out_file *f);

#endif
