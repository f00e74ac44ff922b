// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct s { int a; };
int f(struct s *p);
@@uft:*:a.out:f:entry { printf("%d\n", __arg1->b); }
// CHECK: [[#@LINE-1]]:48: error: no member named 'b' in 'struct s'
