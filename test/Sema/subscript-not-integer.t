// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(int *v);
@@uft:*:a.out:f:entry { printf("%d\n", __arg1[__probe]); }
// CHECK: [[#@LINE-1]]:47: error: array subscript is not an integer
