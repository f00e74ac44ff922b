// Calls foo() 3 times, says so on the FIFO argv[2] if there is one, waits
// until the tracer is gone (a byte on the FIFO argv[1]), calls it 3 times
// more, and prints the first bytes of its code as they are now: a jump
// left behind would show.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) long foo(long x) { return x * 2 + 1; }

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  long s = 0;
  for (long i = 0; i < 3; ++i)
    s += foo(i);
  if (argc > 2) {
    int Ready;
    while ((Ready = open(argv[2], O_WRONLY)) < 0)
      if (errno != EINTR)
        return 1;
    while (write(Ready, "r\n", 2) < 0)
      if (errno != EINTR)
        return 1;
    close(Ready);
  }
  // Blocked here while the tracer stops the program at its end, the calls
  // may be interrupted (EINTR): they are made again.
  int Go;
  while ((Go = open(argv[1], O_RDONLY)) < 0)
    if (errno != EINTR)
      return 1;
  char Byte;
  while (read(Go, &Byte, 1) < 0)
    if (errno != EINTR)
      return 1;
  for (long i = 3; i < 6; ++i)
    s += foo(i);
  printf("sum %ld code", s);
  for (int i = 0; i < 8; ++i)
    printf(" %02x", ((unsigned char *)foo)[i]);
  printf("\n");
  return 0;
}
