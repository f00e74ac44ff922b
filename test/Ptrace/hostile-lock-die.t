// A traced thread takes the session's lock and holds it until the other
// threads' hits have given up on it (it is marked stuck), then dies with
// it. tsrun used to leave it that way: a dead owner marked stuck was never
// looked at again, and every later hit of every process was dropped. Now
// the lock is free again as soon as the thread is gone, and a process
// started afterwards is counted exactly.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/wedge-driver.py %tsrun %t.o %t.exe lock-die | FileCheck %s
// The 32-bit twin (both programs -m32), where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/wedge-driver.py %tsrun %t.o %t32 lock-die | FileCheck %s %}
// CHECK: tsrun status: 0
// CHECK-NEXT: steady: exact

long work(long);
long poke(long, long);

@@uft:*:a.out:work:entry { @work = count(); }
@@uft:*:a.out:poke:entry { @pokes = count(); }
