// A program that looks at and changes its own dispositions of the signals
// the agent keeps a handler in front of (SIGSEGV, SIGBUS, SIGFPE), and
// prints everything it sees; then, as a JVM or libsigsegv does, chains its
// SIGSEGV handler to whatever was there before it. Its output must be the
// same traced and untraced.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) long deref(long *P) {
  __asm__ volatile("" ::: "memory");
  return P == (long *)8 ? 0 : *P;
}

static void handler(int Sig, siginfo_t *Info, void *Uc) {
  (void)Sig, (void)Info, (void)Uc;
}

static const char *kindOf(void *H) {
  if (H == (void *)SIG_DFL)
    return "default";
  if (H == (void *)SIG_IGN)
    return "ignore";
  if (H == (void *)handler)
    return "handler";
  return "SOMETHING ELSE";
}

static void show(const char *What, int Sig, const struct sigaction *A) {
  printf("%s %d: %s flags%s%s%s usr1 %s\n", What, Sig,
         kindOf((void *)A->sa_sigaction),
         A->sa_flags & SA_SIGINFO ? " siginfo" : "",
         A->sa_flags & SA_NODEFER ? " nodefer" : "",
         A->sa_flags & SA_RESETHAND ? " resethand" : "",
         sigismember(&A->sa_mask, SIGUSR1) ? "masked" : "not masked");
}

static struct sigaction Before; // what the chaining handler goes on to

static void chaining(int Sig, siginfo_t *Info, void *Uc) {
  (void)Info, (void)Uc;
  printf("chaining handler: before it was %s\n",
         kindOf((void *)Before.sa_sigaction));
  fflush(stdout);
  // Not ours: what was there before takes it, as the fault comes again.
  sigaction(Sig, &Before, NULL);
}

int main(int argc, char **argv) {
  int Calls = argc > 1 ? atoi(argv[1]) : 100;
  long X = 7, Sum = 0;
  for (int I = 0; I < Calls; ++I)
    Sum += deref(&X);
  int Sigs[] = {SIGSEGV, SIGBUS, SIGFPE};
  for (unsigned I = 0; I < sizeof(Sigs) / sizeof(*Sigs); ++I) {
    int Sig = Sigs[I];
    struct sigaction Cur, Mine, Old;
    sigaction(Sig, NULL, &Cur);
    show("at first", Sig, &Cur);
    memset(&Mine, 0, sizeof(Mine));
    Mine.sa_sigaction = handler;
    Mine.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&Mine.sa_mask);
    sigaddset(&Mine.sa_mask, SIGUSR1);
    sigaction(Sig, &Mine, &Old);
    show("replaced", Sig, &Old);
    sigaction(Sig, NULL, &Cur);
    show("now", Sig, &Cur);
    void (*Prev)(int) = signal(Sig, SIG_IGN);
    printf("signal() %d returned %s\n", Sig, kindOf((void *)Prev));
    sigaction(Sig, &Old, NULL);
    sigaction(Sig, NULL, &Cur);
    show("restored", Sig, &Cur);
  }
  // Bad pointers in the clause while the program's own handler chains.
  struct sigaction Chain;
  memset(&Chain, 0, sizeof(Chain));
  Chain.sa_sigaction = chaining;
  Chain.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &Chain, &Before);
  for (int I = 0; I < Calls; ++I)
    Sum += deref((long *)8);
  printf("calls %d sum %ld\n", 2 * Calls, Sum);
  fflush(stdout);
  *(volatile long *)16 = 1; // a fault of its own: chained, then the default
  puts("NOT REACHED");
  return 0;
}
