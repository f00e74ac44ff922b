// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct pair { long a, b; };
int f(struct pair p);
@@uft:*:a.out:f:entry { printf("%d\n", __arg1.a); }
// CHECK: [[#@LINE-1]]:40: error: '__arg1' has type 'struct pair', which is passed by value; only integer and pointer arguments can be read
