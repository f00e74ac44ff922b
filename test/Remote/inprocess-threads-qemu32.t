// 16 threads of a 32-bit program under qemu-i386, with its clauses run in
// the guest (docs/runtime.md, "Clauses inside a qemu-i386 guest"): every
// entry and exit is seen exactly once, per thread too, thread-locals stay
// per thread, and exit probes see the real return values, as the program's
// own printout says. Each new thread gets its state from the agent at its
// first hit, with no stop and no round trip over the protocol: the stub
// sends about as many stop replies for 16 threads as for one (the loader's
// and the injection's; their number varies by one or two between runs),
// fewer than one more per new thread. (A reply is counted wherever it
// sits in what one read returned: `rsp < +$T05...` when the ack and the
// reply came together.)
// REQUIRES: compiler, qemu-i386, m32
// RUN: %cc32 -O1 %S/../Ptrace/Inputs/hammer.c -o %t32 -lpthread
// RUN: %tscc %S/../Ptrace/threads-16.t -o %t.o
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 16 2000' \
// RUN:   --out %t.prog -- env TSCC_RSP_DEBUG=1 %tsrun %t.o -v \
// RUN:   --remote 127.0.0.1:{port0}=%t32 > %t.out 2> %t.err
// RUN: cat %t.prog %t.out | FileCheck %S/../Ptrace/threads-16.t
// RUN: FileCheck %s < %t.err
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 1 2000' \
// RUN:   --out %t.prog1 -- env TSCC_RSP_DEBUG=1 %tsrun %t.o \
// RUN:   --remote 127.0.0.1:{port0}=%t32 > %t.out1 2> %t.err1
// RUN: %python -c "import sys; n = [sum(l.count(chr(36) + 'T') for l in open(f) if l.startswith('rsp < ')) for f in sys.argv[1:]]; print(n); sys.exit(n[0] - n[1] >= 15)" %t.err %t.err1
// CHECK: clauses run in the guest (in-process agent, put in through the stub)
// CHECK-DAG: probe @@uft:*:a.out:work:entry at work in {{.*}}, in-process jump{{$}}
// CHECK-DAG: probe @@uft:*:a.out:leaf:entry at leaf in {{.*}}, in-process jump{{$}}
// CHECK-DAG: probe @@uft:*:a.out:work:exit at work in {{.*}}, in-process jump{{$}}
// CHECK: clause 0 (line {{[0-9]+}}): fired 32000, 0 faults, 0 drops
// CHECK: clause 1 (line {{[0-9]+}}): fired 32000, 0 faults, 0 drops
// CHECK: clause 2 (line {{[0-9]+}}): fired 32000, 0 faults, 0 drops
