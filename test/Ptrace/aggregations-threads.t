// Aggregations, associative arrays (global and per thread) and a print()
// and clear() from a probe clause, updated by 8 threads at once: the
// reports match what the program did, exactly. (The clause that prints an
// aggregation runs in tsrun and sees everything written before it.)
// RUN: %cc64 -O1 %S/Inputs/hammer.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 8 1000 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/hammer.c -o %t.i386/%basename_t.tmp.exe -lpthread %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 8 1000 | FileCheck %s %}
// CHECK-DAG: calls 8000 per thread 1000 rvsum 11996000
// CHECK-DAG: @midway: 8
// CHECK: distinct 1000 mine-ok 8000
// CHECK: @calls: 8000
// CHECK: @dist:
// CHECK-NEXT: [0, 300) 2400 |
// CHECK-NEXT: [300, 600) 2400 |
// CHECK-NEXT: [600, 900) 2400 |
// CHECK-NEXT: [900, 1000) 800 |
// CHECK: @rv: count 8000, average 1498, total 11988000, min 0, max 2997
// CHECK: @total: 11996000
// CHECK-NOT: @midway
// CHECK-NOT: @half

long work(long);
long leaf(long);
int main(int, char **);
__global long seen[long];
__thread long mine[long];
__global long distinct, mineok;

@@uft:*:a.out:work:entry
{
  @calls = count();
  @dist = lhist(__arg1, 0, 1000, 300);
  if (seen[__arg1] == 0) distinct++;
  seen[__arg1] = seen[__arg1] + 1;
  mine[__arg1] = __arg1 + 1;
}
@@uft:*:a.out:leaf:entry { if (mine[__arg1] == __arg1 + 1) mineok++; }
@@uft:*:a.out:leaf:exit { @rv = stats(__rv); }
@@uft:*:a.out:work:exit
{
  @total = sum(__rv);
  @half = count();
}
@@uft:*:a.out:work:exit when (__rv == 1501) { @midway = count(); }
@@uft:*:a.out:main:exit { print(@midway); clear(@midway); }
@@END
{
  printf("distinct %ld mine-ok %ld\n", distinct, mineok);
  clear(@half);
}
