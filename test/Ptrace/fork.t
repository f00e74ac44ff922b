// Forked children inherit the probes and are traced with them.
// RUN: %cc64 %S/Inputs/forkexec.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe fork 3 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/forkexec.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe fork 3 | FileCheck %s %}
// CHECK: expected=[[N:[0-9]+]]
// CHECK: calls=[[N]] processes=4

long work(long);
__global long calls;
__global long last;
__global long processes;

@@uft:*:a.out:work:entry
{
  calls++;
  if (__pid != last) { processes++; last = __pid; }
}
@@END { printf("calls=%ld processes=%ld\n", calls, processes); }
