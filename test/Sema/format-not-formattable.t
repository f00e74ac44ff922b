// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct s { int a; };
int f(struct s *p);
@@uft:*:a.out:f:entry { printf("%d\n", *__arg1); }
// CHECK: [[#@LINE-1]]:40: error: an argument of type 'struct s' cannot be formatted
