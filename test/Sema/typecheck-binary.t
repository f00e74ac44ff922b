// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct s { int a; };
int f(struct s *p, struct s *q);
@@uft:*:a.out:f:entry { printf("%d\n", (int)(__arg1 * __arg2)); }
// CHECK: [[#@LINE-1]]:53: error: invalid operands to binary expression ('struct s *' and 'struct s *')
