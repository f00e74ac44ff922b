// Clauses inside a qemu-i386 guest: tsrun puts the i386 agent and the
// object's i386 code into the program through qemu's GDB stub, and entry
// probes jump to it, so a hit runs its clause as emulated guest code
// (docs/runtime.md, "Clauses inside a qemu-i386 guest"). Checked against
// the programs' own printouts: exact counts, printf records, exit probes
// and recursion, the code and return addresses given back when the
// session ends first. TSCC_REMOTE_AGENT=0 keeps every clause in tsrun.
// REQUIRES: compiler, qemu-i386, m32
// RUN: %cc32 %S/Inputs/counted.c -o %t32
// RUN: %tscc %s -o %t.o

// Entry counting and printf records, 2000 calls.
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 2000' --out %t.prog \
// RUN:   -- %tsrun %t.o -v --remote 127.0.0.1:{port0}=%t32 \
// RUN:   > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=PROG < %t.prog
// RUN: FileCheck %s --check-prefix=VERBOSE < %t.err
// CHECK: foo 0
// CHECK-NEXT: foo 1
// CHECK-NEXT: foo 2
// CHECK-NEXT: foo 3
// CHECK-NEXT: foo 4
// CHECK-NEXT: calls 2000 last 1999
// PROG: foo 0
// PROG: foo 4
// PROG-NEXT: calls 2000 sum 4000000
// VERBOSE: clauses run in the guest (in-process agent, put in through the stub)
// VERBOSE: probe @@uft:*:a.out:foo:entry at foo in {{.*}}, in-process jump{{$}}
// VERBOSE: clause 0 (line {{[0-9]+}}): fired 2000, 0 faults, 0 drops

// The same without the agent: every hit is a breakpoint, same output.
// RUN: env TSCC_REMOTE_AGENT=0 %remote_session \
// RUN:   --stub 'qemu-i386 -g {port} %t32 20' --out %t.prog0 \
// RUN:   -- %tsrun %t.o -v --remote 127.0.0.1:{port0}=%t32 \
// RUN:   > %t.out0 2> %t.err0
// RUN: FileCheck %s --check-prefix=OFF < %t.out0
// RUN: FileCheck %s --check-prefix=OFF-VERBOSE < %t.err0
// OFF: foo 4
// OFF-NEXT: calls 20 last 19
// OFF-VERBOSE: clauses run in tsrun at breakpoints: TSCC_REMOTE_AGENT=0
// OFF-VERBOSE: probe @@uft:*:a.out:foo:entry at foo in {{.*}} (0x{{[0-9a-f]+}}), breakpoint (TSCC_REMOTE_AGENT=0){{$}}

// Exit probes run in the guest too: the agent hijacks the return address,
// as in a native process; the entry probe of the same function shares the
// jump.
// RUN: %tscc %S/Inputs/inprocess-exit.t -o %t.exit.o
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 3' --out %t.prog2 \
// RUN:   -- %tsrun %t.exit.o -v --remote 127.0.0.1:{port0}=%t32 \
// RUN:   > %t.out2 2> %t.err2
// RUN: FileCheck %s --check-prefix=EXIT < %t.out2
// RUN: FileCheck %s --check-prefix=EXIT-VERBOSE < %t.err2
// EXIT: in 0
// EXIT-NEXT: out 1
// EXIT-NEXT: in 1
// EXIT-NEXT: out 3
// EXIT-NEXT: in 2
// EXIT-NEXT: out 5
// EXIT-VERBOSE: foo:entry at foo in {{.*}}, in-process jump{{$}}
// EXIT-VERBOSE: foo:exit at foo in {{.*}}, in-process jump{{$}}
// EXIT-VERBOSE: clause 1 (line {{[0-9]+}}): fired 3, 0 faults, 0 drops

