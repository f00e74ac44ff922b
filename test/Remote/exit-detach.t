// exit() in the first firing ends the session: tsrun removes every
// breakpoint (the entry probe, the exit probe's return breakpoint) and
// detaches, and the program runs to its normal end: all five calls happen,
// its output is its own. One session under qemu-i386, one under gdbserver
// (exit() ends a whole session, so each gets its own).
// REQUIRES: compiler, qemu-i386, gdbserver, m32
// RUN: %tscc %s -o %t.o
// RUN: %cc32 %S/Inputs/loop.c -o %t32
// RUN: %cc64 %S/Inputs/loop.c -o %t64
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32' --out %t.p32 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t32 > %t.t32 2> %t.e32
// RUN: %remote_session --stub 'gdbserver 127.0.0.1:{port} %t64' --out %t.p64 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t64 > %t.t64 2> %t.e64
// RUN: FileCheck %s --check-prefix=PROG < %t.p32
// RUN: FileCheck %s --check-prefix=PROG < %t.p64
// RUN: FileCheck %s --check-prefixes=CHECK,ILP32 < %t.t32
// RUN: FileCheck %s --check-prefixes=CHECK,LP64 < %t.t64

long foo(long);

@@uft:*:a.out:foo:exit
{
  printf("returned %ld in %d-bit\n", __rv, __datamodel);
}

@@uft:*:a.out:foo:entry
when (__arg1 == 1)
{
  exit();
}

// Entry of foo(0) plants the return breakpoint; its return fires; the
// entry of foo(1) ends the session before foo(1) returns.
// ILP32: returned 1 in 32-bit
// LP64: returned 1 in 64-bit
// CHECK-NOT: returned
// PROG: done 15
