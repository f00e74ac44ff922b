// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { if (__probe) exit(); }
// CHECK: [[#@LINE-1]]:15: error: a condition must have scalar type ('String' invalid)
