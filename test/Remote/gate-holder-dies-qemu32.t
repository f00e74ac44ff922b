// A guest thread that dies while it holds the agent's trap gate (its
// signal handler ends it right after tsrun resumed it from its trap, the
// moment qemu delivers a signal that arrived while it was stopped) does
// not keep the other threads out for ever: a waiter asks tgkill(pid,
// owner, 0) whether the owner still lives and takes the gate from a dead
// one (docs/runtime.md, "Threads at breakpoints under qemu-user"). The
// worker's hits all go through, and the program ends.
// REQUIRES: compiler, qemu-i386, m32
// RUN: %cc32 -O1 -fno-omit-frame-pointer %S/Inputs/gate-holder-dies.c -o %t32 -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 200' \
// RUN:   --out %t.prog -- %tsrun %t.o -v --remote 127.0.0.1:{port0}=%t32 \
// RUN:   > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=PROG %s < %t.prog
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// PROG: worker calls 200 rvsum 59700
// ERR: in-process jump, clause in tsrun (the clause uses a stack as a key)
// ERR-NOT: warning
// ERR: exited with status 0

long leaf(long);
@@uft:*:a.out:leaf:entry { @paths[stktrace()] = count(); }
