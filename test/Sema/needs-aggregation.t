// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long n;
@@END { print(n); }
// CHECK: [[#@LINE-1]]:15: error: the first argument of 'print' must be an aggregation ('@name')
