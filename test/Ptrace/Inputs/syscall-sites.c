/* syscall-sites N: makes system calls through libc's wrappers and prints,
 * as PROG lines, what a system-call probe should see of some of them:
 *   - getppid() N times (glibc: `mov $110, %eax; syscall; ret`, a site
 *     whose jump must start before the syscall), then the count;
 *   - three reads of itself of 5, 6 and 7 bytes and one of a descriptor
 *     that is not open (-EBADF), each with its descriptor, byte count,
 *     return value and errno as a syscall exit probe sees them. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int n = argc > 1 ? atoi(argv[1]) : 10;
  long first = 0, same = 1;
  for (int i = 0; i < n; ++i) {
    long p = getppid();
    first = i ? first : p;
    same &= p == first;
  }
  printf("PROG getppid calls %d (%s)\n", n, same ? "same parent" : "?");
  int fd = open(argv[0], O_RDONLY);
  char buf[16];
  for (int len = 5; len <= 7; ++len) {
    long r = read(fd, buf, len);
    printf("PROG read %d %d rv %ld errno %d\n", fd, len, r, r < 0 ? errno : 0);
  }
  long r = read(1000, buf, 4);
  printf("PROG read %d %d rv %ld errno %d\n", 1000, 4, r < 0 ? -errno : r,
         r < 0 ? errno : 0);
  close(fd);
  return 0;
}
