/* contention W: one thread calls hit() every few µs for as long as W other
 * threads each spin through a fixed amount of work; prints how long each
 * worker took. contention.sh runs it under tsrun with and without polling
 * (--spin), to show what the polling event loop takes from a program that
 * needs every CPU. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) long hit(long a, long b) {
  __asm__ volatile("");
  return a + b;
}

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

static volatile int Stop;

static void *hitter(void *Arg) {
  long S = 0;
  (void)Arg;
  while (!Stop) {
    S += hit(S, 1);
    for (volatile int K = 0; K < 2000; ++K)
      ;
  }
  return (void *)S;
}

static void *worker(void *Arg) {
  double T0 = now();
  for (volatile long K = 0; K < 4000000000L; ++K)
    ;
  *(double *)Arg = now() - T0;
  return 0;
}

int main(int argc, char **argv) {
  int W = argc > 1 ? atoi(argv[1]) : 2;
  if (W < 1 || W > 16)
    return 2;
  pthread_t H, T[16];
  double Took[16];
  pthread_create(&H, 0, hitter, 0);
  for (int I = 0; I < W; ++I)
    pthread_create(&T[I], 0, worker, &Took[I]);
  for (int I = 0; I < W; ++I)
    pthread_join(T[I], 0);
  Stop = 1;
  pthread_join(H, 0);
  for (int I = 0; I < W; ++I)
    printf("%s%.2f", I ? " / " : "", Took[I]);
  printf("\n");
  return 0;
}
