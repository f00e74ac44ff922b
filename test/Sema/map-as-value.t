// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long hits[int];
@@BEGIN { printf("%ld\n", hits); }
// CHECK: [[#@LINE-1]]:27: error: associative array 'hits' can only be used with a key: 'hits[key]'
