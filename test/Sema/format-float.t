// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%f\n", 1); }
// CHECK: [[#@LINE-1]]:19: error: floating-point conversion '%f' is not supported: scripts have no floating-point values
