/* The benchmark target: calls hit(i, 2*i) N times, and reports on stderr
 * how long the loop took, measured by itself ("loop-ns T"): the traced
 * program's own slowdown, whatever the tracer does before or after. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) long hit(long a, long b) {
  __asm__ volatile("");
  return a + b;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 1000, S = 0;
  struct timespec T0, T1;
  clock_gettime(CLOCK_MONOTONIC, &T0);
  for (long I = 0; I < N; ++I)
    S += hit(I, 2 * I);
  clock_gettime(CLOCK_MONOTONIC, &T1);
  fprintf(stderr, "loop-ns %lld\n",
          (long long)(T1.tv_sec - T0.tv_sec) * 1000000000LL +
              (T1.tv_nsec - T0.tv_nsec));
  return S == 42; /* keep the calls */
}
