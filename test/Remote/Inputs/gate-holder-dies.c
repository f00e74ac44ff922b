/* gate-holder-dies N: one thread calls leaf() until SIGUSR1, whose
 * handler ends that thread alone (SYS_exit), most likely while it is
 * stopped at tsrun's trap, holding the agent's gate; then another thread
 * calls leaf() N times, and must not wait for the dead one for ever. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static int N;
static volatile int Calls;
static volatile long Sink;

__attribute__((noinline)) long leaf(long i) { return i * 3; }

static void die(int Sig) { syscall(SYS_exit, 0); }

static void *doomed(void *A) {
  for (long I = 0;; ++I) {
    Sink = leaf(I);
    Calls = Calls + 1;
  }
  return 0;
}

static void *worker(void *A) {
  long Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += leaf(I);
  return (void *)Sum;
}

int main(int argc, char **argv) {
  N = atoi(argv[1]);
  signal(SIGUSR1, die);
  pthread_t D, W;
  pthread_create(&D, 0, doomed, 0);
  while (Calls < 20)
    usleep(1000);
  pthread_kill(D, SIGUSR1);
  pthread_create(&W, 0, worker, 0);
  void *R;
  pthread_join(W, &R);
  printf("worker calls %d rvsum %ld\n", N, (long)R);
  return 0;
}
