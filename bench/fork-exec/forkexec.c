// forkexec N PROG: N rounds of fork() + exec of PROG (no arguments) in the
// child + waitpid() in the parent; prints the time per round.
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (double)T.tv_sec * 1e9 + (double)T.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  long N = atol(argv[1]);
  double Start = now_ns();
  for (long I = 0; I < N; ++I) {
    pid_t Pid = fork();
    if (Pid == 0) {
      execl(argv[2], argv[2], (char *)NULL);
      _exit(127);
    }
    int St = 0;
    if (Pid < 0 || waitpid(Pid, &St, 0) != Pid || !WIFEXITED(St) ||
        WEXITSTATUS(St))
      return 3;
  }
  printf("ns_per_round %.0f\n", (now_ns() - Start) / (double)N);
  return 0;
}
