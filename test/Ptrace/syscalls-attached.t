// Syscall probes in a process tsrun attaches to: without seccomp (tsrun
// cannot install a filter in a running process) every system call stops
// (PTRACE_SYSCALL), and the counts must still be exact. The program is
// attached while it waits to open its FIFO; its one read() comes after,
// and is seen once on entry and once on exit, with the one byte it read.
// RUN: %cc64 %S/Inputs/syscalls.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/attach-run.py %tsrun %t.o %t.exe 300 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/syscalls.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/attach-run.py %tsrun %t.o %t.i386/%basename_t.tmp.exe 300 | FileCheck %s %}
// CHECK: expected=[[N:[0-9]+]] caught=[[N]]
// CHECK: getppid entries=[[N]] exits=[[N]] errors=0
// CHECK: read entries=1 exits=1 sum=1
// CHECK: prog status: 0
// CHECK: tsrun status: 0

__global long entries;
__global long exits;
__global long errors;
__global long reads;
__global long readExits;
__global long readBytes;

@@syscall:*:getppid:entry { entries++; }
@@syscall:*:getppid:exit { exits++; if (__errno != 0) errors++; }
@@syscall:*:read:entry { reads++; }
@@syscall:*:read:exit { readExits++; readBytes += __rv; }
@@END {
  printf("getppid entries=%ld exits=%ld errors=%ld\n", entries, exits, errors);
  printf("read entries=%ld exits=%ld sum=%ld\n", reads, readExits, readBytes);
}
