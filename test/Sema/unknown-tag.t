// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%d\n", (int)sizeof(struct nosuch)); }
// CHECK: [[#@LINE-1]]:45: error: use of undeclared 'struct nosuch'
