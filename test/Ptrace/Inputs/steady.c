// A program that stays busy while tsrun has let go of it (--detach).
//
//   steady signals N          calls work() N times, and after each call
//                             sends itself SIGUSR1 (a signal storm); then
//                             prints what it computed, how many signals
//                             its handler saw and who traces it.
//   steady loop READY GO      calls work() until SIGUSR2 (a debugger
//                             attaches meanwhile); says "started" into
//                             READY after the first 1000 calls; at the end
//                             prints its count of calls.
//   steady kill READY GO      calls work() 1000 times, says "started",
//                             waits for GO (tsrun is killed meanwhile),
//                             calls work() 1000 times more, then prints
//                             the first bytes of work() as they are in
//                             memory (the probe's jump must be gone).
//   steady bytes x            prints those bytes, untraced.
//   steady fork N             calls work() N times, forks a child that
//                             calls it N times more, waits for it, and
//                             calls it N times again.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

volatile long magic = 4242, calls;
static volatile sig_atomic_t handled, stop;

__attribute__((noinline)) long work(long i) {
  __asm__ volatile("" ::: "memory");
  return i * 2 + 1;
}

static void on_usr1(int s) {
  (void)s;
  ++handled;
}
static void on_usr2(int s) {
  (void)s;
  stop = 1;
}

static int tracer(void) {
  FILE *F = fopen("/proc/self/status", "r");
  char Line[256];
  int T = -1;
  while (F && fgets(Line, sizeof Line, F))
    if (sscanf(Line, "TracerPid: %d", &T) == 1)
      break;
  if (F)
    fclose(F);
  return T;
}

static void say(const char *Path, const char *What) {
  FILE *F = fopen(Path, "w");
  if (F) {
    fprintf(F, "%s\n", What);
    fclose(F);
  }
}

static void wait_for(const char *Path) {
  FILE *F = fopen(Path, "r");
  char Line[16];
  if (F && fgets(Line, sizeof Line, F)) {
  }
  if (F)
    fclose(F);
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  long Sum = 0;
  if (!strcmp(argv[1], "signals")) {
    long N = atol(argv[2]);
    signal(SIGUSR1, on_usr1);
    for (long I = 0; I < N; ++I) {
      Sum += work(I);
      kill(getpid(), SIGUSR1);
    }
    printf("sum %ld handled %ld tracer %d\n", Sum, (long)handled, tracer());
    return 0;
  }
  if (!strcmp(argv[1], "bytes")) {
    printf("code");
    for (int I = 0; I < 8; ++I)
      printf(" %02x", ((unsigned char *)work)[I]);
    printf("\n");
    return 0;
  }
  if (!strcmp(argv[1], "fork")) {
    long N = atol(argv[2]);
    for (long I = 0; I < N; ++I)
      Sum += work(I);
    pid_t C = fork();
    if (C == 0) {
      for (long I = 0; I < N; ++I)
        Sum += work(I);
      _exit(0);
    }
    int St = 0;
    waitpid(C, &St, 0);
    for (long I = 0; I < N; ++I)
      Sum += work(I);
    printf("sum %ld child %d\n", Sum, St);
    return 0;
  }
  if (argc < 4)
    return 2;
  if (!strcmp(argv[1], "loop")) {
    signal(SIGUSR2, on_usr2);
    for (; calls < 1000; ++calls)
      Sum += work(calls);
    say(argv[2], "started");
    while (!stop) {
      Sum += work(calls);
      ++calls;
    }
    printf("calls %ld sum %ld magic %ld\n", calls, Sum, magic);
    return 0;
  }
  if (!strcmp(argv[1], "kill")) {
    for (long I = 0; I < 1000; ++I)
      Sum += work(I);
    say(argv[2], "started");
    wait_for(argv[3]);
    for (long I = 0; I < 1000; ++I)
      Sum += work(I);
    printf("sum %ld tracer %d\ncode", Sum, tracer());
    for (int I = 0; I < 8; ++I)
      printf(" %02x", ((unsigned char *)work)[I]);
    printf("\n");
    return 0;
  }
  return 2;
}
