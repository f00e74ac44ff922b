/* syscalls N [GO]: getppid() N times through syscall(2), and signals to
 * itself. With GO, first says "started" (start-up is over) and waits for a
 * byte on that FIFO (attach tests). */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile int Caught;
static void onSig(int S) { ++Caught; }
int main(int argc, char **argv) {
  int N = atoi(argv[1]);
  if (argc > 2) {
    printf("started\n");
    fflush(stdout);
    char C;
    int Go = open(argv[2], O_RDONLY);
    if (Go < 0 || read(Go, &C, 1) != 1)
      return 2;
    close(Go);
  }
  signal(SIGUSR1, onSig);
  for (int I = 0; I < N; ++I) {
    syscall(SYS_getppid);
    raise(SIGUSR1);
  }
  printf("expected=%d caught=%d\n", N, Caught);
  return Caught != N;
}
