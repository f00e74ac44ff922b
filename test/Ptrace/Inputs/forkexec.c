/* "fork K": K children and the parent call work() 10 times each.
 * "exec PROG ARGS": work() 3 times, then exec. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) long work(long i) { return i * 2; }
int main(int argc, char **argv) {
  if (!strcmp(argv[1], "fork")) {
    int K = atoi(argv[2]);
    for (int I = 0; I < K; ++I) {
      pid_t P = fork();
      if (P == 0) {
        for (int J = 0; J < 10; ++J)
          work(J);
        _exit(0);
      }
      waitpid(P, 0, 0);
    }
    for (int J = 0; J < 10; ++J)
      work(J);
    printf("expected=%d\n", (K + 1) * 10);
    return 0;
  }
  for (int I = 0; I < 3; ++I)
    work(I);
  fflush(stdout);
  execv(argv[2], argv + 2);
  return 1;
}
