// System-call probes caught in the process by Syscall User Dispatch
// (--syscall-dispatch): launched processes go without tsrun's seccomp
// filter then, and attached ones without PTRACE_SYSCALL. In a 32-bit
// process nothing is patched: the agent's SIGSYS handler catches every
// call, by the vDSO's sysenter and by int $0x80 alike, runs the clauses
// with the call's number, its six argument registers (the sixth from the
// user stack on the sysenter path) and its result, and makes the call from
// its own code page. Checked against the program's own printout, and the
// getppid count against strace's; -v must say the mechanism is in-process.
// On the ptrace path (--param tsrun_mode=ptrace) the same lines come from
// ptrace stops.
// RUN: %tscc -w %s -o %t.o
// RUN: printf '#!/bin/sh\nexec %tsrun --syscall-dispatch "$@"\n' > %t.tsrun && chmod +x %t.tsrun
// RUN: %cc64 %S/Inputs/syscall-paths.c -o %t64
// RUN: %t.tsrun %t.o -v -- %t64 3 > %t.out64 2> %t.err64
// RUN: %python %S/Inputs/check-pairs.py PROG < %t.out64 | FileCheck %s
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SUD64 < %t.err64 %}
// RUN: %python %S/Inputs/attach-run.py %t.tsrun %t.o %t64 3 > %t.att64
// RUN: %python %S/Inputs/check-pairs.py PROG < %t.att64 | FileCheck %s
// RUN: %if native-i386 %{ %cc32 %S/Inputs/syscall-paths.c -o %t32 %}
// RUN: %if native-i386 %{ %t.tsrun %t.o -v -- %t32 3 > %t.out32 2> %t.err32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-pairs.py PROG < %t.out32 | FileCheck %s %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefix=SUD32 < %t.err32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/attach-run.py %t.tsrun %t.o %t32 3 > %t.att32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-pairs.py PROG < %t.att32 | FileCheck %s %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefix=SUD32 < %t.att32 %}
// The same program under strace: as many getppid calls as tsrun saw.
// RUN: %if native-i386 && strace %{ strace -f -qq -e trace=getppid -o %t.strace %t32 7 > /dev/null %}
// RUN: %if native-i386 && strace %{ %t.tsrun %t.o -- %t32 7 > %t.out32b %}
// RUN: %if native-i386 && strace %{ %python -c "import sys; print('strace', sum(1 for l in open(sys.argv[1]) if 'getppid(' in l)); print('tsrun', sum(1 for l in open(sys.argv[2]) if l.startswith('TS getppid')))" %t.strace %t.out32b | FileCheck %s --check-prefix=STRACE %}
// CHECK: pairs: 10
// STRACE: strace [[N:[0-9]+]]
// STRACE: tsrun [[N]]
// SUD64: probe @@syscall:*:getppid:exit at getppid in {{.*}}in-process at {{[0-9]+}} system-call site{{s?}}{{.*}}; calls made elsewhere are caught in the process by Syscall User Dispatch (a SIGSYS)
// SUD32: probe @@syscall:*:getppid:exit at getppid in syscall (0x{{[0-9a-f]+}}), in-process: every call is caught by Syscall User Dispatch (a SIGSYS in the process; int $0x80 and the vDSO's sysenter alike)
// SUD32-NOT: stop (

__thread int mine;

@@syscall:*:getppid:exit
{
  printf("PROG getppid %ld\n", __rv);
  printf("TS getppid\n");
}

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
