// RUN: %tscc %s -o %t.o
// RUN: llvm-nm %t.o > %t.txt
// RUN: %tsreport --describe %t.o >> %t.txt
// RUN: FileCheck %s < %t.txt
//
// The clause table holds each function's offset in its stream's text
// section, read back from the symbol table after emission: plain integers,
// no relocations. A clause without a predicate has none (pred_offset
// TSCC_NO_CODE). tsreport --describe prints the table as the runtime's
// loader validated it.
int handle(int id);

@@uft:*:a.out:handle:entry
{
  printf("%d\n", __arg1);
}

@@uft:*:a.out:handle:exit
when (__rv > 0)
{
  printf("rv %d\n", __rv);
}

// llvm-nm sorts by name and pads with zeros, which --describe does not.
// CHECK: {{0*}}[[A0_32:[0-9a-f]+]] T tscc_clause0_action_ilp32
// CHECK: {{0*}}[[A0_64:[0-9a-f]+]] T tscc_clause0_action_lp64
// CHECK: {{0*}}[[A1_32:[0-9a-f]+]] T tscc_clause1_action_ilp32
// CHECK: {{0*}}[[A1_64:[0-9a-f]+]] T tscc_clause1_action_lp64
// CHECK: {{0*}}[[P1_32:[0-9a-f]+]] T tscc_clause1_pred_ilp32
// CHECK: {{0*}}[[P1_64:[0-9a-f]+]] T tscc_clause1_pred_lp64

// Clause 0: no flags, probe 0, no predicate in either stream.
// CHECK:      clauses: 2
// CHECK-NEXT:   #0 line 13:1 probes 0..0 flags -
// CHECK-NEXT:       ILP32 predicate none, action {{[1-9][0-9]*}} bytes at 0x[[A0_32]]
// CHECK-NEXT:       LP64  predicate none, action {{[1-9][0-9]*}} bytes at 0x[[A0_64]]
// CHECK-NEXT:       i386  predicate none, action {{[1-9][0-9]*}} bytes at 0x{{[0-9a-f]+}}
// Clause 1: a predicate, probe 1.
// CHECK-NEXT:   #1 line 18:1 probes 1..1 flags predicate
// CHECK-NEXT:       ILP32 predicate {{[1-9][0-9]*}} bytes at 0x[[P1_32]], action {{[1-9][0-9]*}} bytes at 0x[[A1_32]]
// CHECK-NEXT:       LP64  predicate {{[1-9][0-9]*}} bytes at 0x[[P1_64]], action {{[1-9][0-9]*}} bytes at 0x[[A1_64]]
// CHECK-NEXT:       i386  predicate {{[1-9][0-9]*}} bytes at 0x{{[0-9a-f]+}}, action {{[1-9][0-9]*}} bytes at 0x{{[0-9a-f]+}}
// The ILP32 clauses again as i386 code, for 32-bit processes (ABI 1.6):
// CHECK-NEXT: stream: i386 ILP32, an ELF relocatable of {{[1-9][0-9]*}} bytes
