// A clause that touches nothing other threads share (no global, no
// associative array, no aggregation, no record) runs without the session
// lock. A thread of the program holds that lock, as a thread inside a long
// clause would, while the main thread calls work(): its clause, which only
// counts in a thread-local, fires for every call with nothing dropped (it
// used to wait for the lock, time out and drop every call). It counts in
// an aggregation too, which each thread keeps a part of: no lock either.
// The global clauses still take the lock, after the holder let go.
// tsreport --describe shows which clauses the compiler found thread-own.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsreport --describe %t.o | FileCheck %s --check-prefix=FLAGS
// RUN: %tsrun -v %t.o -c "%t.exe lock-hold 300" > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t32 %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -c "%t32 lock-hold 300" > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=STATS < %t32.err %}
// FLAGS: #0 line [[#@LINE+19]]:1 probes 0..0 flags uses-thread,thread-own-aggs{{$}}
// FLAGS: #1 line [[#@LINE+19]]:1 probes 1..1 flags thread-own-aggs{{$}}
// FLAGS: #2 line [[#@LINE+19]]:1 probes 2..2 flags -{{$}}
// FLAGS: #3 line [[#@LINE+19]]:1 probes 3..3 flags -{{$}}
// CHECK: lock-hold calls 300
// CHECK: @during: 300
// CHECK: @pokes:
// STATS-NOT: {{warning|session's state}}
// STATS: clause 0 (line [[#@LINE+11]]): fired 300, 0 faults, 0 drops
// STATS-NOT: {{warning|session's state}}

long work(long);
long poke(long, long);
__thread long calls;
__global long n;

// work(i) is called only while the lock is held; poke() before (to find
// the store) and after.

@@uft:*:a.out:work:entry { calls++; @during = count(); }
@@uft:*:a.out:poke:entry { @pokes = count(); }
@@uft:*:a.out:poke:entry { n++; }
@@uft:*:a.out:poke:entry { printf("poke %ld\n", __arg2); }
