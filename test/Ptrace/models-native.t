// Entry and exit probes, FUNC+OFFSET, within(), BEGIN and END on a 32-bit
// and a 64-bit build of one program, each traced natively: every line the
// script prints about a call equals the line the program printed about it,
// in the program's own data model (sizes, offsets, cdecl arguments on the
// stack, a long long returned in edx:eax, struct fields through pointers).
// The program's status (3) is tsrun's.
// REQUIRES: native-i386
// RUN: %tscc %S/Inputs/models.t -o %t.o
// RUN: %cc32 %S/Inputs/models.c -o %t32
// RUN: %cc64 %S/Inputs/models.c -o %t64
// RUN: %tsrun %t.o -- %t32 2 > %t.out32; test $? = 3
// RUN: %python %S/Inputs/check-pairs.py PROG "PROG [0-9]+ done" < %t.out32 | FileCheck %s
// RUN: FileCheck %s --check-prefix=ILP32 < %t.out32
// RUN: %tsrun %t.o -c '%t64 2' > %t.out64; test $? = 3
// RUN: %python %S/Inputs/check-pairs.py PROG "PROG [0-9]+ done" < %t.out64 | FileCheck %s
// RUN: FileCheck %s --check-prefix=LP64 < %t.out64
//
// CHECK: pairs: 13
// ILP32: BEGIN
// ILP32: PROG {{[0-9]+}} model sizeof long 4 ptr 4 rec 28 off ll 8 p 16 s 20 name 24
// ILP32: END
// LP64: BEGIN
// LP64: PROG {{[0-9]+}} model sizeof long 8 ptr 8 rec 48 off ll 16 p 24 s 32 name 40
// LP64: END
