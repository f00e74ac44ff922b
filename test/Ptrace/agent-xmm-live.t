// The program's xmm0-15 are intact after every hit, whatever the agent
// saves (a guard for saving vector registers only around clauses that may
// use them: TSCC_CLAUSE_GENERAL_REGS_ONLY, which codegen sets for every
// clause without floating-point values, compiling them with
// noimplicitfloat). sum8's arguments are xmm0-7 at the probe; check_high
// compares xmm8-15 with xmm0-7, all set by its caller. The clauses count,
// print (a record: the ring, the clock) and update a keyed aggregation.
// RUN: %cc64 -O1 %S/Inputs/xmm-live.c -o %t.exe
// RUN: %tscc %s -o %t.o
// No SSE in the clauses' code, copies of records included:
// RUN: llvm-objdump -d --section=tscc_text_lp64 %t.o > %t.dis
// RUN: FileCheck %s --check-prefix=CODE < %t.dis
// RUN: %tsrun %t.o -o %t.rec -- %t.exe 2000 > %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=RECORDS < %t.rec
// RUN: %tscc_obj_root/bin/tsrun --ptrace %t.o -o %t.rec2 -- %t.exe 50 | FileCheck %s --check-prefix=PTRACE
// RUN: FileCheck %s --check-prefix=RECORDS2 < %t.rec2
double sum8(double, double, double, double, double, double, double, double,
            long);
long check_high(long);

@@uft:*:a.out:sum8:entry { @c = count(); }
@@uft:*:a.out:check_high:entry {
  @h[__arg1 % 4] = count();
  printf("round %ld\n", __arg1);
}
@@END { print(@c); }

// CODE: tscc_clause0_action_lp64
// CODE-NOT: xmm
// CODE-NOT: ymm

// CHECK: sum ok
// CHECK-NEXT: high mismatches 0
// CHECK-NEXT: calls 2000

// RECORDS: round 0
// RECORDS: round 1999
// RECORDS: @c: 2000
// RECORDS: @h[0]: 500

// PTRACE: sum ok
// PTRACE-NEXT: high mismatches 0
// PTRACE-NEXT: calls 50
// RECORDS2: round 49
// RECORDS2: @c: 50
