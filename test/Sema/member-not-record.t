// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(int *p);
@@uft:*:a.out:f:entry { printf("%d\n", __arg1->x); }
// CHECK: [[#@LINE-1]]:46: error: member reference base type 'int' is not a structure or union
