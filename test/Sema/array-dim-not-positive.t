// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global char buf[-2];
// CHECK: [[#@LINE-1]]:19: error: array size must be positive (is -2)
@@BEGIN { }
