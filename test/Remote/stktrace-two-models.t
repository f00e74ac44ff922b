// stktrace() frames look the same whichever way a process is traced: a
// 32-bit process under qemu-i386 and a native 64-bit one in one session,
// both symbolised as "function+0xOFF (module)", or "module+0xOFF" where no
// symbol covers the address; never a bare address inside a known module.
// REQUIRES: compiler, qemu-i386, m32
// RUN: %tscc %s -o %t.o
// RUN: %cc32 %S/../Ptrace/Inputs/recurse.c -o %t32
// RUN: %cc64 %S/../Ptrace/Inputs/recurse.c -o %t64
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 2' --out %t.p32 \
// RUN:   -- %tsrun %t.o -f json -o %t.json --remote 127.0.0.1:{port0}=%t32 \
// RUN:      -c '%t64 2'
// RUN: %python -c "import json,sys; [print(r['data_model'], f) for r in map(json.loads, open(sys.argv[1])) if r.get('type') == 'stack' for f in r.get('frames', [])]" %t.json > %t.frames
// RUN: FileCheck %s < %t.frames
// RUN: FileCheck %s --check-prefix=BARE < %t.frames
// CHECK-DAG: ILP32 rec+0x0 (stktrace-two-models.t.tmp32)
// CHECK-DAG: ILP32 main+0x{{[0-9a-f]+}} (stktrace-two-models.t.tmp32)
// CHECK-DAG: LP64 rec+0x0 (stktrace-two-models.t.tmp64)
// CHECK-DAG: LP64 main+0x{{[0-9a-f]+}} (stktrace-two-models.t.tmp64)
// CHECK-DAG: ILP32 {{.*}}libc.so.6{{.*}}
// CHECK-DAG: LP64 {{.*}}libc.so.6{{.*}}
// BARE-NOT: {{(ILP32|LP64) 0x[0-9a-f]+ \(}}

long rec(long);
@@uft:*:a.out:rec:entry when (__arg1 == 0) { stktrace(); }
