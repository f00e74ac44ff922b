/* The benchmark target: calls hit(i, 2*i) N times. */
#include <stdlib.h>

__attribute__((noinline)) long hit(long a, long b) {
  __asm__ volatile("");
  return a + b;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 1000, S = 0;
  for (long I = 0; I < N; ++I)
    S += hit(I, 2 * I);
  return S == 42; /* keep the calls */
}
