// A traced program keeps writing the words that steer its burst buffers
// (its ring's word naming the one it writes into: none, each, past the
// last, ~0; each burst buffer's owner word, head and tail), while its
// records overflow its 64K ring into them. tsrun neither crashes nor
// hangs, stays small, counts the program traced beside it exactly, and
// says once that a ring was overwritten; the program itself only loses
// or misplaces its own records.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/hostile-driver.py %tsrun %t.o %t.exe burst-words 300000 -- --thread-buffer 64K | FileCheck %s
// The 32-bit twin (both programs -m32), where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/hostile-driver.py %tsrun %t.o %t32 burst-words 300000 -- --thread-buffer 64K | FileCheck %s %}
// CHECK: tsrun status: 0
// CHECK-NEXT: tsrun memory: bounded
// CHECK-NEXT: steady: exact
// CHECK-NEXT: hostile: hostile burst-words done
// CHECK-NOT: warning x {{[0-9]*[02-9]}}:

long work(long);
long poke(long, long);

@@uft:*:a.out:work:entry { @work = count(); }
@@uft:*:a.out:poke:entry { printf("poke %ld\n", __arg2); }
