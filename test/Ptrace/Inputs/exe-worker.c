/* A program traced by `tsrun --exe`: waits for a go (end of file on the
 * descriptor number argv[1], or "-" for none), forks argv[3] workers, and
 * each process calls work() argv[2] + its index times and prints how
 * often. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) long work(long x) { return x + 1; }

static void run(long Calls) {
  long S = 0;
  for (long I = 0; I < Calls; ++I)
    S += work(I);
  printf("pid %d calls %ld\n", getpid(), Calls);
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  if (argv[1][0] != '-') {
    char B;
    while (read(atoi(argv[1]), &B, 1) > 0) {
    }
  }
  long Calls = atol(argv[2]);
  int Workers = atoi(argv[3]);
  for (int W = 1; W <= Workers; ++W)
    if (fork() == 0) {
      run(Calls + W);
      return 0;
    }
  run(Calls);
  while (wait(NULL) > 0) {
  }
  return 0;
}
