/* shards T N: T threads, thread I calls hit() (I + 1) * N times and
 * bump() as often, all at once (each waits for the others to have started,
 * so that they overlap however the machine schedules them). Prints each
 * thread's id and calls, for the script's counts to be compared with. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static int N;
static pthread_barrier_t Start;
static volatile long Sink;
__attribute__((noinline)) void hit(long i) { Sink += i; }
__attribute__((noinline)) void bump(long i) { Sink -= i; }

struct Thread {
  pthread_t Handle;
  int Index;
  long Tid, Calls;
};

static void *run(void *A) {
  struct Thread *T = A;
  T->Tid = syscall(SYS_gettid);
  pthread_barrier_wait(&Start);
  for (long I = 0; I < (long)(T->Index + 1) * N; ++I) {
    hit(I);
    bump(I);
    ++T->Calls;
  }
  return 0;
}

int main(int argc, char **argv) {
  int Count = argc > 1 ? atoi(argv[1]) : 8;
  N = argc > 2 ? atoi(argv[2]) : 1000;
  struct Thread Th[64];
  if (Count < 1 || Count > 64)
    return 2;
  pthread_barrier_init(&Start, 0, (unsigned)Count);
  for (int I = 0; I < Count; ++I) {
    Th[I].Index = I;
    Th[I].Calls = 0;
    pthread_create(&Th[I].Handle, 0, run, &Th[I]);
  }
  long Total = 0;
  for (int I = 0; I < Count; ++I) {
    pthread_join(Th[I].Handle, 0);
    Total += Th[I].Calls;
  }
  for (int I = 0; I < Count; ++I)
    printf("thread %d tid %ld calls %ld\n", I, Th[I].Tid, Th[I].Calls);
  printf("total %ld\n", Total);
  fflush(stdout);
  return 0;
}
