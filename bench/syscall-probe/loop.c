/* The benchmark target: calls getppid() N times through libc and reports
 * on stderr how long the loop took, measured by itself: wall time
 * ("loop-ns T") and the CPU time of its thread, user and system
 * ("loop-cpu-ns C"), which a loaded machine disturbs less: the traced
 * program's own slowdown, whatever the tracer does before or after.
 * Prints the number of calls it made on stdout ("calls N"). With a second
 * argument "wait", it first says "ready PID" and waits for a line on stdin
 * (a tracer attaching to it meanwhile). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 1000, S = 0;
  if (argc > 2) {
    char Line[16];
    printf("ready %d\n", (int)getpid());
    fflush(stdout);
    if (!fgets(Line, sizeof Line, stdin))
      return 3;
  }
  struct timespec T0, T1, C0, C1;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &C0);
  clock_gettime(CLOCK_MONOTONIC, &T0);
  for (long I = 0; I < N; ++I)
    S += getppid();
  clock_gettime(CLOCK_MONOTONIC, &T1);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &C1);
  fprintf(stderr, "loop-ns %lld\nloop-cpu-ns %lld\n",
          (long long)(T1.tv_sec - T0.tv_sec) * 1000000000LL +
              (T1.tv_nsec - T0.tv_nsec),
          (long long)(C1.tv_sec - C0.tv_sec) * 1000000000LL +
              (C1.tv_nsec - C0.tv_nsec));
  printf("calls %ld\n", N);
  return S == 42; /* keep the calls */
}
