// RUN: %tscc %s -o %t.o
// RUN: %tsreport --describe %t.o | FileCheck %s
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=SYM
//
// Globals with initial values and no @@BEGIN clause: the compiler appends a
// BEGIN clause (after the script's own, so no index moves) that stores them.
__global long n = 7;

@@END
{
  printf("%ld\n", n);
}

// Two clauses, two probes; clause 1 runs without a process, for probe 1.
// CHECK:      clauses: 2
// CHECK-NEXT:   #0 line 9:1 probes 0..0 flags no-process
// CHECK:        #1 line {{[0-9]+}}:{{[0-9]+}} probes 1..1 flags no-process
// CHECK:      probes: 2
// CHECK-NEXT:   #0 clause 0 END pid * spec "@@END"
// CHECK-NEXT:   #1 clause 1 BEGIN pid *

// SYM: T tscc_clause1_action_ilp32
// SYM: T tscc_clause1_action_lp64
