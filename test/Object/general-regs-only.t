// RUN: %tscc %s -o %t.o
// RUN: llvm-objcopy --dump-section=tscc_clauses=%t.clauses %t.o %t.copy
// RUN: od -A n -t x4 -w56 -v %t.clauses | FileCheck %s
// RUN: llvm-objdump -d --section=tscc_text_lp64 %t.o | FileCheck %s --check-prefix=CODE
//
// A clause whose code has no floating-point or vector value is marked
// TSCC_CLAUSE_GENERAL_REGS_ONLY (bit 15 of its flags: the in-process
// agent then saves no xmm register around it) and compiled with
// noimplicitfloat, so that not even a record's copy uses SSE. The table
// is struct tscc_clause[] (56 bytes each): id, then flags.
long hit(long, long);
__thread long t;

@@uft:*:a.out:hit:entry { @c = count(); }

@@uft:*:a.out:hit:entry
when (__arg1 > 2)
{
  t = __arg2;
  printf("%ld %ld %ld %ld %ld %ld %ld %ld %s\n", __arg1, __arg2, __arg1,
         __arg2, __arg1, __arg2, t, t, "a string of more than 16 bytes");
}

@@END { print(@c); }

// CHECK: {{^ *}}00000000 {{[0-9a-f][0-9a-f][0-9a-f][0-9a-f][89a-f][0-9a-f][0-9a-f][0-9a-f]}}
// CHECK-NEXT: {{^ *}}00000001 {{[0-9a-f][0-9a-f][0-9a-f][0-9a-f][89a-f][0-9a-f][0-9a-f][0-9a-f]}}
// CHECK-NEXT: {{^ *}}00000002 {{[0-9a-f][0-9a-f][0-9a-f][0-9a-f][89a-f][0-9a-f][0-9a-f][0-9a-f]}}

// CODE: tscc_clause0_action_lp64
// CODE-NOT: {{xmm|ymm}}
