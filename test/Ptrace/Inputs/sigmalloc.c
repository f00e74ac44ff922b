/* sigmalloc K: K times, work() raises SIGUSR1, whose handler calls
 * in_handler(); then K calls of malloc(12345) and free. Probes fire inside
 * a signal handler that interrupted a probed function, and inside malloc. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static volatile long Seen;
__attribute__((noinline)) long in_handler(long v) { return Seen += v; }
static void onUsr1(int Sig) { in_handler(Sig); }
__attribute__((noinline)) long work(long i) {
  raise(SIGUSR1);
  return i;
}
int main(int argc, char **argv) {
  int K = atoi(argv[1]);
  struct sigaction SA = {0};
  SA.sa_handler = onUsr1;
  sigaction(SIGUSR1, &SA, 0);
  long Sum = 0;
  for (int I = 0; I < K; ++I)
    Sum += work(I);
  for (int I = 0; I < K; ++I) {
    char *P = malloc(12345);
    P[0] = 1;
    free(P);
  }
  printf("work %d handler %ld malloc %d\n", K, Seen / SIGUSR1, K);
  return Sum < 0;
}
