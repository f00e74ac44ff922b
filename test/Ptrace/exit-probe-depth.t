// Exit probes at any depth: a recursion 3000 calls deep, twice, then one
// left by a longjmp from its innermost call (those calls never return, and
// their exits never fire), then one more. Every return fires its exit
// probe with the value it returned, as the program counts them itself.
// (The in-process agent kept 192 returns per thread, and missed the rest
// without a word.)
// RUN: %cc64 %S/Inputs/deep.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 3000 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/deep.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 3000 > %t.i386/out 2> %t.i386/err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t.i386/err %}
// CHECK: calls [[CALLS:[0-9]+]] returns [[RETURNS:[0-9]+]] rvsum [[SUM:[0-9]+]]
// CHECK: entries=[[CALLS]] exits=[[RETURNS]] rvsum=[[SUM]]
// QUIET-NOT: {{warning|drops|faults|error}}

long deep(long);
__global long entries, exits, rvsum;

@@uft:*:a.out:deep:entry { entries++; }
@@uft:*:a.out:deep:exit { exits++; rvsum += __rv; }
@@END { printf("entries=%ld exits=%ld rvsum=%ld\n", entries, exits, rvsum); }
