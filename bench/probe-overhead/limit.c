/* The physical limit of a probe, for run.py's "limit" rows: loop.c's loop,
 * with hit() patched by hand the way tsrun patches a site. Its first
 * instruction is a 5-byte jmp to a trampoline that skips the red zone,
 * calls a handler and jumps back to the rest of hit(). The handler either
 * only counts (-DSAVE=0) or first saves and then restores every register
 * tsrun's agent saves (the flags, the 15 general registers, xmm0-15:
 * entry.S's SAVE_FRAME; -DSAVE=1). It prints "limit-count N" on stderr so
 * that run.py checks every call went through the trampoline. x86-64 only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef SAVE
#define SAVE 0
#endif

long hit(long, long);
unsigned long limit_count;

__asm__(".text\n"
        ".globl hit\n"
        ".type hit, @function\n"
        "hit:\n"
        "  jmp limit_trampoline\n"
        "limit_back:\n"
        "  lea (%rdi,%rsi), %rax\n"
        "  ret\n"
        "limit_trampoline:\n"
        "  lea -128(%rsp), %rsp\n"
        "  call limit_handler\n"
        "  lea 128(%rsp), %rsp\n"
        "  jmp limit_back\n"
        "limit_handler:\n"
#if SAVE
        "  pushfq\n  cld\n"
        "  push %rax\n  push %rbx\n  push %rcx\n  push %rdx\n"
        "  push %rsi\n  push %rdi\n  push %rbp\n  push %r8\n"
        "  push %r9\n  push %r10\n  push %r11\n  push %r12\n"
        "  push %r13\n  push %r14\n  push %r15\n"
        "  mov %rsp, %rbp\n  and $-16, %rsp\n  sub $256, %rsp\n"
        "  movaps %xmm0, 0(%rsp)\n  movaps %xmm1, 16(%rsp)\n"
        "  movaps %xmm2, 32(%rsp)\n  movaps %xmm3, 48(%rsp)\n"
        "  movaps %xmm4, 64(%rsp)\n  movaps %xmm5, 80(%rsp)\n"
        "  movaps %xmm6, 96(%rsp)\n  movaps %xmm7, 112(%rsp)\n"
        "  movaps %xmm8, 128(%rsp)\n  movaps %xmm9, 144(%rsp)\n"
        "  movaps %xmm10, 160(%rsp)\n  movaps %xmm11, 176(%rsp)\n"
        "  movaps %xmm12, 192(%rsp)\n  movaps %xmm13, 208(%rsp)\n"
        "  movaps %xmm14, 224(%rsp)\n  movaps %xmm15, 240(%rsp)\n"
#endif
        "  incq limit_count(%rip)\n"
#if SAVE
        "  movaps 0(%rsp), %xmm0\n  movaps 16(%rsp), %xmm1\n"
        "  movaps 32(%rsp), %xmm2\n  movaps 48(%rsp), %xmm3\n"
        "  movaps 64(%rsp), %xmm4\n  movaps 80(%rsp), %xmm5\n"
        "  movaps 96(%rsp), %xmm6\n  movaps 112(%rsp), %xmm7\n"
        "  movaps 128(%rsp), %xmm8\n  movaps 144(%rsp), %xmm9\n"
        "  movaps 160(%rsp), %xmm10\n  movaps 176(%rsp), %xmm11\n"
        "  movaps 192(%rsp), %xmm12\n  movaps 208(%rsp), %xmm13\n"
        "  movaps 224(%rsp), %xmm14\n  movaps 240(%rsp), %xmm15\n"
        "  mov %rbp, %rsp\n"
        "  pop %r15\n  pop %r14\n  pop %r13\n  pop %r12\n"
        "  pop %r11\n  pop %r10\n  pop %r9\n  pop %r8\n"
        "  pop %rbp\n  pop %rdi\n  pop %rsi\n  pop %rdx\n"
        "  pop %rcx\n  pop %rbx\n  pop %rax\n  popfq\n"
#endif
        "  ret\n"
        ".size hit, .-hit\n");

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 1000, S = 0;
  struct timespec T0, T1;
  clock_gettime(CLOCK_MONOTONIC, &T0);
  for (long I = 0; I < N; ++I)
    S += hit(I, 2 * I);
  clock_gettime(CLOCK_MONOTONIC, &T1);
  fprintf(stderr, "loop-ns %lld\n",
          (long long)(T1.tv_sec - T0.tv_sec) * 1000000000LL +
              (T1.tv_nsec - T0.tv_nsec));
  fprintf(stderr, "limit-count %lu\n", limit_count);
  return S == 42; /* keep the calls */
}
