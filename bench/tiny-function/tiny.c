/* The 4-byte-function benchmark target: calls tiny(i) N times, tiny being
 * `lea (%rdi,%rdi),%eax; ret` (i386: `mov 4(%esp),%eax; add %eax,%eax;
 * ret` is 7 bytes, so it is x86-64 only), and reports on stderr how long
 * the loop took ("loop-ns T"). Built -DPACKED, the next function starts
 * right behind tiny (no padding a jump could borrow: a trap site);
 * otherwise tiny is followed by the alignment padding compilers emit.
 * Built -DUSDT, each iteration passes a USDT probe, bench:tick(i), inside
 * main instead of calling tiny: the site of the USDT rows. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef USDT
#include <sys/sdt.h>
#endif

int tiny(int);
int next_fn(int);
#ifdef PACKED
#define ALIGN_NEXT ""
#else
#define ALIGN_NEXT ".p2align 4\n"
#endif
__asm__(".text\n.p2align 4\n.globl tiny\n.type tiny,@function\ntiny:\n"
        "\tlea (%rdi,%rdi),%eax\n\tret\n.size tiny,.-tiny\n" ALIGN_NEXT
        ".globl next_fn\n.type next_fn,@function\nnext_fn:\n"
        "\tmov %edi,%eax\n\tret\n.size next_fn,.-next_fn\n");

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 1000, S = 0;
  struct timespec T0, T1;
  clock_gettime(CLOCK_MONOTONIC, &T0);
  for (long I = 0; I < N; ++I) {
#ifdef USDT
    DTRACE_PROBE1(bench, tick, I);
#else
    S += tiny((int)I);
#endif
  }
  clock_gettime(CLOCK_MONOTONIC, &T1);
  fprintf(stderr, "loop-ns %lld\n",
          (long long)(T1.tv_sec - T0.tv_sec) * 1000000000LL +
              (T1.tv_nsec - T0.tv_nsec));
  return S == 42 + next_fn(0); /* keep the calls */
}
