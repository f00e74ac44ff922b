// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(int n);
@@uft:*:a.out:f:entry { printf("%d\n", __arg1[2]); }
// CHECK: [[#@LINE-1]]:40: error: subscripted value of type 'int' is not an array, a pointer or an associative array
