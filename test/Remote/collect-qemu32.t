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

// Buffer modes are the same over the remote protocol: a circular buffer
// keeps the newest records, a single one the oldest.
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 /dev/null 0 w1-2000' \
// RUN:   -- %tsrun %t.o --ring --buffer-size 16K -o %t.circ \
// RUN:   --remote 127.0.0.1:{port0}=%t32 2> %t.circ.err
// RUN: %python %S/../Ptrace/Inputs/check-records.py circular 2000 < %t.circ \
// RUN:   | FileCheck %s --check-prefix=CIRC
// CIRC: circular: kept 256 of 2000: work(1745) .. work(2000)
// (TSCC_REMOTE_AGENT=0: in the guest, as in a native process, the records
// of clauses already running when the buffer filled are lost too.)
// RUN: env TSCC_REMOTE_AGENT=0 %remote_session \
// RUN:   --stub 'qemu-i386 -g {port} %t32 /dev/null 0 w1-2000' \
// RUN:   -- %tsrun %t.o --buffer-mode single --buffer-size 16K -o %t.single \
// RUN:   --remote 127.0.0.1:{port0}=%t32 2> %t.single.err
// RUN: %python %S/../Ptrace/Inputs/check-records.py single 2000 < %t.single \
// RUN:   | FileCheck %s --check-prefix=SINGLE
// SINGLE: single: kept 256 of 2000: work(1) .. work(256)
// Clauses of remote targets run in tsrun, one at a time: collection stops
// right at the first record that does not fit.
// RUN: FileCheck %s --check-prefix=SINGLE-ERR --input-file %t.single.err
// SINGLE-ERR: tsrun: collection stopped (single buffer full)
// SINGLE-ERR: tsrun: warning: single buffer full after 256 records (16384 bytes): collection was stopped; 1 later record was not recorded
