// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(int *v);
@@uft:*:a.out:f:entry { printf("%d\n", __arg1[1, 2]); }
// CHECK: [[#@LINE-1]]:40: error: a C array subscript takes one index
