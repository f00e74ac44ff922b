// A clause dereferences NULL, a tiny address, a kernel address and an
// unmapped one, from 4 threads at once: each bad read yields 0 and counts
// one fault for the clause, the good reads see the real values, and the
// program's own output is what it prints untraced.
// RUN: %cc64 %S/Inputs/badptr.c -o %t.exe -lpthread
// RUN: %t.exe 4 500 > %t.untraced
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v %t.o -- %t.exe 4 500 > %t.traced 2> %t.err
// RUN: diff %t.untraced <(head -n 1 %t.traced)
// RUN: FileCheck %s < %t.traced
// RUN: FileCheck %s --check-prefix=STATS < %t.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/badptr.c -o %t.i386/%basename_t.tmp.exe -lpthread %}
// RUN: %if native-i386 %{ %t.i386/%basename_t.tmp.exe 4 500 > %t.i386/%basename_t.tmp.untraced %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t.i386/%basename_t.tmp.exe 4 500 > %t.i386/%basename_t.tmp.traced 2> %t.i386/%basename_t.tmp.err %}
// RUN: %if native-i386 %{ diff %t.i386/%basename_t.tmp.untraced <(head -n 1 %t.i386/%basename_t.tmp.traced) %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/%basename_t.tmp.traced %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=STATS < %t.i386/%basename_t.tmp.err %}
// CHECK: checksum {{[0-9]+}} calls 10000 bad 8000
// CHECK: good 2000 zero 8000 other 0
// STATS: clause 0 (line [[#]]): fired 10000, 8000 faults, 0 drops

struct item { long id; long value; };
long look(struct item *p, long kind);
__global long good, zero, other;

@@uft:*:a.out:look:entry
{
  long v = __arg1->value;
  if (__arg2 == 0 && v == 35) good++;
  else if (__arg2 != 0 && v == 0) zero++;
  else other++;
}
@@END { printf("good %ld zero %ld other %ld\n", good, zero, other); }
