// Ctrl-C while an attached process is inside a function whose return the
// agent hijacked: tsrun takes the agent out (the site's bytes and the
// return address back, the agent's memory unmapped since no thread can
// come back into it) and detaches; the process returns to the right place
// and finishes with its code as it was and its own SIGILLs (SIGSEGVs in the
// 32-bit twin) to itself.
// REQUIRES: inprocess
// The sites removed include the agent's own gates (libc's exec functions,
// sigaction(), pthread_sigmask() where tsrun may let go of the process).
// RUN: %cc64 -O1 -pthread %S/Inputs/killme.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/kill-driver.py %tsrun %t.o %t.exe detach | FileCheck %s -DBITS=64 -DMODEL=LP64
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/killme.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/kill-driver.py %tsrun %t.o %t.i386/%basename_t.tmp.exe detach | FileCheck %s -DBITS=32 -DMODEL=ILP32 %}
// CHECK: tsrun: pid [[PID:[0-9]+]] ({{.*}}, [[MODEL]], ptrace): attached
// CHECK-NEXT: prog says: inside
// CHECK-NEXT: tsrun: pid [[PID]]: agent removed: {{[1-9][0-9]*}} sites and 1 return addresses restored, its memory unmapped
// CHECK-NEXT: tsrun status: 0
// CHECK-NEXT: prog says: finished
// CHECK-NEXT: sum 363 own-ills 2
// CHECK-NEXT: code intact
// CHECK-NEXT: tracer 0
// CHECK-NEXT: prog status: 0

long work(long);

@@uft:*:a.out:work:entry { printf("enter %ld\n", __arg1); }
@@uft:*:a.out:work:exit { printf("leave %ld\n", __rv); }
