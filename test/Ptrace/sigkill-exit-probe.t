// tsrun is SIGKILLed while an attached process is inside a function whose
// return address it hijacked, with breakpoints still in the text. Nobody
// cleans up: the process's healer (docs/runtime.md, "If tsrun is killed")
// returns to the right place, puts every original byte back and passes the
// program's own SIGILLs (SIGSEGVs in i386) on to its handler.
// RUN: %cc64 -O1 -pthread %S/Inputs/killme.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/kill-driver.py %tsrun %t.o %t.exe single | FileCheck %s -DMODEL=LP64
// The 32-bit twin: an i386 build, whose breakpoints are `hlt` (SIGSEGV):
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/killme.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/kill-driver.py %tsrun %t.o %t32 single | FileCheck %s -DMODEL=ILP32 %}
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
