// Collection switches over the remote protocol with system call catching
// (gdbserver): records of calls made while collection was off are absent,
// toggle(10)'s exit (after SIGUSR1) and toggle(12)'s (entered while off) are
// not collected, and a system call entered while collection was off fires
// no exit probe when it returns after SIGUSR2. (That last check does not
// single out the remote backend's own no-half-calls rule: without it the
// exit does not show here either; test/Ptrace/collect-syscalls.t is the
// check that fails without the rule, for native targets.) The program is
// gdbserver's child: the driver tells it tsrun's pid through the FIFO.
// REQUIRES: gdbserver
// RUN: %cc64 %S/../Ptrace/Inputs/switcher.c -o %t64 -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %python %S/../Ptrace/Inputs/switch-driver.py --pid-to-fifo %t.fifo -- \
// RUN:   %remote_session --stub 'gdbserver 127.0.0.1:{port} %t64 %t.fifo fifo w1-3 t10 b w4-6 t12 u w7-9 b u' \
// RUN:   --out %t.prog -- %tsrun %t.o -o %t.txt --remote 127.0.0.1:{port0}=%t64 \
// RUN:   | FileCheck %s --check-prefix=EVENTS
// EVENTS: stderr: tsrun: collection stopped (SIGUSR1)
// EVENTS: stderr: tsrun: collection started (SIGUSR2)
// EVENTS: tsrun status: 0
// RUN: FileCheck %s --input-file %t.txt
// CHECK: work 1
// CHECK-NEXT: work 2
// CHECK-NEXT: work 3
// CHECK-NEXT: toggle 10
// CHECK-NEXT: work 7
// CHECK-NEXT: work 8
// CHECK-NEXT: work 9
// CHECK-NEXT: sigwait entry
// CHECK-NEXT: sigwait exit
// CHECK-NOT: {{.}}

long work(long);
long toggle(long);

@@uft:*:a.out:work:entry { printf("work %ld\n", __arg1); }
@@uft:*:a.out:toggle:entry { printf("toggle %ld\n", __arg1); }
@@uft:*:a.out:toggle:exit { printf("toggled %ld\n", __rv); }
@@syscall:*:rt_sigtimedwait:entry { printf("sigwait entry\n"); }
@@syscall:*:rt_sigtimedwait:exit { printf("sigwait exit\n"); }
