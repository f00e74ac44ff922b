/*===- i386/entry.S - How probe hits get into the 32-bit agent ---------------===*
 *
 * The i386 twin of ../entry.S. tscc_agent_enter is called by every
 * trampoline (`call *enter`, tscc/agent.h; no red zone in i386). It saves
 * everything the C code and the clause code may clobber -- the general
 * registers, the flags and xmm0-7 (clause code is SSE2 code) -- calls
 * tscc_agent_hit(frame, return address) and restores it all. The x87
 * stack is not saved: compiled clause code only pushes and pops it for a
 * moment (64-bit integer <-> floating point conversions).
 *
 * tscc_agent_return is where a hijacked return lands: it makes room for the
 * real return address at the slot the return popped, saves the same frame
 * and lets tscc_agent_ret fill that slot in, then returns to it. eax and
 * edx, the function's return value, are part of the frame.
 *
 * Calls into C keep the stack 16-byte aligned, as the i386 psABI wants.
 *===----------------------------------------------------------------------===*/

        .text

/* struct tscc_agent_frame, lowest address first: edi esi ebp ebx edx ecx
 * eax eflags ret. Leaves ebp at the frame and the stack aligned with the
 * vector registers saved below it. */
.macro SAVE_FRAME
        pushfl
        cld
        push %eax
        push %ecx
        push %edx
        push %ebx
        push %ebp
        push %esi
        push %edi
        mov %esp, %ebp
        and $-16, %esp
        sub $128, %esp
        movaps %xmm0, 0(%esp)
        movaps %xmm1, 16(%esp)
        movaps %xmm2, 32(%esp)
        movaps %xmm3, 48(%esp)
        movaps %xmm4, 64(%esp)
        movaps %xmm5, 80(%esp)
        movaps %xmm6, 96(%esp)
        movaps %xmm7, 112(%esp)
.endm

/* ../entry.S's RESTORE_FLAGS: the flags saved at Off(%esp) without
 * popfl (microcoded, as dear as the rest of a counting hit's save and
 * restore), with eax and ecx as scratch. */
.macro RESTORE_FLAGS Off
        mov \Off(%esp), %ecx
        movzbl %cl, %eax
        shl $8, %eax              /* ah: SF ZF AF PF CF */
        test $0x400, %ecx
        jz 1f
        std
1:      shr $11, %ecx
        and $1, %ecx
        add $0x7f, %cl            /* OF: 0x7f + 1 overflows */
        sahf
.endm

.macro RESTORE_FRAME
        movaps 0(%esp), %xmm0
        movaps 16(%esp), %xmm1
        movaps 32(%esp), %xmm2
        movaps 48(%esp), %xmm3
        movaps 64(%esp), %xmm4
        movaps 80(%esp), %xmm5
        movaps 96(%esp), %xmm6
        movaps 112(%esp), %xmm7
        mov %ebp, %esp
        RESTORE_FLAGS 28
        pop %edi
        pop %esi
        pop %ebp
        pop %ebx
        pop %edx
        pop %ecx
        pop %eax
        lea 4(%esp), %esp         /* the flags, restored above */
.endm

        .globl tscc_agent_enter
        .hidden tscc_agent_enter
        .type tscc_agent_enter, @function
tscc_agent_enter:
        SAVE_FRAME
        sub $4, %esp              /* 16-aligned again after 3 words */
        push $0                   /* tscc_agent_hit(frame, uint64_t ret): */
        push 32(%ebp)             /* ret, the return address into the */
        push %ebp                 /* trampoline, is frame->ret */
        call tscc_agent_hit
        RESTORE_FRAME
        ret
        .size tscc_agent_enter, .-tscc_agent_enter

        .globl tscc_agent_return
        .hidden tscc_agent_return
        .type tscc_agent_return, @function
tscc_agent_return:
        lea -4(%esp), %esp        /* back over the slot the ret popped */
        SAVE_FRAME
        sub $12, %esp
        push %ebp                 /* tscc_agent_ret(frame) */
        call tscc_agent_ret
        RESTORE_FRAME
        ret                       /* to the real return address */
        .size tscc_agent_return, .-tscc_agent_return

