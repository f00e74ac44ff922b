// One stack-keyed profile over a 32-bit process under qemu-i386 and a
// native 64-bit one: each program's call paths are counted exactly as often
// as it says it took them, and the two programs' stacks stay apart (their
// frames name different modules).
// REQUIRES: compiler, qemu-i386, m32
// RUN: %tscc %s -o %t.o
// RUN: %cc32 -O1 -fno-omit-frame-pointer %S/../Ptrace/Inputs/call-paths.c -o %t32
// RUN: %cc64 -O1 -fno-omit-frame-pointer %S/../Ptrace/Inputs/call-paths.c -o %t64
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32 4 1 3' --out %t.p32 \
// RUN:   -- %tsrun %t.o -f json -o %t.json --remote 127.0.0.1:{port0}=%t32 \
// RUN:      -c '%t64 2 5 1' > %t.p64
// RUN: %python %S/../Ptrace/Inputs/stack-paths.py --module %t.json > %t.paths
// RUN: sed 's/^/stack-keys-two-models.t.tmp32: /' %t.p32 > %t.want
// RUN: sed 's/^/stack-keys-two-models.t.tmp64: /' %t.p64 >> %t.want
// RUN: sort %t.want | diff - %t.paths

@@uft:*:a.out:leaf:entry { @paths[stktrace()] = count(); }
