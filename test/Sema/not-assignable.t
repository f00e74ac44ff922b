// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { 1 = 2; }
// CHECK: [[#@LINE-1]]:11: error: expression is not assignable
