/*===- i386/signal.S - The agent's signal handlers' entry (i386) -------------===*
 *
 * As x86_64/signal.S: the kernel's rt frame has the return address (the
 * agent's restorer) at 0(%esp) and the signal, siginfo and ucontext above
 * it; a handler of the program's that signal.c answers with is jumped to
 * with that stack pointer, so that it reads its arguments from the
 * kernel's frame and runs on exactly the stack it would have had without
 * the agent. On an alternate stack with little room left, signal.c is
 * asked on a stack of the agent's, every signal blocked meanwhile (see
 * x86_64/signal.S). Every register is free: rt_sigreturn restores them all.
 *===----------------------------------------------------------------------===*/
#define SMALL_ROOM 2048
#define STACKS 8
#define STACK_SIZE 2048
#define UC_SS_SP 8
#define UC_SS_FLAGS 12
#define UC_SS_SIZE 16
#define UC_SIGMASK 108
#define SS_DISABLE 2
#define NR_RT_SIGPROCMASK 175
#define SIG_BLOCK 0
#define SIG_SETMASK 2

        .text
        .globl tscc_agent_signal, tscc_agent_trap
        .hidden tscc_agent_signal, tscc_agent_trap
        .type tscc_agent_signal, @function
        .type tscc_agent_trap, @function
tscc_agent_signal:
        mov $agent_signal_decide, %eax
        jmp 0f
        .size tscc_agent_signal, .-tscc_agent_signal
tscc_agent_trap:
        mov $agent_trap_decide, %eax
0:      mov %esp, %ebp           /* the frame: restorer, sig, info, uc */
        mov %eax, %edi           /* what to ask */
        mov 12(%ebp), %edx
        testl $SS_DISABLE, UC_SS_FLAGS(%edx)
        jnz .Lhere
        mov %esp, %ecx
        sub UC_SS_SP(%edx), %ecx
        cmp UC_SS_SIZE(%edx), %ecx
        jae .Lhere
        cmp $SMALL_ROOM, %ecx
        jae .Lhere
        mov $NR_RT_SIGPROCMASK, %eax
        mov $SIG_BLOCK, %ebx
        mov $.Lall, %ecx
        xor %edx, %edx
        mov $8, %esi
        int $0x80
        xor %esi, %esi
1:      lock btsl %esi, agent_signal_stacks_used
        jnc .Lclaimed
        inc %esi
        cmp $STACKS, %esi
        jb 1b
        mov $NR_RT_SIGPROCMASK, %eax
        mov $SIG_SETMASK, %ebx
        mov 12(%ebp), %ecx
        add $UC_SIGMASK, %ecx
        xor %edx, %edx
        mov $8, %esi
        int $0x80
.Lhere:
        and $-16, %esp           /* 16-aligned at the call */
        push $0                  /* no mask out: it is set in there */
        push 12(%ebp)            /* ucontext */
        push 8(%ebp)             /* siginfo */
        push 4(%ebp)             /* signal */
        call *%edi
        mov %ebp, %esp
        test %eax, %eax
        jz 2f
        jmp *%eax                /* the program's handler, as delivered */
2:      ret                      /* to the restorer */

.Lclaimed:                       /* stack esi: its top, less the mask out */
        mov %esi, %eax
        shl $11, %eax            /* STACK_SIZE */
        lea agent_signal_stacks+STACK_SIZE-16(%eax), %esp
        mov %esp, %ebx           /* the mask the handler runs with */
        push %ebx
        push 12(%ebp)
        push 8(%ebp)
        push 4(%ebp)
        call *%edi
        mov %ebp, %esp           /* back on the alternate stack */
        test %eax, %eax
        jz 3f
        mov %eax, %edi
        mov %esi, %ebp           /* the stack's number */
        mov $NR_RT_SIGPROCMASK, %eax
        mov %ebx, %ecx
        mov $SIG_SETMASK, %ebx
        xor %edx, %edx
        mov $8, %esi
        int $0x80                /* the mask out, still ours */
        lock btrl %ebp, agent_signal_stacks_used
        mov %edi, %eax
        jmp *%eax                /* the program's handler, as delivered */
3:      lock btrl %esi, agent_signal_stacks_used
        ret                      /* rt_sigreturn puts the mask back */
        .size tscc_agent_trap, .-tscc_agent_trap

        .section .rodata
        .p2align 3
.Lall:  .long -1, -1

        .bss
        .p2align 6
        .globl agent_signal_stacks, agent_signal_stacks_used
        .hidden agent_signal_stacks, agent_signal_stacks_used
agent_signal_stacks:
        .zero STACKS * STACK_SIZE
agent_signal_stacks_used:
        .zero 4

        .section .note.GNU-stack,"",@progbits
