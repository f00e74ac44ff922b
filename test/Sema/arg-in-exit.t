// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(int a);
@@uft:*:a.out:f:exit { printf("%d\n", __arg1); }
// CHECK: [[#@LINE-1]]:39: error: '__arg1' is not available in an exit probe: the arguments are gone when the function returns; save them in a '__thread' variable at entry
