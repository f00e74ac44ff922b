// The status of a process tsrun attached to (-p) and let go of
// (--detach) is its parent's to collect, not tsrun's: tsrun learns of its end
// through a pidfd. While its parent has not collected it yet (the driver
// waits for tsrun's line), tsrun reads its status from the ended process,
// an exit code and a death by a signal alike; attached (--no-detach)
// tsrun sees its end as its tracer. 64-bit, and 32-bit where the kernel
// runs i386.
// (Old: "exited with status -1" whenever the process was let go of.)
// REQUIRES: inprocess
// RUN: %cc64 %S/Inputs/exit-after-go.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: env ATTACH_RUN_TSRUN_ARGS=--detach ATTACH_RUN_WAIT_FOR=": detached: " ATTACH_RUN_REAP_AFTER=" exited with status " %python %S/Inputs/attach-run.py %tsrun %t.o %t.exe 1000 5 | FileCheck %s --check-prefixes=CHECK,FIVE
// RUN: env ATTACH_RUN_TSRUN_ARGS=--detach ATTACH_RUN_WAIT_FOR=": detached: " ATTACH_RUN_REAP_AFTER=" killed by " %python %S/Inputs/attach-run.py %tsrun %t.o %t.exe 1000 segv | FileCheck %s --check-prefixes=CHECK,SEGV
// RUN: env ATTACH_RUN_TSRUN_ARGS=--no-detach %python %S/Inputs/attach-run.py %tsrun %t.o %t.exe 1000 5 | FileCheck %s --check-prefixes=CHECK,ATTACHED
// RUN: %if native-i386 %{ %cc32 %S/Inputs/exit-after-go.c -o %t.32.exe %}
// RUN: %if native-i386 %{ env ATTACH_RUN_TSRUN_ARGS=--detach ATTACH_RUN_WAIT_FOR=": detached: " ATTACH_RUN_REAP_AFTER=" exited with status " %python %S/Inputs/attach-run.py %tsrun %t.o %t.32.exe 1000 5 | FileCheck %s --check-prefixes=CHECK,FIVE %}
// CHECK: calls 1000 sum 500500
// CHECK-NEXT: work 1000
// FIVE: tsrun: pid [[PID:[0-9]+]]: detached: every site runs in the process
// FIVE: tsrun: pid [[PID]] ({{.*}}) exited with status 5
// FIVE: prog status: 5
// SEGV: tsrun: pid [[PID:[0-9]+]]: detached: every site runs in the process
// SEGV: tsrun: pid [[PID]] ({{.*}}) killed by SIGSEGV
// SEGV: prog status: -11
// ATTACHED-NOT: : detached:
// ATTACHED: tsrun: pid {{[0-9]+}} ({{.*}}) exited with status 5
// ATTACHED: prog status: 5
// CHECK: tsrun status: 0

long work(long);
__global long n;

@@uft:*:a.out:work:entry { n++; }
@@END { printf("work %ld\n", n); }
