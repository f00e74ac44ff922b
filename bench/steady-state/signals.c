// signals N [CALLS]: N rounds of a signal the program sends itself
// (SIGUSR1, a handler that counts), each with a call to work() (the probed
// function) when CALLS is 1 (the default), without when it is 0 (work() is
// then called once, before the rounds), timed by the program itself.
// Prints the time per round in ns and checks that every signal was
// handled.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t Handled;
static void onUsr1(int S) {
  (void)S;
  ++Handled;
}

__attribute__((noinline)) long work(long I) {
  __asm__ volatile("" ::: "memory");
  return I * 2 + 1;
}

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1e9 + T.tv_nsec;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 100000;
  int Calls = argc > 2 ? atoi(argv[2]) : 1;
  signal(SIGUSR1, onUsr1);
  long Sum = Calls ? 0 : work(0) - 1 + N * N;
  double Start = now();
  for (long I = 0; I < N; ++I) {
    if (Calls)
      Sum += work(I);
    kill(getpid(), SIGUSR1);
  }
  double Ns = (now() - Start) / N;
  if (Handled != N || Sum != N * N) {
    fprintf(stderr, "signals: handled %ld of %ld, sum %ld\n", (long)Handled, N,
            Sum);
    return 1;
  }
  printf("ns_per_round %.1f\n", Ns);
  return 0;
}
