// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
#define TWICE(x) ((x) * 2)
@@BEGIN { printf("%d\n", TWICE); }
// CHECK: [[#@LINE-1]]:26: error: 'TWICE' is a function-like macro; it cannot be used as a value
