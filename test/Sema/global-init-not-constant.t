// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global int seed = 3;
__global int copy = seed;
// CHECK: [[#@LINE-1]]:21: error: initializer of a '__global' variable must be a constant expression
@@BEGIN { }
