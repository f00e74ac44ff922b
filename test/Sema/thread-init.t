// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__thread long t0 = 5;
// CHECK: [[#@LINE-1]]:20: error: a '__thread' variable cannot have an initializer: each thread's copy starts unwritten and reads as 0
@@BEGIN { }
