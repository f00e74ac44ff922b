// SIGUSR1 / SIGUSR2 stop and start collection for a 32-bit program behind
// qemu-i386's GDB stub too: records of the calls made while collection was
// off are absent, every other one is there, and no exit probe fires for half
// a call (test/Ptrace/collect-signals.t is the same for native targets).
// The program is qemu's child, not tsrun's: the driver tells it tsrun's pid
// through the FIFO, and releases it after each announcement.
// REQUIRES: compiler, qemu-i386, m32
// RUN: %cc32 %S/../Ptrace/Inputs/switcher.c -o %t32
// RUN: %tscc %s -o %t.o
// RUN: %python %S/../Ptrace/Inputs/switch-driver.py --pid-to-fifo %t.fifo -- \
// RUN:   %remote_session --stub 'qemu-i386 -g {port} %t32 %t.fifo fifo w1-10 t10 w11-20 t12 w21-30' \
// RUN:   --out %t.prog -- %tsrun %t.o -o %t.txt --remote 127.0.0.1:{port0}=%t32 \
// RUN:   | FileCheck %s
// CHECK: stderr: tsrun: collection stopped (SIGUSR1)
// CHECK: stderr: tsrun: collection started (SIGUSR2)
// CHECK: tsrun status: 0
// RUN: diff %S/../Ptrace/Inputs/switched.txt %t.txt

long work(long);
long toggle(long);

@@uft:*:a.out:work:entry { printf("work %ld\n", __arg1); }
@@uft:*:a.out:toggle:entry { printf("toggle %ld\n", __arg1); }
@@uft:*:a.out:toggle:exit { printf("toggled %ld\n", __rv); }
