// Calls foo() argv[1] times and prints each argument, then how many calls
// it made: what a tracer's probes must match.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long foo(long x) { return x * 2 + 1; }

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  long N = argc > 1 ? atol(argv[1]) : 10, Sum = 0;
  for (long I = 0; I < N; ++I) {
    Sum += foo(I);
    if (I < 5)
      printf("foo %ld\n", I);
  }
  printf("calls %ld sum %ld\n", N, Sum);
  return 0;
}
