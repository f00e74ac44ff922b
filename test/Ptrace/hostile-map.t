// A traced program corrupts an associative array it shares with tsrun: its
// entry's chain points at itself, its hash is wrong, every slot of the
// index names that entry, and the table's state says it is empty, with a
// free list that starts anywhere. The program's own clauses and the
// interval clause tsrun runs keep looking keys up and inserting new ones.
// Every probe of the index is bounded: tsrun ends with the programs,
// stays small, counts the program traced beside it exactly (its
// aggregation is another table) and reports once that the map takes no
// new keys.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/hostile-driver.py %tsrun %t.o %t.exe map 30000 2048 -- --map-capacity 1024 | FileCheck %s
// The 32-bit twin (both programs -m32), where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/hostile-driver.py %tsrun %t.o %t32 map 30000 2048 -- --map-capacity 1024 | FileCheck %s %}
// CHECK: tsrun status: 0
// CHECK-NEXT: tsrun memory: bounded
// CHECK-NEXT: steady: exact
// CHECK-NEXT: hostile: hostile map done
// CHECK-NEXT: warning x 1: tsrun: warning: associative array 'm' is full (1024 entries); further new keys are dropped
// CHECK-NOT: warning x {{[0-9]*[02-9]}}:

long work(long);
long poke(long, long);
__global long ticks;
__global long seen;
long m[long];

@@uft:*:a.out:work:entry { @work = count(); }
@@uft:*:a.out:poke:entry { m[__arg1] = __arg2; m[__arg2] = 1; }
@@interval:*:clock:2 { ticks++; seen = m[ticks]; m[ticks + 1000000] = ticks; }
