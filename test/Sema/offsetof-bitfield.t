// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct flags { unsigned ready : 1; unsigned busy : 1; };
@@BEGIN { printf("%lu\n", offsetof(struct flags, busy)); }
// CHECK: [[#@LINE-1]]:50: error: cannot compute offset of bit-field 'busy'
