/* "parent N PROG": N rounds of fork() and, in the child, an exec of
 * "PROG child", which calls work() 5 times; the parent waits for each and
 * prints how many calls of work() the rounds made. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) long work(long i) { return i * 2; }

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "child")) {
    long Sum = 0;
    for (int I = 0; I < 5; ++I)
      Sum += work(I);
    return Sum == 20 ? 0 : 1;
  }
  if (argc < 4 || strcmp(argv[1], "parent"))
    return 2;
  int N = atoi(argv[2]);
  for (int I = 0; I < N; ++I) {
    pid_t P = fork();
    if (P == 0) {
      execl(argv[3], argv[3], "child", (char *)NULL);
      _exit(127);
    }
    int St = 0;
    if (waitpid(P, &St, 0) != P || !WIFEXITED(St) || WEXITSTATUS(St) != 0) {
      printf("round %d failed\n", I);
      return 1;
    }
  }
  printf("expected=%d\n", N * 5);
  return 0;
}
