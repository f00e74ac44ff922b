/* N threads each call work() M times; prints the total it made. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int M;
__attribute__((noinline)) long work(long i) { return i + 1; }
static void *run(void *A) {
  for (int I = 0; I < M; ++I)
    work(I);
  return A;
}
int main(int argc, char **argv) {
  int N = atoi(argv[1]);
  M = atoi(argv[2]);
  pthread_t T[64];
  for (int I = 0; I < N; ++I)
    pthread_create(&T[I], 0, run, 0);
  for (int I = 0; I < N; ++I)
    pthread_join(T[I], 0);
  printf("expected=%d\n", N * M);
  return 0;
}
