// RUN: %tscc -S %s -o - | FileCheck %s
//
// -S prints the x86-64 assembly of both streams, each clause function in
// its stream's text section, followed by the table sections.
@@BEGIN
{
  printf("hi\n");
}

// CHECK:      .section tscc_text_ilp32,"ax",@progbits
// CHECK:      tscc_clause0_action_ilp32:
// CHECK:      .section tscc_text_lp64,"ax",@progbits
// CHECK:      tscc_clause0_action_lp64:
// CHECK:      .section tscc_header,"a",@progbits
// CHECK:      .section tscc_clauses,"a",@progbits
// CHECK:      .section tscc_strtab,"a",@progbits
