// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%d %s\n", 1); }
// CHECK: [[#@LINE-1]]:22: error: format specifier '%s' has no matching argument
