// A second tsrun attaches to a process whose first tsrun was SIGKILLed
// while the process was inside a function whose return was hijacked, with
// breakpoints still in the text. The second one finds the first one's
// healer, repairs its breakpoints before placing its own (so it reads the
// program's real code, not the breakpoint opcode), and traces the next
// calls. The return through the first one's trampoline still lands right,
// and after the second detaches the code is as it was.
// RUN: %cc64 -O1 -pthread %S/Inputs/killme.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/kill-driver.py %tsrun %t.o %t.exe reattach | FileCheck %s -DMODEL=LP64 --implicit-check-not="cannot decode"
// The 32-bit twin: an i386 build, whose breakpoints are `hlt` (SIGSEGV):
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/killme.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/kill-driver.py %tsrun %t.o %t32 reattach | FileCheck %s -DMODEL=ILP32 --implicit-check-not="cannot decode" %}
// CHECK: tsrun: pid [[PID:[0-9]+]] ({{.*}}, [[MODEL]], ptrace): attached
// CHECK-NEXT: prog says: inside
// CHECK-NEXT: tsrun status: -9
// CHECK-NEXT: second tsrun: warning: pid [[PID]]: {{removed [1-9][0-9]* breakpoints|put back [1-9][0-9]* probe sites}} left behind by a tsrun that was killed
// CHECK: second tsrun: pid [[PID]] ({{.*}}, [[MODEL]], ptrace): attached
// CHECK-NEXT: prog says: finished
// CHECK-NEXT: enter 4
// CHECK-NEXT: leave 12
// CHECK-NEXT: enter 5
// CHECK-NEXT: leave 15
// CHECK-NEXT: enter 6
// CHECK-NEXT: leave 18
// CHECK: second tsrun status: 0
// CHECK-NEXT: sum 363 own-ills 2
// CHECK-NEXT: code intact
// CHECK-NEXT: tracer 0
// CHECK-NEXT: prog status: 0

long work(long);

@@uft:*:a.out:work:entry { printf("enter %ld\n", __arg1); }
@@uft:*:a.out:work:exit { printf("leave %ld\n", __rv); }
