/*
 * libycsb_mmap_space.so: makes a file grown with ftruncate hold real blocks, so that a full filesystem
 * is an error from ftruncate instead of a SIGBUS at the first store into the new pages.
 *
 * LevelDB 1.13 (inside leveldbjni) writes its log, tables and MANIFEST through mmap: it grows a file
 * with ftruncate, maps the new region and copies into it. ftruncate only sets the length; the blocks
 * are taken when a page is first touched, and on a full filesystem that page fault is a SIGBUS, which
 * kills the JVM. Kyoto Cabinet's TreeDB does the same within the first mapsize bytes of its file
 * (it grows the file with ftruncate and copies into its map). Loaded with LD_PRELOAD (bin/ycsb does
 * it for each engine the registry marks launch.mmapspace), this ftruncate first reserves the blocks
 * of the new range with fallocate: when there is no room it fails with ENOSPC, LevelDB turns that
 * into an IOError and Kyoto into "ftruncate failed", and the binding's write returns ERROR.
 *
 * Only growth is changed; a filesystem without fallocate (EOPNOTSUPP) keeps the plain ftruncate.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

typedef int (*ftruncate_fn)(int, off_t);

/* The binding looks for this name in /proc/self/maps' library path, and tests call it. */
int ycsb_mmap_space_active(void) { return 1; }

static ftruncate_fn next_ftruncate(void) {
  static ftruncate_fn next;
  if (next == NULL) {
    next = (ftruncate_fn) dlsym(RTLD_NEXT, "ftruncate");
  }
  return next;
}

static int reserve(int fd, off_t length) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || length <= st.st_size) {
    return 0;
  }
  if (fallocate(fd, 0, st.st_size, length - st.st_size) == 0) {
    return 0;
  }
  /* No fallocate here: the plain ftruncate, as without this library. Anything else (ENOSPC, EDQUOT,
     EFBIG) is the error LevelDB should see. */
  return errno == EOPNOTSUPP || errno == ENOSYS ? 0 : -1;
}

int ftruncate(int fd, off_t length) {
  ftruncate_fn next = next_ftruncate();
  if (next == NULL) {
    errno = ENOSYS;
    return -1;
  }
  if (reserve(fd, length) != 0) {
    return -1;
  }
  return next(fd, length);
}

/* off_t is 64 bits on x86-64, where ftruncate64 is the same call under another name. */
int ftruncate64(int fd, off_t length) { return ftruncate(fd, length); }
