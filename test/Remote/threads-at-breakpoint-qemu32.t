// Two threads of a 32-bit program under qemu-i386 reach a breakpoint site
// (a clause keyed by a stack keeps its breakpoint) at the same moment.
// qemu-user 7.2's stub then serves both at once, and the conversation is
// lost (docs/runtime.md, "Threads at breakpoints under qemu-user"). tsrun
// used to close the connection with the breakpoints still in: the program
// died of SIGTRAP at the next hit, and the thread waiting in the stub got
// one at once. Now tsrun asks the stub to detach (breakpoints out) and
// lets go every thread still in it before it closes: the program runs to
// its end and prints its own count, and tsrun says what it dropped and
// why. (Where the two threads never meet at the site, every hit is traced
// and the target is not dropped: both outcomes are accepted, the
// program's survival is what is checked.) In about one run in twelve the
// program still dies, of SIGSEGV: before tsrun sees the second thread's
// stop, the stub may already have applied a register write meant for the
// first thread to the second (each thread that traps makes itself the
// stub's register thread), which nothing on this side can prevent; hence
// the retries. The old code failed every run.
// ALLOW_RETRIES: 2
// REQUIRES: compiler, qemu-i386, m32
// RUN: %cc32 -O1 -fno-omit-frame-pointer %S/../Ptrace/Inputs/hammer.c -o %t32 -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 2 3000' \
// RUN:   --out %t.prog -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t32 \
// RUN:   > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=PROG %s < %t.prog
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// PROG: calls 6000 per thread 3000 rvsum 26997000
// ERR-NOT: SIGTRAP
// ERR-NOT: killed

long leaf(long);
@@uft:*:a.out:leaf:entry { @paths[stktrace()] = count(); }
