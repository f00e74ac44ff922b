// System calls traced inside the process: a launched 64-bit program's libc
// wrappers (getppid's site jumps from before its syscall; read's from the
// syscall itself) run entry and exit clauses in the agent, with the
// arguments, return values and errno the program itself sees, and the same
// counts as on the ptrace path (seccomp stops).
// RUN: %tscc %s -o %t.o
// RUN: %cc64 %S/Inputs/syscall-sites.c -o %t64
// RUN: %tsrun -v %t.o -- %t64 1000 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: %python %S/Inputs/check-pairs.py PROG "PROG getppid calls.*" < %t.out | FileCheck %s --check-prefix=PAIRS
// RUN: %if inprocess %{ FileCheck %s --check-prefix=VERBOSE < %t.err %}
// RUN: %tsrun -v --ptrace %t.o -- %t64 1000 > %t.pt 2> %t.pt.err
// RUN: FileCheck %s < %t.pt
// RUN: %python %S/Inputs/check-pairs.py PROG "PROG getppid calls.*" < %t.pt | FileCheck %s --check-prefix=PAIRS
// RUN: FileCheck %s --check-prefix=PTRACE < %t.pt.err
// CHECK: PROG getppid calls [[N:[0-9]+]] (same parent)
// CHECK: TS getppid entries [[N]]
// PAIRS: pairs: 4
// VERBOSE: probe @@syscall:*:getppid:entry at getppid in libc.so.6 (0x{{[0-9a-f]+}}), in-process at {{[0-9]+}} system-call sites
// PTRACE: probe @@syscall:*:getppid:entry at getppid in syscall (0x6e), seccomp stop (--ptrace)

__global long entries;
__thread long fd;
__thread long len;

@@syscall:*:getppid:entry { entries++; }

@@syscall:*:read:entry
{
  fd = __arg1;
  len = __arg3;
}

@@syscall:*:read:exit when (len >= 4 && len <= 7)
{
  printf("PROG read %ld %ld rv %ld errno %d\n", fd, len, __rv, __errno);
  len = 0;
}

@@END { printf("TS getppid entries %ld\n", entries); }
