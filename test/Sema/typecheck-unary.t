// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%d\n", -__probe); }
// CHECK: [[#@LINE-1]]:26: error: invalid argument type 'String' to unary expression
