// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { strlen("x"); }
// CHECK: [[#@LINE-1]]:11: error: use of undeclared function 'strlen'; scripts can only call built-in functions
