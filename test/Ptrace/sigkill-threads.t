// tsrun is SIGKILLed at an arbitrary point while two threads of an attached
// process hit entry and exit probes back to back: some thread is usually
// stopped at a breakpoint or in the return trampoline right then, and
// resumes with SIGTRAP pending. Every call must still return the right
// value, and the text must end up as it was. Three rounds.
// RUN: %cc64 -O1 -pthread %S/Inputs/killme.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/kill-driver.py %tsrun %t.o %t.exe threads | FileCheck %s -DMODEL=LP64
// RUN: %python %S/Inputs/kill-driver.py %tsrun %t.o %t.exe threads | FileCheck %s -DMODEL=LP64
// RUN: %python %S/Inputs/kill-driver.py %tsrun %t.o %t.exe threads | FileCheck %s -DMODEL=LP64
// The 32-bit twin: an i386 build, whose breakpoints are `hlt` (SIGSEGV):
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/killme.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/kill-driver.py %tsrun %t.o %t32 threads | FileCheck %s -DMODEL=ILP32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/kill-driver.py %tsrun %t.o %t32 threads | FileCheck %s -DMODEL=ILP32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/kill-driver.py %tsrun %t.o %t32 threads | FileCheck %s -DMODEL=ILP32 %}
// CHECK: prog says: running
// CHECK-NEXT: tsrun status: -9
// CHECK-NEXT: threads ok
// CHECK-NEXT: code intact
// CHECK-NEXT: tracer 0
// CHECK-NEXT: prog status: 0

long work(long);

@@uft:*:a.out:work:entry { @calls[__tid] = count(); }
@@uft:*:a.out:work:exit { @rv = sum(__rv); }
