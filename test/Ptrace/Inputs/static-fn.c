/* A program whose interesting function is static: once stripped, only a
 * separate debug file names it. It prints how often it called it, for the
 * tracer's count to be compared with. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long hidden_step(long x) {
#ifdef OTHER
  return x * 3 + 1;
#else
  return x + 1;
#endif
}

__attribute__((noinline)) long visible(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += hidden_step(i);
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 3;
  printf("hidden_step called %ld times, sum %ld\n", n, visible(n));
  return 0;
}
