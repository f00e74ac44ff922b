// Threads that fault while another thread keeps replacing the handler they
// fault into, and keeps changing its signal mask. Every fault is the
// program's own: a store to a page it unmapped, caught by whichever of its
// two SIGSEGV handlers is installed at that instant, and left with
// siglongjmp. The SA_SIGINFO handler checks the fault address it is given,
// so a handler called with the other one's flags (a torn disposition)
// shows up as a wrong count or a crash. Each faulting thread also passes a
// bad pointer to deref(), which a probe may read.
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char *Gone; // a page that was mapped once
static __thread sigjmp_buf Back;
static atomic_long InfoCalls, PlainCalls, WrongAddress;
static atomic_int Running;

__attribute__((noinline)) long deref(long *P) {
  __asm__ volatile("" ::"r"(P) : "memory");
  return P ? 1 : 0;
}

static void onInfo(int Sig, siginfo_t *Info, void *Uc) {
  (void)Uc;
  if (Sig != SIGSEGV || (char *)Info->si_addr != Gone)
    atomic_fetch_add(&WrongAddress, 1);
  atomic_fetch_add(&InfoCalls, 1);
  siglongjmp(Back, 1);
}

static void onPlain(int Sig) {
  if (Sig != SIGSEGV)
    atomic_fetch_add(&WrongAddress, 1);
  atomic_fetch_add(&PlainCalls, 1);
  siglongjmp(Back, 1);
}

static void install(int Info) {
  struct sigaction A;
  memset(&A, 0, sizeof(A));
  if (Info) {
    A.sa_sigaction = onInfo;
    A.sa_flags = SA_SIGINFO;
  } else {
    A.sa_handler = onPlain;
    A.sa_flags = SA_NODEFER;
    sigaddset(&A.sa_mask, SIGUSR1);
  }
  if (sigaction(SIGSEGV, &A, 0) != 0)
    abort();
}

static void *fault(void *Arg) {
  long Rounds = (long)Arg, Caught = 0;
  for (long I = 0; I < Rounds; ++I) {
    if (sigsetjmp(Back, 1) == 0)
      *(volatile char *)Gone = 1;
    else
      ++Caught;
    deref((long *)Gone);
  }
  return (void *)Caught;
}

static void *toggle(void *Arg) {
  (void)Arg;
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, SIGUSR1);
  sigaddset(&Set, SIGTRAP);
  long Flips = 0;
  while (atomic_load(&Running)) {
    install(Flips & 1);
    pthread_sigmask((Flips & 2) ? SIG_BLOCK : SIG_UNBLOCK, &Set, 0);
    ++Flips;
  }
  return 0;
}

int main(int Argc, char **Argv) {
  int Threads = Argc > 1 ? atoi(Argv[1]) : 4;
  long Rounds = Argc > 2 ? atol(Argv[2]) : 2000;
  Gone = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
              -1, 0);
  if (Gone == MAP_FAILED || munmap(Gone, 4096) != 0)
    return 2;
  install(1);
  atomic_store(&Running, 1);
  pthread_t Toggler, Faulters[64];
  if (Threads > 64)
    Threads = 64;
  pthread_create(&Toggler, 0, toggle, 0);
  for (int I = 0; I < Threads; ++I)
    pthread_create(&Faulters[I], 0, fault, (void *)Rounds);
  long Caught = 0;
  for (int I = 0; I < Threads; ++I) {
    void *R;
    pthread_join(Faulters[I], &R);
    Caught += (long)R;
  }
  atomic_store(&Running, 0);
  pthread_join(Toggler, 0);
  long Calls = atomic_load(&InfoCalls) + atomic_load(&PlainCalls);
  printf("caught %ld of %ld, handler calls %s, wrong %ld\n", Caught,
         Threads * Rounds, Calls == Caught ? "match" : "DIFFER",
         atomic_load(&WrongAddress));
  printf("derefs %ld\n", Threads * Rounds);
  return 0;
}
