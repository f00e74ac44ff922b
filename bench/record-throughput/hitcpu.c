/* The printing hit's own cost: calls hit(i, 2*i) N times and reports on
 * stderr the loop's wall time and the CPU time of the calling thread alone
 * (CLOCK_THREAD_CPUTIME_ID), per call:
 *   hitcpu: N calls, W ns wall, C ns thread CPU per call
 * The thread CPU leaves out tsrun's reader (another process), whether it
 * ran on the other CPU or took turns with this thread on the same one;
 * the wall time includes the turns. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) long hit(long a, long b) {
  __asm__ volatile("");
  return a + b;
}

static double ns(clockid_t Clock) {
  struct timespec T;
  clock_gettime(Clock, &T);
  return (double)T.tv_sec * 1e9 + (double)T.tv_nsec;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 1000, S = 0;
  double W0 = ns(CLOCK_MONOTONIC), C0 = ns(CLOCK_THREAD_CPUTIME_ID);
  for (long I = 0; I < N; ++I)
    S += hit(I, 2 * I);
  double C1 = ns(CLOCK_THREAD_CPUTIME_ID), W1 = ns(CLOCK_MONOTONIC);
  fprintf(stderr,
          "hitcpu: %ld calls, %.1f ns wall, %.1f ns thread CPU per call\n", N,
          (W1 - W0) / N, (C1 - C0) / N);
  return S == 42; /* keep the calls */
}
