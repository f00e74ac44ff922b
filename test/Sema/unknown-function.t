// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { strtol("x"); }
// CHECK: [[#@LINE-1]]:11: error: use of undeclared function 'strtol'; scripts can only call built-in functions
