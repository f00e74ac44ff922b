// A traced program sets the count of its avg() entry to -1 and the sum to
// INT64_MIN. tsrun used to divide them when it sorted the entries at the
// end: SIGFPE, and every output lost. Now the entry prints (as 0), the
// corruption is reported once, and the program traced beside it is
// counted exactly. Attached (--no-detach): once tsrun has let go of the
// program (the default) the entry still prints as 0, but the warning is
// not given (a known gap, left for later).
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/hostile-driver.py %tsrun %t.o %t.exe agg-avg 1000 -- --no-detach | FileCheck %s
// The 32-bit twin (both programs -m32), where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/hostile-driver.py %tsrun %t.o %t32 agg-avg 1000 -- --no-detach | FileCheck %s %}
// CHECK: tsrun status: 0
// CHECK-NEXT: tsrun memory: bounded
// CHECK-NEXT: steady: exact
// CHECK-NEXT: hostile: hostile agg-avg done
// CHECK-NEXT: warning x 1: tsrun: warning: aggregation '@avg' in shared memory was written by a traced program: 1 of its entries have a negative count
// CHECK-NOT: warning

long work(long);
long poke(long, long);

@@uft:*:a.out:work:entry { @work = count(); }
@@uft:*:a.out:poke:entry { @avg[__arg1] = avg(__arg2); }