// A clause that keys by a stack keeps its breakpoint (tsrun unwinds the
// stopped thread), and -v says why; so does the exit probe of the same
// function (one site, one mechanism: a jump cannot cover a breakpoint).
// RUN: %tscc %S/Inputs/inprocess-stack.t -o %t.stack.o
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 4' --out %t.prog7 \
// RUN:   -- %tsrun %t.stack.o -v --remote 127.0.0.1:{port0}=%t32 \
// RUN:   > %t.out7 2> %t.err7
// RUN: FileCheck %s --check-prefix=STACK < %t.out7
// RUN: FileCheck %s --check-prefix=STACK-VERBOSE < %t.err7
// STACK: foo+0x0
// STACK-NEXT: main+
// STACK: ]: 4
// STACK: @out: 4
// STACK-VERBOSE: foo:entry at foo in {{.*}}, breakpoint (the clause uses a stack as a key)
// STACK-VERBOSE: foo:exit at foo in {{.*}}, breakpoint (the clause uses a stack as a key)

// stktrace() at an entry runs in the guest: the agent snapshots the
// registers, the top of the stack and its shadow stack (the returns it
// hijacked), and tsrun unwinds that: rec(3) -> rec(2) -> rec(1) -> rec(0)
// from main, the returns the agent hijacked shown as the real ones. At an
// exit probe too: rec(1) returns to rec(2), rec(3), main (the frame being
// returned from, still on the shadow stack while the clause runs, is not
// taken for a caller's).
// RUN: %cc32 %S/../Ptrace/Inputs/recurse.c -o %t.rec
// RUN: %tscc %S/Inputs/inprocess-stktrace.t -o %t.stk.o
// RUN: %tscc %S/Inputs/inprocess-stktrace-exit.t -o %t.stkx.o
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t.rec 3' --out %t.prog8 \
// RUN:   -- %tsrun %t.stk.o -v --remote 127.0.0.1:{port0}=%t.rec \
// RUN:   > %t.out8 2> %t.err8
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t.rec 3' --out %t.prog9 \
// RUN:   -- %tsrun %t.stkx.o -v --remote 127.0.0.1:{port0}=%t.rec \
// RUN:   >> %t.out8 2>> %t.err8
// RUN: FileCheck %s --check-prefix=STKTRACE < %t.out8
// RUN: FileCheck %s --check-prefix=STKTRACE-VERBOSE < %t.err8
// STKTRACE: innermost
// STKTRACE-NEXT: {{^ +}}rec+0x0 (
// STKTRACE-NEXT: {{^ +}}rec+0x{{[0-9a-f]+}} (
// STKTRACE-NEXT: {{^ +}}rec+0x{{[0-9a-f]+}} (
// STKTRACE-NEXT: {{^ +}}rec+0x{{[0-9a-f]+}} (
// STKTRACE-NEXT: {{^ +}}main+0x{{[0-9a-f]+}} (
// STKTRACE: second returns
// STKTRACE-NEXT: {{^ +}}rec+0x{{[0-9a-f]+}} (
// STKTRACE-NEXT: {{^ +}}rec+0x{{[0-9a-f]+}} (
// STKTRACE-NEXT: {{^ +}}main+0x{{[0-9a-f]+}} (
// STKTRACE-VERBOSE: rec:entry at rec in {{.*}}, in-process jump{{$}}
// STKTRACE-VERBOSE: rec:exit at rec in {{.*}}, in-process jump{{$}}

// Recursion pairs up (depth(5) returns 0..5, innermost first), and when
// the session ends while outer() is inside (exit() in its entry clause),
// the return address the agent hijacked is put back: the program returns
// into main as the file has it.
// RUN: %cc32 %S/Inputs/returns.c -o %t.ret
// RUN: %tscc %S/Inputs/inprocess-returns.t -o %t.ret.o
// RUN: rm -f %t.rgo && mkfifo %t.rgo
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t.ret %t.rgo' \
// RUN:   --out %t.prog5 -- sh -c '%tsrun %t.ret.o --remote \
// RUN:     127.0.0.1:{port0}=%t.ret; echo status $?; echo go > %t.rgo' > %t.out5
// RUN: FileCheck %s --check-prefix=RETURNS < %t.out5
// RUN: FileCheck %s --check-prefix=RETURNS-PROG < %t.prog5
// RETURNS: depth returned 0
// RETURNS-NEXT: depth returned 1
// RETURNS-NEXT: depth returned 2
// RETURNS-NEXT: depth returned 3
// RETURNS-NEXT: depth returned 4
// RETURNS-NEXT: depth returned 5
// RETURNS-NEXT: outer
// RETURNS-NEXT: status 0
// RETURNS-PROG: depth 5
// RETURNS-PROG-NEXT: return to main
// RETURNS-PROG-NEXT: outer 7

