// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global void nothing;
// CHECK: [[#@LINE-1]]:15: error: variable 'nothing' cannot have type 'void'
@@BEGIN { }
