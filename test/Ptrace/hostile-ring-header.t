// A traced program keeps writing the header of its own record ring: the
// head far ahead of the tail, behind it, at 0 and misaligned; the tail
// (which only tsrun writes, and never reads back); the dropped count at
// its maximum. tsrun neither crashes nor hangs, stays small, counts the
// program traced beside it exactly, and says once that the ring was
// overwritten.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/hostile-driver.py %tsrun %t.o %t.exe ring-header 30000 | FileCheck %s
// The 32-bit twin (both programs -m32), where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/hostile-driver.py %tsrun %t.o %t32 ring-header 30000 | FileCheck %s %}
// CHECK: tsrun status: 0
// CHECK-NEXT: tsrun memory: bounded
// CHECK-NEXT: steady: exact
// CHECK-NEXT: hostile: hostile ring-header done
// The forged head leaves the ring no room: records are lost, and said.
// CHECK: warning x 1: tsrun: warning: a record ring in shared memory was overwritten by a traced program
// CHECK-NOT: warning x {{[0-9]*[02-9]}}:

long work(long);
long poke(long, long);

@@uft:*:a.out:work:entry { @work = count(); }
@@uft:*:a.out:poke:entry { printf("poke %ld\n", __arg2); }
