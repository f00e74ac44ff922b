/*===- batch.S - Many system calls for one ptrace round trip (i386) --------===*
 *
 * The i386 twin of x86_64/batch.S (read it first): the same table, whose
 * fields are 64-bit, of which this code reads and writes the low halves
 * (a 64-bit copy of a result gets a zero high half). Entry: %eax = the
 * table, %esp below it. The six arguments go in %ebx, %ecx, %edx, %esi,
 * %edi, %ebp, so the entry pointer and the count live on the stack.
 *===----------------------------------------------------------------------===*/
  .text
base:
  .long start - base
  .long after_syscall - base
start:
  push $0                    /* 4(%esp): entries finished */
  push %eax                  /* 0(%esp): the current entry */
next:
  mov (%esp), %ebx
  mov (%ebx), %eax
  cmp $-1, %eax
  je done
  xor %ecx, %ecx
arg:
  movzbl 56(%ebx,%ecx), %edx
  test %edx, %edx
  jz arg_next
  mov 8(%ebx,%ecx,8), %esi
  mov (%esi), %esi           /* kinds 1 and 2 alike: a 32-bit word */
  mov %esi, 8(%ebx,%ecx,8)
  movl $0, 12(%ebx,%ecx,8)
arg_next:
  inc %ecx
  cmp $6, %ecx
  jb arg
call_it:
  mov 16(%ebx), %ecx
  mov 24(%ebx), %edx
  mov 32(%ebx), %esi
  mov 40(%ebx), %edi
  mov 48(%ebx), %ebp
  mov 8(%ebx), %ebx
  int $0x80
after_syscall:
  mov (%esp), %ebx
  mov %eax, 64(%ebx)
  movl $0, 68(%ebx)
  cmp $-4, %eax
  jne checked
  testb $4, 62(%ebx)
  jnz call_it
checked:
  cmp $-4095, %eax
  jb ok
  testb $1, 62(%ebx)
  jz done
  jmp advance
ok:
  mov 72(%ebx), %edx
  test %edx, %edx
  jz advance
  mov %eax, (%edx)
  testb $2, 62(%ebx)
  jnz advance
  movl $0, 4(%edx)
advance:
  addl $80, (%esp)
  incl 4(%esp)
  jmp next
done:
  mov 4(%esp), %eax
  int3
