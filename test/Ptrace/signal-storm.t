// A signal storm: an interval timer at 10 kHz whose SA_RESTART handler
// calls a probed function, while two threads call a function with entry
// and exit probes 50000 times each. Every hit is counted: a handler that
// interrupted its thread inside a clause skips its clause and counts it
// as a drop, as docs/runtime.md says (*Clauses never run concurrently*),
// so the handler's clause fired as often as the program counted ticks,
// and what it counted plus its drops is that too. The threads' clauses
// drop nothing, and the program runs as it does alone.
// RUN: %cc64 -O1 -pthread %S/Inputs/signal-storm.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v %t.o -- %t.exe 50000 > %t.out 2> %t.err
// RUN: %python %S/Inputs/signal-storm-check.py %t.out %t.err
// RUN: %if inprocess %{ %tsrun -v --detach %t.o -- %t.exe 50000 > %t.det 2> %t.det.err %}
// RUN: %if inprocess %{ %python %S/Inputs/signal-storm-check.py %t.det %t.det.err %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/signal-storm.c -o %t32 %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t32 50000 > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ %python %S/Inputs/signal-storm-check.py %t32.out %t32.err %}

long tick(long);
long work(long);
__global long ticks, works;
@@uft:*:a.out:tick:entry { ticks++; }
@@uft:*:a.out:work:entry { works++; }
@@uft:*:a.out:work:exit { works++; }
@@END { printf("probes: works %ld ticks %ld\n", works, ticks); }
