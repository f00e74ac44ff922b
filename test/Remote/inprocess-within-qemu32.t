// within() in a qemu-i386 guest: the agent counts the activations of the
// within() function in the guest (its entry jumps to the agent, which
// hijacks the return), and a clause run by tsrun (one that keys by a
// stack, at the agent's trap) reads the same depth; its live unwind gives the
// hijacked returns back from the agent's shadow stack. Exact counts
// against the program's own (docs/runtime.md, "Clauses inside a qemu-i386
// guest").
// REQUIRES: compiler, qemu-i386, m32
// RUN: %cc32 %S/Inputs/within-loop.c -o %t32
// RUN: %tscc %S/Inputs/inprocess-within.t -o %t.o
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 300' --out %t.prog \
// RUN:   -- %tsrun %t.o -v --remote 127.0.0.1:{port0}=%t32 \
// RUN:   > %t.out 2> %t.err
// RUN: grep '^inner' %t.prog > %t.want
// RUN: grep '^leaf' %t.prog | sed 's/ sum.*//' >> %t.want
// RUN: grep -E '^(inner|leaf) ' %t.out | diff %t.want -
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=VERBOSE < %t.err
// RUN: FileCheck %s --check-prefix=PROG < %t.prog
// Four stacks, one per depth of outer(), 25 hits each: leaf() from
// outer(0), from outer(1)...outer(3), from main; 1+2+3+4 outer() frames,
// every one's return hijacked by the agent.
// RUN: grep -c ']: 25$' %t.out | grep -x 4
// RUN: grep -c '^ *outer+0x[0-9a-f]* (' %t.out | grep -x 10
// RUN: grep -c '^ *main+0x[0-9a-f]* (' %t.out | grep -x 4
// CHECK:      {{^ +}}leaf+0x0 (
// CHECK-NEXT: {{^ +}}outer+0x{{[0-9a-f]+}} (
// PROG: inner inside=250 outside=300
// PROG: leaf inside=100 outside=60
// VERBOSE: clauses run in the guest (in-process agent, put in through the stub)
// VERBOSE: probe @@uft:*:a.out:inner:entry at inner in {{.*}}, in-process jump{{$}}
// VERBOSE: probe @@uft:*:a.out:leaf:entry at leaf in {{.*}}, in-process jump, clause in tsrun (the clause uses a stack as a key){{$}}
// VERBOSE: within("outer") at outer in {{.*}} (0x{{[0-9a-f]+}}), in-process jump{{$}}

// JSON says the same per site (`mechanism`), and with the agent off, each
// site's breakpoint gives the target's reason.
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 30' --out %t.prog2 \
// RUN:   -- %tsrun %t.o -f json --remote 127.0.0.1:{port0}=%t32 > %t.json
// RUN: env TSCC_REMOTE_AGENT=0 %remote_session \
// RUN:   --stub 'qemu-i386 -g {port} %t32 30' --out %t.prog3 \
// RUN:   -- %tsrun %t.o -f json --remote 127.0.0.1:{port0}=%t32 >> %t.json
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "function":"inner","mechanism":"in-process jump"
// JSON: "function":"leaf","mechanism":"in-process jump, clause in tsrun (the clause uses a stack as a key)"
// JSON: within(\"outer\") at outer in {{.*}}, in-process jump"
// JSON: "inner inside=25 outside=30
// JSON: "function":"inner","mechanism":"breakpoint (TSCC_REMOTE_AGENT=0)"
// JSON: "function":"leaf","mechanism":"breakpoint (TSCC_REMOTE_AGENT=0)"
// JSON: within(\"outer\") at outer in {{.*}}, breakpoint (TSCC_REMOTE_AGENT=0)"
// JSON: "inner inside=25 outside=30

// A within() function's entry clause is within it (its hook comes first
// at the site, as in a native process), and when the session ends inside
// it, the return the agent hijacked for within() is put back: the program
// returns into main as the file has it.
// RUN: %cc32 %S/Inputs/returns.c -o %t.ret
// RUN: %tscc %S/Inputs/inprocess-within-teardown.t -o %t.td.o
// RUN: rm -f %t.go && mkfifo %t.go
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t.ret %t.go' \
// RUN:   --out %t.prog4 -- sh -c '%tsrun %t.td.o -v --remote \
// RUN:     127.0.0.1:{port0}=%t.ret 2> %t.err4; echo status $?; \
// RUN:     echo go > %t.go' > %t.out4
// RUN: FileCheck %s --check-prefix=TEARDOWN < %t.out4
// RUN: FileCheck %s --check-prefix=TEARDOWN-PROG < %t.prog4
// RUN: FileCheck %s --check-prefix=TEARDOWN-VERBOSE < %t.err4
// TEARDOWN: outer within 1
// TEARDOWN-NEXT: status 0
// TEARDOWN-PROG: return to main
// TEARDOWN-PROG-NEXT: outer 7
// TEARDOWN-VERBOSE: probe @@uft:*:a.out:outer:entry at outer in {{.*}}, in-process jump{{$}}
