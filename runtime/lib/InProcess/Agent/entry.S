/*===- entry.S - How probe hits get into the agent, and fault-safe copies ---===*
 *
 * tscc_agent_enter is called by every trampoline (tscc/agent.h) with the red
 * zone already skipped. It saves everything the C code and the clause code
 * may clobber -- the general registers, the flags and xmm0-15, which is the
 * whole register state compiled clause code can touch -- calls
 * tscc_agent_hit(frame, return address) and restores it all (the flags
 * without popfq: RESTORE_FLAGS).
 *
 * tscc_agent_return is where a hijacked return lands: it makes room for
 * the real return address at the slot the return popped, saves the same
 * frame and lets tscc_agent_ret fill that slot in, then returns to it.
 *===----------------------------------------------------------------------===*/

        .text

.macro SAVE_FRAME
        pushfq
        cld                      /* the ABI wants DF clear in C code */
        push %rax
        push %rbx
        push %rcx
        push %rdx
        push %rsi
        push %rdi
        push %rbp
        push %r8
        push %r9
        push %r10
        push %r11
        push %r12
        push %r13
        push %r14
        push %r15
        mov %rsp, %rbp           /* struct tscc_agent_frame */
        and $-16, %rsp
        sub $256, %rsp
        movaps %xmm0, 0(%rsp)
        movaps %xmm1, 16(%rsp)
        movaps %xmm2, 32(%rsp)
        movaps %xmm3, 48(%rsp)
        movaps %xmm4, 64(%rsp)
        movaps %xmm5, 80(%rsp)
        movaps %xmm6, 96(%rsp)
        movaps %xmm7, 112(%rsp)
        movaps %xmm8, 128(%rsp)
        movaps %xmm9, 144(%rsp)
        movaps %xmm10, 160(%rsp)
        movaps %xmm11, 176(%rsp)
        movaps %xmm12, 192(%rsp)
        movaps %xmm13, 208(%rsp)
        movaps %xmm14, 224(%rsp)
        movaps %xmm15, 240(%rsp)
.endm

/* Puts back the flags saved at Off(%rsp), with rax and rcx as scratch
 * (the frame restores them after): the direction flag with std, OF with
 * an add that overflows exactly when it was set, and SF ZF AF PF CF with
 * sahf. popfq would do it in one instruction, but it is microcoded and
 * costs a counting hit about as much as everything else it saves and
 * restores (docs/performance.md); nothing the agent runs changes the
 * other flags (TF, AC, ID...). */
.macro RESTORE_FLAGS Off
        mov \Off(%rsp), %rcx
        movzbl %cl, %eax
        shl $8, %eax             /* ah: SF ZF AF PF CF */
        test $0x400, %ecx
        jz 1f
        std
1:      shr $11, %ecx
        and $1, %ecx
        add $0x7f, %cl           /* OF: 0x7f + 1 overflows */
        sahf
.endm

/* xmm0-15 as the frame keeps them, at the stack pointer. */
.macro RESTORE_XMM
        movaps 0(%rsp), %xmm0
        movaps 16(%rsp), %xmm1
        movaps 32(%rsp), %xmm2
        movaps 48(%rsp), %xmm3
        movaps 64(%rsp), %xmm4
        movaps 80(%rsp), %xmm5
        movaps 96(%rsp), %xmm6
        movaps 112(%rsp), %xmm7
        movaps 128(%rsp), %xmm8
        movaps 144(%rsp), %xmm9
        movaps 160(%rsp), %xmm10
        movaps 176(%rsp), %xmm11
        movaps 192(%rsp), %xmm12
        movaps 208(%rsp), %xmm13
        movaps 224(%rsp), %xmm14
        movaps 240(%rsp), %xmm15
.endm

.macro RESTORE_FRAME
        RESTORE_XMM
        mov %rbp, %rsp
        RESTORE_FLAGS 120
        pop %r15
        pop %r14
        pop %r13
        pop %r12
        pop %r11
        pop %r10
        pop %r9
        pop %r8
        pop %rbp
        pop %rdi
        pop %rsi
        pop %rdx
        pop %rcx
        pop %rbx
        pop %rax
        lea 8(%rsp), %rsp        /* the flags, restored above */
.endm

        .globl tscc_agent_enter
        .hidden tscc_agent_enter
        .type tscc_agent_enter, @function
tscc_agent_enter:
        SAVE_FRAME
        mov %rbp, %rdi
        mov 128(%rbp), %rsi      /* the return address into the trampoline */
        call tscc_agent_hit
        RESTORE_FRAME
        ret
        .size tscc_agent_enter, .-tscc_agent_enter

/* RESTORE_FRAME without reloading rbx and r12-r15: the C code and the
 * clause code keep them (they are callee-saved), and nothing a system-call
 * hit does writes them in the frame. */
