// System-call probes in a process tsrun has let go of (--detach): Syscall
// User Dispatch is the default there, so the process is let go of with its
// system-call probes in place, and nothing of it stops any more. The
// program starts its traced work only once it has no tracer, then makes
// getppid() through libc, from code written at run time (no patched site),
// from a thread made while detached (which switches SUD on in itself, at
// the SUD page's spawn stub) and with every signal blocked, and checks its
// own SIGSYS handler; tsrun's counts must be the program's. Both data
// models: a 32-bit process has no patched site, SUD catches its vDSO and
// int $0x80 calls alike.
// REQUIRES: inprocess
// RUN: %cc64 -pthread %S/Inputs/sud-catchall.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/sud-detached.py %tsrun %t.o %t.exe 200 > %t.out
// RUN: FileCheck %s < %t.out
// RUN: %if native-i386 %{ %cc32 -pthread %S/Inputs/sud-catchall.c -o %t32.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/sud-detached.py %tsrun %t.o %t32.exe 200 > %t32.out %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// CHECK: detached before go: yes
// CHECK: PROG libc 200 same=1
// CHECK: PROG jit 200 same=1
// CHECK: PROG thread 200 same=1
// CHECK: PROG blocked 200 same=1 old-usr1=1 old-sys=0 now-usr2=1
// CHECK: PROG own sigsys handler reported=1 ran=1
// CHECK: PROG getppid calls [[N:[0-9]+]]
// CHECK: TS getppid entries=[[N]] exits=[[N]] errors=0
// CHECK-NOT: stays attached
// CHECK: tsrun status: 0

__global long entries;
__global long exits;
__global long errors;

@@syscall:*:getppid:entry { entries++; }
@@syscall:*:getppid:exit { exits++; if (__errno != 0) errors++; }
@@END { printf("TS getppid entries=%ld exits=%ld errors=%ld\n", entries, exits, errors); }
