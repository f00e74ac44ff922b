// A traced program keeps changing the size of the record tsrun reads next
// in its ring, between the real one and a huge one. tsrun used to read the
// size twice (checked, then used): a heap overflow, std::length_error or
// SIGSEGV. Now it neither crashes nor hangs, stays small, counts the
// program traced beside it exactly, and says once that the ring was
// overwritten.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/hostile-driver.py %tsrun %t.o %t.exe ring-size 300000 65536 -- --thread-buffer 64K | FileCheck %s
// The 32-bit twin (both programs -m32), where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/hostile-driver.py %tsrun %t.o %t32 ring-size 300000 65536 -- --thread-buffer 64K | FileCheck %s %}
// CHECK: tsrun status: 0
// CHECK-NEXT: tsrun memory: bounded
// CHECK-NEXT: steady: exact
// CHECK-NEXT: hostile: hostile ring-size done
// CHECK-NOT: warning x {{[0-9]*[02-9]}}:

long work(long);
long poke(long, long);

@@uft:*:a.out:work:entry { @work = count(); }
@@uft:*:a.out:poke:entry { printf("poke %ld\n", __arg2); }
