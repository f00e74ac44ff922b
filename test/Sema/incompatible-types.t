// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { long n; n = __probe; }
// CHECK: [[#@LINE-1]]:23: error: assigning to 'long' from incompatible type 'String'
