/* many N K: N threads, all alive at once, each calling work() once, then,
 * once every one of them has, K - 1 times more. Prints what they did. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long K, Calls;
static pthread_barrier_t Ready;

__attribute__((noinline)) long work(long I) {
  __atomic_add_fetch(&Calls, 1, __ATOMIC_RELAXED);
  return I;
}

static void *body(void *A) {
  long S = work(0);
  pthread_barrier_wait(&Ready);
  for (long I = 1; I < K; ++I)
    S += work(I);
  return (void *)S;
}

int main(int argc, char **argv) {
  long N = atol(argv[1]);
  K = atol(argv[2]);
  pthread_t *T = calloc(N, sizeof(*T));
  pthread_attr_t A;
  pthread_attr_init(&A);
  pthread_attr_setstacksize(&A, 64 * 1024);
  pthread_barrier_init(&Ready, 0, N);
  for (long I = 0; I < N; ++I)
    if (pthread_create(&T[I], &A, body, 0))
      return 2;
  for (long I = 0; I < N; ++I)
    pthread_join(T[I], 0);
  printf("threads %ld calls %ld\n", N, Calls);
  return 0;
}
