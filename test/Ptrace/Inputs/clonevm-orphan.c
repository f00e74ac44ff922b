/* clonevm-orphan: a child made by clone(CLONE_VM) without CLONE_THREAD
 * outlives the process whose memory it shares: the parent calls work(7)
 * and exits; the child waits until it is gone (reparented), then calls
 * work(8). Each prints its pid first. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noinline)) long work(long I) { return I * 2; }

static pid_t Parent;

static int child(void *A) {
  (void)A;
  while (getppid() == Parent)
    usleep(1000);
  char Line[64];
  int N = snprintf(Line, sizeof Line, "child %d\n", (int)getpid());
  write(1, Line, N);
  return work(8) == 16 ? 0 : 1;
}

int main(void) {
  Parent = getpid();
  size_t Size = 1 << 20;
  char *Stack = mmap(0, Size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  printf("parent %d\n", (int)getpid());
  fflush(stdout);
  if (clone(child, Stack + Size, CLONE_VM | SIGCHLD, 0) < 0)
    return 2;
  volatile long R = work(7);
  (void)R;
  _exit(0);
}
