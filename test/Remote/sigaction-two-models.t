// The patent's example: one compiled probe on libc's sigaction() reads the
// handler, flags and sa_mask through `struct sigaction *` in a 32-bit
// process (qemu-i386) and a 64-bit process (gdbserver) in one session. The
// struct has a different layout in each; both must print what the program
// itself printed.
// REQUIRES: compiler, qemu-i386, gdbserver, m32
// RUN: %tscc %s -o %t.o
// RUN: %cc32 %S/Inputs/sigact.c -o %t32
// RUN: %cc64 %S/Inputs/sigact.c -o %t64
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32' --out %t.p32 \
// RUN:   --stub 'gdbserver 127.0.0.1:{port} %t64' --out %t.p64 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t32 \
// RUN:      --remote 127.0.0.1:{port1}=%t64 > %t.trace 2> %t.err
// RUN: cat %t.p32 %t.p64 | grep '^VAL' | sort > %t.want
// RUN: grep '^VAL' %t.trace | sort > %t.got
// RUN: diff %t.want %t.got
// RUN: FileCheck %s < %t.trace

#include <signal.h>
int sigaction(int, const struct sigaction *, struct sigaction *);

@@uft:*:libc.so.6:sigaction:entry
when (__arg2 != 0)
{
  printf("VAL %d-bit sig %d handler %lu flags %d mask %lu size %lu\n",
         __datamodel, __arg1, (unsigned long)__arg2->sa_handler,
         __arg2->sa_flags, __arg2->sa_mask.__val[0],
         (unsigned long)sizeof(struct sigaction));
}

// CHECK-DAG: VAL 32-bit sig 10 handler {{[0-9]+}} flags 268435456 mask 18432 size 140
// CHECK-DAG: VAL 64-bit sig 10 handler {{[0-9]+}} flags 268435456 mask 18432 size 152