.macro RESTORE_CALLER_SAVED
        RESTORE_XMM
        mov %rbp, %rsp
        RESTORE_FLAGS 120
        lea 32(%rsp), %rsp       /* r15 r14 r13 r12 */
        pop %r11
        pop %r10
        pop %r9
        pop %r8
        pop %rbp
        pop %rdi
        pop %rsi
        pop %rdx
        pop %rcx
        lea 8(%rsp), %rsp        /* rbx */
        pop %rax
        lea 8(%rsp), %rsp        /* the flags, restored above */
.endm

/* What system-call sites call, before and after the call (tscc/agent.h):
 * the same frame, for tscc_agent_syscall_hit (which reads every register
 * of it when a clause reads the registers). */
        .globl tscc_agent_enter_syscall
        .hidden tscc_agent_enter_syscall
        .type tscc_agent_enter_syscall, @function
tscc_agent_enter_syscall:
        SAVE_FRAME
        mov %rbp, %rdi
        mov 128(%rbp), %rsi      /* the return address into the trampoline */
        call tscc_agent_syscall_hit
        RESTORE_CALLER_SAVED
        ret
        .size tscc_agent_enter_syscall, .-tscc_agent_enter_syscall

        .globl tscc_agent_return
        .hidden tscc_agent_return
        .type tscc_agent_return, @function
tscc_agent_return:
        lea -8(%rsp), %rsp       /* back over the slot the ret popped */
        SAVE_FRAME
        mov %rbp, %rdi
        call tscc_agent_ret
        RESTORE_FRAME
        ret                      /* to the real return address */
        .size tscc_agent_return, .-tscc_agent_return

/* int tscc_agent_try(pred, action, ctx, recover): 0, or 1 when the clause
 * crashed and the signal handler brought us back through recover. */
        .globl tscc_agent_try
        .hidden tscc_agent_try
        .type tscc_agent_try, @function
tscc_agent_try:
        push %rbp
        push %rbx
        push %r12
        push %r13
        push %r14
        push %r15
        sub $8, %rsp             /* keep the stack 16-aligned for calls */
        mov %rdi, %r12           /* pred */
        mov %rsi, %r13           /* action */
        mov %rdx, %r14           /* ctx */
        mov %rcx, %r15           /* recover */
        mov %rsp, 0(%r15)        /* the crash path pops what we pushed */
        lea .Lcrashed(%rip), %rax
        mov %rax, 8(%r15)
        test %r12, %r12
        jz 1f
        mov %r14, %rdi
        call *%r12
        test %eax, %eax
        jz 2f
1:      test %r13, %r13
        jz 2f
        mov %r14, %rdi
        call *%r13
2:      xor %eax, %eax
        jmp 3f
.Lcrashed:
        mov $1, %eax
3:      add $8, %rsp
        pop %r15
        pop %r14
        pop %r13
        pop %r12
        pop %rbx
        pop %rbp
        ret
        .size tscc_agent_try, .-tscc_agent_try

/* The fault-safe copies. A fault between tscc_safe_begin and tscc_safe_end
 * resumes at tscc_safe_fault, which returns -1 from whichever of the two
 * was running (neither has pushed anything). */
        .globl tscc_safe_begin, tscc_safe_end, tscc_safe_fault
        .hidden tscc_safe_begin, tscc_safe_end, tscc_safe_fault
        .globl tscc_safe_copy, tscc_safe_strcpy
        .hidden tscc_safe_copy, tscc_safe_strcpy
tscc_safe_begin:
tscc_safe_copy:                  /* rdi = dst, rsi = src, rdx = len */
        cmp $8, %rdx
        jne 1f
        mov (%rsi), %rax
        mov %rax, (%rdi)
        xor %eax, %eax
        ret
1:      cmp $4, %rdx
        jne 2f
        mov (%rsi), %eax
        mov %eax, (%rdi)
        xor %eax, %eax
        ret
2:      mov %rdx, %rcx
        rep movsb
        xor %eax, %eax
        ret

tscc_safe_strcpy:                /* rdi = dst, rsi = src, rdx = max > 0 */
        xor %eax, %eax
        dec %rdx                 /* room for the NUL */
1:      cmp %rdx, %rax
        jae 2f
        movzbl (%rsi,%rax), %ecx
        mov %cl, (%rdi,%rax)
        test %cl, %cl
        jz 3f
        inc %rax
        jmp 1b
2:      movb $0, (%rdi,%rax)
3:      ret
tscc_safe_end:
tscc_safe_fault:
        mov $-1, %rax
        ret

/* SA_RESTORER for the agent's signal handler. */
        .globl tscc_agent_restorer
        .hidden tscc_agent_restorer
        .type tscc_agent_restorer, @function
tscc_agent_restorer:
        mov $15, %eax            /* rt_sigreturn */
        syscall
        .size tscc_agent_restorer, .-tscc_agent_restorer

        .section .note.GNU-stack,"",@progbits
