// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { __thread int n; }
// CHECK: [[#@LINE-1]]:11: error: '__thread' variables must be declared at the top level of the script
