// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global int n = 4;
__global char buf[n];
// CHECK: [[#@LINE-1]]:19: error: array size is not an integer constant expression
@@BEGIN { }
