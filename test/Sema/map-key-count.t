// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long hits[int];
@@BEGIN { hits[1, 2] = 3; }
// CHECK: [[#@LINE-1]]:11: error: associative array 'hits' takes 1 key, 2 given
