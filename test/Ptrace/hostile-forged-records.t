// A traced program appends records to its own ring that name other traced
// processes, and "no process" (target 0), as theirs: printf records, and
// stack snapshots whose frame pointer points at a secret in the memory of
// another traced process. tsrun used to believe the record: it printed the
// forged lines as the other process's, and unwound the snapshot against
// the other process's live memory, printing its secret as a frame. Now a
// record is the process's whose shard it was read from, and a snapshot is
// unwound against that process alone.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/forge-driver.py %tsrun %t.o %t.exe | FileCheck %s
// The 32-bit twin (both programs -m32), where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/forge-driver.py %tsrun %t.o %t32 | FileCheck %s %}
// CHECK: tsrun status: 0
// CHECK-NEXT: secret: not leaked
// CHECK-NEXT: forged records: 5, all attributed to the forger

long work(long);
long poke(long, long);

@@uft:*:a.out:work:entry { @work = count(); }
@@uft:*:a.out:poke:entry { printf("poke %ld\n", __arg2); stktrace(); }
