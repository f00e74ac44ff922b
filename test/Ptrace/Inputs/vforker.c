/* vforker K: K times, work() twice, then vfork() a child that execs
 * PROG (argv[2]) with argument "child"; with "child", work() 5 times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) long work(long i) { return i * 2; }
int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "child")) {
    for (int I = 0; I < 5; ++I)
      work(I);
    return 0;
  }
  int K = atoi(argv[1]);
  for (int I = 0; I < K; ++I) {
    work(I);
    pid_t P = vfork();
    if (P == 0) {
      execl(argv[0], argv[0], "child", (char *)0);
      _exit(127);
    }
    work(I);
    waitpid(P, 0, 0);
  }
  printf("parent %d children %d\n", 2 * K, 5 * K);
  return 0;
}
