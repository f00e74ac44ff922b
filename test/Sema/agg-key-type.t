// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct s { int a; };
int f(struct s *p);
@@uft:*:a.out:f:entry { @byrec[*__arg1] = count(); }
// CHECK: [[#@LINE-1]]:32: error: aggregation key of type 'struct s' is not supported; use an integer, a pointer, a String or stktrace()
