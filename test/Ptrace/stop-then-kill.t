// A hot process is stopped by SIGSTOP (every thread, one of them perhaps in
// the middle of a clause, holding the session's lock), then killed with
// SIGKILL, while another traced process keeps calling a probed function.
// That one is counted exactly: tsrun lets a thread stopped in a clause
// finish it first, and frees the lock of a thread that died with it.
// tsrun used to make everybody else wait for the stopped thread, then
// give up on it for good: after the kill, every hit of every process was
// dropped (5 of 8 runs).
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/wedge-driver.py %tsrun %t.o %t.exe stop-kill | FileCheck %s
// RUN: %python %S/Inputs/wedge-driver.py %tsrun %t.o %t.exe stop-kill | FileCheck %s
// RUN: %python %S/Inputs/wedge-driver.py %tsrun %t.o %t.exe stop-kill | FileCheck %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/wedge-driver.py %tsrun %t.o %t.i386/%basename_t.tmp.exe stop-kill | FileCheck %s %}
// RUN: %if native-i386 %{ %python %S/Inputs/wedge-driver.py %tsrun %t.o %t.i386/%basename_t.tmp.exe stop-kill | FileCheck %s %}
// RUN: %if native-i386 %{ %python %S/Inputs/wedge-driver.py %tsrun %t.o %t.i386/%basename_t.tmp.exe stop-kill | FileCheck %s %}
// CHECK: tsrun status: 137
// CHECK-NEXT: steady: exact
// CHECK-NOT: warning

long work(long);
long poke(long, long);

@@uft:*:a.out:work:entry { @work = count(); }
@@uft:*:a.out:poke:entry { @pokes[__tid] = count(); }
