// Threads that each dlopen a probed library, call into it and dlclose it
// in a loop, so that it is mapped and unmapped many times while others
// call into it.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static const char *Lib;
static long Rounds, Calls, Sum;

static void *worker(void *A) {
  (void)A;
  for (long I = 0; I < Rounds; ++I) {
    void *H = dlopen(Lib, RTLD_NOW);
    if (!H) { fprintf(stderr, "%s\n", dlerror()); exit(1); }
    long (*F)(long) = (long (*)(long))dlsym(H, "plugged");
    for (int K = 0; K < 10; ++K) {
      __atomic_add_fetch(&Sum, F(K), __ATOMIC_RELAXED);
      __atomic_add_fetch(&Calls, 1, __ATOMIC_RELAXED);
    }
    dlclose(H);
  }
  return 0;
}

int main(int Argc, char **Argv) {
  Lib = Argv[1];
  Rounds = Argc > 2 ? atol(Argv[2]) : 300;
  pthread_t T[4];
  for (int I = 0; I < 4; ++I) pthread_create(&T[I], 0, worker, 0);
  for (int I = 0; I < 4; ++I) pthread_join(T[I], 0);
  printf("calls %ld sum %ld\n", Calls, Sum);
  return 0;
}
