// A traced program keeps writing 1 over its entry in the thread table and
// the 64 KiB after it (the rest of the table and the thread index, as much
// of it as the shard's head holds), while
// tsrun looks threads up for the interval clause it runs itself. tsrun used
// to spin in the index's rehash for good, deaf to SIGINT, and lose all its
// output; and the table was the session's, so the program traced beside it
// lost hits. Now the table is the program's own (its shard): tsrun ends
// with the programs, stays small, and counts the other one exactly.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/hostile-driver.py %tsrun %t.o %t.exe thread-index 30000 | FileCheck %s
// The 32-bit twin (both programs -m32), where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/hostile-driver.py %tsrun %t.o %t32 thread-index 30000 | FileCheck %s %}
// CHECK: tsrun status: 0
// CHECK-NEXT: tsrun memory: bounded
// CHECK-NEXT: steady: exact
// CHECK-NEXT: hostile: hostile thread-index done

long work(long);
long poke(long, long);
__global long ticks;

@@uft:*:a.out:work:entry { @work = count(); }
@@uft:*:a.out:poke:entry { @pokes = count(); }
@@interval:*:clock:5 { ticks++; }
