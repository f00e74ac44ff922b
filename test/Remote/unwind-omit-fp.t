// A 32-bit program built -O2 -fomit-frame-pointer under qemu-i386 unwinds
// with .eh_frame like a native one: its stack is exactly the program's own
// backtrace(), and the same as the 64-bit build's, traced natively in the
// same session. (Frame pointers alone lose the depth frames and main.)
// REQUIRES: compiler, qemu-i386, m32
// RUN: %tscc %s -o %t.o
// RUN: gcc -m32 -O2 -fomit-frame-pointer -rdynamic %S/../Ptrace/Inputs/backtrace.c -o %t32
// RUN: gcc -m64 -O2 -fomit-frame-pointer -rdynamic %S/../Ptrace/Inputs/backtrace.c -o %t64
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 4' --out %t.p32 \
// RUN:   -- %tsrun %t.o -f json -o %t.json --remote 127.0.0.1:{port0}=%t32 \
// RUN:      -c '%t64 4' > %t.p64
// RUN: %python %S/../Ptrace/Inputs/compare-backtrace.py %t.p32 %t.json ILP32 > %t.s32
// RUN: %python %S/../Ptrace/Inputs/compare-backtrace.py %t.p64 %t.json LP64 > %t.s64
// RUN: diff %t.s64 %t.s32
// RUN: FileCheck %s < %t.s32
// CHECK: leaf (exe)
// CHECK-COUNT-5: depth (exe)
// CHECK-NEXT: main (exe)
// CHECK: __libc_start_main (libc.so.6)
// CHECK-NEXT: _start (exe)

void leaf(int);
@@uft:*:a.out:leaf:entry { stktrace(); }
