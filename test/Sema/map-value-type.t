// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct v { int a; };
__global struct v vals[int];
// CHECK: [[#@LINE-1]]:10: error: type 'struct v' cannot be an associative array value; use an integer, a pointer or a String
@@BEGIN { }
