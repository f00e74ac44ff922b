// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("100%"); }
// CHECK: [[#@LINE-1]]:22: error: incomplete format specifier
