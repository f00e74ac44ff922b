// One session, one probe object, three processes at once: a -m32 build and
// a -m64 build traced natively, and a -m32 build under qemu-i386 reached
// over the GDB remote protocol. Each prints its own sizes, offsets,
// arguments and return values (models.c), and the script prints the same
// lines from its probes in the data model of the process each fired in.
// tsrun's status is the first launched command's (3).
// REQUIRES: native-i386, qemu-i386
// RUN: %tscc %S/../Ptrace/Inputs/models.t -o %t.o
// RUN: %cc32 %S/../Ptrace/Inputs/models.c -o %t32
// RUN: %cc64 %S/../Ptrace/Inputs/models.c -o %t64
// RUN: %cc32 %S/../Ptrace/Inputs/models.c -o %t32q
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32q 2' --out %t.progq \
// RUN:   -- %tsrun %t.o -v -c '%t32 2' -c '%t64 2' \
// RUN:      --remote 127.0.0.1:{port0}=%t32q > %t.out 2> %t.err; test $? = 3
// RUN: cat %t.out %t.progq | %python %S/../Ptrace/Inputs/check-pairs.py PROG "PROG [0-9]+ done" | FileCheck %s --check-prefix=PAIRS
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
//
// Three processes, 13 pairs each.
// PAIRS: pairs: 39
// CHECK-DAG: PROG {{[0-9]+}} model sizeof long 4 ptr 4 rec 28 off ll 8 p 16 s 20 name 24
// CHECK-DAG: PROG {{[0-9]+}} model sizeof long 8 ptr 8 rec 48 off ll 16 p 24 s 32 name 40
// ERR-DAG: ({{.*}}tmp32, ILP32, ptrace): launched
// ERR-DAG: ({{.*}}tmp64, LP64, ptrace): launched
// ERR-DAG: ({{.*}}tmp32q, ILP32, gdb-remote)
