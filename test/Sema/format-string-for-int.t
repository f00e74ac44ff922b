// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%d\n", __probe); }
// CHECK: [[#@LINE-1]]:19: error: format specifies type 'int' but the argument is a String
