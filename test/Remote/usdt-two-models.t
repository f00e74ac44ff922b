// USDT probes of a 32-bit (qemu-i386) and a 64-bit (gdbserver, then
// native) program in one session: i386 notes give arguments as
// `4@8(%ebp)`, `-4@48(%esp)`, `-4@%esi`, `-4@glob@GOTOFF(%ebx)` and
// `8@%eax` (a 64-bit value in edx:eax), x86-64 ones as registers,
// `-8@-16(%rbp)` and `-8@glob(%rip)`. Every argument is
// what the program printed, and the semaphores are set in both.
// REQUIRES: compiler, qemu-i386, gdbserver, m32
// RUN: %tscc %S/../Ptrace/usdt.t -o %t.o
// RUN: %cc32 -I/usr/include/x86_64-linux-gnu %S/../Ptrace/Inputs/usdt.c -o %t32
// RUN: %cc32 -O2 -I/usr/include/x86_64-linux-gnu %S/../Ptrace/Inputs/usdt.c -o %t32.O2
// RUN: %cc64 -O2 %S/../Ptrace/Inputs/usdt.c -o %t64
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32' --out %t.p32 \
// RUN:   --stub 'gdbserver 127.0.0.1:{port} %t64' --out %t.p64 \
// RUN:   -- %tsrun %t.o -f json -o %t.json --remote 127.0.0.1:{port0}=%t32 \
// RUN:      --remote 127.0.0.1:{port1}=%t64
// RUN: %python %S/Inputs/split_json.py %t.json ILP32 > %t.got32
// RUN: %python %S/Inputs/split_json.py %t.json LP64 > %t.got64
// RUN: grep '^VAL' %t.p32 | sort -u > %t.want32
// RUN: grep '^VAL' %t.p64 | sort -u > %t.want64
// RUN: diff %t.want32 %t.got32
// RUN: diff %t.want64 %t.got64
// RUN: FileCheck %s < %t.got32
// The -O2 builds, with the 64-bit one launched natively (ptrace) in the
// same session as the 32-bit one under qemu:
// RUN: %cc64 %S/../Ptrace/Inputs/usdt.c -o %t64.O0
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32.O2' --out %t.p32.O2 \
// RUN:   -- %tsrun %t.o -f json -o %t.mixed.json -c %t64.O0 \
// RUN:      --remote 127.0.0.1:{port0}=%t32.O2 > %t.p64.O0
// RUN: %python %S/Inputs/split_json.py %t.mixed.json ILP32 > %t.got32.O2
// RUN: %python %S/Inputs/split_json.py %t.mixed.json LP64 > %t.got64.O0
// RUN: grep '^VAL' %t.p32.O2 | sort -u | diff - %t.got32.O2
// RUN: grep '^VAL' %t.p64.O0 | sort -u | diff - %t.got64.O0
// RUN: FileCheck %s < %t.got32.O2
// RUN: FileCheck %s < %t.got64.O0
// Without a frame pointer, i386 arguments are `-4@48(%esp)`:
// RUN: %cc32 -fomit-frame-pointer -I/usr/include/x86_64-linux-gnu %S/../Ptrace/Inputs/usdt.c -o %t32.esp
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32.esp' --out %t.p32.esp \
// RUN:   -- %tsrun %t.o -o %t.got32.esp --remote 127.0.0.1:{port0}=%t32.esp
// RUN: grep '^VAL' %t.p32.esp | diff - %t.got32.esp
// RUN: FileCheck %s < %t.got32.esp
// CHECK-DAG: VAL guarded 200
// CHECK-DAG: VAL tick 2 -3 -3000000003
// CHECK-DAG: VAL wide 18446744073709551602 200
