// `--remote HOST:PORT=EXE` takes its symbols from EXE, so EXE must be the
// program the stub runs: another build would put breakpoints inside
// instructions and print garbage. tsrun compares the file with the
// process's memory before any breakpoint goes in, and refuses another
// build, naming both files; the program then runs on untouched.
// REQUIRES: compiler, qemu-i386, m32, gdbserver
// RUN: %tscc %s -o %t.o
// RUN: %cc32 %S/Inputs/loop.c -o %t.fp
// RUN: %cc32 -O2 -fomit-frame-pointer %S/Inputs/loop.c -o %t.o2
// RUN: %cc64 %S/Inputs/loop.c -o %t.64

// The right file: every call is seen.
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t.fp' --out %t.p0 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t.fp | FileCheck %s
// CHECK-COUNT-5: foo
// CHECK: calls 5

// Another build of the same source: the build-ids differ. The program the
// stub runs is named too (qemu-user maps it; tsrun finds it by build-id).
// RUN: %not %remote_session --stub 'qemu-i386 -g {port} %t.fp' --out %t.p1 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t.o2 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STALE
// STALE: tsrun: error: gdb-remote 127.0.0.1:{{[0-9]+}}: {{.*}}.tmp.o2 is not the program the stub runs ({{.*}}.tmp.fp): build-id [[THEIRS:[0-9a-f]+]] in the target, [[OURS:[0-9a-f]+]] in the file; give the program the stub runs after '='
// STALE-NOT: foo
// RUN: FileCheck %s --check-prefix=UNHARMED < %t.p1
// UNHARMED: done 15

// gdbserver names its program itself (qXfer:exec-file).
// RUN: %cc64 -O2 %S/Inputs/loop.c -o %t.64b
// RUN: %not %remote_session --stub 'gdbserver 127.0.0.1:{port} %t.64' \
// RUN:   --out %t.p2 -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t.64b 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GDBSERVER
// GDBSERVER: error: gdb-remote 127.0.0.1:{{[0-9]+}}: {{.*}}.tmp.64b is not the program the stub runs ({{.*}}.tmp.64): build-id

// A 64-bit file for an i386 stub.
// RUN: %not %remote_session --stub 'qemu-i386 -g {port} %t.fp' --out %t.p3 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t.64 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARCH
// ARCH: tsrun: error: gdb-remote 127.0.0.1:{{[0-9]+}}: the stub runs an i386 program ({{.*}}.tmp.fp), but {{.*}}.tmp.64 is a 64-bit x86-64 ELF file; give the program the stub runs after '='

// Without build-ids, the program headers tell two builds apart...
// RUN: %cc32 -Wl,--build-id=none %S/Inputs/loop.c -o %t.nb
// RUN: %cc32 -O2 -Wl,--build-id=none %S/Inputs/loop.c -o %t.nb2
// RUN: %not %remote_session --stub 'qemu-i386 -g {port} %t.nb' --out %t.p4 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t.nb2 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HEADERS
// HEADERS: tsrun: error: gdb-remote 127.0.0.1:{{[0-9]+}}: {{.*}}.tmp.nb2 is not the program the stub runs: its program headers differ from the target's; give the program the stub runs after '='

// ...and where only the code differs, the bytes at each probe site do.
// RUN: %python %S/Inputs/patch_function.py %t.nb %t.nb.patched foo
// RUN: %not %remote_session --stub 'qemu-i386 -g {port} %t.nb' --out %t.p5 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t.nb.patched 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SITE
// SITE: tsrun: error: gdb-remote 127.0.0.1:{{[0-9]+}}: {{.*}}.tmp.nb.patched is not the program the stub runs: the code of foo differs from the target's; give the program the stub runs after '='
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t.nb' --out %t.p6 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t.nb | FileCheck %s

long foo(long);
__global long calls;
@@uft:*:a.out:foo:entry { printf("foo %ld\n", __arg1); calls++; }
@@END { printf("calls %ld\n", calls); }
