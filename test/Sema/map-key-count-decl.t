// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long pairs[int, int];
// CHECK: [[#@LINE-1]]:26: error: an associative array takes exactly one key type (2 given)
@@BEGIN { }
