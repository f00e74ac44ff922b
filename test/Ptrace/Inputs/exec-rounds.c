/* "parent N PROG": N rounds of fork() and, in the child, an exec of
 * "PROG child", which calls work() 5 times; the parent waits for each and
 * prints how many calls of work() the rounds made. "spawn N PROG": the
 * same with posix_spawn(). "thread PROG": a second thread execs
 * "PROG child" (the process becomes the new image). "sandboxed N PROG":
 * "parent N PROG" under a seccomp filter of its own (it fails acct(2)
 * with EPERM, and lets everything else through). */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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

static int sandbox(void) {
  struct sock_filter F[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_acct, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1 /* EPERM */),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
  struct sock_fprog Prog = {sizeof(F) / sizeof(F[0]), F};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &Prog) == 0;
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
  if (argc < 4 || (strcmp(argv[1], "parent") && strcmp(argv[1], "spawn") &&
                    strcmp(argv[1], "sandboxed")))
    return 2;
  if (!strcmp(argv[1], "sandboxed") && !sandbox())
    return 4;
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
