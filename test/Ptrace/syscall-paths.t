// System-call probes by each way into the kernel: the vDSO's sysenter and
// int $0x80 in a 32-bit process, syscall in a 64-bit one; numbers, the six
// argument registers, return values and errno of each data model, checked
// against the program's own printout. Launched (seccomp filter, per
// architecture) and attached (PTRACE_SYSCALL).
// RUN: %tscc -w %s -o %t.o
// RUN: %cc64 %S/Inputs/syscall-paths.c -o %t64
// RUN: %tsrun %t.o -- %t64 3 > %t.out64
// RUN: %python %S/Inputs/check-pairs.py PROG < %t.out64 | FileCheck %s
// RUN: %python %S/Inputs/attach-run.py %tsrun %t.o %t64 3 > %t.att64
// RUN: %python %S/Inputs/check-pairs.py PROG < %t.att64 | FileCheck %s
// RUN: %if native-i386 %{ %cc32 %S/Inputs/syscall-paths.c -o %t32 %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t32 3 > %t.out32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-pairs.py PROG < %t.out32 | FileCheck %s %}
// RUN: %if native-i386 %{ %python %S/Inputs/attach-run.py %tsrun %t.o %t32 3 > %t.att32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-pairs.py PROG < %t.att32 | FileCheck %s %}
// An i386 call from 64-bit code (int $0x80) is not the process's getppid:
// nothing fires, and tsrun says why.
// RUN: %if native-i386 %{ env INT80=1 %tsrun %t.o -- %t64 1 > %t.int80 2> %t.int80.err %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-pairs.py PROG < %t.int80 | FileCheck %s --check-prefix=INT80 %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=INT80-ERR < %t.int80.err %}
// INT80: pairs: 6
// INT80-ERR: warning: pid {{[0-9]+}} made system calls of another architecture (int $0x80 from 64-bit code); system-call probes do not fire for them
// CHECK: pairs: 10

__thread int mine;

@@syscall:*:getppid:exit { printf("PROG getppid %ld\n", __rv); }

// mmap2 in a 32-bit process, mmap in a 64-bit one (the other model has no
// such call, or one that takes bytes).
@@syscall:*:mmap2:entry, @@syscall:*:mmap:entry when (__arg5 == 12345)
{
  mine = 1;
  printf("PROG sys map %lx %ld %ld %ld %ld %ld\n", __arg1, __arg2, __arg3,
         __arg4, __arg5, __arg6);
}

@@syscall:*:mmap2:exit, @@syscall:*:mmap:exit when (mine)
{
  mine = 0;
  printf("PROG sys map rv %ld errno %d\n", __rv, __errno);
}
