// Two threads of a 32-bit program under qemu-i386 reach a site whose
// clause tsrun runs (a stack as a key) at the same moment. qemu-user 7.2's
// stub cannot serve two stopped threads at once (docs/runtime.md, "Threads
// at breakpoints under qemu-user"): with a breakpoint at the site, the
// conversation was lost, the target dropped and, in about one run in
// twelve, the program killed by SIGSEGV (a register write landing in the
// other thread). Now the site jumps into the agent, which traps to tsrun
// through a futex gate in guest memory, one thread at a time: every hit is
// counted, nothing is dropped, and the program runs to its end.
// REQUIRES: compiler, qemu-i386, m32
// RUN: %cc32 -O1 -fno-omit-frame-pointer %S/../Ptrace/Inputs/hammer.c -o %t32 -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 2 3000' \
// RUN:   --out %t.prog -- %tsrun %t.o -v --remote 127.0.0.1:{port0}=%t32 \
// RUN:   > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=PROG %s < %t.prog
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// PROG: calls 6000 per thread 3000 rvsum 26997000
// ERR: probe @@uft:*:a.out:leaf:entry at leaf in {{.*}}, in-process jump, clause in tsrun (the clause uses a stack as a key)
// ERR-NOT: warning
// ERR: clause 0 (line {{[0-9]+}}): fired 6000, 0 faults, 0 drops
// ERR-NOT: SIGTRAP
// ERR-NOT: killed
// OUT: leaf
// OUT: work
// OUT: 6000

long leaf(long);
@@uft:*:a.out:leaf:entry { @paths[stktrace()] = count(); }
