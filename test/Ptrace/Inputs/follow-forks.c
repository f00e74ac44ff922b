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
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
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

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
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
