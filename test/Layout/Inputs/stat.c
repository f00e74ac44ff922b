#include <sys/stat.h>
#include "layout.h"

/* glibc's struct stat differs by architecture (bits/struct_stat.h); the
 * members are listed in declaration order for each. */
#define T struct stat
int main(void) {
  TYPE(struct stat);
  FIELD(T, st_dev);
#ifdef __x86_64__
  FIELD(T, st_ino);
  FIELD(T, st_nlink);
  FIELD(T, st_mode);
  FIELD(T, st_uid);
  FIELD(T, st_gid);
  FIELD(T, __pad0);
  FIELD(T, st_rdev);
#else
  FIELD(T, __pad1);
  FIELD(T, st_ino);
  FIELD(T, st_mode);
  FIELD(T, st_nlink);
  FIELD(T, st_uid);
  FIELD(T, st_gid);
  FIELD(T, st_rdev);
  FIELD(T, __pad2);
#endif
  FIELD(T, st_size);
  FIELD(T, st_blksize);
  FIELD(T, st_blocks);
  FIELD(T, st_atim);
  FIELD(T, st_atim.tv_sec);
  FIELD(T, st_atim.tv_nsec);
  FIELD(T, st_mtim);
  FIELD(T, st_mtim.tv_sec);
  FIELD(T, st_mtim.tv_nsec);
  FIELD(T, st_ctim);
  FIELD(T, st_ctim.tv_sec);
  FIELD(T, st_ctim.tv_nsec);
#ifdef __x86_64__
  ARRAY(T, __glibc_reserved);
#else
  FIELD(T, __glibc_reserved4);
  FIELD(T, __glibc_reserved5);
#endif
  return 0;
}
