/* hammer T N: T threads each call work(i) N times, work() calls leaf().
 * Prints what it did, for the script's counts to be compared with. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int N;
__attribute__((noinline)) long leaf(long i) { return i * 3; }
__attribute__((noinline)) long work(long i) { return leaf(i) + 1; }
static void *run(void *A) {
  long Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += work(I);
  return (void *)Sum;
}
int main(int argc, char **argv) {
  int T = atoi(argv[1]);
  N = atoi(argv[2]);
  pthread_t Th[64];
  for (int I = 0; I < T; ++I)
    pthread_create(&Th[I], 0, run, 0);
  long Total = 0;
  for (int I = 0; I < T; ++I) {
    void *R;
    pthread_join(Th[I], &R);
    Total += (long)R;
  }
  printf("calls %d per thread %d rvsum %ld\n", T * N, N, Total);
  return 0;
}
