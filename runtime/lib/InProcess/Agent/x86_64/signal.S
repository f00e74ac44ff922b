/*===- x86_64/signal.S - The agent's signal handlers' entry ------------------===*
 *
 * tscc_agent_signal (SIGSEGV, SIGBUS, SIGFPE) and tscc_agent_trap (SIGTRAP)
 * as the kernel calls them: rdi = signal, rsi = siginfo, rdx = ucontext,
 * rsp at the frame's return address (the agent's restorer). They ask
 * signal.c what to do; when it answers with a handler of the program's
 * (the mask it runs with set), they jump to it with the stack pointer and
 * arguments of the delivery, so that the program's handler runs on
 * exactly the stack it would have had without the agent, and returns to
 * the restorer itself. Every register is free here: rt_sigreturn restores
 * them all from the frame.
 *
 * On an alternate signal stack with less than SMALL_ROOM bytes left below
 * the frame (sigaltstack() near the kernel's minimum, whose handler may
 * need a few bytes only), signal.c is asked on a stack of the agent's
 * instead, one of STACKS of STACK_SIZE claimed for the time of the
 * question, with every signal blocked meanwhile: a signal that the kernel
 * delivers on the alternate stack while we are off it would be put at its
 * top, over this one's frame. The mask is then set back on the alternate
 * stack. With no stack free (more threads at once than STACKS, or a fork
 * while one was claimed: the child never frees it) the question is asked
 * where we are, as on a bigger stack; so it is with Syscall User Dispatch
 * (sud.c), where the agent's system calls go through a gadget.
 *===----------------------------------------------------------------------===*/
#define SMALL_ROOM 2048
#define STACKS 8
#define STACK_SIZE 2048
#define UC_SS_SP 16
#define UC_SS_FLAGS 24
#define UC_SS_SIZE 32
#define UC_SIGMASK 296
#define SS_DISABLE 2
#define NR_RT_SIGPROCMASK 14
#define SIG_BLOCK 0
#define SIG_SETMASK 2

        .text
        .globl tscc_agent_signal, tscc_agent_trap
        .hidden tscc_agent_signal, tscc_agent_trap
        .type tscc_agent_signal, @function
        .type tscc_agent_trap, @function
tscc_agent_signal:
        lea agent_signal_decide(%rip), %rax
        jmp 0f
        .size tscc_agent_signal, .-tscc_agent_signal
tscc_agent_trap:
        lea agent_trap_decide(%rip), %rax
0:      mov %rdi, %r12
        mov %rsi, %r13
        mov %rdx, %r14
        mov %rsp, %r15
        mov %rax, %rbx           /* what to ask */
        /* On an alternate stack, with little room below us? */
        testl $SS_DISABLE, UC_SS_FLAGS(%rdx)
        jnz .Lhere
        mov %rsp, %rcx
        sub UC_SS_SP(%rdx), %rcx
        cmp UC_SS_SIZE(%rdx), %rcx
        jae .Lhere
        cmp $SMALL_ROOM, %rcx
        jae .Lhere
        /* With Syscall User Dispatch our system calls would raise SIGSYS
         * here, on this very stack: the agent's go through the gadget,
         * which needs the stack, so the question is asked here. */
        mov agent_gadget_offset(%rip), %ecx
        lea tscc_agent_config(%rip), %rax
        cmpq $0, (%rax,%rcx)
        jne .Lhere
        mov $NR_RT_SIGPROCMASK, %eax
        mov $SIG_BLOCK, %edi
        lea .Lall(%rip), %rsi
        xor %edx, %edx
        mov $8, %r10d
        syscall
        xor %ebp, %ebp
1:      lock btsl %ebp, agent_signal_stacks_used(%rip)
        jnc .Lclaimed
        inc %ebp
        cmp $STACKS, %ebp
        jb 1b
        /* None free: the mask as it was, and here. */
        mov $NR_RT_SIGPROCMASK, %eax
        mov $SIG_SETMASK, %edi
        lea UC_SIGMASK(%r14), %rsi
        xor %edx, %edx
        mov $8, %r10d
        syscall
.Lhere:
        sub $8, %rsp             /* 16-aligned for the call */
        mov %r12, %rdi
        mov %r13, %rsi
        mov %r14, %rdx
        xor %ecx, %ecx           /* no mask out: it is set in there */
        call *%rbx
        mov %r15, %rsp
        test %rax, %rax
        jz 2f
.Ljump:
        mov %r12, %rdi
        mov %r13, %rsi
        mov %r14, %rdx
        jmp *%rax                /* the program's handler, as delivered */
2:      ret                      /* to the restorer */

.Lclaimed:                       /* stack ebp: its top, less the mask out */
        mov %ebp, %eax
        shl $11, %rax            /* STACK_SIZE */
        lea agent_signal_stacks(%rip), %rsp
        lea STACK_SIZE-16(%rsp,%rax), %rsp
        mov %r12, %rdi
        mov %r13, %rsi
        mov %r14, %rdx
        mov %rsp, %rcx           /* the mask the handler runs with */
        call *%rbx
        mov %rsp, %rsi
        mov %r15, %rsp           /* back on the alternate stack */
        test %rax, %rax
        jz 3f
        mov %rax, %rbx
        mov $NR_RT_SIGPROCMASK, %eax
        mov $SIG_SETMASK, %edi
        xor %edx, %edx
        mov $8, %r10d
        syscall                  /* the mask out, still ours */
        lock btrl %ebp, agent_signal_stacks_used(%rip)
        mov %rbx, %rax
        jmp .Ljump
3:      lock btrl %ebp, agent_signal_stacks_used(%rip)
        ret                      /* rt_sigreturn puts the mask back */
        .size tscc_agent_trap, .-tscc_agent_trap

        .section .rodata
        .p2align 3
.Lall:  .quad -1

        .bss
        .p2align 6
        .globl agent_signal_stacks, agent_signal_stacks_used
        .hidden agent_signal_stacks, agent_signal_stacks_used
agent_signal_stacks:
        .zero STACKS * STACK_SIZE
agent_signal_stacks_used:
        .zero 4

        .section .note.GNU-stack,"",@progbits
