// A traced program of another user (nobody) writes 0xa5 over every byte of
// the session's memory it has (the store: header, lock, sequence number,
// variables, maps, aggregations; its shard: threads, rings) while a program
// of tsrun's user is traced beside it. They are in different trust
// domains, so the scribbler never had the other's memory: it never sees the
// value the other one's clause put into a global variable, and the other
// one is counted exactly. tsrun ends normally and stays small.
// Before trust domains, every traced process mapped one store: the
// scribbler saw the value and wrecked everybody's state.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: chmod 755 %t.exe %T
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/other-user-driver.py %tsrun %t.o %t.exe 20000 200000 | FileCheck %s
// The 32-bit twin (both programs -m32), where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t32 %}
// RUN: %if native-i386 %{ chmod 755 %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/other-user-driver.py %tsrun %t.o %t32 20000 200000 | FileCheck %s %}
// CHECK: tsrun status: 0
// CHECK-NEXT: tsrun memory: bounded
// CHECK-NEXT: steady: exact
// CHECK-NEXT: hostile: hostile scribble done, the other user's variable not seen

long work(long);
long poke(long, long);
__global long mark;

@@uft:*:a.out:work:entry { @work[__pid] = count(); mark = 0x5345435245543031; }
@@uft:*:a.out:poke:entry { @pokes = count(); }
