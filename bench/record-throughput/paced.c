/* paced RATE SECONDS: calls hit(i) RATE times a second for SECONDS seconds
 * from one thread (in batches of 1000, paced by the monotonic clock), then
 * prints how many calls it made and its own CPU time. RATE 0: as fast as
 * it can. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* A 5-byte nop first: at -O2 the function would otherwise be 4 bytes
 * long, too short for a jump, and every hit would be a trap (a signal). */
__attribute__((noinline)) long hit(long I) {
  __asm__ volatile(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00" ::: "memory");
  return I;
}

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  double Rate = argc > 1 ? atof(argv[1]) : 1e6;
  double Seconds = argc > 2 ? atof(argv[2]) : 10;
  long N = 0, S = 0;
  double T0 = now(), T = T0;
  while ((T = now()) - T0 < Seconds) {
    long Due = Rate > 0 ? (long)((T - T0) * Rate) : N + 1000;
    while (N < Due)
      S += hit(N++);
  }
  struct timespec C;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &C);
  /* Its own CPU (the clause code that runs in it included), so that a
   * benchmark can tell tsrun's share from wait4's total. */
  fprintf(stderr, "paced: %ld calls in %.2f s (%.0f/s), cpu %.6f s\n", N,
          T - T0, N / (T - T0), C.tv_sec + C.tv_nsec / 1e9);
  return S == -1;
}
