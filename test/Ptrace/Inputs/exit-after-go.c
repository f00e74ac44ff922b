// Says "started", waits for a byte from the FIFO GO, calls work() K times
// and exits with STATUS (or, STATUS being "segv", dies of SIGSEGV).
//
//   exit-after-go K STATUS GO
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) long work(long I) {
  __asm__ volatile("" ::: "memory");
  return I + 1;
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  printf("started\n");
  fflush(stdout);
  FILE *Go = fopen(argv[3], "r");
  if (!Go || fgetc(Go) == EOF)
    return 3;
  long K = atol(argv[1]), Sum = 0;
  for (long I = 0; I < K; ++I)
    Sum += work(I);
  printf("calls %ld sum %ld\n", K, Sum);
  fflush(stdout);
  if (!strcmp(argv[2], "segv")) {
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
  }
  return atoi(argv[2]);
}
