// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long n;
@@END { delete(n); }
// CHECK: [[#@LINE-1]]:16: error: the argument of 'delete' must be an associative array element: 'delete(arr[key])'
