// exit() in a clause ends the session after that clause: no clause runs
// after it, from 4 threads hammering the probe, whichever path the hits
// take; END still runs and the launched program is killed.
// RUN: %cc64 -O1 %S/Inputs/hammer.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 4 10000000 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/hammer.c -o %t.i386/%basename_t.tmp.exe -lpthread %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 4 10000000 | FileCheck %s %}
// CHECK-NOT: calls
// CHECK: leaf runs after exit: 0
// CHECK-NOT: calls

long leaf(long);
__global long n, after;

@@uft:*:a.out:leaf:entry
{
  if (n >= 1000) after++;
  if (++n == 1000) exit();
}
@@END { printf("leaf runs after exit: %ld\n", after); }
