// Libraries are read from the tracer's side by the path the target names;
// under `qemu-i386 -L SYSROOT` (or a stub on another machine) that local
// file may be another build. tsrun compares it with the target's memory
// when the library is loaded, and does not probe or name a library that
// differs: a warning names it and the evidence.
// REQUIRES: compiler, qemu-i386, m32
// RUN: %tscc %s -o %t.o
// RUN: rm -rf %t.d %t.root && mkdir -p %t.d %t.root%t.d
// RUN: %cc32 -shared -fPIC %S/Inputs/libcheck.c -o %t.d/libcheck.so
// RUN: %cc32 -shared -fPIC -DOTHER %S/Inputs/libcheck.c -o %t.root%t.d/libcheck.so
// RUN: %cc32 %S/Inputs/libcheck-main.c -L%t.d -lcheck -Wl,-rpath,%t.d -o %t.prog

// The target maps the sysroot's build; tsrun has the other.
// RUN: %remote_session --stub 'qemu-i386 -L %t.root -g {port} %t.prog' \
// RUN:   --out %t.p1 -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t.prog \
// RUN:   > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=WARN < %t.err
// WARN: tsrun: warning: gdb-remote 127.0.0.1:{{[0-9]+}}: {{.*}}.d/libcheck.so is not the library the target maps at 0x{{[0-9a-f]+}} (build-id {{[0-9a-f]+}} in the target, {{[0-9a-f]+}} in the file); its functions are not probed and its addresses not named
// The end of the run says why the probe never fired, not that the
// library never loaded.
// WARN-NEXT: tsrun: warning: probe '@@uft:*:libcheck.so:lib_func:entry' never matched: libcheck.so was loaded but not probed (the file tsrun read is not the one the target maps)
// WARN-NOT: no module named
// RUN: FileCheck %s --check-prefix=NOHITS < %t.out
// NOHITS: lib_func calls 0
// RUN: FileCheck %s --check-prefix=PROG < %t.p1
// PROG: sum 9

// The same library on both sides is probed as usual.
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t.prog' --out %t.p2 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t.prog | FileCheck %s
// CHECK: lib_func calls 3

__global long n;
@@uft:*:libcheck.so:lib_func:entry { n++; }
@@END { printf("lib_func calls %ld\n", n); }
