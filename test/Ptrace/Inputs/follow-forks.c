// Processes made while tsrun has let go of their parent (--detach).
//
//   follow-forks N K   calls work(getpid()) K times, then makes N children
//                      at once: N-1 with fork() and one with a raw
//                      clone(SIGCHLD) system call, each calling
//                      work(getpid()) K times; the first child forks a
//                      grandchild that does the same. Then a vfork() child
//                      calls work(getpid()) K times before it exits. The parent
//                      waits for them all, calls work(getpid()) K times
//                      more and prints how many calls were made, how many
//                      fork() returns there were and whether every child
//                      exited with 0.
//   follow-forks outlive K FIFO
//                      calls work(getpid()) K times and forks a child that
//                      does the same, says so through a pipe and waits
//                      until its parent has exited (the pipe's other end
//                      closes) and a line comes through FIFO, then calls
//                      work(getpid()) K times more and prints its count;
//                      the parent exits once the child has said so.
//   follow-forks linger PIDFILE
//                      forks a child that writes its pid into PIDFILE and
//                      calls work(getpid()) until it is killed; the parent
//                      waits for it.
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) long work(long Who) {
  __asm__ volatile("" ::: "memory");
  return Who * 2 + 1;
}

static long calls(long K, long Who) {
  long Sum = 0;
  for (long I = 0; I < K; ++I)
    Sum += work(Who);
  return Sum;
}

static int reap(pid_t Pid) {
  int St = 0;
  return waitpid(Pid, &St, 0) == Pid && WIFEXITED(St) && !WEXITSTATUS(St);
}

static int outlive(long K, const char *Fifo) {
  int Said[2], Gone[2];
  if (pipe(Said) || pipe(Gone))
    return 3;
  calls(K, getpid());
  pid_t C = fork();
  if (C == 0) {
    close(Said[0]);
    close(Gone[1]);
    calls(K, getpid());
    char B = 's';
    if (write(Said[1], &B, 1) != 1)
      _exit(4);
    while (read(Gone[0], &B, 1) > 0) {
    }
    FILE *Go = fopen(Fifo, "r");
    char Line[16];
    if (!Go || !fgets(Line, sizeof Line, Go))
      _exit(5);
    fclose(Go);
    calls(K, getpid());
    printf("child calls %ld\n", 2 * K);
    fflush(stdout);
    _exit(0);
  }
  char B;
  if (C < 0 || read(Said[0], &B, 1) != 1)
    return 3;
  printf("parent calls %ld\n", K);
  fflush(stdout);
  return 0;
}

static int linger(const char *PidFile) {
  pid_t C = fork();
  if (C == 0) {
    FILE *F = fopen(PidFile, "w");
    if (!F)
      _exit(3);
    fprintf(F, "%d\n", (int)getpid());
    fclose(F);
    for (;;)
      work(getpid());
  }
  int St = 0;
  waitpid(C, &St, 0);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  if (!strcmp(argv[1], "outlive") && argc > 3)
    return outlive(atol(argv[2]), argv[3]);
  if (!strcmp(argv[1], "linger"))
    return linger(argv[2]);
  long N = atol(argv[1]), K = atol(argv[2]);
  long Made = 0, ForkReturns = 0;
  int AllOk = 1;
  calls(K, getpid());
  pid_t *Kids = calloc(N, sizeof(pid_t));
  for (long I = 0; I < N; ++I) {
    pid_t C = I == N - 1 ? (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0)
                         : fork();
    if (C == 0) {
      calls(K, getpid());
      if (I == 0) {
        pid_t G = fork();
        if (G == 0) {
          calls(K, getpid());
          _exit(0);
        }
        _exit(reap(G) ? 0 : 1);
      }
      _exit(0);
    }
    if (C < 0)
      return 3;
    Kids[I] = C;
    Made += K;
    ForkReturns += I == N - 1 ? 0 : 2;
  }
  Made += K;        // the grandchild
  ForkReturns += 2; // its fork()
  for (long I = 0; I < N; ++I)
    AllOk &= reap(Kids[I]);
  pid_t V = vfork();
  if (V == 0) {
    calls(K, getpid());
    _exit(0);
  }
  AllOk &= reap(V);
  calls(K, getpid());
  Made += 2 * K;
  printf("calls %ld fork returns %ld children %s\n", Made + K, ForkReturns,
         AllOk ? "ok" : "FAILED");
  return 0;
}
