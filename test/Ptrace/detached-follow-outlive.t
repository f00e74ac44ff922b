// A child forked while its parent is detached (--detach) is a process of
// the session (-v says so) that tsrun follows without ptrace: when its
// parent exits first, the session goes on until the child ends, and the
// hits it makes after its parent's end (once tsrun has said it follows
// it: the driver's handshake) are counted (the shard it counts
// in is handed over to it). At the end of a session (exit() here) a
// followed child still running is attached again and, launched, killed
// like its parent. Both in 32-bit processes too.
// (Old: the session ended with the parent: "calls 2000", child's hits lost;
// and the lingering child was left running.)
// REQUIRES: inprocess
// RUN: %cc64 %S/Inputs/follow-forks.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/follow-driver.py %t.fifo %tsrun -v --detach %t.o -- %t.exe outlive 1000 %t.fifo > %t.out
// RUN: FileCheck %s --check-prefixes=CHECK,FOLLOWED < %t.out
// RUN: rm -f %t.pid && %tsrun --detach %t.o -- %t.exe linger %t.pid | FileCheck %s --check-prefix=LINGER
// RUN: %python %S/Inputs/pid-gone.py %t.pid | FileCheck %s --check-prefix=GONE
// RUN: %if native-i386 %{ %cc32 %S/Inputs/follow-forks.c -o %t.32.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/follow-driver.py %t.fifo %tsrun -v --detach %t.o -- %t.32.exe outlive 1000 %t.fifo > %t.32.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefixes=CHECK,FOLLOWED < %t.32.out %}
// RUN: %if native-i386 %{ rm -f %t.pid && %tsrun --detach %t.o -- %t.32.exe linger %t.pid | FileCheck %s --check-prefix=LINGER %}
// RUN: %if native-i386 %{ %python %S/Inputs/pid-gone.py %t.pid | FileCheck %s --check-prefix=GONE %}
// CHECK: parent calls 1000
// CHECK-NEXT: child calls 2000
// CHECK-NEXT: calls 3000
// FOLLOWED: tsrun: pid [[#PARENT:]]: detached: every site runs in the process
// FOLLOWED: tsrun: pid [[#CHILD:]]: forked by detached pid [[#PARENT]], armed itself: followed without ptrace
// FOLLOWED: tsrun: pid [[#CHILD]] ({{.*}}) exited with status {{-1|0}}
// LINGER: calls 5000
// GONE: gone

long work(long);
__global long calls;

@@uft:*:a.out:work:entry {
  calls++;
  if (calls == 5000) exit();
}
@@END { printf("calls %ld\n", calls); }
