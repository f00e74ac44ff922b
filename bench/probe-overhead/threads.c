/* threads T N: T threads each call hit() N times, started together;
 * prints the total, for the tracers' counts to be checked against. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long hit(long a) {
  __asm__ volatile("");
  return a + 1;
}

static long N;
static pthread_barrier_t Start;

static void *run(void *Arg) {
  long S = 0;
  (void)Arg;
  pthread_barrier_wait(&Start);
  for (long I = 0; I < N; ++I)
    S = hit(S);
  return (void *)S;
}

int main(int argc, char **argv) {
  int T = argc > 1 ? atoi(argv[1]) : 1;
  N = argc > 2 ? atol(argv[2]) : 1000000;
  if (T < 1 || T > 64)
    return 2;
  pthread_t Th[64];
  pthread_barrier_init(&Start, 0, (unsigned)T);
  for (int I = 0; I < T; ++I)
    pthread_create(&Th[I], 0, run, 0);
  long Total = 0;
  for (int I = 0; I < T; ++I) {
    void *R;
    pthread_join(Th[I], &R);
    Total += (long)R;
  }
  printf("calls %ld\n", Total);
  return 0;
}
