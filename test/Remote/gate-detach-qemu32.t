// tsrun lets a qemu-i386 guest go (exit() in a clause) while two threads
// hammer a site whose clause tsrun runs at the agent's gated trap: before
// it detaches it tells the gate that nobody serves traps any more and lets
// a thread already holding the gate through its trap, so that no thread
// traps with no debugger attached (qemu would kill the program with
// SIGTRAP). The program runs on untraced to its own end and prints its
// count (docs/runtime.md, "Threads at breakpoints under qemu-user").
// (Under load, about one run in five on this machine still says "some
// breakpoints could not be removed": the stopped thread's system calls
// through the stub failed to restore the site; the program is unharmed,
// the jump left behind leads into a disarmed agent.)
// REQUIRES: compiler, qemu-i386, m32
// RUN: %cc32 -O1 -fno-omit-frame-pointer %S/../Ptrace/Inputs/hammer.c -o %t32 -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 2 1000' \
// RUN:   --out %t.prog -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t32 \
// RUN:   > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=PROG %s < %t.prog
// RUN: FileCheck --check-prefix=ERR --allow-empty %s < %t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// PROG: calls 2000 per thread 1000 rvsum 2999000
// ERR-NOT: dropped
// ERR-NOT: SIGTRAP
// OUT: leaf+0x0
// OUT: ]: {{[0-9]+}}

long leaf(long);
@@uft:*:a.out:leaf:entry {
  @paths[stktrace()] = count();
  if (__arg1 == 300)
    exit();
}
