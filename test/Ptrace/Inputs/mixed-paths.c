/* mixed-paths N: two threads call look() with a pointer to nothing, two
 * others call other(), N times each. A clause that reads through the bad
 * pointer faults inside the process (a signal that passes through tsrun)
 * while tsrun is busy with the breakpoint hits of the other threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
struct item { long id; long value; };
static int N;
__attribute__((noinline)) long look(struct item *P) { return P != 0; }
__attribute__((noinline)) long other(long x) { return x + 1; }
static void *bad(void *A) { for (int I = 0; I < N; ++I) look((struct item *)0x10000000); return A; }
static void *good(void *A) { long s = 0; for (int I = 0; I < N; ++I) s += other(I); return (void*)s; }
int main(int argc, char **argv) {
  N = atoi(argv[1]);
  pthread_t T[4];
  pthread_create(&T[0], 0, bad, 0); pthread_create(&T[1], 0, bad, 0);
  pthread_create(&T[2], 0, good, 0); pthread_create(&T[3], 0, good, 0);
  for (int I = 0; I < 4; ++I) pthread_join(T[I], 0);
  printf("look %d other %d\n", 2 * N, 2 * N);
  return 0;
}
