/* "parent N PROG": N rounds of fork() and, in the child, an exec of
 * "PROG child", which calls work() 5 times; the parent waits for each and
 * prints how many calls of work() the rounds made. "spawn N PROG": the
 * same with posix_spawn(). "thread PROG": a second thread execs
 * "PROG child" (the process becomes the new image). */
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

__attribute__((noinline)) long work(long i) { return i * 2; }

static char *Prog;

static void *execFromThread(void *Arg) {
  (void)Arg;
  execl(Prog, Prog, "child", (char *)NULL);
  _exit(127);
}

static pid_t start(int Spawn) {
  if (Spawn) {
    pid_t P = -1;
    char *Argv[] = {Prog, "child", NULL};
    return posix_spawn(&P, Prog, NULL, NULL, Argv, environ) == 0 ? P : -1;
  }
  pid_t P = fork();
  if (P == 0) {
    execl(Prog, Prog, "child", (char *)NULL);
    _exit(127);
  }
  return P;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "child")) {
    long Sum = 0;
    for (int I = 0; I < 5; ++I)
      Sum += work(I);
    printf("child done\n");
    return Sum == 20 ? 0 : 1;
  }
  if (argc == 3 && !strcmp(argv[1], "thread")) {
    Prog = argv[2];
    fflush(stdout);
    pthread_t T;
    pthread_create(&T, NULL, execFromThread, NULL);
    pthread_join(T, NULL);
    return 3;
  }
  if (argc < 4 || (strcmp(argv[1], "parent") && strcmp(argv[1], "spawn")))
    return 2;
  int N = atoi(argv[2]);
  Prog = argv[3];
  fflush(stdout);
  for (int I = 0; I < N; ++I) {
    pid_t P = start(!strcmp(argv[1], "spawn"));
    int St = 0;
    if (P < 0 || waitpid(P, &St, 0) != P || !WIFEXITED(St) ||
        WEXITSTATUS(St) != 0) {
      printf("round %d failed\n", I);
      return 1;
    }
  }
  printf("expected=%d\n", N * 5);
  return 0;
}
