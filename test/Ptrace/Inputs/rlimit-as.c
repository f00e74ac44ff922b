// rlimit-as MB: sets RLIMIT_AS to MB MiB, calls probed() 100 times, then
// forks a child that execs itself ("child N") and calls probed() 1000
// times. Prints what each did and the child's status.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) long probed(long N) { return N * 2; }

static long calls(long N) {
  long S = 0;
  for (long I = 0; I < N; ++I)
    S += probed(I);
  return S;
}

int main(int Argc, char **Argv) {
  if (Argc == 3 && !strcmp(Argv[1], "child")) {
    printf("child sum %ld\n", calls(atol(Argv[2])));
    return 0;
  }
  if (Argc != 2)
    return 2;
  struct rlimit R;
  R.rlim_cur = R.rlim_max = (rlim_t)atol(Argv[1]) << 20;
  if (setrlimit(RLIMIT_AS, &R)) {
    perror("setrlimit");
    return 2;
  }
  printf("parent sum %ld\n", calls(100));
  fflush(stdout);
  pid_t P = fork();
  if (!P) {
    execl("/proc/self/exe", Argv[0], "child", "1000", (char *)0);
    _exit(9);
  }
  int St = 0;
  waitpid(P, &St, 0);
  printf("child status %d\n", WIFEXITED(St) ? WEXITSTATUS(St) : -1);
  return 0;
}
