// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
void f(int a);
@@uft:*:a.out:f:exit { printf("%d\n", __rv); }
// CHECK: [[#@LINE-1]]:39: error: '__rv' is not available: 'f' returns void
