// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { long m[int]; }
// CHECK: [[#@LINE-1]]:16: error: associative arrays must be declared at the top level of the script
