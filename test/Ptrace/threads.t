// Entry and exit probes on a function called by 8 threads: every call is
// seen exactly once.
// RUN: %cc64 %S/Inputs/threads.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 8 250 | FileCheck %s
// The event loop that always sleeps, never polls (docs/runtime.md):
// RUN: %tsrun --spin 0 %t.o -- %t.exe 8 250 | FileCheck %s
// RUN: %tsrun --spin=1000000 %t.o -- %t.exe 8 250 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/threads.c -o %t.i386/%basename_t.tmp.exe -lpthread %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 8 250 | FileCheck %s %}
// RUN: %if native-i386 %{ %tsrun --spin 0 %t.o -- %t.i386/%basename_t.tmp.exe 8 250 | FileCheck %s %}
// RUN: %if native-i386 %{ %tsrun --spin=1000000 %t.o -- %t.i386/%basename_t.tmp.exe 8 250 | FileCheck %s %}
// CHECK: expected=[[N:[0-9]+]]
// CHECK: entries=[[N]] exits=[[N]] rvsum=[[#]]

long work(long);
__global long entries;
__global long exits;
__global long rvsum;

@@uft:*:a.out:work:entry { entries++; }
@@uft:*:a.out:work:exit { exits++; rvsum += __rv; }
@@END { printf("entries=%ld exits=%ld rvsum=%ld\n", entries, exits, rvsum); }
