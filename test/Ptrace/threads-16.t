// 16 threads hammer two probed functions, one calling the other: every
// entry and every exit is seen exactly once, per thread too, thread-locals
// stay per thread, and the exit probes see the real return values.
// RUN: %cc64 -O1 %S/Inputs/hammer.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 16 2000 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/hammer.c -o %t.i386/%basename_t.tmp.exe -lpthread %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 16 2000 | FileCheck %s %}
// CHECK: calls [[N:[0-9]+]] per thread [[PER:[0-9]+]] rvsum [[SUM:[0-9]+]]
// CHECK: work=[[N]] leaf=[[N]] exits=[[N]] rvsum=[[SUM]] nesting-errors=0
// CHECK-COUNT-16: @per_thread[{{[0-9]+}}]: [[PER]]
// CHECK-NOT: @per_thread

long work(long);
long leaf(long);
__global long work_calls, leaf_calls, exits, rvsum, bad;
__thread long depth;

@@uft:*:a.out:work:entry { work_calls++; depth = 1; @per_thread[__tid] = count(); }
@@uft:*:a.out:leaf:entry { leaf_calls++; if (depth != 1) bad++; }
@@uft:*:a.out:work:exit { exits++; rvsum += __rv; depth = 0; }
@@END
{
  printf("work=%ld leaf=%ld exits=%ld rvsum=%ld nesting-errors=%ld\n",
         work_calls, leaf_calls, exits, rvsum, bad);
}
