// C++ exceptions thrown through functions with entry probes (only: an
// exit probe's hijacked return would stop the unwinder, the limit shared
// with uretprobes that docs/runtime.md states), from std::threads that
// come and go: 40 batches of four threads, each catching 200 exceptions
// thrown up to six frames deep. Every call is counted and the program
// runs as it does alone.
// RUN: g++ -O1 -pthread %S/Inputs/throw-threads.cc -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %t.exe > %t.alone
// RUN: %tsrun %t.o -- %t.exe > %t.out 2> %t.err
// RUN: grep -v probes: %t.out | diff %t.alone -
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// RUN: %if inprocess %{ %tsrun --detach %t.o -- %t.exe > %t.det 2> %t.det.err %}
// RUN: %if inprocess %{ grep -v probes: %t.det | diff %t.alone - %}
// RUN: %if inprocess %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t.det.err %}
// CHECK: calls [[C:111360]] caught 32000
// CHECK-NEXT: probes: calls [[C]]
// QUIET-NOT: {{warning|killed|drops|faults|error}}

long thrower(long);
__global long calls;
@@uft:*:a.out:thrower:entry { calls++; }
@@END { printf("probes: calls %ld\n", calls); }
