// The program sets its own SIGILL handler (SIGSEGV in the 32-bit twin,
// whose breakpoints raise that) -- one that just returns -- after tsrun
// attached, then tsrun is SIGKILLed with the program inside a
// function whose return it hijacked. tsrun watches glibc's sigaction() and
// put its healer back in front of the program's handler, so the healer,
// not the program's handler, gets the breakpoint faults after the kill
// (the program's handler would make the thread fault forever), and the
// program's own SIGILLs still reach its handler.
// RUN: %cc64 -O1 -pthread %S/Inputs/killme.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/kill-driver.py %tsrun %t.o %t.exe late | FileCheck %s -DMODEL=LP64
// The 32-bit twin: an i386 build, whose breakpoints are `hlt` (SIGSEGV):
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/killme.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/kill-driver.py %tsrun %t.o %t32 late | FileCheck %s -DMODEL=ILP32 %}
// CHECK: tsrun: pid {{[0-9]+}} ({{.*}}, [[MODEL]], ptrace): attached
// CHECK-NEXT: prog says: inside
// CHECK-NEXT: tsrun status: -9
// CHECK-NEXT: prog says: finished
// CHECK-NEXT: sum 363 own-ills 2
// CHECK-NEXT: code intact
// CHECK-NEXT: tracer 0
// CHECK-NEXT: prog status: 0

long work(long);

@@uft:*:a.out:work:entry { printf("enter %ld\n", __arg1); }
@@uft:*:a.out:work:exit { printf("leave %ld\n", __rv); }
