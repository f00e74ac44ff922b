// Threads cancelled inside probed functions with entry and exit probes
// pending. Deferred threads make Rounds calls of a 5-deep nest() that
// return, then a 5-deep one that waits at pthread_testcancel() until it is
// cancelled; asynchronous threads call nest() without end until they are
// cancelled wherever they are (in the program, or in a clause). Every
// cleanup handler of a cancelled frame runs. Prints what the deferred
// threads did (exact) and how many threads were cancelled.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define DEPTH 4
static long Calls, Returns, Cleanups, Waiting;

static void cleanup(void *A) {
  if (!(long)A)
    __atomic_add_fetch(&Cleanups, 1, __ATOMIC_SEQ_CST);
}

__attribute__((noinline)) long nest(long Level, long Async, long Last) {
  if (!Async)
    __atomic_add_fetch(&Calls, 1, __ATOMIC_SEQ_CST);
  long R;
  pthread_cleanup_push(cleanup, (void *)Async);
  if (Level > 0) {
    R = nest(Level - 1, Async, Last) + 1;
  } else if (Last && !Async) {
    __atomic_add_fetch(&Waiting, 1, __ATOMIC_SEQ_CST);
    for (;;) {
      pthread_testcancel();
      sched_yield();
    }
  } else {
    R = 1;
  }
  pthread_cleanup_pop(0);
  __asm__ volatile("" ::: "memory");
  if (!Async)
    __atomic_add_fetch(&Returns, 1, __ATOMIC_SEQ_CST);
  return R;
}

// What asynchronous threads run: cancelled wherever they are.
__attribute__((noinline)) long spin(long Level) {
  long R;
  pthread_cleanup_push(cleanup, (void *)1);
  R = Level > 0 ? spin(Level - 1) + 1 : 1;
  pthread_cleanup_pop(0);
  __asm__ volatile("" ::: "memory");
  return R;
}

static long Rounds;

static void *worker(void *A) {
  long Async = (long)A;
  if (Async) {
    pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, 0);
    __atomic_add_fetch(&Waiting, 1, __ATOMIC_SEQ_CST);
    for (;;)
      spin(DEPTH);
  }
  for (long I = 0; I < Rounds; ++I)
    nest(DEPTH, 0, 0);
  nest(DEPTH, 0, 1);
  return 0;
}

int main(int Argc, char **Argv) {
  long Batches = Argc > 1 ? atol(Argv[1]) : 50;
  long Threads = Argc > 2 ? atol(Argv[2]) : 4;
  Rounds = Argc > 3 ? atol(Argv[3]) : 100;
  pthread_t T[64];
  long Cancelled = 0;
  for (long B = 0; B < Batches; ++B) {
    Waiting = 0;
    for (long I = 0; I < Threads; ++I)
      pthread_create(&T[I], 0, worker, (void *)(I & 1));
    while (__atomic_load_n(&Waiting, __ATOMIC_SEQ_CST) < Threads)
      sched_yield();
    for (long I = 0; I < Threads; ++I)
      pthread_cancel(T[I]);
    for (long I = 0; I < Threads; ++I) {
      void *Res;
      pthread_join(T[I], &Res);
      Cancelled += Res == PTHREAD_CANCELED;
    }
  }
  printf("cancelled %ld\n", Cancelled);
  printf("deferred: calls %ld returns %ld cleanups %ld\n", Calls, Returns,
         Cleanups);
  return 0;
}
