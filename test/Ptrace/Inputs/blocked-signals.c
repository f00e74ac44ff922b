/* blocked-signals N: the main thread sets a handler of its own for SIGSEGV,
 * then blocks every signal; a thread it starts inherits that
 * mask and calls deref() N times with bad pointers (the script reads
 * through them) and tiny() N times (a trap site: no 5-byte jump fits).
 * That thread then says whether its mask still blocks both signals. Last,
 * the main thread unblocks them and sends itself SIGSEGV once: its own
 * handler must get it, with the agent's in front. (Not SIGTRAP: a program
 * that blocks SIGTRAP while it creates a thread still loses its own
 * SIGTRAP handler under the in-process path, a known gap.)
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

static volatile sig_atomic_t own_segv;
static void on_segv(int sig) { (void)sig, own_segv++; }
static int N;
static long Sum;
static int Kept;

static void *worker(void *arg) {
  (void)arg;
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
  struct sigaction Sa;
  memset(&Sa, 0, sizeof(Sa));
  Sa.sa_handler = on_segv;
  sigaction(SIGSEGV, &Sa, 0);
  sigset_t All;
  sigfillset(&All);
  pthread_sigmask(SIG_BLOCK, &All, 0);
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  pthread_join(T, 0);
  pthread_sigmask(SIG_UNBLOCK, &All, 0);
  raise(SIGSEGV);
  printf("calls %d sum %ld own segv %d\n", N, Sum, (int)own_segv);
  printf("mask kept %s\n", Kept ? "yes" : "no");
  return after(0);
}
