// tsrun detaches from a process 1000 calls deep in a function with an exit
// probe: every hijacked return address, on every chunk of the thread's
// shadow stack, is put back, and the process returns through all of them
// to the right places, untraced.
// REQUIRES: inprocess
// The sites removed include the agent's own gates (libc's exec functions,
// sigaction(), pthread_sigmask() where tsrun may let go of the process).
// RUN: %cc64 %S/Inputs/deepwait.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/deep-detach.py %tsrun %t.o %t.exe 1000 | FileCheck %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/deepwait.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/deep-detach.py %tsrun %t.o %t.i386/%basename_t.tmp.exe 1000 | FileCheck %s %}
// CHECK: prog says: bottom
// CHECK-NEXT: tsrun: pid {{[0-9]+}}: agent removed: {{[1-9][0-9]*}} sites and 1001 return addresses restored, its memory unmapped
// CHECK-NEXT: tsrun status: 0
// CHECK-NEXT: rec [[V:[0-9]+]], expected [[V]]
// CHECK-NEXT: tracer 0
// CHECK-NEXT: prog status: 0

long rec(long);
@@uft:*:a.out:rec:exit { @rv = sum(__rv); }
