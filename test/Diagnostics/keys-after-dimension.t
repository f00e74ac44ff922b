// Key types follow the variable name directly.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

long m[4][String];
// CHECK: [[#@LINE-1]]:10: error: associative array key types must follow the variable name
