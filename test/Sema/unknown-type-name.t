// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global no_such_t x;
// CHECK: [[#@LINE-1]]:10: error: unknown type name 'no_such_t'
@@BEGIN { }
