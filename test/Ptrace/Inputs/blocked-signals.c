/* blocked-signals N [own [self]]: the main thread (with `own`) sets handlers of
 * its own for SIGSEGV and SIGTRAP, then blocks every signal and
 * sets a SIGUSR1 disposition (sigaction() while SIGTRAP is blocked); a
 * thread it starts inherits that mask and calls deref() N times with bad
 * pointers (the script reads through them) and tiny() N times (a trap
 * site: no 5-byte jump fits). That thread then says whether its mask still
 * blocks both signals (with `self` the thread first blocks every signal
 * itself too, as well as inheriting the block). Last, the main thread unblocks them and (with
 * `own`) sends itself SIGSEGV and SIGTRAP once: its own handlers must get
 * them, with the agent's in front.
 *
 * The kernel forces a fault or trap on a thread that blocks its signal:
 * it unblocks it there and resets the process's disposition to SIG_DFL.
 * Untraced, this program never faults or traps, so nothing of that
 * happens; traced, each bad pointer and each trap site is the agent's. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tiny(int);
int after(int);
#ifdef __i386__
__asm__(".text\n.p2align 4\n.globl tiny\n.type tiny,@function\ntiny:\n"
        "\txor %eax,%eax\n\tinc %eax\n\tret\n.size tiny,.-tiny\n"
        ".globl after\n.type after,@function\nafter:\n"
        "\tmov 4(%esp),%eax\n\tret\n.size after,.-after\n");
#else
__asm__(".text\n.p2align 4\n.globl tiny\n.type tiny,@function\ntiny:\n"
        "\tlea (%rdi,%rdi),%eax\n\tret\n.size tiny,.-tiny\n"
        ".globl after\n.type after,@function\nafter:\n"
        "\tmov %edi,%eax\n\tret\n.size after,.-after\n");
#endif

__attribute__((noinline)) long deref(const long *p) { return p != 0; }

static volatile sig_atomic_t own_segv, own_trap;
static void on_segv(int sig) { (void)sig, own_segv++; }
static void on_trap(int sig) { (void)sig, own_trap++; }
static int N, Self;
static long Sum;
static int Kept;

static void *worker(void *arg) {
  (void)arg;
  if (Self) {
    sigset_t All;
    sigfillset(&All);
    pthread_sigmask(SIG_BLOCK, &All, 0);
  }
  for (int I = 1; I <= N; ++I) {
    Sum += deref((const long *)(0x10000ul + 64ul * I)) + tiny(I);
  }
  sigset_t Now;
  pthread_sigmask(SIG_SETMASK, 0, &Now);
  Kept = sigismember(&Now, SIGSEGV) && sigismember(&Now, SIGTRAP);
  return 0;
}

int main(int argc, char **argv) {
  N = argc > 1 ? atoi(argv[1]) : 100;
  int Own = argc > 2 && !strcmp(argv[2], "own");
  Self = argc > 3 && !strcmp(argv[3], "self");
  struct sigaction Sa;
  memset(&Sa, 0, sizeof(Sa));
  if (Own) {
    Sa.sa_handler = on_segv;
    sigaction(SIGSEGV, &Sa, 0);
    Sa.sa_handler = on_trap;
    sigaction(SIGTRAP, &Sa, 0);
  }
  sigset_t All;
  sigfillset(&All);
  pthread_sigmask(SIG_BLOCK, &All, 0);
  Sa.sa_handler = SIG_IGN;
  sigaction(SIGUSR1, &Sa, 0);
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  pthread_join(T, 0);
  pthread_sigmask(SIG_UNBLOCK, &All, 0);
  if (Own) {
    raise(SIGSEGV);
    raise(SIGTRAP);
  }
  printf("calls %d sum %ld own segv %d own trap %d\n", N, Sum, (int)own_segv,
         (int)own_trap);
  printf("mask kept %s\n", Kept ? "yes" : "no");
  return after(0);
}
