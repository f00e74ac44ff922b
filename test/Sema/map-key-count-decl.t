// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long pairs[int, int];
__global long many[int, int, int, int, int, int, int, int, int];
// CHECK: [[#@LINE-1]]:60: error: an associative array takes at most 8 key types (9 given)
// CHECK-NOT: {{:[0-9]+:[0-9]+: error}}
@@BEGIN { pairs[1, 2] = 3; }
