// fork() from a signal handler (the child calls probed functions from the
// handler and exits with a status its parent checks), and a process that
// stops itself with raise(SIGSTOP) until a child continues it, with probes
// firing in the handlers, in the children and around the stop. Prints
// what ran.
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile long Works;
static volatile pid_t Child;

__attribute__((noinline)) long work(long N) {
  ++Works;
  return N + 1;
}

static void onUsr1(int S) {
  work(S);
  pid_t P = fork();
  if (P == 0) {
    long R = 0;
    for (long I = 0; I < 10; ++I)
      R += work(I);
    _exit(R == 55 ? 7 : 1);
  }
  Child = P;
}

__attribute__((noinline)) long resumed(long N) { return N; }

static void onCont(int S) { resumed(S); }

int main(int Argc, char **Argv) {
  setvbuf(stdout, 0, _IOLBF, 0);
  long Rounds = Argc > 1 ? atol(Argv[1]) : 50;
  signal(SIGUSR1, onUsr1);
  signal(SIGCONT, onCont);
  long Good = 0;
  for (long I = 0; I < Rounds; ++I) {
    raise(SIGUSR1);
    int St;
    waitpid(Child, &St, 0);
    Good += WIFEXITED(St) && WEXITSTATUS(St) == 7;
  }
  printf("children %ld good %ld\n", Rounds, Good);
  long Resumed = 0;
  for (long I = 0; I < Rounds / 10; ++I) {
    pid_t Me = getpid();
    int Back[2];
    pipe(Back);
    pid_t W = fork();
    if (W == 0) {
      // Continue the parent until it says it runs again: a stop seen in
      // /proc may be a tracer's, the SIGCONT must come after the real one.
      close(Back[1]);
      struct pollfd Pf = {Back[0], POLLIN, 0};
      do
        kill(Me, SIGCONT);
      while (poll(&Pf, 1, 20) == 0);
      _exit(0);
    }
    close(Back[0]);
    work(-1);
    raise(SIGSTOP);
    work(-2);
    write(Back[1], "x", 1);
    close(Back[1]);
    int St;
    waitpid(W, &St, 0);
    Resumed += WIFEXITED(St) && WEXITSTATUS(St) == 0;
  }
  printf("stops %ld resumed %ld works %ld\n", Rounds / 10, Resumed, Works);
  return 0;
}
