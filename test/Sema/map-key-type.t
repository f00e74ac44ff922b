// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct k { int a; };
__global long bykey[struct k];
// CHECK: [[#@LINE-1]]:21: error: type 'struct k' cannot be an associative array key; use an integer, a pointer or a String
@@BEGIN { }
