// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long width = sizeof(long);
// CHECK: [[#@LINE-1]]:23: warning: initializer of 'width' is 4 in ILP32 and 8 in LP64 processes; globals are initialized once, with the LP64 value
@@BEGIN { printf("%ld\n", width); }
