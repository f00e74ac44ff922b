/* Calls hit(0), hit(1), ... hit(N-1) as fast as it can (a burst of
 * records for a probe that prints its argument), then prints how many
 * calls it made: the sequence the trace is checked against. With a second
 * argument it says "ready" first and waits for a line on stdin (for a
 * tracer to attach). */
#include <stdio.h>
#include <stdlib.h>

/* A 5-byte nop first: at -O2 the function would otherwise be 4 bytes
 * long, too short for a jump, and every hit would be a trap (a signal,
 * some microseconds): the burst would be a trickle. */
__attribute__((noinline)) long hit(long I) {
  __asm__ volatile(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00" ::: "memory");
  return I;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 1000, S = 0;
  if (argc > 2) {
    printf("ready\n");
    fflush(stdout);
    if (getchar() == EOF)
      return 1;
  }
  for (long I = 0; I < N; ++I)
    S += hit(I);
  printf("burst: %ld calls\n", N);
  return S == -1;
}
