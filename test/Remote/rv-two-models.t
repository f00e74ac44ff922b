// Entry arguments and exit values of `long` and `long long` functions in a
// 32-bit (qemu-i386) and a 64-bit (gdbserver) process in one session:
// __rv is eax, edx:eax and rax respectively, and __arg1 comes from the
// stack or from rdi. JSON records say which process each line came from.
// REQUIRES: compiler, qemu-i386, gdbserver, m32
// RUN: %tscc %s -o %t.o
// RUN: %cc32 %S/Inputs/values.c -o %t32
// RUN: %cc64 %S/Inputs/values.c -o %t64
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32' --out %t.p32 \
// RUN:   --stub 'gdbserver 127.0.0.1:{port} %t64' --out %t.p64 \
// RUN:   -- %tsrun %t.o -f json -o %t.json --remote 127.0.0.1:{port0}=%t32 \
// RUN:      --remote 127.0.0.1:{port1}=%t64
// RUN: %python %S/Inputs/split_json.py %t.json ILP32 > %t.got32
// RUN: %python %S/Inputs/split_json.py %t.json LP64 > %t.got64
// RUN: grep -E '^VAL (foo|wide|rec)' %t.p32 | sort -u > %t.want32
// RUN: grep -E '^VAL (foo|wide|rec)' %t.p64 | sort -u > %t.want64
// RUN: diff %t.want32 %t.got32
// RUN: diff %t.want64 %t.got64

long foo(long);
long long wide(long long);
long rec(long);

@@uft:*:a.out:foo:entry { printf("VAL foo.arg %ld\n", __arg1); }
@@uft:*:a.out:foo:exit { printf("VAL foo.rv %ld\n", __rv); }
@@uft:*:a.out:wide:exit { printf("VAL wide.rv %lld\n", __rv); }
@@uft:*:a.out:rec:entry { printf("VAL rec.arg %ld\n", __arg1); }
@@uft:*:a.out:rec:exit { printf("VAL rec.rv %ld\n", __rv); }
