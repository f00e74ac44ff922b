// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(int a, int b);
@@uft:*:a.out:f:entry { printf("%d\n", __arg3); }
// CHECK: [[#@LINE-1]]:40: error: '__arg3' does not exist: 'f' has 2 parameters
