/* badptr T N: T threads each call look(p) N times with p cycling through a
 * valid struct, NULL, a tiny address, a kernel address and an address that
 * was unmapped. Prints its own checksum: tracing must not change it. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

struct item { long id; long value; };
static struct item Good = {7, 35};
static void *Bad[4];
static int N;

__attribute__((noinline)) long look(struct item *P, long kind) {
  return kind == 0 ? P->value : kind;
}
static void *run(void *A) {
  long Sum = 0;
  for (int I = 0; I < N; ++I)
    for (long K = 0; K < 5; ++K)
      Sum += look(K == 0 ? &Good : (struct item *)Bad[K - 1], K);
  return (void *)Sum;
}
int main(int argc, char **argv) {
  int T = atoi(argv[1]);
  N = atoi(argv[2]);
  void *Gone = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  munmap(Gone, 4096);
  Bad[0] = 0;
  Bad[1] = (void *)0x10;
  Bad[2] = (void *)0xffffffff81000000ul;
  Bad[3] = (char *)Gone + 64;
  pthread_t Th[16];
  for (int I = 0; I < T; ++I)
    pthread_create(&Th[I], 0, run, 0);
  long Total = 0;
  for (int I = 0; I < T; ++I) {
    void *R;
    pthread_join(Th[I], &R);
    Total += (long)R;
  }
  printf("checksum %ld calls %d bad %d\n", Total, T * N * 5, T * N * 4);
  return 0;
}
