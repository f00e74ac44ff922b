// Every execve() is seen, entry and exit, as strace sees it: the launched
// command's own (made by tsrun's child before the program exists), and the
// exit of a successful execve (returning 0 in the new image), not only of
// failed ones.
// REQUIRES: strace
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- bash -c '/bin/true; /nonexistent; /bin/true' > %t.out 2>/dev/null || true
// RUN: strace -f -qq -e trace=execve -o %t.strace bash -c '/bin/true; /nonexistent; /bin/true' 2>/dev/null || true
// RUN: grep -c 'execve(' %t.strace > %t.want.entries
// RUN: grep -c '^entry' %t.out > %t.got.entries
// RUN: diff %t.want.entries %t.got.entries
// RUN: grep -c ') = 0$' %t.strace > %t.want.ok
// RUN: grep -c '^exit rv 0$' %t.out > %t.got.ok
// RUN: diff %t.want.ok %t.got.ok
// RUN: FileCheck %s < %t.out
// CHECK: entry {{.*}}/bash
// CHECK-NEXT: exit rv 0
// CHECK: entry /bin/true
// CHECK-NEXT: exit rv 0
// CHECK: entry /nonexistent
// CHECK-NEXT: exit rv -2
// CHECK: entry /bin/true
// CHECK-NEXT: exit rv 0

@@syscall:*:execve:entry { printf("entry %s\n", get_userstring(__arg1)); }
@@syscall:*:execve:exit { printf("exit rv %ld\n", __rv); }
