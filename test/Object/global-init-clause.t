// RUN: %tscc %s -o %t.o
// RUN: llvm-objdump -s -j tscc_header -j tscc_clauses %t.o | FileCheck %s
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=SYM
//
// Globals with initial values and no @@BEGIN clause: the compiler appends a
// BEGIN clause (after the script's own, so no index moves) that stores them.
__global long n = 7;

@@END
{
  printf("%ld\n", n);
}

// Two clauses, two probes.
// CHECK:      Contents of section tscc_header:
// CHECK:      0020 02000000 02000000
// Clause 1: id 1, flags NO_PROCESS, probe 1.
// CHECK:      Contents of section tscc_clauses:
// CHECK:      0030 {{[0-9a-f]+}} {{[0-9a-f]+}} 01000000 04000000
// CHECK-NEXT: 0040 01000000 01000000

// SYM: T tscc_clause1_action_ilp32
// SYM: T tscc_clause1_action_lp64
