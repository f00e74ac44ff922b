// Images a process execs while tsrun has let go of it (--detach).
//
//   exec-chain first N PROG    calls work(I) N times (I from 0) and prints whether it
//                              is traced (its TracerPid), then tries
//                              execvp() of a program that is nowhere in
//                              PATH (every try fails), posix_spawn()s
//                              "PROG spawned N+1" and waits for it, and
//                              finally execs "PROG last N+2".
//   exec-chain window READY GO PROG
//                              calls work(I) 5 times, says "ready" through
//                              the FIFO READY and waits for a line through
//                              GO; then a failing execvp() (as above),
//                              work(I) 5 times more, prints the first bytes
//                              of work() and execve() as they are in
//                              memory, and execs "PROG last 7".
//   exec-chain bytes           prints those bytes, untraced.
//   exec-chain spawned|last N  calls work(I) N times, I from 1000 (spawned) or
//                              2000 (last), and prints how many.
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

__attribute__((noinline)) int work(int I) {
  __asm__ volatile("" ::: "memory");
  return I + 1;
}

static long tracer(void) {
  FILE *F = fopen("/proc/self/status", "r");
  char Line[256];
  long Pid = -1;
  while (F && fgets(Line, sizeof(Line), F))
    if (!strncmp(Line, "TracerPid:", 10))
      Pid = atol(Line + 10);
  if (F)
    fclose(F);
  return Pid;
}

static int calls(int Base, int N) {
  int Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += work(Base + I) > 0;
  return Sum;
}

static void print_code(void) {
  const unsigned char *Fns[] = {(const unsigned char *)work,
                                (const unsigned char *)execve};
  printf("code");
  for (int F = 0; F < 2; ++F) {
    printf(" ");
    for (int I = 0; I < 8; ++I)
      printf("%02x", Fns[F][I]);
  }
  printf("\n");
}

static void fail_execvp(void) {
  // Fails in every directory of PATH: each try is an execve() that fails.
  char *Nowhere[] = {"no-such-program-tscc", NULL};
  setenv("PATH", "/nonexistent-a:/nonexistent-b:/nonexistent-c", 1);
  execvp(Nowhere[0], Nowhere);
  printf("execvp failed\n");
  fflush(stdout);
}

static int window(char **argv) {
  int Before = calls(0, 5);
  FILE *Ready = fopen(argv[2], "w");
  fprintf(Ready, "ready\n");
  fclose(Ready);
  char Line[8];
  FILE *Go = fopen(argv[3], "r");
  if (!Go || !fgets(Line, sizeof(Line), Go))
    return 6;
  fail_execvp();
  printf("window calls %d\n", Before + calls(0, 5));
  print_code();
  fflush(stdout);
  char *LastArgv[] = {argv[4], "last", "7", NULL};
  execv(argv[4], LastArgv);
  return 5;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "bytes")) {
    print_code();
    return 0;
  }
  if (argc == 5 && !strcmp(argv[1], "window"))
    return window(argv);
  if (argc < 3)
    return 2;
  int N = atoi(argv[2]);
  if (strcmp(argv[1], "first")) {
    int Base = strcmp(argv[1], "spawned") ? 2000 : 1000;
    printf("%s calls %d\n", argv[1], calls(Base, N));
    return 0;
  }
  if (argc < 4)
    return 2;
  printf("first calls %d %s\n", calls(0, N),
         tracer() == 0 ? "untraced" : "traced");
  fflush(stdout);
  fail_execvp();
  char Spawned[16], Last[16];
  snprintf(Spawned, sizeof(Spawned), "%d", N + 1);
  snprintf(Last, sizeof(Last), "%d", N + 2);
  char *SpawnArgv[] = {argv[3], "spawned", Spawned, NULL};
  pid_t Child;
  if (posix_spawn(&Child, argv[3], NULL, NULL, SpawnArgv, environ) != 0)
    return 3;
  int St = 0;
  if (waitpid(Child, &St, 0) != Child || !WIFEXITED(St) || WEXITSTATUS(St))
    return 4;
  char *LastArgv[] = {argv[3], "last", Last, NULL};
  execv(argv[3], LastArgv);
  return 5;
}
