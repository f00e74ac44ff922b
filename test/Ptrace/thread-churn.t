// 5000 threads one after another, each on a stack of its own
// (pthread_attr_setstack: every one has another TCB and fs base), each
// calling a function with an entry and an exit probe twice. Every call is
// seen: a thread's state is given up when it ends. (The in-process agent
// kept every thread it had seen, and stopped tracing new ones after 4096.)
// RUN: %cc64 %S/Inputs/churn.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 5000 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// CHECK: threads 5000 calls [[N:[0-9]+]] rvsum [[SUM:[0-9]+]]
// CHECK: calls=[[N]] exits=[[N]] rvsum=[[SUM]] threads=5000
// QUIET-NOT: {{warning|drops|faults|error}}

long work(long);
__global long calls, exits, rvsum, threads;
__thread long seen;

@@uft:*:a.out:work:entry
{
  calls++;
  if (seen == 0) threads++;
  seen = 1;
}
@@uft:*:a.out:work:exit { exits++; rvsum += __rv; }
@@END { printf("calls=%ld exits=%ld rvsum=%ld threads=%ld\n", calls, exits, rvsum, threads); }
