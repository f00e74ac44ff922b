// Images a process execs while tsrun has let go of it (--detach).
//
//   exec-chain first N PROG    calls work(I) N times (I from 0) and prints whether it
//                              is traced (its TracerPid), then tries
//                              execvp() of a program that is nowhere in
//                              PATH (every try fails), posix_spawn()s
//                              "PROG spawned N+1" and waits for it, and
//                              finally execs "PROG last N+2".
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

int main(int argc, char **argv) {
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
  // Fails in every directory of PATH: each try is an execve() that fails.
  char *Nowhere[] = {"no-such-program-tscc", NULL};
  setenv("PATH", "/nonexistent-a:/nonexistent-b:/nonexistent-c", 1);
  execvp(Nowhere[0], Nowhere);
  printf("execvp failed\n");
  fflush(stdout);
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
