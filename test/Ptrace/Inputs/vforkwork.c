/* vforkwork K: K times, work() once, then vfork() a child that calls work()
 * 3 times before it execs /bin/true (odd rounds) or exits (even ones).
 * Prints what the parent and the children did. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long ChildCalls;

__attribute__((noinline)) long work(long I) { return I * 2; }

int main(int argc, char **argv) {
  int K = atoi(argv[1]);
  long ParentCalls = 0;
  for (int I = 0; I < K; ++I) {
    work(I);
    ++ParentCalls;
    pid_t P = vfork();
    if (P == 0) {
      for (int J = 0; J < 3; ++J) {
        work(J);
        ++ChildCalls; /* the parent's memory: it sees this */
      }
      if (I & 1)
        execl("/bin/true", "true", (char *)0);
      _exit(0);
    }
    waitpid(P, 0, 0);
  }
  printf("parent calls %ld children calls %ld\n", ParentCalls, ChildCalls);
  return 0;
}
