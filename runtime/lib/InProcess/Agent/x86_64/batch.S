/*===- batch.S - Many system calls for one ptrace round trip (x86-64) ------===*
 *
 * Setting the agent up in a new image takes some twenty system calls made
 * by the target (mmap, mprotect, the socket that brings the store's
 * descriptors, sigaction...). Injected one by one, each is a ptrace round
 * trip: a stop, a wake of tsrun, a resume. tsrun instead copies this stub
 * into the process's home page once (Ptrace/InjectBatch.cpp), writes a
 * table of calls below the borrowed thread's stack pointer, and runs the
 * whole table in one resume: one stop in, one stop out.
 *
 * Entry (tsrun sets the registers): %rdi = the table, %rsp below it. Each
 * entry is 80 bytes (InjectBatch.h, BatchEntry):
 *    0  number (~0 ends the table)
 *    8  six arguments
 *   56  six argument kinds: 0 the value, 1 the 32-bit word at that
 *       address (zero-extended), 2 the 64-bit word at that address
 *   62  flags: 1 go on after an error, 2 the result's copy is 32-bit,
 *       4 made again when a signal interrupted it (EINTR: a recvmsg with
 *       a timeout that a signal tsrun discarded woke)
 *   64  the result, written by the stub
 *   72  where to copy a successful result to (0: nowhere)
 * Loaded arguments let a call use what an earlier one returned (a
 * descriptor received with recvmsg, an address mmap chose). The stub stops
 * at the first call that fails (unless flag 1), with %rax = the number of
 * entries it finished, at the int3 that ends it.
 *
 * Position independent, no relocations: the build keeps its raw bytes. It
 * starts with its own offsets (entry, the end of its `syscall`, which is
 * the instruction pointer a seccomp filter sees) so tsrun needs no symbols.
 *===----------------------------------------------------------------------===*/
  .text
base:
  .long start - base
  .long after_syscall - base
start:
  mov %rdi, %rbx
  xor %r12d, %r12d
next:
  mov (%rbx), %rax
  cmp $-1, %rax
  je done
  xor %ecx, %ecx
arg:
  movzbl 56(%rbx,%rcx), %edx
  test %edx, %edx
  jz arg_next
  mov 8(%rbx,%rcx,8), %rsi
  cmp $1, %edx
  jne load64
  mov (%rsi), %esi
  jmp store_arg
load64:
  mov (%rsi), %rsi
store_arg:
  mov %rsi, 8(%rbx,%rcx,8)
arg_next:
  inc %ecx
  cmp $6, %ecx
  jb arg
call_it:
  mov 8(%rbx), %rdi
  mov 16(%rbx), %rsi
  mov 24(%rbx), %rdx
  mov 32(%rbx), %r10
  mov 40(%rbx), %r8
  mov 48(%rbx), %r9
  syscall
after_syscall:
  mov %rax, 64(%rbx)
  cmp $-4, %rax
  jne checked
  testb $4, 62(%rbx)
  jnz call_it
checked:
  cmp $-4095, %rax
  jb ok
  testb $1, 62(%rbx)
  jz done
  jmp advance
ok:
  mov 72(%rbx), %rdx
  test %rdx, %rdx
  jz advance
  testb $2, 62(%rbx)
  jz copy64
  mov %eax, (%rdx)
  jmp advance
copy64:
  mov %rax, (%rdx)
advance:
  add $80, %rbx
  inc %r12
  jmp next
done:
  mov %r12, %rax
  int3
