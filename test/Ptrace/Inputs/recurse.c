/* rec(d) = rec(d-1) * 3 + d, rec(0) = 1. Prints, innermost first, the value
 * each activation returns, then calls it. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long rec(long d) {
  if (d == 0)
    return 1;
  long R = rec(d - 1);
  __asm__ volatile("" : "+r"(R));
  return R * 3 + d;
}
int main(int argc, char **argv) {
  long D = atol(argv[1]), R = 1;
  printf("expect %ld\n", R);
  for (long K = 1; K <= D; ++K) {
    R = R * 3 + K;
    printf("expect %ld\n", R);
  }
  fflush(stdout);
  return rec(D) != R;
}
