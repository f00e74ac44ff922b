/* clonevm N [GO]: a child made by clone(CLONE_VM) without CLONE_THREAD (a
 * process sharing this one's memory, TLS and fs base included) and this
 * process call work() N times each, at the same time. Prints what each
 * did, with its pid. With GO, the child is made first, then it says
 * "started" and waits for a byte on the FIFO GO (tsrun attaches to this
 * process meanwhile) before either calls. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

static long N, ChildCalls, ParentCalls;
static int Started, Go;

__attribute__((noinline)) long work(long I) { return I * 2; }

static int child(void *A) {
  __atomic_store_n(&Started, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&Go, __ATOMIC_ACQUIRE))
    ;
  long S = 0;
  for (long I = 0; I < N; ++I) {
    S += work(I);
    ++ChildCalls;
  }
  return S == N * (N - 1) ? 0 : 1;
}

int main(int argc, char **argv) {
  N = atol(argv[1]);
  size_t Size = 1 << 20;
  char *Stack = mmap(0, Size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  pid_t Pid = clone(child, Stack + Size, CLONE_VM | SIGCHLD, 0);
  if (Pid < 0)
    return 2;
  /* Both at once. */
  while (!__atomic_load_n(&Started, __ATOMIC_ACQUIRE))
    ;
  if (argc > 2) {
    char C;
    printf("started\n");
    fflush(stdout);
    int Fd = open(argv[2], O_RDONLY);
    if (Fd < 0 || read(Fd, &C, 1) != 1)
      return 3;
    close(Fd);
  }
  __atomic_store_n(&Go, 1, __ATOMIC_RELEASE);
  long S = 0;
  for (long I = 0; I < N; ++I) {
    S += work(I);
    ++ParentCalls;
  }
  int St = 0;
  waitpid(Pid, &St, 0);
  printf("child %d status %d calls %ld\n", (int)Pid, St, ChildCalls);
  printf("parent %d calls %ld\n", (int)getpid(), ParentCalls);
  return S != N * (N - 1);
}
