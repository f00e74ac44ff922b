// System calls traced in a process tsrun attaches to (-p) with
// --syscall-dispatch: in-process, with Syscall User Dispatch as the catch-all for calls no patched site
// catches (the agent's SIGSYS handler), and no PTRACE_SYSCALL stop. The
// program makes getppid() through libc, from code it writes at run time,
// from a thread made after the attach, with every signal blocked and in a
// forked child; tsrun's counts must be the program's, its signal mask and
// its own SIGSYS handler must be what it set, and -v says which mechanism
// each probe uses. On the ptrace path (--param tsrun_mode=ptrace) the same
// counts come from PTRACE_SYSCALL stops.
// RUN: %cc64 -pthread %S/Inputs/sud-catchall.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: printf '#!/bin/sh\nexec %tsrun --syscall-dispatch "$@"\n' > %t.tsrun && chmod +x %t.tsrun
// RUN: %python %S/Inputs/attach-run.py %t.tsrun %t.o %t.exe 200 > %t.out
// RUN: FileCheck %s < %t.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SUD < %t.out %}
// The 32-bit twin: its libc calls through the vDSO (sysenter) and its jit
// code with int $0x80; no call is patched, SUD catches every one.
// RUN: %if native-i386 %{ %cc32 -pthread %S/Inputs/sud-catchall.c -o %t32.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/attach-run.py %t.tsrun %t.o %t32.exe 200 > %t32.out %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefix=SUD32 < %t32.out %}
// CHECK: PROG libc 200 same=1
// CHECK: PROG jit 200 same=1
// CHECK: PROG thread 200 same=1
// CHECK: PROG blocked 200 same=1 old-usr1=1 old-sys=0 now-usr2=1
// CHECK: PROG own sigsys handler reported=1 ran=1
// CHECK: PROG child 200 status=0
// CHECK: PROG getppid calls [[N:[0-9]+]]
// CHECK: TS getppid entries=[[N]] exits=[[N]] errors=0
// CHECK: prog status: 0
// CHECK: tsrun status: 0
// SUD32: probe @@syscall:*:getppid:entry at getppid in syscall (0x{{[0-9a-f]+}}), in-process: every call is caught by Syscall User Dispatch (a SIGSYS in the process; int $0x80 and the vDSO's sysenter alike)
// SUD32-NOT: stop (
// SUD: probe @@syscall:*:getppid:entry at getppid in libc.so.6 (0x{{[0-9a-f]+}}), in-process at {{[0-9]+}} system-call sites{{.*}}; calls made elsewhere are caught in the process by Syscall User Dispatch (a SIGSYS)

__global long entries;
__global long exits;
__global long errors;

@@syscall:*:getppid:entry { entries++; }
@@syscall:*:getppid:exit { exits++; if (__errno != 0) errors++; }
@@END { printf("TS getppid entries=%ld exits=%ld errors=%ld\n", entries, exits, errors); }
