/*===- healer.S - The SIGSEGV healer of attached 32-bit processes ----------===*
 *
 * The i386 twin of the x86-64 healer in
 * runtime/lib/InProcess/Installer/Healer.cpp (read Healer.h first): copied
 * by tsrun into the home page of an attached 32-bit process, it puts every
 * breakpoint's original byte back once nobody traces the process, and sends
 * returns through the exit-probe trampoline to their real return addresses.
 *
 * Why SIGSEGV and not SIGILL: a breakpoint must be one byte that faults
 * (eip stays on it), and the one-byte #UD opcodes of 64-bit mode (0x06,
 * push %es) are valid instructions in 32-bit mode. `hlt` (0xf4) is one byte
 * and faults with #GP at user level, which Linux delivers as SIGSEGV with
 * si_code SI_KERNEL; no other fault has that si_code at one of our
 * addresses.
 *
 * The blob is position independent and has no relocations: it reaches its
 * own address with call/pop, the journal through the pointer at its start
 * (which tsrun fills in), and the kernel with `int $0x80`. It starts with
 * a small table of its own offsets so that tsrun needs no symbol table to
 * use it. The journal header's fields are 64-bit (shared with the x86-64
 * healer and with tsrun's code that writes them); this code reads their low
 * halves.
 *===----------------------------------------------------------------------===*/

/* The journal header: the layout of InProcess/Installer/Healer.cpp. */
#define HDR_TRAMP 0
#define HDR_OLDACT 8
#define HDR_BREAKS 40
#define HDR_NBREAK 48
#define HDR_RETS 56
#define HDR_NRET 64
#define HDR_MEMPATH 72
#define HDR_HEALED 160
#define BREAK_OPCODE 0xf4
#define SI_KERNEL 0x80
#define SIGSEGV 11

/* i386 system calls */
#define NR_close 6
#define NR_open 5
#define NR_getpid 20
#define NR_mprotect 125
#define NR_rt_sigreturn 173
#define NR_rt_sigaction 174
#define NR_pread64 180
#define NR_pwrite64 181
#define NR_gettid 224
#define NR_tgkill 270

/* i386 ucontext_t: gregs at 20; REG_ESP = 7, REG_EIP = 14. */
#define UC_ESP (20 + 4 * 7)
#define UC_EIP (20 + 4 * 14)

        .text
        .globl tscc_healer32_blob
tscc_healer32_blob:
header_ptr:
        .long 0                       /* the journal header, set by tsrun */
        .long handler - tscc_healer32_blob
        .long restorer - tscc_healer32_blob
        .long blob_end - tscc_healer32_blob

/* void handler(int sig, siginfo_t *info, ucontext_t *uc) */
handler:
        push %ebp
        push %ebx
        push %esi
        push %edi
        sub $12, %esp                 /* 0(%esp): one byte read back */
        call 1f
1:      pop %edi
        mov header_ptr - 1b(%edi), %edi   /* edi: the header, from here on */
        mov 36(%esp), %eax            /* info */
        cmpl $SI_KERNEL, 8(%eax)      /* si_code: #GP at user level */
        jne .Lchain
        mov 40(%esp), %edx            /* uc */
        mov UC_EIP(%edx), %eax        /* the faulting instruction */
        cmp HDR_TRAMP(%edi), %eax
        jne .Lbreakpoint
        mov UC_ESP(%edx), %ecx        /* the return popped its slot */
        sub $4, %ecx
        mov HDR_RETS(%edi), %esi
        mov HDR_NRET(%edi), %ebx
.Lretloop:
        test %ebx, %ebx
        jz .Lchain
        cmp (%esi), %ecx
        je .Lretfound
        add $16, %esi
        dec %ebx
        jmp .Lretloop
.Lretfound:
        mov 8(%esi), %eax
        mov %eax, UC_EIP(%edx)        /* continue at the real return address */
        movl $0, (%esi)
        jmp .Lheal
.Lbreakpoint:
        mov HDR_BREAKS(%edi), %esi
        mov HDR_NBREAK(%edi), %ebx
