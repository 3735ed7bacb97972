/* cmd_sweep_folder.c: what a sweep folder is and who may write it. A folder is a sweep folder
 * when its plan.tsv starts with awesim's marker line; `awesim sweep` plans only into an empty
 * folder or a sweep folder, and only while it holds DIR/sweep.lock (flock: the lock belongs
 * to the open file, so processes that inherit the descriptor hold it too, which is how
 * tools/awesim-sweep keeps it for the whole run). */
#define _GNU_SOURCE /* flock */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd_sweep.h"

int awe_sweep_is_plan(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char line[64] = "";
  int ok = fgets(line, sizeof(line), f) && !strncmp(line, AWE_SWEEP_PLAN_MARK,
                                                     strlen(AWE_SWEEP_PLAN_MARK));
  fclose(f);
  return ok;
}

/* the names awesim itself leaves in a folder it has not planned into yet */
static int ours(const char *n) {
  return !strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, "sweep.lock") ||
         !strncmp(n, ".awesim-tmp.", 12);
}

int awe_sweep_folder_state(const char *dir) {
  char p[4096];
  snprintf(p, sizeof(p), "%s/plan.tsv", dir);
  if (awe_sweep_is_plan(p)) return 1;
  DIR *d = opendir(dir);
  if (!d) return -1;
  int state = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (!ours(e->d_name)) state = 2;
  closedir(d);
  return state;
}

int awe_sweep_lock(const char *dir, int keep_on_exec, int *created, int *unlocked) {
  char p[4096];
  snprintf(p, sizeof(p), "%s/sweep.lock", dir);
  int flags = O_RDWR | O_CREAT | (keep_on_exec ? 0 : O_CLOEXEC);
  int fd = open(p, flags | O_EXCL, 0644);
  *created = fd >= 0;
  *unlocked = 0;
  if (fd < 0 && errno == EEXIST) fd = open(p, flags, 0644);
  if (fd < 0) return -1;
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    if (e == EWOULDBLOCK) {
      close(fd);
      errno = e;
      return -1;
    }
    /* a file system without locks: carry on, the caller warns */
    *unlocked = e;
  }
  return fd;
}
