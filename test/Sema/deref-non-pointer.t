// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { int x; x = 1; printf("%d\n", *x); }
// CHECK: [[#@LINE-1]]:40: error: indirection requires pointer operand ('int' invalid)
