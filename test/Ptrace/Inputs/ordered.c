/* ordered T N: T threads take turns under one mutex; whoever holds it
 * calls step(next) with the next number of a shared counter, so the true
 * order of the calls is 0, 1, 2, ... across the threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static long Next;
static int N;
__attribute__((noinline)) long step(long seq) { return seq; }
static void *run(void *A) {
  for (int I = 0; I < N; ++I) {
    pthread_mutex_lock(&Lock);
    step(Next++);
    pthread_mutex_unlock(&Lock);
  }
  return A;
}
int main(int argc, char **argv) {
  int T = atoi(argv[1]);
  N = atoi(argv[2]);
  pthread_t Th[16];
  for (int I = 0; I < T; ++I)
    pthread_create(&Th[I], 0, run, 0);
  for (int I = 0; I < T; ++I)
    pthread_join(Th[I], 0);
  fprintf(stderr, "steps %ld\n", Next);
  return 0;
}
