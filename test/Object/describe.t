// tsreport --describe prints an object's tables by name and number, from a
// probe object or from a trace written with it.
// RUN: %tscc %s -o %t.o
// RUN: %tsreport --describe %t.o | FileCheck %s
// RUN: %tsrun %t.o 7 -f binary -o %t.bin
// RUN: %tsreport --describe %t.bin | FileCheck %s
// RUN: not %tsreport --describe %t.o -f json 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: tsreport: error: '--describe' prints to stdout; it takes no -f, -o or --to

// CHECK: abi: 1.6
// CHECK: source: {{.*}}describe.t (FNV-1a 0x{{[0-9a-f]+}})
// CHECK: flags: uses-exit
// CHECK: parameters: 1
// CHECK: clauses: 5
// CHECK: #1 line 37:1 probes 1..2 flags predicate
// CHECK: probes: 6
// CHECK: #0 clause 0 BEGIN pid * spec "@@BEGIN"
// CHECK: #1 clause 1 uft-entry pid * module exact "a.out" function glob "handle*" spec "@@uft:*:a.out:handle*:entry"
// CHECK: #2 clause 1 uft-offset pid $1 module exact "libc.so.6" function regex "^mall(oc|info)$" offset 4 spec "@@uft:$1:libc.so.6:/^mall(oc|info)$/+4"
// CHECK: #3 clause 2 syscall-exit pid * function exact "read" spec "@@syscall:*:read:exit"
// CHECK: #4 clause 3 usdt pid * module any "*" provider exact "python" name glob "func*" spec "@@usdt:*:*:python:func*"
// CHECK: #5 clause 4 interval pid * period 100 ms spec "@@interval:*:clock:100"
// CHECK: formats: 1
// CHECK: #0 clause 0 "param %ld\n" fields s64:8
// CHECK: maps: 1
// CHECK: bytes thread keys string:128+s64:8 (136 bytes) value s64:8
// CHECK: aggregations: 2
// CHECK: @calls count keys string:128
// CHECK: @sizes lhist keys - lhist [0, 100) step 10
// CHECK: within: 1
// CHECK: #0 "main"

__thread long bytes[String, long];

@@BEGIN { printf("param %ld\n", $1); exit(); }

@@uft:*:a.out:handle*:entry, @@uft:$1:libc.so.6:/^mall(oc|info)$/+4
when (within("main"))
{
  @calls[__pname] = count();
}

@@syscall:*:read:exit { bytes[__pname, __tid] += __rv; @sizes = lhist(__rv, 0, 100, 10); }

@@usdt:*:*:python:func* { }

@@interval:*:clock:100 { }
