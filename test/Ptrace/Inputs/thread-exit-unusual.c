// Threads that end with pthread_exit() from four frames deep in a
// function with an exit probe pending, 2000 of them, two at a time; then
// the process makes itself undumpable, renames itself, mprotects the page
// of a probed function writable and back (a hot patcher's dance) while
// calling it, and, as root, drops to nobody with setresuid.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

static long Calls, Returns;

__attribute__((noinline)) long leave(long Level) {
  __atomic_add_fetch(&Calls, 1, __ATOMIC_SEQ_CST);
  if (Level == 0)
    pthread_exit((void *)7);
  long R = leave(Level - 1) + 1;
  __atomic_add_fetch(&Returns, 1, __ATOMIC_SEQ_CST);
  return R;
}

__attribute__((noinline)) long patched(long N) {
  __atomic_add_fetch(&Calls, 1, __ATOMIC_SEQ_CST);
  return N + 1;
}

static void *worker(void *A) {
  for (long I = 0; I < (long)A; ++I)
    patched(I);
  leave(3);
  return 0;
}

int main(int Argc, char **Argv) {
  long Threads = Argc > 1 ? atol(Argv[1]) : 2000;
  long Good = 0;
  for (long I = 0; I < Threads; I += 2) {
    pthread_t T[2];
    void *R;
    for (int K = 0; K < 2; ++K)
      pthread_create(&T[K], 0, worker, (void *)(long)K);
    for (int K = 0; K < 2; ++K)
      Good += pthread_join(T[K], &R) == 0 && R == (void *)7;
  }
  prctl(PR_SET_DUMPABLE, 0);
  prctl(PR_SET_NAME, "renamed");
  long Page = sysconf(_SC_PAGESIZE);
  void *Text = (void *)((unsigned long)patched & ~(Page - 1));
  long Sum = 0;
  for (int I = 0; I < 100; ++I) {
    mprotect(Text, Page, PROT_READ | PROT_WRITE | PROT_EXEC);
    Sum += patched(I);
    mprotect(Text, Page, PROT_READ | PROT_EXEC);
    Sum += patched(I);
  }
  if (getuid() == 0 && setresuid(65534, 65534, 65534) != 0)
    perror("setresuid");
  for (int I = 0; I < 100; ++I)
    Sum += patched(I);
  printf("threads %ld exited %ld calls %ld returns %ld sum %ld\n", Threads,
         Good, Calls, Returns, Sum);
  return 0;
}
