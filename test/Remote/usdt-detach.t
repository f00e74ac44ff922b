// Ending a remote session puts USDT semaphores back: exit() at the first
// USDT hit detaches, and from then on the program no longer sees the
// semaphore of demo:guarded set (the script probes it, so tsrun set it), so
// it skips that probe, which it computes only for a tracer; it still runs
// to its end. Under qemu-i386 and under gdbserver
// (exit() ends a whole session, so each gets its own). Under qemu the
// clauses run at breakpoints (TSCC_REMOTE_AGENT=0): in the guest, exit() is
// a request the program runs past until tsrun acts on it, as in a native
// process, so it would reach demo:guarded with the semaphore still set.
// REQUIRES: compiler, qemu-i386, gdbserver, m32
// RUN: %tscc %s -o %t.o
// RUN: %cc32 -I/usr/include/x86_64-linux-gnu %S/../Ptrace/Inputs/usdt.c -o %t32
// RUN: %cc64 %S/../Ptrace/Inputs/usdt.c -o %t64
// RUN: env TSCC_REMOTE_AGENT=0 %remote_session --stub 'qemu-i386 -g {port} %t32' --out %t.p32 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t32 > %t.t32
// RUN: %remote_session --stub 'gdbserver 127.0.0.1:{port} %t64' --out %t.p64 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t64 > %t.t64
// RUN: FileCheck %s --check-prefix=PROG < %t.p32
// RUN: FileCheck %s --check-prefix=PROG < %t.p64
// RUN: FileCheck %s < %t.t32
// RUN: FileCheck %s < %t.t64
// CHECK: first tick 0
// CHECK-NOT: guarded
// PROG-NOT: VAL guarded
// PROG: VAL tick 2 -3 -3000000003
// PROG-NOT: VAL guarded

@@usdt:*:a.out:demo:tick { printf("first tick %lld\n", __arg1); exit(); }
@@usdt:*:a.out:demo:guarded { printf("guarded %lld\n", __arg1); }
