// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%y\n", 1); }
// CHECK: [[#@LINE-1]]:19: error: invalid conversion specifier 'y'
