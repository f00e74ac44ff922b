// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct s { int a; };
int f(struct s *p);
@@uft:*:a.out:f:entry { trace(1, *__arg1); }
// CHECK: [[#@LINE-1]]:34: error: an argument of type 'struct s' cannot be traced