// USDT probes run in the guest: the agent evaluates the i386 notes'
// arguments (`-4@8(%ebp)`, `8@%eax` = edx:eax, `glob@GOTOFF(%ebx)`, ...)
// and tsrun sets the semaphore; every value is what the program printed.
// RUN: %tscc %S/../Ptrace/usdt.t -o %t.usdt.o
// RUN: %cc32 -O2 -I/usr/include/x86_64-linux-gnu %S/../Ptrace/Inputs/usdt.c -o %t.usdt
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t.usdt' --out %t.prog6 \
// RUN:   -- %tsrun %t.usdt.o -v -o %t.usdt.trace \
// RUN:      --remote 127.0.0.1:{port0}=%t.usdt 2> %t.err6
// RUN: grep '^VAL' %t.prog6 | diff - %t.usdt.trace
// RUN: FileCheck %s --check-prefix=USDT < %t.err6
// USDT: probe @@usdt:*:a.out:demo:tick at tick in {{.*}}, in-process jump{{$}}
// USDT: probe @@usdt:*:a.out:demo:mem at mem in {{.*}}, in-process jump{{$}}
// USDT: probe @@usdt:*:a.out:demo:wide at wide in {{.*}}, in-process jump{{$}}
// USDT: probe @@usdt:*:a.out:demo:guarded at guarded in {{.*}}, in-process jump{{$}}
// USDT: clause 3 (line {{[0-9]+}}): fired 3, 0 faults, 0 drops

// The session ends first (exit() in a clause run in the guest): the
// program goes on with its code as the file has it, not a jump.
// RUN: %cc32 %S/Inputs/teardown.c -o %t.td
// RUN: %tscc %S/Inputs/inprocess-teardown.t -o %t.td.o
// RUN: rm -f %t.go && mkfifo %t.go
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t.td %t.go' --out %t.prog3 \
// RUN:   -- sh -c '%tsrun %t.td.o --remote 127.0.0.1:{port0}=%t.td; \
// RUN:             echo status $?; echo go > %t.go' > %t.out3
// RUN: FileCheck %s --check-prefix=TEARDOWN < %t.out3
// RUN: %python %S/Inputs/function_bytes.py %t.td foo 8 > %t.code
// RUN: grep -o 'code.*' %t.prog3 | diff %t.code -
// RUN: FileCheck %s --check-prefix=TEARDOWN-PROG < %t.prog3
// TEARDOWN: foo 0
// TEARDOWN-NEXT: foo 1
// TEARDOWN-NEXT: foo 2
// TEARDOWN-NEXT: status 0
// TEARDOWN-PROG: sum 36 code

// tsrun is killed (SIGKILL) while the program runs: at its next hit the
// agent in the guest sees tsrun gone and puts the code back itself (and
// never through /proc/self/mem, which under qemu is the emulator's).
// RUN: rm -f %t.go %t.ready && mkfifo %t.go %t.ready
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t.td %t.go %t.ready' \
// RUN:   --out %t.prog4 -- sh -c '%tsrun %t.o --remote 127.0.0.1:{port0}=%t.td \
// RUN:     > /dev/null 2>&1 & T=$!; read x < %t.ready; kill -9 $T; wait $T; \
// RUN:     echo go > %t.go; exit 0'
// RUN: grep -o 'code.*' %t.prog4 | diff %t.code -
// RUN: FileCheck %s --check-prefix=TEARDOWN-PROG < %t.prog4

long foo(long);
long long calls;
long long last;

@@uft:*:a.out:foo:entry {
  calls++;
  last = __arg1;
  if (__arg1 < 5)
    printf("foo %ld\n", __arg1);
}
@@END { printf("calls %lld last %lld\n", calls, last); }
