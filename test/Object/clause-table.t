// RUN: %tscc %s -o %t.o
// RUN: llvm-nm %t.o > %t.txt
// RUN: llvm-objdump -s -j tscc_clauses %t.o >> %t.txt
// RUN: FileCheck %s < %t.txt
//
// The clause table holds each function's offset in its stream's text
// section, read back from the symbol table after emission: plain integers,
// no relocations. A clause without a predicate has pred_offset 0xffffffff.
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

// llvm-nm sorts by name; these offsets are small, so the low byte is all.
// CHECK: 00000000000000[[A0_32:[0-9a-f][0-9a-f]]] T tscc_clause0_action_ilp32
// CHECK: 00000000000000[[A0_64:[0-9a-f][0-9a-f]]] T tscc_clause0_action_lp64
// CHECK: 00000000000000[[A1_32:[0-9a-f][0-9a-f]]] T tscc_clause1_action_ilp32
// CHECK: 00000000000000[[A1_64:[0-9a-f][0-9a-f]]] T tscc_clause1_action_lp64
// CHECK: 00000000000000[[P1_32:[0-9a-f][0-9a-f]]] T tscc_clause1_pred_ilp32
// CHECK: 00000000000000[[P1_64:[0-9a-f][0-9a-f]]] T tscc_clause1_pred_lp64

// Row 0: id 0, flags 0, probes [0, 1), then ILP32 {pred, action}, LP64 {...}.
// CHECK:      Contents of section tscc_clauses:
// CHECK-NEXT: 0000 00000000 00000000 00000000 01000000
// CHECK-NEXT: 0010 {{[0-9a-f]+}} {{[0-9a-f]+}} ffffffff 00000000
// CHECK-NEXT: 0020 [[A0_32]]000000 {{[0-9a-f]+}} ffffffff 00000000
// Row 1 starts at 0x38: id 1, flags HAS_PREDICATE, probes [1, 2).
// CHECK-NEXT: 0030 [[A0_64]]000000 {{[0-9a-f]+}} 01000000 01000000
// CHECK-NEXT: 0040 01000000 01000000 {{[0-9a-f]+}} {{[0-9a-f]+}}
// CHECK-NEXT: 0050 [[P1_32]]000000 {{[0-9a-f]+}} [[A1_32]]000000 {{[0-9a-f]+}}
// CHECK-NEXT: 0060 [[P1_64]]000000 {{[0-9a-f]+}} [[A1_64]]000000 {{[0-9a-f]+}}