/* int tscc_agent_try(uint64_t pred, uint64_t action, ctx, recover): 0, or 1
 * when the clause crashed and the signal handler brought us back through
 * recover (struct tscc_agent_recover: 64-bit rsp and rip, whose high halves
 * stay 0 here). */
        .globl tscc_agent_try
        .hidden tscc_agent_try
        .type tscc_agent_try, @function
tscc_agent_try:
        push %ebp
        push %ebx
        push %esi
        push %edi
        mov 20(%esp), %esi        /* pred (low half) */
        mov 28(%esp), %edi        /* action (low half) */
        mov 36(%esp), %ebx        /* ctx */
        mov 40(%esp), %ebp        /* recover */
        sub $8, %esp              /* 16-aligned once ctx is pushed */
        mov %esp, 0(%ebp)         /* the crash path pops what we pushed */
        movl $0, 4(%ebp)
        movl $.Lcrashed, 8(%ebp)
        movl $0, 12(%ebp)
        test %esi, %esi
        jz 1f
        sub $12, %esp
        push %ebx
        call *%esi
        add $16, %esp
        test %eax, %eax
        jz 2f
1:      test %edi, %edi
        jz 2f
        sub $12, %esp
        push %ebx
        call *%edi
        add $16, %esp
2:      xor %eax, %eax
        jmp 3f
.Lcrashed:
        mov $1, %eax
3:      add $8, %esp
        pop %edi
        pop %esi
        pop %ebx
        pop %ebp
        ret
        .size tscc_agent_try, .-tscc_agent_try

/* The fault-safe copies, cdecl. Both push esi and edi first and touch the
 * source only after that, so a fault between tscc_safe_begin and
 * tscc_safe_end resumes at tscc_safe_fault, which pops them and returns -1
 * from whichever of the two was running. */
        .globl tscc_safe_begin, tscc_safe_end, tscc_safe_fault
        .hidden tscc_safe_begin, tscc_safe_end, tscc_safe_fault
        .globl tscc_safe_copy, tscc_safe_strcpy
        .hidden tscc_safe_copy, tscc_safe_strcpy
tscc_safe_begin:
tscc_safe_copy:                   /* (dst, src, uint64_t len) */
        push %esi
        push %edi
        mov 12(%esp), %edi
        mov 16(%esp), %esi
        mov 20(%esp), %ecx
        cmp $4, %ecx
        jne 1f
        mov (%esi), %eax
        mov %eax, (%edi)
        jmp 3f
1:      cmp $8, %ecx
        jne 2f
        mov (%esi), %eax
        mov 4(%esi), %edx
        mov %eax, (%edi)
        mov %edx, 4(%edi)
        jmp 3f
2:      rep movsb
3:      xor %eax, %eax
        pop %edi
        pop %esi
        ret

tscc_safe_strcpy:                 /* (dst, src, uint64_t max > 0) */
        push %esi
        push %edi
        mov 12(%esp), %edi
        mov 16(%esp), %esi
        mov 20(%esp), %edx
        dec %edx                  /* room for the NUL */
        xor %eax, %eax
1:      cmp %edx, %eax
        jae 2f
        movzbl (%esi,%eax), %ecx
        mov %cl, (%edi,%eax)
        test %cl, %cl
        jz 3f
        inc %eax
        jmp 1b
2:      movb $0, (%edi,%eax)
3:      pop %edi
        pop %esi
        ret
tscc_safe_end:
tscc_safe_fault:
        pop %edi
        pop %esi
        mov $-1, %eax
        ret

/* SA_RESTORER for the agent's signal handlers. */
        .globl tscc_agent_restorer
        .hidden tscc_agent_restorer
        .type tscc_agent_restorer, @function
tscc_agent_restorer:
        mov $173, %eax            /* rt_sigreturn */
        int $0x80
        .size tscc_agent_restorer, .-tscc_agent_restorer

        .section .note.GNU-stack,"",@progbits
