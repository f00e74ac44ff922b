// tsrun is SIGKILLed while an attached process has two trap sites armed
// (an int3 each, trap-sites.t). The next hit goes to the agent's SIGTRAP
// handler with nobody tracing: the agent sees tsrun gone, puts every site's
// original bytes back, and the program runs on with the right results.
// REQUIRES: inprocess
// RUN: %cc64 -O1 %S/Inputs/trap-sites.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/kill-driver.py %tsrun %t.o %t.exe single | FileCheck %s -DMODEL=LP64 -DTINY=20200
// The 32-bit twin (its tiny() returns 1):
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/trap-sites.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/kill-driver.py %tsrun %t.o %t32 single | FileCheck %s -DMODEL=ILP32 -DTINY=200 %}
// CHECK: tsrun: pid {{[0-9]+}} ({{.*}}, [[MODEL]], ptrace): attached
// CHECK-NEXT: prog says: inside
// CHECK-NEXT: tsrun status: -9
// CHECK-NEXT: prog says: finished
// CHECK-NEXT: tiny sum [[TINY]] loop3 sum 30300
// CHECK-NEXT: code intact
// CHECK-NEXT: tracer 0
// CHECK-NEXT: prog status: 0

__global long t, l;
@@uft:*:a.out:tiny:entry { t++; }
@@uft:*:a.out:loop3+0x4 { l++; }
