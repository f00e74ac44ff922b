// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long hits[int];
__global long pairs[String, int];
@@BEGIN { hits[1, 2] = 3; pairs["a"] = 1; pairs["a", 1, 2] = 1; }
// CHECK: [[#@LINE-1]]:11: error: associative array 'hits' takes 1 key, 2 given
// CHECK: [[#@LINE-2]]:27: error: associative array 'pairs' takes 2 keys, 1 given
// CHECK: [[#@LINE-3]]:43: error: associative array 'pairs' takes 2 keys, 3 given
