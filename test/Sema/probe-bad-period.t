// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@interval:*:clock:0 { }
// CHECK: [[#@LINE-1]]:20: error: invalid interval period '0'; expected a positive number of milliseconds
