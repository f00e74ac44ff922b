/* timed-loop N GO: waits for a byte on the FIFO GO, then calls hit(i, 2*i)
 * N times and prints the mean time per call, measured by itself. Used by
 * attached.sh: the tracer attaches before GO, so attach cost stays out. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) long hit(long a, long b) {
  __asm__ volatile("");
  return a + b;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  long N = atol(argv[1]), S = 0;
  char c;
  int fd = open(argv[2], O_RDONLY);
  if (fd < 0 || read(fd, &c, 1) != 1)
    return 2;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long I = 0; I < N; ++I)
    S += hit(I, 2 * I);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
  printf("%.2f\n", ns / N / 1000);
  return S == 42; /* keep the calls */
}
