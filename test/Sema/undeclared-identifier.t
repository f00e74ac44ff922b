// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%d\n", nosuch); }
// CHECK: [[#@LINE-1]]:26: error: use of undeclared identifier 'nosuch'
