// Signal handlers on alternate signal stacks just big enough for them
// (sigaltstack() at the smallest size that works without a tracer; the
// driver finds it). Prints what happened, the same traced or not.
//
//   overflow SIZE ROUNDS  two threads, each with its own alternate stack of
//                         SIZE bytes, overflow their stacks ROUNDS times; a
//                         SIGSEGV handler leaves with siglongjmp
//   fixup SIZE ROUNDS     writes to a read-only page; the SIGSEGV handler,
//                         which needs a few bytes of stack only, makes it
//                         writable with a raw mprotect and returns
//   churn SIZE ROUNDS     a thread changes its alternate stack (three of
//                         SIZE bytes, and none) as fast as it can while the
//                         main thread sends it SIGBUS ROUNDS times, one at a
//                         time; the handler counts on which stack it ran
// After each fault or signal the program calls probed(), which a test
// probes. A handler that overflows its alternate stack is delivered again
// on top of itself, for ever: after 100 deliveries with no progress the
// program ends with status 3.
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static size_t Size;
static long Rounds;

__attribute__((noinline)) long probed(long N) { return N * 2; }

/* SIZE bytes with an inaccessible page under them. */
static char *guarded(size_t Bytes) {
  char *M = mmap(0, Bytes + 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (M == MAP_FAILED || mprotect(M, 4096, PROT_NONE)) {
    perror("mmap");
    exit(2);
  }
  return M + 4096;
}

static void use_altstack(char *Base, size_t Bytes) {
  stack_t Ss = {.ss_sp = Base, .ss_size = Bytes};
  if (sigaltstack(&Ss, 0)) {
    perror("sigaltstack");
    exit(2);
  }
}

static void on(int Sig, void (*H)(int, siginfo_t *, void *)) {
  struct sigaction Sa;
  memset(&Sa, 0, sizeof(Sa));
  Sa.sa_sigaction = H;
  Sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(Sig, &Sa, 0);
}

/*--- overflow --------------------------------------------------------------*/
static __thread sigjmp_buf Env;
static __thread volatile long Entries;

/* Delivered again and again: the handler overflows its stack. */
static void give_up_if_looping(void) {
  if (++Entries > 100)
    _exit(3);
}
static long Overflows[2], Calls[2];

__attribute__((noinline)) long recurse(long N) {
  volatile char Pad[256];
  Pad[0] = (char)N;
  return recurse(N + 1) + Pad[0];
}

static void leave(int S, siginfo_t *I, void *U) {
  (void)S, (void)I, (void)U;
  give_up_if_looping();
  siglongjmp(Env, 1);
}

static void *overflower(void *Arg) {
  long Me = (long)Arg;
  use_altstack(guarded(Size), Size);
  for (long R = 0; R < Rounds; ++R) {
    if (!sigsetjmp(Env, 1))
      recurse(0);
    Entries = 0;
    ++Overflows[Me];
    Calls[Me] += probed(R) == 2 * R;
  }
  return 0;
}

static void overflow(void) {
  on(SIGSEGV, leave);
  pthread_attr_t A;
  pthread_attr_init(&A);
  pthread_attr_setstacksize(&A, 256 * 1024);
  pthread_t T;
  pthread_create(&T, &A, overflower, (void *)1);
  overflower(0);
  pthread_join(T, 0);
  printf("overflows %ld %ld probed %ld %ld\n", Overflows[0], Overflows[1],
         Calls[0], Calls[1]);
}

/*--- fixup -----------------------------------------------------------------*/
static char *Page;
static volatile long Fixed;

static long raw_mprotect(void *A, long Len, long Prot) {
  long R;
#if defined(__x86_64__)
  __asm__ volatile("syscall"
                   : "=a"(R)
                   : "a"((long)SYS_mprotect), "D"(A), "S"(Len), "d"(Prot)
                   : "rcx", "r11", "memory");
#else
  __asm__ volatile("int $0x80"
                   : "=a"(R)
                   : "a"((long)SYS_mprotect), "b"(A), "c"(Len), "d"(Prot)
                   : "memory");
#endif
  return R;
}

static void fix(int S, siginfo_t *I, void *U) {
  (void)S, (void)I, (void)U;
  give_up_if_looping();
  ++Fixed;
  raw_mprotect(Page, 4096, PROT_READ | PROT_WRITE);
}

static void fixup(void) {
  use_altstack(guarded(Size), Size);
  on(SIGSEGV, fix);
  Page = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  long Calls = 0;
  for (long R = 0; R < Rounds; ++R) {
    Page[R % 4096] = (char)R;
    Entries = 0;
    Calls += probed(R) == 2 * R;
    mprotect(Page, 4096, PROT_READ);
  }
  printf("fixed %ld probed %ld\n", (long)Fixed, Calls);
}

/*--- churn -----------------------------------------------------------------*/
static char *Stacks[3];
static volatile long Seen, OnOne, OnNone, Stop;

static void count(int S, siginfo_t *I, void *U) {
  (void)S, (void)I, (void)U;
  char *Here = (char *)&Here;
  int On = 0;
  for (int K = 0; K < 3; ++K)
    On |= Here >= Stacks[K] && Here < Stacks[K] + Size;
  if (On)
    ++OnOne;
  else
    ++OnNone;
  __atomic_add_fetch(&Seen, 1, __ATOMIC_RELEASE);
}

static void *churner(void *Arg) {
  (void)Arg;
  for (unsigned long I = 0; !__atomic_load_n(&Stop, __ATOMIC_ACQUIRE); ++I) {
    if (I % 4 == 3) {
      stack_t Off = {.ss_flags = SS_DISABLE};
      sigaltstack(&Off, 0);
    } else {
      use_altstack(Stacks[I % 4], Size);
    }
  }
  return 0;
}

static void churn(void) {
  for (int K = 0; K < 3; ++K)
    Stacks[K] = guarded(Size);
  on(SIGBUS, count);
  pthread_t T;
  pthread_create(&T, 0, churner, 0);
  long Calls = 0;
  for (long R = 0; R < Rounds; ++R) {
    pthread_kill(T, SIGBUS);
    while (__atomic_load_n(&Seen, __ATOMIC_ACQUIRE) == R)
      sched_yield();
    Calls += probed(R) == 2 * R;
  }
  __atomic_store_n(&Stop, 1, __ATOMIC_RELEASE);
  pthread_join(T, 0);
  printf("signals %ld (on an alternate stack or not: %s) probed %ld\n",
         (long)Seen, OnOne + OnNone == Seen ? "all" : "lost", Calls);
}

int main(int Argc, char **Argv) {
  if (Argc != 4)
    return 2;
  Size = strtoul(Argv[2], 0, 0);
  Rounds = atol(Argv[3]);
  if (!strcmp(Argv[1], "overflow"))
    overflow();
  else if (!strcmp(Argv[1], "fixup"))
    fixup();
  else if (!strcmp(Argv[1], "churn"))
    churn();
  else
    return 2;
  return 0;
}
