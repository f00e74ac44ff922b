// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct s { int a; };
int f(struct s *p);
@@uft:*:a.out:f:entry { printf("%d\n", __arg1.a); }
// CHECK: [[#@LINE-1]]:46: error: member reference type 'struct s *' is a pointer; did you mean to use '->'?
