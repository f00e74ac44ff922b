// Calls leaf() from stacks of several shapes: a recursion deeper than the
// default --max-stack-depth and a shallower one, through libc (qsort()'s
// comparison function), from a signal handler (through the kernel's
// signal frame), and from a library loaded with dlopen() after the
// program started. It prints how often it called leaf() from each.
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long leaf(long X) {
  __asm__ volatile("" ::: "memory");
  return X + 1;
}

__attribute__((noinline)) long recurse(long Depth, long X) {
  if (Depth == 0)
    return leaf(X);
  return recurse(Depth - 1, X + 1) + 1;
}

static int compare(const void *A, const void *B) {
  long L = *(const long *)A, R = *(const long *)B;
  leaf(L);
  return (L > R) - (L < R);
}

static volatile long InHandler;
static void handler(int Sig) { InHandler += leaf(Sig); }

int main(int argc, char **argv) {
  long Sum = 0;
  for (int I = 0; I < 3; ++I)
    Sum += recurse(100, I);
  for (int I = 0; I < 2; ++I)
    Sum += recurse(20, I);
  long Items[2] = {2, 1};
  qsort(Items, 2, sizeof(Items[0]), compare);
  signal(SIGUSR1, handler);
  for (int I = 0; I < 4; ++I)
    raise(SIGUSR1);
  printf("deep 3 shallow 2 qsort-items 2 signals 4\n");
  if (argc > 1) {
    void *Lib = dlopen(argv[1], RTLD_NOW);
    long (*Through)(long (*)(long), long) =
        Lib ? (long (*)(long (*)(long), long))dlsym(Lib, "through_lib") : 0;
    if (!Through) {
      printf("dlopen failed: %s\n", dlerror());
      return 1;
    }
    for (int I = 0; I < 5; ++I)
      Sum += Through(leaf, I);
    printf("through the library 5\n");
  }
  return Sum == 0;
}
