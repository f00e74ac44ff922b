// print(@) in a clause that runs in the process: the aggregation printed
// is the one the clause saw (its thread waits until tsrun has printed it),
// and the site takes a jump. The same output in both tsrun modes.
// RUN: %cc64 -O1 %S/Inputs/print-rounds.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v %t.o -- %t.exe 3 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: grep -qx 'ticks 1060' %t.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.err %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/print-rounds.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t.i386/%basename_t.tmp.exe 3 > %t.i386/%basename_t.tmp.out 2> %t.i386/%basename_t.tmp.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/%basename_t.tmp.out %}
// RUN: %if native-i386 %{ grep -qx 'ticks 1060' %t.i386/%basename_t.tmp.out %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefix=SITES < %t.i386/%basename_t.tmp.err %}
// SITES: clauses run in the process (in-process agent)
// SITES: probe @@uft:*:a.out:report:entry at report in {{.*}}, in-process jump
// CHECK: @ticks: 10
// CHECK-EMPTY:
// CHECK-NEXT: @by[1]: 3
// CHECK-NEXT: @by[2]: 3
// CHECK-NEXT: @by[0]: 4
// CHECK-EMPTY:
// CHECK-NEXT: @ticks: 30
// CHECK-EMPTY:
// CHECK-NEXT: @by[2]: 9
// CHECK-NEXT: @by[1]: 10
// CHECK-NEXT: @by[0]: 11
// CHECK-EMPTY:
// CHECK-NEXT: @ticks: 60
// CHECK-EMPTY:
// CHECK-NEXT: @by[2]: 19
// CHECK-NEXT: @by[1]: 20
// CHECK-NEXT: @by[0]: 21
// CHECK: @ticks: 1060
long tick(long);
long report(long);

@@uft:*:a.out:tick:entry
{
  @ticks = count();
  @by[__arg1 % 3] = count();
}
@@uft:*:a.out:report:entry
{
  print(@ticks);
  print(@by);
}