.Lbploop:
        test %ebx, %ebx
        jz .Lchain
        cmp (%esi), %eax
        je .Lheal                     /* eip stays: the original runs again */
        add $16, %esi
        dec %ebx
        jmp .Lbploop
.Lheal:
        /* Once is enough; the tables stay for threads still on their way
         * back through the trampoline. */
        cmpl $0, HDR_HEALED(%edi)
        jne .Lret
        lea HDR_MEMPATH(%edi), %ebx
        mov $2, %ecx                  /* O_RDWR */
        xor %edx, %edx
        mov $NR_open, %eax
        int $0x80
        mov %eax, 4(%esp)             /* the fd, or -errno */
        mov HDR_BREAKS(%edi), %ebp
        mov HDR_NBREAK(%edi), %eax
        mov %eax, 8(%esp)             /* entries left */
.Lhealloop:
        cmpl $0, 8(%esp)
        je .Lhealdone
        cmpl $0, 4(%esp)
        jl .Lprotect
        mov 4(%esp), %ebx             /* pread64(fd, sp, 1, addr, 0) */
        mov %esp, %ecx
        mov $1, %edx
        mov (%ebp), %esi
        push %edi
        xor %edi, %edi
        mov $NR_pread64, %eax
        int $0x80
        pop %edi
        cmp $1, %eax
        jne .Lnext
        cmpb $BREAK_OPCODE, (%esp)    /* is our breakpoint still there? */
        jne .Lnext
        mov 4(%esp), %ebx             /* pwrite64 the original byte */
        lea 8(%ebp), %ecx
        mov $1, %edx
        mov (%ebp), %esi
        push %edi
        xor %edi, %edi
        mov $NR_pwrite64, %eax
        int $0x80
        pop %edi
        cmp $1, %eax
        je .Lnext
.Lprotect:                            /* no forced /proc/self/mem writes */
        mov (%ebp), %ebx
        and $-4096, %ebx
        mov $4096, %ecx
        mov $7, %edx                  /* PROT_READ | PROT_WRITE | PROT_EXEC */
        mov $NR_mprotect, %eax
        int $0x80
        test %eax, %eax
        jnz .Lnext
        mov (%ebp), %ebx
        cmpb $BREAK_OPCODE, (%ebx)
        jne .Lreprotect
        movzbl 8(%ebp), %eax
        mov %al, (%ebx)
.Lreprotect:
        mov (%ebp), %ebx
        and $-4096, %ebx
        mov $4096, %ecx
        mov $5, %edx                  /* PROT_READ | PROT_EXEC */
        mov $NR_mprotect, %eax
        int $0x80
.Lnext:
        add $16, %ebp
        decl 8(%esp)
        jmp .Lhealloop
.Lhealdone:
        movl $1, HDR_HEALED(%edi)
        cmpl $0, 4(%esp)
        jl .Lret
        mov 4(%esp), %ebx
        mov $NR_close, %eax
        int $0x80
        jmp .Lret
.Lchain:                              /* not ours: what was there before us */
        mov HDR_OLDACT(%edi), %eax
        cmp $1, %eax                  /* SIG_IGN */
        je .Lret
        test %eax, %eax
        jnz .Ltail
        mov $SIGSEGV, %ebx            /* SIG_DFL: put it back, raise again */
        lea HDR_OLDACT(%edi), %ecx
        xor %edx, %edx
        mov $8, %esi
        mov $NR_rt_sigaction, %eax
        int $0x80
        mov $NR_getpid, %eax
        int $0x80
        mov %eax, %ebx
        mov $NR_gettid, %eax
        int $0x80
        mov %eax, %ecx
        mov $SIGSEGV, %edx
        mov $NR_tgkill, %eax
        int $0x80
        jmp .Lret
.Ltail:                               /* the program's own handler, with */
        add $12, %esp                 /* our arguments, as if called by */
        pop %edi                      /* the kernel */
        pop %esi
        pop %ebx
        pop %ebp
        jmp *%eax
.Lret:
        add $12, %esp
        pop %edi
        pop %esi
        pop %ebx
        pop %ebp
        ret

restorer:
        mov $NR_rt_sigreturn, %eax
        int $0x80
        hlt
blob_end:
