// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long total;
__global int total;
// CHECK: [[#@LINE-1]]:14: error: redefinition of 'total'
// CHECK: [[#@LINE-3]]:15: note: previous definition is here
@@BEGIN {
  int n;
  long n;
// CHECK: [[#@LINE-1]]:8: error: redefinition of 'n'
// CHECK: [[#@LINE-3]]:7: note: previous definition is here
}
