// A signal storm: an interval timer at 10 kHz (SIGALRM, SA_RESTART) whose
// handler calls a probed function, while two threads call probed
// functions and make restartable system calls. Prints how many times each
// function ran.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <unistd.h>

static long Ticks, Works;

__attribute__((noinline)) long tick(long N) {
  __atomic_add_fetch(&Ticks, 1, __ATOMIC_RELAXED);
  return N + 1;
}

__attribute__((noinline)) long work(long N) {
  __atomic_add_fetch(&Works, 1, __ATOMIC_RELAXED);
  return N * 2;
}

static void onAlarm(int S) {
  (void)S;
  tick(S);
}

static long Rounds;

static void *loop(void *A) {
  (void)A;
  for (long I = 0; I < Rounds; ++I) {
    work(I);
    if (I % 64 == 0)
      getppid();
  }
  return 0;
}

int main(int Argc, char **Argv) {
  Rounds = Argc > 1 ? atol(Argv[1]) : 200000;
  struct sigaction Sa = {0};
  Sa.sa_handler = onAlarm;
  Sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &Sa, 0);
  struct itimerval It = {{0, 100}, {0, 100}};
  setitimer(ITIMER_REAL, &It, 0);
  pthread_t T;
  pthread_create(&T, 0, loop, 0);
  loop(0);
  pthread_join(T, 0);
  struct itimerval Off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &Off, 0);
  printf("works %ld\n", Works);
  printf("ticks %ld\n", Ticks);
  return 0;
}
