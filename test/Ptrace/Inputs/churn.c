/* churn N: N threads one after another, each on a stack of its own
 * (pthread_attr_setstack, every one at another address, so every thread
 * has another TCB and fs base), each calling work() twice. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define STACK (64 * 1024)
static long Calls;

__attribute__((noinline)) long work(long I) {
  __atomic_add_fetch(&Calls, 1, __ATOMIC_RELAXED);
  return I + 1;
}

static void *body(void *A) {
  long I = (long)A;
  return (void *)(work(I) + work(I));
}

int main(int argc, char **argv) {
  long N = atol(argv[1]), Sum = 0;
  char *Stacks = mmap(0, (size_t)N * STACK, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Stacks == MAP_FAILED)
    return 1;
  for (long I = 0; I < N; ++I) {
    pthread_attr_t A;
    pthread_attr_init(&A);
    pthread_attr_setstack(&A, Stacks + I * STACK, STACK);
    pthread_t T;
    void *R;
    if (pthread_create(&T, &A, body, (void *)I))
      return 2;
    pthread_join(T, &R);
    Sum += (long)R;
    pthread_attr_destroy(&A);
    /* Its pages back to the system: many stacks, little memory. */
    madvise(Stacks + I * STACK, STACK, MADV_DONTNEED);
  }
  printf("threads %ld calls %ld rvsum %ld\n", N, Calls, Sum);
  return 0;
}
