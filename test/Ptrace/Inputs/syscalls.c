/* getppid() N times through syscall(2), and signals to itself. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile int Caught;
static void onSig(int S) { ++Caught; }
int main(int argc, char **argv) {
  int N = atoi(argv[1]);
  signal(SIGUSR1, onSig);
  for (int I = 0; I < N; ++I) {
    syscall(SYS_getppid);
    raise(SIGUSR1);
  }
  printf("expected=%d caught=%d\n", N, Caught);
  return Caught != N;
}
