/* T threads each call hit(K, 0..N-1) as fast as they can, all starting
 * together (a burst of records from many threads at once), then the
 * program prints how many calls each thread made. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long N;
static pthread_barrier_t Start;

__attribute__((noinline)) long hit(long K, long I) {
  __asm__ volatile("" ::: "memory");
  return K + I;
}

static void *run(void *Arg) {
  long K = (long)Arg, S = 0;
  pthread_barrier_wait(&Start);
  for (long I = 0; I < N; ++I)
    S += hit(K, I);
  return (void *)S;
}

int main(int argc, char **argv) {
  long T = argc > 1 ? atol(argv[1]) : 16;
  N = argc > 2 ? atol(argv[2]) : 1000;
  pthread_t Th[256];
  if (T < 1 || T > 256)
    return 2;
  pthread_barrier_init(&Start, 0, (unsigned)T);
  for (long K = 0; K < T; ++K)
    pthread_create(&Th[K], 0, run, (void *)K);
  for (long K = 0; K < T; ++K)
    pthread_join(Th[K], 0);
  printf("burst: %ld threads, %ld calls each\n", T, N);
  return 0;
}
