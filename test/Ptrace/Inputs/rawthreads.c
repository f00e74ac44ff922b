/* rawthreads N [GO]: two threads made by clone(CLONE_THREAD) without
 * CLONE_SETTLS (they share the main thread's TLS and fs base) and the main
 * thread call work() N times each, at the same time. With GO, the threads
 * are made first, then it says "started" and waits for a byte on the FIFO
 * GO (tsrun attaches meanwhile) before any call. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static long N, Calls[3];
static int Running, Done, Go;

__attribute__((noinline)) long work(long I) { return I * 2; }

static int body(void *A) {
  long Me = (long)A, S = 0;
  __atomic_add_fetch(&Running, 1, __ATOMIC_ACQ_REL);
  while (!__atomic_load_n(&Go, __ATOMIC_ACQUIRE))
    ;
  for (long I = 0; I < N; ++I) {
    S += work(I);
    ++Calls[Me];
  }
  __atomic_add_fetch(&Done, 1, __ATOMIC_RELEASE);
  return (int)(S & 1);
}

static void waitGo(const char *Path) {
  char C;
  int Fd = open(Path, O_RDONLY);
  if (Fd < 0 || read(Fd, &C, 1) != 1)
    exit(3);
  close(Fd);
}

int main(int argc, char **argv) {
  N = atol(argv[1]);
  int Flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
              CLONE_SYSVSEM;
  for (long T = 1; T <= 2; ++T) {
    char *Stack = mmap(0, 1 << 20, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (clone(body, Stack + (1 << 20), Flags, (void *)T) < 0)
      return 2;
  }
  while (__atomic_load_n(&Running, __ATOMIC_ACQUIRE) < 2)
    ;
  if (argc > 2) {
    printf("started\n");
    fflush(stdout);
    waitGo(argv[2]);
  }
  __atomic_store_n(&Go, 1, __ATOMIC_RELEASE);
  long S = 0;
  for (long I = 0; I < N; ++I) {
    S += work(I);
    ++Calls[0];
  }
  while (__atomic_load_n(&Done, __ATOMIC_ACQUIRE) < 2)
    ;
  printf("calls %ld %ld %ld\n", Calls[0], Calls[1], Calls[2]);
  return 0;
}
